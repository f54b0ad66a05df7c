import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { type FakeProvider, providerEnv, startFakeProvider } from '../oauth-provider.test-support.js';

let provider: FakeProvider;
let gateway: TestGateway;

beforeAll(async () => {
  provider = await startFakeProvider();
  gateway = await startTestGateway({ plugins: [examplePlugin], env: providerEnv(provider) });
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
});
afterAll(async () => {
  await gateway?.close();
  await provider?.close();
});
beforeEach(() => {
  Object.assign(provider.behaviour, { deny: false, down: false, refreshDelayMs: 0, holdRefresh: false, accessTtlSeconds: 3600 });
});

/** Starts a connection as an admin would, then plays the browser: provider's authorize page, back to the callback. */
async function connectViaBrowser(): Promise<{ status: number; page: string; authorize: URL }> {
  const start = await fetch(`${gateway.url}/api/connect/example`, {
    headers: { authorization: `Bearer ${gateway.key}` },
    redirect: 'manual',
  });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location') as string);
  const atProvider = await fetch(authorize, { redirect: 'manual' });
  const callback = atProvider.headers.get('location') as string;
  const back = await fetch(callback);
  return { status: back.status, page: await back.text(), authorize };
}

const audit = async () => {
  await gateway.runtime.engine.flushAudit();
  return gateway.runtime.store.listAudit(DEFAULT_WORKSPACE, 5);
};

describe('OAuth connect flow against a fake provider', () => {
  it('sends state and a PKCE challenge, exchanges the code with the verifier, stores tokens and facts encrypted', async () => {
    const { status, page, authorize } = await connectViaBrowser();
    expect(status).toBe(200);
    expect(page).toContain('Example is connected');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('scope')).toBe('items:read items:write');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${gateway.url}/api/connect/example/callback`);
    const connection = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'example');
    expect(connection).toMatchObject({ kind: 'oauth2', status: 'active', meta: { account: 'Acme Legal', region: 'eu' } });
    expect(connection?.secret).toMatch(/^enc1:/);
    expect(connection?.secret).not.toContain(provider.issuedRefreshTokens.at(-1) as string);
    expect(Date.parse(connection?.expiresAt as string)).toBeGreaterThan(Date.now() + 3_000_000);
    const call = await gateway.rest('GET', '/api/v1/example/items');
    expect(call.status).toBe(200);
    expect((await audit()).find((r) => r.operation === 'oauth_connect')).toMatchObject({ status: 200, keyId: expect.any(String) });
  });

  it('answers a replayed state, an unknown state and a missing state with a clear page', async () => {
    const start = await fetch(`${gateway.url}/api/connect/example`, {
      headers: { authorization: `Bearer ${gateway.key}` },
      redirect: 'manual',
    });
    const atProvider = await fetch(start.headers.get('location') as string, { redirect: 'manual' });
    const callback = atProvider.headers.get('location') as string;
    expect((await fetch(callback)).status).toBe(200);
    const replay = await fetch(callback);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('unknown or was already used');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value');
    expect((await fetch(forged)).status).toBe(400);
    const none = await fetch(`${gateway.url}/api/connect/example/callback?code=x`);
    expect(none.status).toBe(400);
    expect(await none.text()).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('ends on a clear page when consent is denied, and audits it', async () => {
    provider.behaviour.deny = true;
    const { status, page } = await connectViaBrowser();
    expect(status).toBe(400);
    expect(page).toContain('consent was denied');
    expect((await audit())[0]).toMatchObject({ operation: 'oauth_connect', status: 400, code: 'bad_request' });
  });

  it('ends on a clear page when the token endpoint is down', async () => {
    provider.behaviour.down = true;
    const { status, page } = await connectViaBrowser();
    expect(status).toBe(502);
    expect(page).toContain('Not connected');
    expect((await audit())[0]).toMatchObject({ operation: 'oauth_connect', status: 502 });
  });

  it('refuses an expired state', async () => {
    const { createHash } = await import('node:crypto');
    const now = Date.now();
    const exchangesBefore = provider.codeRequests;
    await gateway.runtime.store.createOAuthState({
      stateHash: createHash('sha256').update('aged-state').digest('hex'),
      workspaceId: DEFAULT_WORKSPACE,
      service: 'example',
      keyId: null,
      verifier: null,
      redirectUri: `${gateway.url}/api/connect/example/callback`,
      createdAt: new Date(now - 11 * 60_000).toISOString(),
      expiresAt: new Date(now - 60_000).toISOString(),
      usedAt: null,
    });
    const res = await fetch(`${gateway.url}/api/connect/example/callback?state=aged-state&code=abc`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('expired');
    expect(provider.codeRequests).toBe(exchangesBefore); // refused before any code exchange
  });

  it('needs an admin key to start, and OAuth configured for the service', async () => {
    const user = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'u',
      scopes: { admin: false, services: '*', readOnly: false },
    });
    expect(
      (await fetch(`${gateway.url}/api/connect/example`, { headers: { authorization: `Bearer ${user.key}` }, redirect: 'manual' })).status,
    ).toBe(403);
    expect((await fetch(`${gateway.url}/api/connect/example`, { redirect: 'manual' })).status).toBe(401);
    const viaAdmin = await gateway.rest('POST', '/api/admin/connections/example/authorize');
    expect(viaAdmin.status).toBe(200);
    expect((viaAdmin.body as { authorize_url: string }).authorize_url).toContain(`${provider.url}/oauth/authorize?`);
  });

  it('revokes the token at the provider on disconnect', async () => {
    await connectViaBrowser();
    const refreshToken = provider.issuedRefreshTokens.at(-1);
    const res = await gateway.rest('DELETE', '/api/admin/connections/example');
    expect(res.body).toMatchObject({ deleted: true, revoked: true });
    expect(provider.revoked).toContain(refreshToken);
    expect((await gateway.rest('GET', '/api/v1/example/items')).status).toBe(424);
  });
});

describe('token refresh in one process', () => {
  it('refreshes an access token that expires within 5 minutes, once for many concurrent calls, storing the rotated token', async () => {
    const pair = provider.issue(60); // expires in a minute: inside the refresh margin
    await gateway.runtime.engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    provider.behaviour.refreshDelayMs = 200;
    const before = provider.refreshRequests.length;
    const results = await Promise.all(Array.from({ length: 25 }, () => gateway.rest('GET', '/api/v1/example/items')));
    expect(results.map((r) => r.status)).toEqual(Array(25).fill(200));
    expect(provider.refreshRequests.length - before).toBe(1);
    const stored = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'example');
    expect(Date.parse(stored?.expiresAt as string)).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it('marks the connection for re-authorization when the refresh token is refused', async () => {
    await gateway.runtime.engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', {
      accessToken: 'at_unknown',
      refreshToken: 'rt_never_issued',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const res = await gateway.rest('GET', '/api/v1/example/items');
    expect(res.status).toBe(424);
    expect((res.body as { code: string }).code).toBe('not_connected');
    const admin = await gateway.rest('GET', '/api/admin/connections');
    expect((admin.body as { connections: Array<{ service: string; status: string }> }).connections).toContainEqual(
      expect.objectContaining({ service: 'example', status: 'needs_reconnect' }),
    );
    expect((await gateway.rest('GET', '/api/v1/example/items')).status).toBe(424); // no second attempt upstream
  });

  it('leaves tokens that never expire alone', async () => {
    const pair = provider.issue(3600);
    await gateway.runtime.engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', { accessToken: pair.accessToken });
    const before = provider.refreshRequests.length;
    expect((await gateway.rest('GET', '/api/v1/example/items')).status).toBe(200);
    expect(provider.refreshRequests.length).toBe(before);
  });
});
