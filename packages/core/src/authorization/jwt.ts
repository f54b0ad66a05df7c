import { createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';

/**
 * JSON Web Tokens as an external identity provider signs them (RFC 7519, JWS compact form of RFC 7515), checked with
 * node:crypto alone. Only asymmetric algorithms are taken, each bound to its key type, so that a token cannot choose
 * `none`, nor an HMAC keyed with the provider's public key. Pure functions; the keys come from jwks.ts.
 */

/** The algorithms a token may be signed with, and the key type each needs. */
export const JWT_ALGORITHMS = ['RS256', 'ES256'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

export interface DecodedJwt {
  header: { alg: string; kid?: string; typ?: string };
  payload: Record<string, unknown>;
  /** `base64url(header) + "." + base64url(payload)`: what the signature covers. */
  signingInput: string;
  signature: Buffer;
}

/** Why a token was refused: for the logs (never the caller, who gets one message for every failure). */
export class JwtRefusal extends Error {
  override readonly name = 'JwtRefusal';
}

const SEGMENT = /^[A-Za-z0-9_-]*$/;
/** The largest token looked at: real ones are a few kilobytes. */
const MAX_LENGTH = 16 * 1024;

/** Whether a bearer value has the shape of a JWS (three base64url segments, a JSON header): else it is not one. */
export function looksLikeJwt(token: string): boolean {
  const parts = token.split('.');
  // an empty signature is still a JWS's shape (`alg: none`): it is refused as a token, not taken for an API key
  return parts.length === 3 && token.startsWith('eyJ') && !!parts[1] && parts.every((part) => SEGMENT.test(part));
}

export function decodeJwt(token: string): DecodedJwt {
  if (token.length > MAX_LENGTH || !looksLikeJwt(token)) throw new JwtRefusal('not a compact JWS');
  const [head, body, signature] = token.split('.') as [string, string, string];
  const header = parseJson(head, 'header');
  const payload = parseJson(body, 'payload');
  if (typeof header.alg !== 'string') throw new JwtRefusal('the header names no alg');
  if (header.kid !== undefined && typeof header.kid !== 'string') throw new JwtRefusal('kid is not a string');
  if (header.crit !== undefined) throw new JwtRefusal('critical header parameters are not understood');
  return {
    header: header as DecodedJwt['header'],
    payload,
    signingInput: `${head}.${body}`,
    signature: Buffer.from(signature, 'base64url'),
  };
}

function parseJson(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new JwtRefusal(`the ${what} is not JSON`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new JwtRefusal(`the ${what} is not an object`);
  return value as Record<string, unknown>;
}

export const isAllowedAlgorithm = (alg: string): alg is JwtAlgorithm => (JWT_ALGORITHMS as readonly string[]).includes(alg);

/** A JWK → a public key for `alg`, or undefined when the key is not one `alg` may use (type, curve, size, use). */
export function publicKeyFor(jwk: JsonWebKey, alg: JwtAlgorithm): KeyObject | undefined {
  if (jwk.use !== undefined && jwk.use !== 'sig') return undefined;
  if (jwk.alg !== undefined && jwk.alg !== alg) return undefined;
  if (jwk.d !== undefined) return undefined; // a private key has no place in a JWKS
  if (alg === 'RS256' && jwk.kty !== 'RSA') return undefined;
  if (alg === 'ES256' && (jwk.kty !== 'EC' || jwk.crv !== 'P-256')) return undefined;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    return undefined;
  }
  if (alg === 'RS256' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) return undefined;
  return key;
}

export function signatureValid(alg: JwtAlgorithm, key: KeyObject, jwt: DecodedJwt): boolean {
  const data = Buffer.from(jwt.signingInput, 'ascii');
  if (alg === 'ES256') {
    // JWS carries ECDSA signatures as r || s (64 bytes for P-256), not DER
    return jwt.signature.length === 64 && verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, jwt.signature);
  }
  return verify('sha256', data, key, jwt.signature);
}

export interface ClaimChecks {
  issuer: string;
  /** The token's `aud` must name one of these. */
  audiences: readonly string[];
  /** Allowed clock difference for exp, nbf and iat, seconds. */
  skewSeconds: number;
  now: number;
}

/** The registered claims (RFC 7519 §4.1): issuer, audience, expiry (required), not-before, issued-at. */
export function checkClaims(payload: Record<string, unknown>, checks: ClaimChecks): void {
  const now = Math.floor(checks.now / 1000);
  if (payload.iss !== checks.issuer) throw new JwtRefusal('issuer differs');
  const aud = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (!aud.some((value) => typeof value === 'string' && checks.audiences.includes(value))) throw new JwtRefusal('audience differs');
  if (typeof payload.exp !== 'number') throw new JwtRefusal('no exp');
  if (payload.exp + checks.skewSeconds <= now) throw new JwtRefusal('expired');
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf - checks.skewSeconds > now)) {
    throw new JwtRefusal('not valid yet');
  }
  if (payload.iat !== undefined && (typeof payload.iat !== 'number' || payload.iat - checks.skewSeconds > now)) {
    throw new JwtRefusal('issued in the future');
  }
}
