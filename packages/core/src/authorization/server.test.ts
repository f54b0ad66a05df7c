import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import type { AuthorizeRequest } from './authorize.js';
import { OAuthError } from './protocol.js';
import { AuthorizationServer } from './server.js';

const GATEWAY = 'https://gw.example';
const REDIRECT = 'http://127.0.0.1:33418/callback';
const consent = {
  workspaceId: DEFAULT_WORKSPACE,
  scopes: { services: ['clio'], readOnly: true, toolSet: null },
  expiresAt: null,
  createdBy: 'key_a',
};

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function oauthError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  return (error as OAuthError).error;
}

describe('the built-in authorization server', () => {
  let store: SqliteStore;
  let server: AuthorizationServer;
  let clientId: string;
  beforeEach(async () => {
    store = new SqliteStore(':memory:');
    await store.migrate();
    server = new AuthorizationServer(store, silentLogger, { registrationsPerMinute: 3 });
    clientId = (await server.clients.register({ client_name: 'Claude', redirect_uris: [REDIRECT] }, '127.0.0.1')).client_id;
  });
  afterEach(() => store.close());

  const params = (overrides: Record<string, string | undefined> = {}) => ({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: `${GATEWAY}/api/mcp`,
    ...overrides,
  });

  async function approved(challenge: string): Promise<{ code: string; request: AuthorizeRequest }> {
    const check = await server.authorizer.check(params({ code_challenge: challenge }), GATEWAY);
    if (check.kind !== 'ok') throw new Error(JSON.stringify(check));
    const location = new URL(await server.authorizer.approve(check.request, consent));
    expect(location.searchParams.get('state')).toBe('st-1');
    return { code: location.searchParams.get('code') as string, request: check.request };
  }

  const redeem = (code: string, verifier: string, extra: Record<string, string> = {}) =>
    server.tokens.exchange(
      { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, ...extra },
      GATEWAY,
    );

  it('registers public clients only, with acceptable redirect URIs, and limits registrations per caller', async () => {
    expect(await oauthError(server.clients.register({ redirect_uris: ['http://evil.example/cb'] }, 'x'))).toBe('invalid_redirect_uri');
    expect(await oauthError(server.clients.register({ redirect_uris: ['javascript:alert(1)'] }, 'x'))).toBe('invalid_redirect_uri');
    expect(
      await oauthError(server.clients.register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' }, 'x')),
    ).toBe('invalid_client_metadata');
    await server.clients.register({ redirect_uris: [REDIRECT] }, 'y');
    await server.clients.register({ redirect_uris: [REDIRECT] }, 'y');
    await server.clients.register({ redirect_uris: [REDIRECT] }, 'y');
    expect(await oauthError(server.clients.register({ redirect_uris: [REDIRECT] }, 'y'))).toBe('too_many_registrations');
  });

  it('registers a client asking for a secret-based method as public: the answer says none and carries no secret', async () => {
    for (const method of ['client_secret_post', 'client_secret_basic']) {
      const registered = await server.clients.register(
        { client_name: 'Connector', redirect_uris: [REDIRECT], token_endpoint_auth_method: method },
        `caller-${method}`,
      );
      expect(registered.token_endpoint_auth_method).toBe('none');
      expect(registered).not.toHaveProperty('client_secret');
      expect(registered).not.toHaveProperty('client_secret_expires_at');
    }
  });

  it('exchanges a code once for tokens that authenticate as the grant, with its scopes', async () => {
    const { verifier, challenge } = pkce();
    const { code } = await approved(challenge);
    const tokens = await redeem(code, verifier, { resource: `${GATEWAY}/api/mcp` });
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(3600);
    const principal = await server.authenticate(tokens.access_token, GATEWAY);
    expect(principal.workspaceId).toBe(DEFAULT_WORKSPACE);
    expect(principal.scopes).toMatchObject({ admin: false, services: ['clio'], readOnly: true });
    expect(principal.keyId).toMatch(/^grant_/);
  });

  it('refuses a request without PKCE, with plain PKCE, and a wrong verifier', async () => {
    await approved(pkce().challenge); // an approved client: its errors go back to it
    for (const bad of [{ code_challenge: undefined }, { code_challenge_method: 'plain' }, { code_challenge_method: undefined }]) {
      const check = await server.authorizer.check(params(bad), GATEWAY);
      expect(check.kind).toBe('redirect');
      const location = new URL((check as { location: string }).location);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('state')).toBe('st-1');
    }
    const { code } = await approved(pkce().challenge);
    expect(await oauthError(redeem(code, pkce().verifier))).toBe('invalid_grant');
  });

  it('refuses a redirect URI that differs by path, query, case, host, user information or a trailing slash, without redirecting', async () => {
    for (const uri of [
      'http://127.0.0.1:33418/callback/x',
      'http://127.0.0.1:33419/callback/',
      'http://127.0.0.1:33418/Callback',
      'http://127.0.0.1:33418/callback?x=1',
      'http://user@127.0.0.1:33418/callback',
      'http://127.0.0.1:33418@evil.example/callback',
      'http://127.0.0.2:33418/callback',
      'http://[::1]:33418/callback',
      'http://localhost:33418/callback',
      'https://127.0.0.1:33418/callback',
      'http://127.0.0.1:99999/callback',
      'http://127.0.0.1:33418/callback/',
    ]) {
      expect(await server.authorizer.check(params({ redirect_uri: uri }), GATEWAY), uri).toEqual({
        kind: 'show',
        message: 'The redirect URI is not one this client registered.',
      });
    }
  });

  it('takes a loopback IP redirect URI on any port (RFC 8252 §7.3), and binds the code to the port asked for', async () => {
    const loopback = await server.clients.register(
      { redirect_uris: ['http://127.0.0.1:33418/callback', 'http://[::1]/cb?app=1', 'http://localhost:4000/callback'] },
      'native',
    );
    const asked = (redirect: string) => server.authorizer.check(params({ client_id: loopback.client_id, redirect_uri: redirect }), GATEWAY);
    for (const uri of ['http://127.0.0.1:50123/callback', 'http://127.0.0.1/callback', 'http://[::1]:61000/cb?app=1']) {
      const check = await asked(uri);
      expect(check.kind, uri).toBe('ok');
      expect((check as { request: AuthorizeRequest }).request.redirectUri).toBe(uri);
    }
    // localhost is a name, not an address: compared exactly, port included
    expect((await asked('http://localhost:4000/callback')).kind).toBe('ok');
    expect((await asked('http://localhost:4001/callback')).kind).toBe('show');
    expect((await asked('http://[::1]:61000/cb?app=2')).kind).toBe('show');

    const { verifier, challenge } = pkce();
    const check = await server.authorizer.check(
      params({ client_id: loopback.client_id, redirect_uri: 'http://127.0.0.1:50123/callback', code_challenge: challenge }),
      GATEWAY,
    );
    if (check.kind !== 'ok') throw new Error(JSON.stringify(check));
    const code = new URL(await server.authorizer.approve(check.request, consent)).searchParams.get('code') as string;
    const exchange = (redirect: string) =>
      server.tokens.exchange(
        { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: loopback.client_id, redirect_uri: redirect },
        GATEWAY,
      );
    // the token request names the redirect URI of the authorization request, port included
    expect(await oauthError(exchange('http://127.0.0.1:33418/callback'))).toBe('invalid_grant');
  });

  it('shows the errors of a client nobody approved yet instead of redirecting to it, and redirects once it is approved', async () => {
    for (const bad of [{ response_type: 'token' }, { code_challenge_method: 'plain' }, { resource: 'https://other.example' }]) {
      const check = await server.authorizer.check(params(bad), GATEWAY);
      expect(check.kind, JSON.stringify(bad)).toBe('show');
    }
    expect(await server.authorizer.check(params({ response_type: 'token' }), GATEWAY)).toEqual({
      kind: 'show',
      message: 'The client’s request is not valid (unsupported_response_type): Only response_type=code is supported.',
    });
    await approved(pkce().challenge);
    const check = await server.authorizer.check(params({ response_type: 'token' }), GATEWAY);
    expect(check.kind).toBe('redirect');
    const location = new URL((check as { location: string }).location);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('st-1');
  });

  it('refuses a resource that is not this gateway', async () => {
    await approved(pkce().challenge);
    const check = await server.authorizer.check(params({ resource: 'https://other.example/api/mcp' }), GATEWAY);
    expect(new URL((check as { location: string }).location).searchParams.get('error')).toBe('invalid_target');
  });

  it('a reused code is refused and revokes the tokens it produced', async () => {
    const { verifier, challenge } = pkce();
    const { code } = await approved(challenge);
    const tokens = await redeem(code, verifier);
    await server.authenticate(tokens.access_token, GATEWAY);
    expect(await oauthError(redeem(code, verifier))).toBe('invalid_grant');
    await expect(server.authenticate(tokens.access_token, GATEWAY)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('rotates refresh tokens; a reused one revokes the whole family', async () => {
    const { verifier, challenge } = pkce();
    const first = await redeem((await approved(challenge)).code, verifier);
    const refresh = { grant_type: 'refresh_token', client_id: clientId };
    const second = await server.tokens.exchange({ ...refresh, refresh_token: first.refresh_token }, GATEWAY);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await server.authenticate(second.access_token, GATEWAY);
    expect(await oauthError(server.tokens.exchange({ ...refresh, refresh_token: first.refresh_token }, GATEWAY))).toBe('invalid_grant');
    await expect(server.authenticate(second.access_token, GATEWAY)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(await oauthError(server.tokens.exchange({ ...refresh, refresh_token: second.refresh_token }, GATEWAY))).toBe('invalid_grant');
  });

  it('refuses a token for another audience: a gateway with another public URL sharing the database', async () => {
    const { verifier, challenge } = pkce();
    const tokens = await redeem((await approved(challenge)).code, verifier);
    await expect(server.authenticate(tokens.access_token, 'https://other.example')).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('revokes by token (RFC 7009), and an expired access token is refused', async () => {
    const short = new AuthorizationServer(store, silentLogger, { accessTokenTtlMs: 1 });
    const { verifier, challenge } = pkce();
    const { code } = await approved(challenge);
    const tokens = await short.tokens.exchange(
      { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT },
      GATEWAY,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(short.authenticate(tokens.access_token, GATEWAY)).rejects.toMatchObject({ code: 'unauthorized' });
    const renewed = await short.tokens.exchange(
      { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token },
      GATEWAY,
    );
    await server.tokens.revoke({ token: renewed.refresh_token });
    expect(
      await oauthError(
        server.tokens.exchange({ grant_type: 'refresh_token', client_id: clientId, refresh_token: renewed.refresh_token }, GATEWAY),
      ),
    ).toBe('invalid_grant');
  });
});
