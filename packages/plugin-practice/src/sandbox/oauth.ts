import { randomBytes } from 'node:crypto';
import {
  AuthorizationCodes,
  authorizeCode,
  type EmulatorReply,
  type EmulatorRequest,
  FIRM_PEOPLE,
  jsonReply,
  oauthError,
  tokenParams,
} from '@portico/core/testing/emulator';

/**
 * Clio's OAuth 2.0 authorization code flow at the origin: `GET /oauth/authorize` signs a person of the firm in (the
 * sandbox's stand-in for Clio's login: see firmSignIn) and sends the browser back to `redirect_uri` with `code` and
 * `state` (the sandbox consents at once); the tokens act as that person's Clio user. `POST /oauth/token` exchanges the code for an
 * access token (30 days) and a refresh token, and exchanges a refresh token for a new access token while the refresh
 * token stays valid (Clio Manage refresh tokens are reusable); `POST /oauth/deauthorize` revokes the bearer token.
 */
export interface OAuthState {
  /** code → the Clio user who signed in for it */
  codes: AuthorizationCodes<number>;
  /** access token → its refresh token */
  tokens: Map<string, string>;
  refresh: Set<string>;
  /** refresh token → the Clio user who authorized it (access tokens find theirs through their refresh token) */
  users: Map<string, number>;
}

export const newOAuthState = (): OAuthState => ({
  codes: new AuthorizationCodes(),
  tokens: new Map(),
  refresh: new Set(),
  users: new Map(),
});

/** The Clio user ids of the firm's people, in the firm's order (seed.ts numbers them from 1001). */
export const userIdOf = (email: string): number => 1001 + FIRM_PEOPLE.findIndex((p) => p.email === email);

/** The Clio user an access token acts as: the one who authorized it; undefined for a token the OAuth flow did not issue. */
export function userOfToken(state: OAuthState, accessToken: string): number | undefined {
  const refresh = state.tokens.get(accessToken);
  return refresh === undefined ? undefined : state.users.get(refresh);
}

export const ACCESS_TOKEN_SECONDS = 2_592_000;

/** The OAuth client the sandbox registers for the gateway in sandbox mode (any client id and secret are accepted). */
export const SANDBOX_OAUTH_CLIENT = { clientId: 'portico-sandbox', clientSecret: 'portico-sandbox-secret' } as const;

export function answerOAuth(request: EmulatorRequest, state: OAuthState): EmulatorReply | undefined {
  if (request.path === '/oauth/authorize' && request.method === 'GET') return authorize(request, state);
  if (request.path === '/oauth/token' && request.method === 'POST') return token(request, state);
  if (request.path === '/oauth/deauthorize' && request.method === 'POST') return deauthorize(request, state);
  if (request.path === '/__sandbox/revoke-grants' && request.method === 'POST') return revokeGrants(request, state);
  return undefined;
}

function authorize(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  return authorizeCode(request, {
    application: 'Clio Manage',
    codes: state.codes,
    grant: (person) => userIdOf(person.email),
    wording: { missing: 'client_id and redirect_uri are required', responseType: 'response_type must be code' },
  });
}

function issue(state: OAuthState, refreshToken: string): string {
  const accessToken = randomBytes(24).toString('base64url');
  state.tokens.set(accessToken, refreshToken);
  return accessToken;
}

/** Client credentials in the body only (form or JSON), as Clio takes them. */
function token(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  const params = tokenParams(request);
  if (!params.client_id || !params.client_secret) return oauthError(401, 'invalid_client', 'Client authentication failed');
  if (params.grant_type === 'authorization_code') {
    const userId = state.codes.redeem(params.code, { clientId: params.client_id, redirectUri: params.redirect_uri });
    if (userId === undefined) {
      return oauthError(400, 'invalid_grant', 'The authorization code is invalid, expired, or was issued to another client');
    }
    const refreshToken = randomBytes(24).toString('base64url');
    state.refresh.add(refreshToken);
    state.users.set(refreshToken, userId);
    const accessToken = issue(state, refreshToken);
    return jsonReply(200, {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
    });
  }
  if (params.grant_type === 'refresh_token') {
    const refreshToken = params.refresh_token ?? '';
    if (!state.refresh.has(refreshToken)) return oauthError(400, 'invalid_grant', 'The refresh token is invalid or revoked');
    return jsonReply(200, { access_token: issue(state, refreshToken), token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS });
  }
  return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

/** Revokes the access token sent as bearer (or `token` in the form), and the refresh token it came with. */
function deauthorize(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  const bearer = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? '').trim())?.[1];
  const given = bearer ?? (request.mediaType().includes('json') ? undefined : request.form().token);
  const refreshToken = given === undefined ? undefined : state.tokens.get(given);
  if (given === undefined || refreshToken === undefined) return oauthError(401, 'invalid_token', 'The access token is invalid');
  for (const [access, refresh] of state.tokens) if (refresh === refreshToken) state.tokens.delete(access);
  state.refresh.delete(refreshToken);
  state.users.delete(refreshToken);
  return jsonReply(200, {});
}

/**
 * `POST /__sandbox/revoke-grants` `{ "email": "…" }` (the sandbox's, not Clio's): the person removes the app in Clio's
 * settings — every token they authorized stops working, refresh tokens too.
 */
function revokeGrants(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  const email = (request.json() as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string') return jsonReply(400, { error: 'revoke-grants takes { "email": "…" }' });
  const userId = userIdOf(email);
  let revoked = 0;
  for (const [refresh, user] of state.users) {
    if (user !== userId) continue;
    state.users.delete(refresh);
    state.refresh.delete(refresh);
    for (const [access, of] of state.tokens) if (of === refresh) state.tokens.delete(access);
    revoked++;
  }
  return jsonReply(200, { revoked });
}
