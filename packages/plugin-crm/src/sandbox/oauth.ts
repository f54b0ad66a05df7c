import { randomBytes } from 'node:crypto';
import {
  AuthorizationCodes,
  authorizeCode,
  basicCredentials,
  type EmulatorReply,
  type EmulatorRequest,
  jsonReply,
  oauthError,
  tokenParams,
} from '@portico/core/testing/emulator';

/**
 * Lawmatics' OAuth 2.0 authorization code grant, as its OAuth server (Doorkeeper) answers it: `GET /oauth/authorize`
 * signs a person of the firm in (the sandbox's stand-in for Lawmatics' login: see firmSignIn) and sends the browser back
 * to `redirect_uri` with `code` and `state` (the sandbox consents at once; the token acts as that person), and
 * `POST /oauth/token` exchanges the code for an access token that does not expire and comes without a refresh
 * token (Lawmatics API 1.21.0). Issued tokens are accepted by the API routes like the fixed sandbox token.
 */
export interface OAuthState {
  /** code → the email of the person who signed in for it */
  codes: AuthorizationCodes<string>;
  /** access token → the email of the person who signed in for it */
  tokens: Map<string, string>;
}

export const newOAuthState = (): OAuthState => ({ codes: new AuthorizationCodes(), tokens: new Map() });

/** The OAuth client the sandbox registers for the gateway in sandbox mode (any client id and secret are accepted). */
export const SANDBOX_OAUTH_CLIENT = { clientId: 'portico-sandbox', clientSecret: 'portico-sandbox-secret' } as const;

/** Answers `/oauth/authorize` and `/oauth/token`; undefined for any other path. */
export function answerOAuth(request: EmulatorRequest, state: OAuthState): EmulatorReply | undefined {
  if (request.path === '/oauth/authorize' && request.method === 'GET') return authorize(request, state);
  if (request.path === '/oauth/token' && request.method === 'POST') return token(request, state);
  return undefined;
}

function authorize(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  return authorizeCode(request, {
    application: 'Lawmatics',
    codes: state.codes,
    grant: (person) => person.email,
    wording: {
      missing: 'client_id and redirect_uri are required.',
      responseType: 'The authorization server does not support this response type.',
    },
  });
}

/** Client credentials in the body (form or JSON) or, for a field the body leaves out, as HTTP Basic. */
function token(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  const params = tokenParams(request);
  const basic = basicCredentials(request);
  params.client_id ??= basic?.clientId;
  params.client_secret ??= basic?.clientSecret;
  if (params.grant_type !== 'authorization_code') {
    return oauthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.');
  }
  if (!params.client_id || !params.client_secret) return oauthError(401, 'invalid_client', 'Client authentication failed.');
  const email = state.codes.redeem(params.code, { clientId: params.client_id, redirectUri: params.redirect_uri });
  if (email === undefined) {
    return oauthError(
      400,
      'invalid_grant',
      'The provided authorization grant is invalid, expired, revoked or was issued to another client.',
    );
  }
  const accessToken = randomBytes(24).toString('base64url');
  state.tokens.set(accessToken, email);
  return jsonReply(200, { access_token: accessToken, token_type: 'Bearer', created_at: Math.floor(Date.now() / 1000) });
}
