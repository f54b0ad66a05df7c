import { randomBytes } from 'node:crypto';
import { type EmulatorReply, type EmulatorRequest, firmSignIn, jsonReply } from '@portico/core/testing/emulator';

/**
 * Lawmatics' OAuth 2.0 authorization code grant, as its OAuth server (Doorkeeper) answers it: `GET /oauth/authorize`
 * signs a person of the firm in (the sandbox's stand-in for Lawmatics' login: see firmSignIn) and sends the browser back
 * to `redirect_uri` with `code` and `state` (the sandbox consents at once; the token acts as that person), and
 * `POST /oauth/token` exchanges the code for an access token that does not expire and comes without a refresh
 * token (Lawmatics API 1.21.0). Issued tokens are accepted by the API routes like the fixed sandbox token.
 */
export interface OAuthState {
  codes: Map<string, { clientId: string; redirectUri: string; email: string }>;
  /** access token → the email of the person who signed in for it */
  tokens: Map<string, string>;
}

export const newOAuthState = (): OAuthState => ({ codes: new Map(), tokens: new Map() });

/** The OAuth client the sandbox registers for the gateway in sandbox mode (any client id and secret are accepted). */
export const SANDBOX_OAUTH_CLIENT = { clientId: 'portico-sandbox', clientSecret: 'portico-sandbox-secret' } as const;

const oauthError = (status: number, error: string, description: string): EmulatorReply =>
  jsonReply(status, { error, error_description: description });

/** Answers `/oauth/authorize` and `/oauth/token`; undefined for any other path. */
export function answerOAuth(request: EmulatorRequest, state: OAuthState): EmulatorReply | undefined {
  if (request.path === '/oauth/authorize' && request.method === 'GET') return authorize(request, state);
  if (request.path === '/oauth/token' && request.method === 'POST') return token(request, state);
  return undefined;
}

function authorize(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  const clientId = request.query.get('client_id') ?? '';
  const redirectUri = request.query.get('redirect_uri') ?? '';
  if (!clientId || !redirectUri) return oauthError(400, 'invalid_request', 'client_id and redirect_uri are required.');
  if (request.query.get('response_type') !== 'code') {
    return oauthError(400, 'unsupported_response_type', 'The authorization server does not support this response type.');
  }
  const signedIn = firmSignIn(request, 'Lawmatics');
  if ('page' in signedIn) return signedIn.page;
  const code = randomBytes(16).toString('hex');
  state.codes.set(code, { clientId, redirectUri, email: signedIn.person.email });
  const back = new URL(redirectUri);
  back.searchParams.set('code', code);
  const given = request.query.get('state');
  if (given) back.searchParams.set('state', given);
  return { status: 302, body: '', contentType: 'text/plain; charset=utf-8', headers: { location: back.toString() } };
}

function token(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  const params = tokenParams(request);
  if (params.grant_type !== 'authorization_code') {
    return oauthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.');
  }
  if (!params.client_id || !params.client_secret) return oauthError(401, 'invalid_client', 'Client authentication failed.');
  const granted = state.codes.get(params.code ?? '');
  if (!granted || granted.clientId !== params.client_id || granted.redirectUri !== params.redirect_uri) {
    return oauthError(
      400,
      'invalid_grant',
      'The provided authorization grant is invalid, expired, revoked or was issued to another client.',
    );
  }
  state.codes.delete(params.code as string);
  const accessToken = randomBytes(24).toString('base64url');
  state.tokens.set(accessToken, granted.email);
  return jsonReply(200, { access_token: accessToken, token_type: 'Bearer', created_at: Math.floor(Date.now() / 1000) });
}

/** The token request as a form (RFC 6749) or JSON; client credentials in the body or as HTTP Basic. */
function tokenParams(request: EmulatorRequest): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = request.mediaType().includes('json')
    ? Object.fromEntries(Object.entries((request.json() ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]))
    : request.form();
  const basic = /^Basic\s+(.+)$/i.exec(String(request.headers.authorization ?? ''));
  if (basic) {
    const [id, secret] = Buffer.from(basic[1] as string, 'base64')
      .toString('utf8')
      .split(':');
    params.client_id ??= decodeURIComponent(id ?? '');
    params.client_secret ??= decodeURIComponent(secret ?? '');
  }
  return params;
}
