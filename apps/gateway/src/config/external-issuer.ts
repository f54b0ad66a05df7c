import type { ExternalIssuerOptions } from '@portico/core';
import type { EnvironmentReader } from './reader.js';

/**
 * PORTICO_OAUTH_ISSUER (the provider's `iss`, exactly), PORTICO_OAUTH_AUDIENCE, PORTICO_OAUTH_JWKS_URL and
 * PORTICO_OAUTH_CLAIM; the companions without the issuer are a mistake worth saying.
 */
export function externalIssuer(env: EnvironmentReader, problems: string[]): ExternalIssuerOptions | undefined {
  const issuer = env.read('PORTICO_OAUTH_ISSUER') || undefined;
  const companions = (
    ['PORTICO_OAUTH_AUDIENCE', 'PORTICO_OAUTH_JWKS_URL', 'PORTICO_OAUTH_CLAIM', 'PORTICO_OAUTH_JWKS_REFETCH_SECONDS'] as const
  ).filter((name) => env.read(name));
  if (!issuer) {
    if (companions.length > 0) problems.push(`${companions.join(', ')} need PORTICO_OAUTH_ISSUER`);
    return undefined;
  }
  for (const [name, value] of [
    ['PORTICO_OAUTH_ISSUER', issuer],
    ['PORTICO_OAUTH_JWKS_URL', env.read('PORTICO_OAUTH_JWKS_URL')],
  ] as const) {
    if (!value) continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(value);
    } catch {}
    const loopback = parsed?.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(parsed.hostname);
    if (parsed?.protocol !== 'https:' && !loopback) problems.push(`${name} must be an https URL (got "${value}")`);
  }
  const claim = env.read('PORTICO_OAUTH_CLAIM') || undefined;
  if (claim !== undefined && !/^[A-Za-z0-9_.:/-]{1,100}$/.test(claim)) problems.push('PORTICO_OAUTH_CLAIM must be a claim name');
  const floor = env.int('PORTICO_OAUTH_JWKS_REFETCH_SECONDS');
  return {
    issuer,
    jwksRefetchFloorMs: floor * 1000,
    audience: env.read('PORTICO_OAUTH_AUDIENCE') || undefined,
    jwksUri: env.read('PORTICO_OAUTH_JWKS_URL') || undefined,
    claim,
  };
}
