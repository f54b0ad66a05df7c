import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, errors, decodeJwt as joseDecodeJwt, jwtVerify } from 'jose';

/**
 * JSON Web Tokens as an external identity provider signs them (RFC 7519, JWS compact form of RFC 7515). Signatures and
 * registered claims are checked by `jose`; what is ours is the policy: only asymmetric algorithms are taken, each bound
 * to its key type, so that a token cannot choose `none`, nor an HMAC keyed with the provider's public key. The keys come
 * from jwks.ts.
 */

/** The algorithms a token may be signed with, and the key type each needs. */
export const JWT_ALGORITHMS = ['RS256', 'ES256'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

export interface DecodedJwt {
  header: { alg: string; kid?: string; typ?: string };
  payload: Record<string, unknown>;
  /** The compact token itself, which `jose` verifies. */
  token: string;
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

/** The header and claims of a token, unverified: enough to pick the algorithm and the key. */
export function decodeJwt(token: string): DecodedJwt {
  if (token.length > MAX_LENGTH || !looksLikeJwt(token)) throw new JwtRefusal('not a compact JWS');
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(token);
    payload = joseDecodeJwt(token);
  } catch (error) {
    throw new JwtRefusal(`not a JWT: ${error instanceof Error ? error.message : 'undecodable'}`);
  }
  if (typeof header.alg !== 'string') throw new JwtRefusal('the header names no alg');
  if (header.kid !== undefined && typeof header.kid !== 'string') throw new JwtRefusal('kid is not a string');
  if (header.crit !== undefined) throw new JwtRefusal('critical header parameters are not understood');
  return { header: header as DecodedJwt['header'], payload, token };
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

/** Whether `key` signed the token with `alg` (the signature only; `verifyJwt` checks the claims too). */
export async function signatureValid(alg: JwtAlgorithm, key: KeyObject, jwt: DecodedJwt): Promise<boolean> {
  try {
    await compactVerify(jwt.token, key, { algorithms: [alg] });
    return true;
  } catch (error) {
    if (error instanceof errors.JOSEError) return false;
    throw error;
  }
}

export interface ClaimChecks {
  issuer: string;
  /** The token's `aud` must name one of these. */
  audiences: readonly string[];
  /** Allowed clock difference for exp, nbf and iat, seconds. */
  skewSeconds: number;
  now: number;
}

/**
 * The token's claims once one of `keys` verifies its signature with `alg`, and its registered claims (RFC 7519 §4.1)
 * hold: issuer, audience, expiry (required), not-before, issued-at, each with the allowed clock difference.
 */
export async function verifyJwt(
  jwt: DecodedJwt,
  alg: JwtAlgorithm,
  keys: readonly JsonWebKey[],
  checks: ClaimChecks,
): Promise<Record<string, unknown>> {
  const options = {
    algorithms: [alg],
    issuer: checks.issuer,
    audience: [...checks.audiences],
    clockTolerance: checks.skewSeconds,
    currentDate: new Date(checks.now),
    requiredClaims: ['exp'],
  };
  for (const jwk of keys) {
    const key = publicKeyFor(jwk, alg);
    if (!key) continue;
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(jwt.token, key, options));
    } catch (error) {
      if (error instanceof errors.JWSSignatureVerificationFailed) continue;
      if (error instanceof errors.JOSEError) throw new JwtRefusal(error.message);
      throw error;
    }
    // jose checks `iat` only against a maximum age; a token issued in the future is refused here
    if (typeof payload.iat === 'number' && payload.iat - checks.skewSeconds > Math.floor(checks.now / 1000)) {
      throw new JwtRefusal('issued in the future');
    }
    return payload;
  }
  throw new JwtRefusal('bad signature');
}
