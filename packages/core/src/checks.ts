import { GatewayError } from './errors.js';
import type { RegisteredIntegration, Registry } from './registry.js';

/** The registered integration of `service`, or `not_found`. */
export function requireIntegration(registry: Registry, service: string): RegisteredIntegration {
  const integration = registry.get(service);
  if (!integration) throw new GatewayError('not_found', `Unknown service "${service}"`);
  return integration;
}

/**
 * Throws unless `value` is an http or https URL. `code` says whose fault it is: the caller's (`bad_request`, a base URL
 * an admin sets) or the upstream's (`upstream_error`, an address an upstream handed out).
 */
export function assertHttpUrl(value: string, what: string, code: 'bad_request' | 'upstream_error' = 'bad_request'): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new GatewayError(code, `${what} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GatewayError(code, `${what} is not http or https`);
}
