import { createHash, randomBytes } from 'node:crypto';
import type { OAuth2Settings, TokenSet } from '../contract/plugin.js';
import { GatewayError } from '../errors.js';
import type { UpstreamClient } from '../upstream/client.js';
import { redactValues } from '../upstream/redact-values.js';
import type { TraceContext } from '../upstream/trace-context.js';

/** An OAuth client as the operator configured it for one integration (endpoints already overridden where set). */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  settings: OAuth2Settings;
}

/** Operator configuration of an OAuth client: credentials, and optional endpoint overrides (regions, sandboxes, tests). */
export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  redirectUri?: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  revokeUrl?: string;
}

/** The token endpoint refused the grant: the connection must be authorized again. */
export class InvalidGrantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidGrantError';
  }
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/**
 * HTTP Basic client authentication (RFC 6749 §2.3.1): the id and the secret each form-encoded before they are joined,
 * so that a `:` or `%` in either reaches the server as it is. The token and the revocation requests send the same.
 */
const basicAuthorization = (client: OAuthClient): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;

export function newState(): string {
  return base64url(randomBytes(32));
}

export function hashState(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('hex');
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(48));
  return { verifier, challenge: base64url(createHash('sha256').update(verifier).digest()) };
}

/**
 * The provider's authorize address for a flow. `personal`: a person connecting their own account, who is asked to sign
 * in (`prompt=login`) rather than silently connected as whoever the browser is signed in as — often the admin who
 * connected the workspace's account from the same browser. Providers that do not know the parameter ignore it.
 */
export function authorizeUrl(client: OAuthClient, state: string, challenge: string | undefined, personal = false): string {
  const url = new URL(client.settings.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', client.redirectUri);
  url.searchParams.set('state', state);
  if (client.settings.scopes?.length) url.searchParams.set('scope', client.settings.scopes.join(client.settings.scopeSeparator ?? ' '));
  if (challenge) {
    url.searchParams.set('code_challenge', challenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  for (const [key, value] of Object.entries(client.settings.authorizeParams ?? {})) url.searchParams.set(key, value);
  if (personal && !url.searchParams.has('prompt')) url.searchParams.set('prompt', 'login');
  return url.toString();
}

/** Calls the token endpoint (authorization_code or refresh_token grant) and normalises the answer. */
export async function requestToken(
  http: UpstreamClient,
  client: OAuthClient,
  grant: Record<string, string>,
  /** The trace of the call that needs the token (a refresh during a call): the token request carries it. */
  trace?: TraceContext,
): Promise<{ tokens: TokenSet; body: unknown }> {
  const { settings } = client;
  const fields: Record<string, string> = { ...grant };
  const headers: Record<string, string> = {};
  if ((settings.clientAuth ?? 'basic') === 'basic') {
    headers.authorization = basicAuthorization(client);
  } else {
    fields.client_id = client.clientId;
    fields.client_secret = client.clientSecret;
  }
  const response = await http.send({
    method: 'POST',
    url: settings.tokenUrl,
    headers,
    ...(settings.tokenRequest === 'json' ? { body: fields } : { form: fields }),
    ...(trace ? { trace } : {}),
  });
  const parsed = settings.parseToken ? settings.parseToken(response.body) : parseStandard(response.body);
  if ('error' in parsed) {
    // The provider's words may echo what it was sent (the Basic value, the client secret, the refresh token or code):
    // blanked out in any encoding before they reach a message (a callback page, a REST or MCP error, a log).
    const sent = [
      client.clientSecret,
      `${client.clientId}:${client.clientSecret}`,
      `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
      ...Object.entries(grant)
        .filter(([name]) => name !== 'grant_type' && name !== 'redirect_uri')
        .map(([, value]) => value),
    ];
    const error = redactValues(parsed.error, sent).slice(0, 100);
    const description = parsed.description === undefined ? undefined : redactValues(parsed.description, sent).slice(0, 300);
    // RFC 6749 §5.2: invalid_grant means the code or refresh token is no good any more; nothing but a new authorization helps.
    if (parsed.error === 'invalid_grant') throw new InvalidGrantError(description ?? error);
    const status = response.status >= 500 ? 'upstream_error' : 'upstream_unauthorized';
    throw new GatewayError(status, `The token endpoint refused the request: ${error}${description ? ` (${description})` : ''}`, {
      upstreamStatus: response.status,
    });
  }
  if (response.status >= 400)
    throw new GatewayError('upstream_error', `The token endpoint failed (${response.status})`, { upstreamStatus: response.status });
  return { tokens: usableTokens(parsed), body: response.body };
}

/** Longest access-token lifetime taken at its word (ten years); a longer one is kept as a token that does not expire. */
const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 24 * 3600;

/**
 * Tokens as Portico can store and send them, whatever parser produced them: an access token that fits in an
 * `Authorization` header (printable ASCII, no spaces or line breaks), and a lifetime that fits in a date.
 */
function usableTokens(tokens: TokenSet): TokenSet {
  if (typeof tokens.accessToken !== 'string' || !/^[\x21-\x7e]+$/.test(tokens.accessToken))
    throw new GatewayError('upstream_error', 'The token endpoint answered an access token that is empty or not printable ASCII');
  const { expiresIn, ...rest } = tokens;
  return typeof expiresIn === 'number' && expiresIn > 0 && expiresIn <= MAX_EXPIRES_IN_SECONDS ? tokens : rest;
}

function parseStandard(body: unknown): TokenSet | { error: string; description?: string } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.error === 'string') {
    return { error: b.error, ...(typeof b.error_description === 'string' ? { description: b.error_description } : {}) };
  }
  if (typeof b.access_token !== 'string' || b.access_token === '')
    return { error: 'invalid_response', description: 'no access_token in the answer' };
  const expiresIn = Number(b.expires_in);
  return {
    accessToken: b.access_token,
    ...(typeof b.refresh_token === 'string' && b.refresh_token ? { refreshToken: b.refresh_token } : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresIn } : {}),
  };
}

/**
 * Revokes a connection's grant upstream; failures are reported to the caller, who decides whether they matter. RFC 7009
 * style sends the refresh token (revoking it ends the whole grant), else the access token; bearer style (Clio's
 * deauthorize, Slack's auth.revoke) authenticates with the access token, as every bearer request does.
 */
export async function revokeToken(
  http: UpstreamClient,
  client: OAuthClient,
  credentials: { accessToken: string; refreshToken?: string },
): Promise<void> {
  const { settings } = client;
  if (!settings.revokeUrl) return;
  const token = settings.revokeStyle === 'bearer' ? credentials.accessToken : (credentials.refreshToken ?? credentials.accessToken);
  const response =
    settings.revokeStyle === 'bearer'
      ? await http.send({ method: 'POST', url: settings.revokeUrl, headers: { authorization: `Bearer ${token}` } })
      : await http.send({
          method: 'POST',
          url: settings.revokeUrl,
          headers: { authorization: basicAuthorization(client) },
          form: { token },
        });
  if (response.status >= 400) throw new GatewayError('upstream_error', `The revocation endpoint answered ${response.status}`);
}
