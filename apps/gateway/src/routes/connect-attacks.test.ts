import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { type ConnectionRecord, DEFAULT_WORKSPACE, type Logger, type Plugin } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/load.js';
import { type FakeProvider, providerEnv, startFakeProvider } from '../oauth-provider.test-support.js';
import { type RunningGateway, startGateway } from '../server/start.js';

/**
 * The OAuth connect flow under attack, over the real gateway and a fake provider on loopback: forged, replayed and
 * expired states, a state or a code carried to another workspace or service, attempts to point a redirect elsewhere,
 * and a provider whose token endpoint misbehaves. Each must end on a clear page, store nothing (an existing connection
 * stays as it was), be audited, and put no secret in the page or the logs.
 */

/** How long a started authorization may take (`OAUTH_STATE_TTL_MS` in packages/core/src/connections/oauth-flow.ts). */
const STATE_TTL_MS = 10 * 60_000;
const EVIL = 'https://evil.example';

/**
 * A second OAuth integration, to carry a state from one service's flow to another's callback. Its facts reader fails
 * on a token answer it does not expect, as a plugin's parser might.
 */
const exampleOAuth = examplePlugin.auth.oauth2 as NonNullable<Plugin['auth']['oauth2']>;
const otherPlugin: Plugin = {
  ...examplePlugin,
  service: 'other',
  displayName: 'Other',
  auth: {
    ...examplePlugin.auth,
    oauth2: {
      ...exampleOAuth,
      connectionFacts: (callback, body) => {
        if ((body as { surprise?: boolean }).surprise) throw new TypeError('cannot read the team of this answer');
        return exampleOAuth.connectionFacts?.(callback, body) ?? {};
      },
    },
  },
};

let provider: FakeProvider;
let gateway: RunningGateway;
let adminKey: string;
const logs: string[] = [];
const capture = (level: string) => (obj: object, msg?: string) => {
  logs.push(`${level} ${msg ?? ''} ${inspect(obj, { depth: 8 })}`);
};
const logger: Logger = { debug: capture('debug'), info: capture('info'), warn: capture('warn'), error: capture('error') };

beforeAll(async () => {
  provider = await startFakeProvider();
  const env = providerEnv(provider);
  const config = loadConfig({
    PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-oauth-attacks-')),
    PORTICO_PORT: '0',
    PORTICO_UPSTREAM_RETRIES: '0',
    ...env,
    PORTICO_OTHER_BASE_URL: provider.url,
    PORTICO_OTHER_CLIENT_ID: provider.clientId,
    PORTICO_OTHER_CLIENT_SECRET: provider.clientSecret,
    PORTICO_OTHER_OAUTH_AUTHORIZE_URL: env.PORTICO_EXAMPLE_OAUTH_AUTHORIZE_URL as string,
    PORTICO_OTHER_OAUTH_TOKEN_URL: env.PORTICO_EXAMPLE_OAUTH_TOKEN_URL as string,
  });
  gateway = await startGateway({ config, logger, plugins: [examplePlugin, otherPlugin] });
  adminKey = gateway.createdKey?.key as string;
  // An existing connection that no failed attempt may touch.
  const { status } = await connect();
  expect(status).toBe(200);
});
afterAll(async () => {
  await gateway?.close();
  await provider?.close();
});
beforeEach(() => {
  provider.behaviour.tokenAnswer = undefined;
  provider.behaviour.deny = false;
});
afterEach(() => {
  vi.useRealTimers();
});

const callbackUrl = (service = 'example') => `${gateway.url}/api/connect/${service}/callback`;

/** The admin starts a connection: the authorize URL the gateway redirects to. */
async function start(query = '', headers: Record<string, string> = {}, service = 'example'): Promise<URL> {
  const res = await fetch(`${gateway.url}/api/connect/${service}${query}`, {
    headers: { authorization: `Bearer ${adminKey}`, ...headers },
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') as string);
}

/** The user consents at the provider: the callback URL it sends the browser back to (code and state). */
async function consent(authorize: URL | string): Promise<URL> {
  const res = await fetch(authorize, { redirect: 'manual' });
  return new URL(res.headers.get('location') as string);
}

async function connect(): Promise<{ status: number; page: string }> {
  const res = await fetch(await consent(await start()), { redirect: 'manual' });
  return { status: res.status, page: await res.text() };
}

/** The browser lands on the callback; the answer must be a page, never a redirect. */
async function land(url: URL | string): Promise<{ status: number; page: string; location: string | null }> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return { status: res.status, page: await res.text(), location: res.headers.get('location') };
}

function expectRefused(answer: { status: number; page: string; location: string | null }, status: number, says: string | RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.location).toBeNull();
  expect(answer.page).toContain('<h1>Not connected</h1>');
  expect(answer.page).toMatch(says);
  expect(answer.page).not.toMatch(/at .*\.(ts|js):\d+|Error:/);
}

const connection = (workspaceId = DEFAULT_WORKSPACE, service = 'example') => gateway.runtime.store.getConnection(workspaceId, service);

/** How many audit records a workspace has: a mark to read what an attempt added (records are ordered by insertion). */
async function auditMark(workspaceId = DEFAULT_WORKSPACE): Promise<number> {
  await gateway.runtime.engine.flushAudit();
  return (await gateway.runtime.store.listAudit(workspaceId, 100_000)).length;
}

/** The OAuth outcomes audited in a workspace since `mark`, oldest first. */
async function oauthAudit(workspaceId: string, mark: number) {
  await gateway.runtime.engine.flushAudit();
  const all = await gateway.runtime.store.listAudit(workspaceId, 100_000);
  return all
    .slice(0, all.length - mark)
    .reverse()
    .filter((r) => r.operation === 'oauth_connect');
}

/**
 * A second workspace. The data model has workspaces but no API creates one yet, so the row is written directly (the
 * store enforces its foreign keys: states, keys and connections need the workspace to exist).
 */
async function addWorkspace(id: string): Promise<void> {
  const { client } = gateway.runtime.store as unknown as {
    client: { execute(statement: { sql: string; args: string[] }): Promise<unknown> };
  };
  await client.execute({
    sql: 'INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
    args: [id, id, new Date().toISOString()],
  });
}

/** Runs `attack` and checks what must hold for any refused attempt: the stored connection is as it was, no exchange. */
async function unchanged(attack: () => Promise<void>, options: { exchanges?: number } = {}): Promise<void> {
  const before: ConnectionRecord | undefined = await connection();
  const exchanges = provider.codeRequests;
  await attack();
  expect(await connection()).toEqual(before);
  expect(provider.codeRequests - exchanges).toBe(options.exchanges ?? 0);
}

describe('a forged state', () => {
  it('refuses a state the gateway never issued, and a callback without one, before any code exchange, and audits them', async () => {
    const since = await auditMark();
    const { searchParams } = await consent(await start());
    const code = searchParams.get('code') as string;
    await unchanged(async () => {
      const forged = await land(`${callbackUrl()}?code=${code}&state=${'A'.repeat(43)}`);
      expectRefused(forged, 400, 'unknown or was already used');
      expectRefused(await land(`${callbackUrl()}?code=${code}`), 400, 'sent no state');
      expectRefused(await land(`${callbackUrl()}?code=${code}&state=`), 400, 'sent no state');
    });
    const audited = await oauthAudit(DEFAULT_WORKSPACE, since);
    expect(audited.map((r) => [r.status, r.code])).toEqual([
      [400, 'bad_request'],
      [400, 'bad_request'],
      [400, 'bad_request'],
    ]);
  });

  it('refuses a tampered state without burning the genuine one', async () => {
    const callback = await consent(await start());
    const state = callback.searchParams.get('state') as string;
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);
    await unchanged(async () => expectRefused(await land(tampered), 400, 'unknown or was already used'));
    expect((await land(callback)).status).toBe(200);
  });
});

describe('a replayed state', () => {
  it('refuses the same state and code once the callback succeeded, and the same state with a fresh code', async () => {
    const authorize = await start();
    const callback = await consent(authorize);
    expect((await land(callback)).status).toBe(200);
    const since = await auditMark();
    await unchanged(async () => {
      expectRefused(await land(callback), 400, 'unknown or was already used');
      // The provider happily issues another code for the same authorization request; the state is spent all the same.
      const fresh = await consent(authorize);
      expect(fresh.searchParams.get('code')).not.toBe(callback.searchParams.get('code'));
      expect(fresh.searchParams.get('state')).toBe(callback.searchParams.get('state'));
      expectRefused(await land(fresh), 400, 'unknown or was already used');
    });
    expect((await oauthAudit(DEFAULT_WORKSPACE, since)).map((r) => r.status)).toEqual([400, 400]);
  });

  it('lets exactly one of two simultaneous callbacks with the same state through', async () => {
    const callback = await consent(await start());
    const exchanges = provider.codeRequests;
    const answers = await Promise.all([land(callback), land(callback), land(callback)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    expect(provider.codeRequests - exchanges).toBe(1);
  });
});

describe('an expired state', () => {
  it(`completes within the TTL (${STATE_TTL_MS / 60_000} minutes) and is refused after it, before any code exchange`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.now();
    const started = await fetch(`${gateway.url}/api/admin/connections/example/authorize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}` },
    });
    const { authorize_url, expires_at } = (await started.json()) as { authorize_url: string; expires_at: string };
    expect(Date.parse(expires_at) - t0).toBe(STATE_TTL_MS);
    const late = await consent(authorize_url);
    const inTime = await consent((await start()).toString());

    vi.setSystemTime(t0 + STATE_TTL_MS - 1000);
    expect((await land(inTime)).status).toBe(200);

    vi.setSystemTime(t0 + STATE_TTL_MS + 1000);
    const since = await auditMark();
    await unchanged(async () => expectRefused(await land(late), 400, 'took too long and expired'));
    const [audited] = await oauthAudit(DEFAULT_WORKSPACE, since);
    expect(audited).toMatchObject({ status: 400, code: 'bad_request', keyId: expect.any(String) });
  });
});

describe('a state or a code carried elsewhere', () => {
  it('completes a state in the workspace that issued it, whatever the callback says, and audits it there with its key', async () => {
    const other = 'acme';
    await addWorkspace(other);
    const acmeKey = await gateway.runtime.engine.createApiKey({
      workspaceId: other,
      name: 'acme admin',
      scopes: { admin: true, services: '*', readOnly: false },
    });
    const since = await auditMark();
    const sinceOther = await auditMark(other);
    const { authorizeUrl } = await gateway.runtime.engine.beginOAuth(other, 'example', acmeKey.record.id);
    const callback = await consent(authorizeUrl);
    for (const name of ['workspace', 'workspace_id', 'workspaceId', 'key_id'])
      callback.searchParams.set(name, name === 'key_id' ? 'k' : DEFAULT_WORKSPACE);
    await unchanged(async () => expect((await land(callback)).status).toBe(200), { exchanges: 1 });
    expect(await connection(other)).toMatchObject({ kind: 'oauth2', status: 'active' });
    expect(await oauthAudit(DEFAULT_WORKSPACE, since)).toEqual([]);
    expect(await oauthAudit(other, sinceOther)).toEqual([expect.objectContaining({ status: 200, keyId: acmeKey.record.id })]);
  });

  it('refuses a code from one workspace’s authorization redeemed with another workspace’s state (PKCE)', async () => {
    await addWorkspace('mallory');
    const since = await auditMark('mallory');
    const victim = await consent(await start());
    const { authorizeUrl } = await gateway.runtime.engine.beginOAuth('mallory', 'example', null);
    const own = await consent(authorizeUrl);
    own.searchParams.set('code', victim.searchParams.get('code') as string);
    await unchanged(async () => expectRefused(await land(own), 400, 'refused the authorization code'), { exchanges: 1 });
    expect(await connection('mallory')).toBeUndefined();
    expect(await oauthAudit('mallory', since)).toEqual([expect.objectContaining({ status: 400, code: 'bad_request' })]);
  });

  it('refuses a state issued for one service on another service’s callback, audited in the workspace that issued it', async () => {
    const since = await auditMark();
    const callback = await consent(await start());
    await unchanged(async () => {
      expectRefused(await land(`${callbackUrl('other')}${callback.search}`), 400, 'unknown or was already used');
    });
    expect(await connection(DEFAULT_WORKSPACE, 'other')).toBeUndefined();
    // The state is single-use: carried to the wrong callback, it is spent, and the flow must be started again.
    expectRefused(await land(callback), 400, 'unknown or was already used');
    const audited = await oauthAudit(DEFAULT_WORKSPACE, since);
    const { keyId } = await gateway.runtime.engine.authenticate(adminKey);
    // The carried state is attributed to the key that started it; the spent one is as unknown as a forged one.
    expect(audited.map((r) => [r.service, r.status, r.keyId])).toEqual([
      ['other', 400, keyId],
      ['example', 400, null],
    ]);
  });
});

describe('a redirect to another origin', () => {
  const hostile = `?redirect_uri=${encodeURIComponent(`${EVIL}/cb`)}&return_to=${encodeURIComponent(EVIL)}&next=//evil.example&authorize_url=${encodeURIComponent(`${EVIL}/authorize`)}`;

  it('sends the browser only to the configured authorize URL, with the configured redirect_uri', async () => {
    const authorize = await start(hostile, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      forwarded: 'host=evil.example;proto=https',
    });
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${provider.url}/oauth/authorize`);
    expect(authorize.searchParams.getAll('redirect_uri')).toEqual([callbackUrl()]);
    expect(authorize.toString()).not.toContain('evil');
    const viaAdmin = await fetch(`${gateway.url}/api/admin/connections/example/authorize${hostile}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uri: `${EVIL}/cb`, return_to: EVIL }),
    });
    const url = new URL(((await viaAdmin.json()) as { authorize_url: string }).authorize_url);
    expect(url.searchParams.getAll('redirect_uri')).toEqual([callbackUrl()]);
    expect(url.origin).toBe(provider.url);
  });

  it('never redirects from the callback, and sends the configured redirect_uri to the token endpoint', async () => {
    const callback = await consent(await start());
    for (const [name, value] of new URLSearchParams(hostile)) callback.searchParams.append(name, value);
    const done = await land(callback);
    expect(done.status).toBe(200);
    expect(done.location).toBeNull();
    expect(done.page).not.toContain('evil');
    expect(provider.tokenRequests.at(-1)?.redirect_uri).toBe(callbackUrl());

    const failed = await land(`${callbackUrl()}${hostile}&state=nope&code=x`);
    expectRefused(failed, 400, 'unknown or was already used');
    expect(failed.page).not.toContain('evil');
  });

  it('does not follow a token endpoint that redirects elsewhere, so the code and credentials go nowhere else', async () => {
    const elsewhere: string[] = [];
    const decoy: Server = createServer((req, res) => {
      elsewhere.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"tok_decoy"}');
    });
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}/steal`;
      for (const status of [302, 307, 308]) {
        provider.behaviour.tokenAnswer = { status, body: '', headers: { location: target } };
        await unchanged(async () => expectRefused(await land(await consent(await start())), 502, 'Not connected'), { exchanges: 1 });
      }
      expect(elsewhere).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => decoy.close(() => resolve()));
    }
  });
});

describe('a token endpoint that misbehaves', () => {
  const html = (text: string) => ({ status: 200, body: `<html><body>${text}</body></html>`, headers: { 'content-type': 'text/html' } });
  const answers: Array<[string, { status: number; body: string; headers?: Record<string, string> }, number, RegExp]> = [
    ['an OAuth error', { status: 400, body: '{"error":"invalid_request","error_description":"bad request"}' }, 502, /invalid_request/],
    ['invalid_client', { status: 401, body: '{"error":"invalid_client"}' }, 502, /invalid_client/],
    ['invalid_grant', { status: 400, body: '{"error":"invalid_grant"}' }, 400, /refused the authorization code/],
    ['an HTML page with 200', html('Sign in again. client_secret=portico-test-secret tok_leak'), 502, /no access_token/],
    [
      'an HTML error page',
      { status: 500, body: '<html>Internal error at /srv/app.js:12 tok_leak</html>', headers: { 'content-type': 'text/html' } },
      502,
      /Not connected/,
    ],
    ['broken JSON', { status: 200, body: '{"access_token":"tok_leak",' }, 502, /no access_token|invalid JSON/],
    ['an empty body', { status: 200, body: '' }, 502, /no access_token/],
    ['JSON null', { status: 200, body: 'null' }, 502, /no access_token/],
    ['an array', { status: 200, body: '["tok_leak"]' }, 502, /no access_token/],
    ['a numeric token', { status: 200, body: '{"access_token":12345,"refresh_token":"tok_leak"}' }, 502, /no access_token/],
    ['an empty token', { status: 200, body: '{"access_token":"","refresh_token":"tok_leak"}' }, 502, /no access_token/],
    ['a token in a list', { status: 200, body: '{"access_token":["tok_leak"]}' }, 502, /no access_token/],
    ['a token under another name', { status: 200, body: '{"token":"tok_leak","expires_in":3600}' }, 502, /no access_token/],
    ['a token with a line break', { status: 200, body: '{"access_token":"tok_leak\\r\\nx-injected: 1"}' }, 502, /access token/],
    [
      'an error echoing secrets and markup',
      {
        status: 400,
        body: JSON.stringify({
          error: 'invalid_client',
          error_description: `client portico-test-client with secret portico-test-secret <script>alert(1)</script>${'x'.repeat(5000)}`,
        }),
      },
      502,
      /invalid_client/,
    ],
  ];

  it.each(answers)('answers %s with an error page, stores nothing and leaks nothing', async (_name, answer, status, says) => {
    provider.behaviour.tokenAnswer = answer;
    const since = await auditMark();
    const logged = logs.length;
    await unchanged(
      async () => {
        const callback = await consent(await start());
        const page = await land(callback);
        expectRefused(page, status, says);
        const sent = provider.tokenRequests.at(-1) ?? {};
        const secrets = [provider.clientSecret, 'tok_leak', callback.searchParams.get('code'), sent.code_verifier, 'alert(1)</script>'];
        for (const secret of secrets) {
          expect(secret).toBeTruthy();
          expect(page.page).not.toContain(secret);
          expect(logs.slice(logged).join('\n')).not.toContain(secret);
        }
        expect(page.page.length).toBeLessThan(2000);
      },
      { exchanges: 1 },
    );
    expect(await oauthAudit(DEFAULT_WORKSPACE, since)).toEqual([expect.objectContaining({ status })]);
  });

  it('stores a token whose lifetime is absurdly long as one that does not expire, instead of failing after the exchange', async () => {
    provider.behaviour.tokenAnswer = { status: 200, body: '{"access_token":"at_forever","expires_in":1e300}' };
    const { status, page } = await land(await consent(await start()));
    expect(page).toContain('Example is connected');
    expect(status).toBe(200);
    expect(await connection()).toMatchObject({ status: 'active', expiresAt: null });
  });

  it('audits a failure after the exchange (a plugin that cannot read the answer), stores nothing, leaks no token', async () => {
    provider.behaviour.tokenAnswer = { status: 200, body: '{"access_token":"tok_leak","refresh_token":"tok_leak2","surprise":true}' };
    const since = await auditMark();
    const logged = logs.length;
    const page = await land(await consent(await start('', {}, 'other')));
    expectRefused(page, 500, 'Internal error');
    expect(await connection(DEFAULT_WORKSPACE, 'other')).toBeUndefined();
    expect(await oauthAudit(DEFAULT_WORKSPACE, since)).toEqual([expect.objectContaining({ service: 'other', status: 500 })]);
    expect(`${page.page}${logs.slice(logged).join('\n')}`).not.toMatch(/tok_leak/);
    expect(logs.slice(logged).join('\n')).toContain('cannot read the team of this answer'); // the operator sees why
  });
});
