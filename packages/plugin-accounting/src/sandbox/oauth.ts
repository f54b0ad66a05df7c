import { createHash, randomBytes } from 'node:crypto';
import {
  ACCOUNT_HOLDER,
  AuthorizationCodes,
  basicCredentials,
  type EmulatorReply,
  type EmulatorRequest,
  FIRM_PEOPLE,
  type FirmPerson,
  firmSignIn,
  isJsonObject,
  jsonReply,
  redirectBack,
  oauthError as standardError,
} from '@portico/core/testing/emulator';
import { SANDBOX_REALM_ID } from './company.js';

// Intuit's OAuth 2.0 authorization-code flow, on the sandbox's origin:
//
//   GET  /oauth2/authorize            (appcenter.intuit.com/connect/oauth2) → 302 redirect_uri?code&state&realmId
//                                     after the sandbox's stand-in for Intuit's sign-in (firmSignIn): the grant is that
//                                     person's
//   POST /oauth2/v1/tokens/bearer     (oauth.platform.intuit.com) authorization_code | refresh_token, HTTP Basic client
//   POST /v2/oauth2/tokens/revoke     (developer.api.intuit.com) { "token": … }
//   GET  /v1/openid_connect/userinfo  (accounts.platform.intuit.com) the person of the token (scope openid; their
//                                     name with profile, their email with email); the fixed sandbox token is the
//                                     firm's account holder
//
// Every refresh hands out a new refresh token and retires the one used (the old one answers invalid_grant); access
// tokens already issued stay good until they expire. Grants live in the sandbox's state, so POST /__sandbox/reset
// forgets them.

export const SANDBOX_CLIENT_ID = 'ABsandboxQuickBooksClientId0001';
export const SANDBOX_CLIENT_SECRET = 'sandbox-quickbooks-client-secret';
export const ACCOUNTING_SCOPE = 'com.intuit.quickbooks.accounting';
/** The OpenID Connect scopes Intuit knows besides the accounting one (userinfo answers only with `openid`). */
const OPENID_SCOPES = new Set(['openid', 'email', 'profile', 'phone', 'address']);
/** What Intuit answers as `x_refresh_token_expires_in` (101 days). */
export const REFRESH_TOKEN_TTL_SECONDS = 8_726_400;
const CODE_TTL_MS = 5 * 60_000;

interface Grant {
  id: number;
  clientId: string;
  realmId: string;
  scope: string;
  /** The email of the person of the firm who signed in for the grant. */
  email: string;
  revoked: boolean;
}

export interface AccessToken {
  grant: Grant;
  expiresAt: number;
}

export interface OAuthState {
  /** Codes waiting for their exchange (each tried once), with the grant's company, scope and person. */
  codes: AuthorizationCodes<{ realmId: string; scope: string; email: string }>;
  access: Map<string, AccessToken>;
  refresh: Map<string, Grant>;
  grants: number;
  /** Seconds an access token lives (`expires_in`); 3600 unless the sandbox was started or set otherwise. */
  accessTokenTtl: number;
}

export function oauthState(accessTokenTtl = 3600): OAuthState {
  const codes = new AuthorizationCodes<{ realmId: string; scope: string; email: string }>({
    mint: () => opaque('AB11', 30),
    ttlMs: CODE_TTL_MS,
    spentOnFailure: true,
  });
  return { codes, access: new Map(), refresh: new Map(), grants: 0, accessTokenTtl };
}

const opaque = (prefix: string, bytes: number) => `${prefix}${randomBytes(bytes).toString('base64url')}`;
const oauthError = (status: number, error: string, description?: string) =>
  standardError(status, error, description, { headers: { 'cache-control': 'no-store', pragma: 'no-cache' } });
/** Intuit's 302 says text/plain without a charset. */
const redirect = (target: URL, params: Record<string, string | undefined>): EmulatorReply => ({
  ...redirectBack(target, params),
  contentType: 'text/plain',
});

/**
 * `GET /oauth2/authorize`: Intuit's sign-in (the sandbox's page of the firm's people when a sign-in is asked for, or
 * `login_hint`; otherwise the account holder), then the consent screen, already agreed to; redirects with a code for
 * the seeded company, the grant of the person who signed in.
 */
export function authorize(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  const q = request.query;
  const clientId = q.get('client_id');
  const redirectUri = q.get('redirect_uri');
  if (clientId !== SANDBOX_CLIENT_ID) return oauthError(400, 'invalid_client', 'client_id is missing or unknown');
  let target: URL;
  try {
    target = new URL(redirectUri ?? '');
  } catch {
    return oauthError(400, 'invalid_request', 'redirect_uri is missing or not an absolute URL');
  }
  const stateParam = q.get('state');
  const fail = (error: string, description: string) =>
    redirect(target, { state: stateParam ?? undefined, error, error_description: description });
  if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  const scope = q.get('scope') ?? '';
  const scopes = scope.split(/\s+/).filter(Boolean);
  if (!scopes.includes(ACCOUNTING_SCOPE)) return fail('invalid_scope', `scope must include ${ACCOUNTING_SCOPE}`);
  const unknown = scopes.find((s) => s !== ACCOUNTING_SCOPE && !OPENID_SCOPES.has(s));
  if (unknown) return fail('invalid_scope', `unknown scope ${unknown.slice(0, 80)}`);
  if (stateParam === null || stateParam === '') return fail('invalid_request', 'state is required');
  const signedIn = firmSignIn(request, 'QuickBooks');
  if ('page' in signedIn) return signedIn.page;

  const code = state.codes.issue(
    { clientId, redirectUri: redirectUri as string },
    { realmId: SANDBOX_REALM_ID, scope, email: signedIn.person.email },
  );
  return redirect(target, { state: stateParam, code, realmId: SANDBOX_REALM_ID });
}

/** The client of the request's HTTP Basic credentials (the only way Intuit takes them), when it is the sandbox's. */
function clientOf(request: EmulatorRequest): string | undefined {
  const client = basicCredentials(request);
  return client?.clientId === SANDBOX_CLIENT_ID && client.clientSecret === SANDBOX_CLIENT_SECRET ? client.clientId : undefined;
}

function issue(state: OAuthState, grant: Grant): EmulatorReply {
  const accessToken = opaque('eyJlbmMiOiJBMTI4Q0JDLUhTMjU2IiwiYWxnIjoiZGlyIn0..', 96);
  const refreshToken = opaque('AB11', 36);
  state.access.set(accessToken, { grant, expiresAt: Date.now() + state.accessTokenTtl * 1000 });
  state.refresh.set(refreshToken, grant);
  return jsonReply(
    200,
    {
      token_type: 'bearer',
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: state.accessTokenTtl,
      x_refresh_token_expires_in: REFRESH_TOKEN_TTL_SECONDS,
    },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

/** `POST /oauth2/v1/tokens/bearer`. */
export function token(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  if (request.method !== 'POST') return oauthError(405, 'invalid_request', 'use POST');
  const clientId = clientOf(request);
  if (!clientId) return oauthError(401, 'invalid_client');
  if (request.mediaType() !== 'application/x-www-form-urlencoded')
    return oauthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  const form = request.form();
  if (form.grant_type === 'authorization_code') {
    const code = state.codes.redeem(form.code, { clientId, redirectUri: form.redirect_uri });
    if (!code) return oauthError(400, 'invalid_grant');
    const grant: Grant = {
      id: ++state.grants,
      clientId,
      realmId: code.realmId,
      scope: code.scope,
      email: code.email,
      revoked: false,
    };
    return issue(state, grant);
  }
  if (form.grant_type === 'refresh_token') {
    const grant = state.refresh.get(form.refresh_token ?? '');
    if (!grant || grant.revoked || grant.clientId !== clientId) return oauthError(400, 'invalid_grant');
    state.refresh.delete(form.refresh_token as string);
    return issue(state, grant);
  }
  return oauthError(400, 'unsupported_grant_type');
}

/** `POST /v2/oauth2/tokens/revoke` with `{ "token": access or refresh token }`: ends the whole grant. */
export function revoke(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  if (!clientOf(request)) return oauthError(401, 'invalid_client');
  let value: unknown;
  try {
    value =
      request.mediaType() === 'application/x-www-form-urlencoded' ? request.form().token : (request.json() as Json | undefined)?.token;
  } catch {
    return oauthError(400, 'invalid_request', 'the body must be JSON');
  }
  if (typeof value !== 'string' || value === '') return oauthError(400, 'invalid_request', 'token is required');
  const grant = state.refresh.get(value) ?? state.access.get(value)?.grant;
  if (grant) grant.revoked = true;
  return { status: 200, body: '', contentType: 'text/plain' };
}

type Json = Record<string, unknown>;

/**
 * `POST /__sandbox/expire-tokens` (`{ "access_token": "…" }`, or `{}` for every token issued): the tokens answer 401
 * from now on, as an expired Intuit access token does; refresh tokens keep working.
 */
export function expireTokens(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  let body: unknown;
  try {
    body = request.json();
  } catch {
    return jsonReply(400, { ok: false, error: 'expire-tokens takes a JSON object' });
  }
  const only = isJsonObject(body) && typeof body.access_token === 'string' ? body.access_token : undefined;
  let expired = 0;
  for (const [value, access] of state.access) {
    if (only !== undefined && value !== only) continue;
    access.expiresAt = 0;
    expired++;
  }
  return jsonReply(200, { ok: true, expired });
}

/** The realm an access token is good for, and its grant; why not, otherwise. */
export function checkAccessToken(state: OAuthState, value: string): { realmId: string; grant: Grant } | { problem: string } {
  const access = state.access.get(value);
  if (!access) return { problem: 'Token invalid' };
  if (access.grant.revoked) return { problem: 'Token revoked' };
  if (access.expiresAt <= Date.now()) return { problem: 'Token expired' };
  return { realmId: access.grant.realmId, grant: access.grant };
}

/** A person's stable, opaque subject at Intuit (the same for every token of theirs). */
export const subjectOf = (person: FirmPerson) => {
  const hex = createHash('sha256').update(`intuit-sub:${person.email}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/**
 * `GET /v1/openid_connect/userinfo` with `Authorization: Bearer …` (Intuit's OpenID Connect userinfo): `sub` for a
 * token granted `openid`, `givenName` and `familyName` with `profile`, `email` and `emailVerified` with `email`. The
 * fixed sandbox token ({@link fixedToken}) was granted all three, by the account holder. A missing, unknown, expired or
 * revoked token answers 401, a token without `openid` 403, as OAuth 2.0 bearer-token resources do (RFC 6750).
 */
export function userinfo(request: EmulatorRequest, state: OAuthState, fixedToken: string): EmulatorReply {
  const bearer = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
  const refuse = (status: number, error: string) =>
    jsonReply(status, { error }, { 'www-authenticate': `Bearer error="${error}"`, 'cache-control': 'no-store' });
  if (!bearer) return refuse(401, 'invalid_token');
  let person: FirmPerson | undefined = ACCOUNT_HOLDER;
  let scopes = ['openid', 'profile', 'email'];
  if (bearer !== fixedToken) {
    const checked = checkAccessToken(state, bearer);
    if ('problem' in checked) return refuse(401, 'invalid_token');
    person = FIRM_PEOPLE.find((p) => p.email === checked.grant.email);
    scopes = checked.grant.scope.split(/\s+/);
  }
  if (!person) return refuse(401, 'invalid_token');
  if (!scopes.includes('openid')) return refuse(403, 'insufficient_scope');
  return jsonReply(
    200,
    {
      sub: subjectOf(person),
      ...(scopes.includes('profile') ? { givenName: person.first, familyName: person.last } : {}),
      ...(scopes.includes('email') ? { email: person.email, emailVerified: true } : {}),
    },
    { 'cache-control': 'no-store' },
  );
}
