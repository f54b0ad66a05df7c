import { createHash, randomBytes } from 'node:crypto';

/**
 * The wire-level pieces of the built-in authorization server: its error (OAuth's `{ error, error_description }`,
 * not the gateway's error body, since OAuth clients parse that form), token formats, PKCE, redirect-URI and
 * resource checks. Pure functions; the server (server.ts) holds the state.
 */

/** An OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2). `status` is the HTTP status of the answer. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    /** Seconds to wait before asking again (a 429), sent as `Retry-After`. */
    readonly retryAfter?: number,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** Prefixes of what the server issues: secret scanners find them, and `authenticate` tells them from API keys. */
export const ACCESS_TOKEN_PREFIX = 'portico_at_';
export const REFRESH_TOKEN_PREFIX = 'portico_rt_';
export const CODE_PREFIX = 'portico_ac_';

/** 256 bits of randomness, base64url, behind a prefix. */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** A well-formed S256 challenge (base64url of 32 bytes). */
export const isChallenge = (value: string) => CHALLENGE.test(value);

/** RFC 7636 §4.6 with S256, the only method this server takes. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  return createHash('sha256').update(verifier, 'ascii').digest('base64url') === challenge;
}

/**
 * Whether a redirect URI may be registered: https, or http on a loopback address (native and CLI clients, RFC 8252),
 * or a private-use scheme (`cursor://…`); never with a fragment or user information.
 */
export function isAcceptableRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password || value.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  return (
    /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) &&
    !['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'ws:', 'wss:', 'ftp:'].includes(url.protocol)
  );
}

/** `http://127.0.0.1:<port><rest>` or `http://[::1]:<port><rest>`: the host, and everything after the port. */
const LOOPBACK_IP_REDIRECT = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::([1-9][0-9]{0,4}))?([/?][^#]*)?$/;

/**
 * Whether an authorization request's redirect URI is one the client registered: exact string comparison (no
 * normalisation of case, path, trailing slash or user information), except that on a loopback IP literal over http
 * the port may differ (RFC 8252 §7.3: a native client listens on whatever port the system gives it). Scheme, address,
 * path and query must still be the registered ones, character for character. `localhost` is compared exactly: it is a
 * name that need not resolve to loopback, which is why RFC 8252 §8.3 advises against it.
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = LOOPBACK_IP_REDIRECT.exec(requested);
  if (!asked || Number(asked[2] ?? 80) > 65_535) return false;
  return registered.some((uri) => {
    const known = LOOPBACK_IP_REDIRECT.exec(uri);
    return known !== null && known[1] === asked[1] && (known[3] ?? '') === (asked[3] ?? '');
  });
}

/**
 * The resources (RFC 8707) a token of this gateway may be for: the gateway itself, its MCP door and its REST door.
 * A grant for any of them is good on both doors; a grant for another URL is not this gateway's.
 */
export function gatewayResources(publicUrl: string): string[] {
  const base = publicUrl.replace(/\/+$/, '');
  return [base, `${base}/`, `${base}/api/mcp`, `${base}/api/v1`];
}

export const isGatewayResource = (resource: string, publicUrl: string) => gatewayResources(publicUrl).includes(resource);
