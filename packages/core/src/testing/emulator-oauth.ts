import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { type EmulatorReply, type EmulatorRequest, isJsonObject, jsonReply } from './emulator-http.js';
import type { FirmPerson } from './firm.js';
import { firmSignIn } from './firm-sign-in.js';

// The emulator kit's OAuth 2.0 pieces (RFC 6749, authorization code grant): what every sandbox application's
// authorization server does alike. What an application does its own way (the shape of its token answer, refresh and
// rotation, its errors' words, which client credentials it takes) stays in the plugin's sandbox. `emulator.ts` is the
// kit's entry and re-exports these.

/** The standard OAuth error answer (RFC 6749 §5.2): `{ error, error_description }`, the description left out when empty. */
export function oauthError(
  status: number,
  error: string,
  description?: string,
  more: { fields?: Record<string, unknown>; headers?: Record<string, string> } = {},
): EmulatorReply {
  return jsonReply(status, { error, ...(description ? { error_description: description } : {}), ...more.fields }, more.headers);
}

/** The 302 that sends the browser back to `target` with `params` added in order (an undefined one is left out). */
export function redirectBack(target: string | URL, params: Record<string, string | undefined>): EmulatorReply {
  const back = new URL(target);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) back.searchParams.set(name, value);
  return { status: 302, body: '', contentType: 'text/plain; charset=utf-8', headers: { location: back.toString() } };
}

// ---- codes ----------------------------------------------------------------------------------------------------------

export interface AuthorizationCodesOptions {
  /** Mints a code (default 16 random bytes in hex). */
  mint?: () => string;
  /** How long a code waits for its exchange, in milliseconds (default: until it is used). */
  ttlMs?: number;
  /** Whether a failed exchange spends the code too (default: only a successful one does). */
  spentOnFailure?: boolean;
}

/**
 * The codes an authorization server has handed out and not yet exchanged, each with what the plugin keeps of its grant
 * (`G`: who signed in, the scope…). A code is good once, for the client it was issued to and with the same
 * `redirect_uri` (RFC 6749 §4.1.3).
 */
export class AuthorizationCodes<G> {
  private readonly codes = new Map<string, { clientId: string; redirectUri: string; expiresAt: number; grant: G }>();

  constructor(private readonly options: AuthorizationCodesOptions = {}) {}

  /** Mints a code for `grant`, issued to this client for this redirect URI. */
  issue(to: { clientId: string; redirectUri: string }, grant: G): string {
    const code = this.options.mint?.() ?? randomBytes(16).toString('hex');
    const expiresAt = this.options.ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + this.options.ttlMs;
    this.codes.set(code, { clientId: to.clientId, redirectUri: to.redirectUri, expiresAt, grant });
    return code;
  }

  /**
   * The grant of `code` when it was issued to `by.clientId` for `by.redirectUri` and has not expired; the code is spent
   * then. Undefined otherwise (an unknown, used, expired code, or one of another client or redirect URI).
   */
  redeem(code: string | undefined, by: { clientId: string | undefined; redirectUri: string | undefined }): G | undefined {
    const issued = this.codes.get(code ?? '');
    if (this.options.spentOnFailure) this.codes.delete(code ?? '');
    if (!issued || issued.expiresAt < Date.now() || issued.clientId !== by.clientId || issued.redirectUri !== by.redirectUri) {
      return undefined;
    }
    this.codes.delete(code as string);
    return issued.grant;
  }
}

// ---- the authorize step ---------------------------------------------------------------------------------------------

export interface AuthorizeCodeOptions<G> {
  /** The application's name on the sign-in page (see firmSignIn). */
  application: string;
  codes: AuthorizationCodes<G>;
  /** What the code's grant keeps of the person who signed in. */
  grant(person: FirmPerson): G;
  /** The `error_description`s, in the application's words. */
  wording: {
    /** `invalid_request`: `client_id` or `redirect_uri` missing (or not a URL). */
    missing: string;
    /** `unsupported_response_type`: `response_type` is not `code`. */
    responseType: string;
  };
}

/**
 * `GET …/authorize` of the authorization code grant (RFC 6749 §4.1.1), for an application that takes any client: reads
 * `client_id`, `redirect_uri` and `response_type=code` (400 with the standard error otherwise), signs a person of the
 * firm in (firmSignIn: the sign-in page while nobody is chosen), and sends the browser back to `redirect_uri` with a
 * new `code` and the `state` it was given (the sandbox consents at once).
 */
export function authorizeCode<G>(request: EmulatorRequest, options: AuthorizeCodeOptions<G>): EmulatorReply {
  const clientId = request.query.get('client_id') ?? '';
  const redirectUri = request.query.get('redirect_uri') ?? '';
  if (!clientId || !URL.canParse(redirectUri)) return oauthError(400, 'invalid_request', options.wording.missing);
  if (request.query.get('response_type') !== 'code') return oauthError(400, 'unsupported_response_type', options.wording.responseType);
  const signedIn = firmSignIn(request, options.application);
  if ('page' in signedIn) return signedIn.page;
  const code = options.codes.issue({ clientId, redirectUri }, options.grant(signedIn.person));
  return redirectBack(redirectUri, { code, state: request.query.get('state') || undefined });
}

// ---- the token request ----------------------------------------------------------------------------------------------

/**
 * The parameters of a token request: its form (RFC 6749 §4.1.3) or, where the body is JSON, the object's fields with
 * each value as text. Malformed JSON throws InvalidJsonError (see parseJson).
 */
export function tokenParams(request: EmulatorRequest): Record<string, string | undefined> {
  if (!request.mediaType().includes('json')) return request.form();
  const body = request.json();
  return isJsonObject(body) ? Object.fromEntries(Object.entries(body).map(([name, value]) => [name, String(value)])) : {};
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The client credentials of a request's HTTP Basic authorization: the id and secret, each form-URL-decoded as RFC 6749
 * §2.3.1 has them encoded. Undefined without such a header, or when it is not `id:secret` or does not decode.
 */
export function basicCredentials(request: EmulatorRequest): ClientCredentials | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(String(request.headers.authorization ?? '').trim())?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
