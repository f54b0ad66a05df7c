import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OAuth 2.0 provider and the API it protects, on loopback, for tests. It behaves like the providers Portico
 * talks to: authorization code with PKCE (S256), client authentication by HTTP Basic, short-lived access tokens,
 * and refresh tokens that rotate on every use. A rotated refresh token stays valid until its successor has been
 * used (a reuse grace that real rotating providers also give), so a refresh answer lost in flight does not end the
 * connection; once the successor was used, the old one is refused with invalid_grant.
 */
export interface FakeProvider {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every refresh_token grant received, in order (before any answer is sent). */
  refreshRequests: string[];
  /** Authorization-code grants received. */
  codeRequests: number;
  /** The form fields of every token request (any grant), in order. */
  tokenRequests: Array<Record<string, string>>;
  /** Refresh tokens issued, newest last. */
  issuedRefreshTokens: string[];
  revoked: string[];
  apiCalls: number;
  /** API requests answered 401 (an unknown, expired or revoked access token). */
  apiRefusals: number;
  /** Options that tests change on the fly. */
  behaviour: {
    deny: boolean;
    /** Token endpoint answers 503. */
    down: boolean;
    /** Delay before answering a refresh, ms. */
    refreshDelayMs: number;
    /** Never answer refresh requests (until released). */
    holdRefresh: boolean;
    accessTtlSeconds: number;
    /** When set, the token endpoint answers every authorization-code grant with exactly this (a misbehaving provider). */
    tokenAnswer?: { status: number; body: string; headers?: Record<string, string> } | undefined;
  };
  /** Issues a token pair directly, as if a connection had been made earlier. */
  issue(expiresInSeconds: number): { accessToken: string; refreshToken: string };
  /** Revokes every access token issued so far, before its expiry (refresh tokens stay valid): the API answers 401. */
  revokeAccessTokens(): void;
  close(): Promise<void>;
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const clientId = 'portico-test-client';
  const clientSecret = 'portico-test-secret';
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const access = new Map<string, number>(); // token → expiry (ms)
  // refresh token → the token issued from it, and whether it is retired
  const refresh = new Map<string, { successor?: string; dead: boolean }>();
  const held: ServerResponse[] = [];
  const provider: FakeProvider = {
    url: '',
    clientId,
    clientSecret,
    refreshRequests: [],
    codeRequests: 0,
    tokenRequests: [],
    issuedRefreshTokens: [],
    revoked: [],
    apiCalls: 0,
    apiRefusals: 0,
    behaviour: { deny: false, down: false, refreshDelayMs: 0, holdRefresh: false, accessTtlSeconds: 3600 },
    issue(expiresInSeconds) {
      return mint(expiresInSeconds);
    },
    revokeAccessTokens() {
      access.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  function mint(ttl: number): { accessToken: string; refreshToken: string } {
    const accessToken = `at_${randomBytes(9).toString('hex')}`;
    const refreshToken = `rt_${randomBytes(9).toString('hex')}`;
    access.set(accessToken, Date.now() + ttl * 1000);
    refresh.set(refreshToken, { dead: false });
    provider.issuedRefreshTokens.push(refreshToken);
    return { accessToken, refreshToken };
  }

  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  async function body(req: IncomingMessage): Promise<URLSearchParams> {
    let text = '';
    for await (const chunk of req) text += chunk;
    return new URLSearchParams(text);
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/oauth/authorize') {
      // The "browser" lands here; the fake user consents (or not) at once.
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      const state = url.searchParams.get('state') ?? '';
      if (provider.behaviour.deny) {
        redirect.searchParams.set('error', 'access_denied');
      } else {
        const code = `code_${randomBytes(8).toString('hex')}`;
        codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirectUri: redirect.toString() });
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('region', 'eu');
      }
      redirect.searchParams.set('state', state);
      res.writeHead(302, { location: redirect.toString() }).end();
      return;
    }
    if (url.pathname === '/oauth/token') {
      const form = await body(req);
      provider.tokenRequests.push(Object.fromEntries(form));
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return json(res, 401, { error: 'invalid_client' });
      if (provider.behaviour.down) return json(res, 503, { error: 'temporarily_unavailable' });
      const grant = form.get('grant_type');
      if (grant === 'authorization_code') {
        provider.codeRequests++;
        const canned = provider.behaviour.tokenAnswer;
        if (canned) {
          res.writeHead(canned.status, { 'content-type': 'application/json', ...canned.headers }).end(canned.body);
          return;
        }
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!code || code.challenge !== challenge || code.redirectUri.split('?')[0] !== form.get('redirect_uri')) {
          return json(res, 400, { error: 'invalid_grant', error_description: 'bad code, verifier or redirect_uri' });
        }
        const pair = mint(provider.behaviour.accessTtlSeconds);
        return json(res, 200, {
          access_token: pair.accessToken,
          refresh_token: pair.refreshToken,
          expires_in: provider.behaviour.accessTtlSeconds,
          token_type: 'bearer',
          account_name: 'Acme Legal',
        });
      }
      if (grant === 'refresh_token') {
        const presented = form.get('refresh_token') ?? '';
        provider.refreshRequests.push(presented);
        const entry = refresh.get(presented);
        // `dead`: retired because its successor was used (or never issued by us).
        if (!entry || entry.dead) return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token is no longer valid' });
        // Rotate now, as real providers do on receipt: the answer may still be lost in flight.
        const pair = mint(provider.behaviour.accessTtlSeconds);
        entry.successor = pair.refreshToken;
        // Using a refresh token retires its predecessors.
        for (const [token, other] of refresh) if (other.successor === presented) refresh.set(token, { ...other, dead: true });
        const answer = () =>
          json(res, 200, {
            access_token: pair.accessToken,
            refresh_token: pair.refreshToken,
            expires_in: provider.behaviour.accessTtlSeconds,
          });
        if (provider.behaviour.holdRefresh) {
          held.push(res);
          return;
        }
        setTimeout(answer, provider.behaviour.refreshDelayMs);
        return;
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    if (url.pathname === '/oauth/revoke') {
      const form = await body(req);
      provider.revoked.push(form.get('token') ?? '');
      return json(res, 200, {});
    }
    // The protected API: the example plugin's routes.
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const expiry = access.get(token);
    if (!expiry || expiry <= Date.now()) provider.apiRefusals++;
    if (!expiry || expiry <= Date.now()) return json(res, 401, { message: 'access token invalid or expired' });
    provider.apiCalls++;
    return json(res, 200, { items: [{ id: '1' }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return provider;
}

/** Environment that points the example plugin at a fake provider. */
export function providerEnv(provider: FakeProvider): Record<string, string> {
  return {
    PORTICO_EXAMPLE_BASE_URL: provider.url,
    PORTICO_EXAMPLE_CLIENT_ID: provider.clientId,
    PORTICO_EXAMPLE_CLIENT_SECRET: provider.clientSecret,
    PORTICO_EXAMPLE_OAUTH_AUTHORIZE_URL: `${provider.url}/oauth/authorize`,
    PORTICO_EXAMPLE_OAUTH_TOKEN_URL: `${provider.url}/oauth/token`,
    PORTICO_EXAMPLE_OAUTH_REVOKE_URL: `${provider.url}/oauth/revoke`,
  };
}
