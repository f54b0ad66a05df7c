import { GatewayError } from './errors.js';
import type { RegisteredIntegration, Registry } from './registry.js';

/** The registered integration of `service`, or `not_found`. */
export function requireIntegration(registry: Registry, service: string): RegisteredIntegration {
  const integration = registry.get(service);
  if (!integration) throw new GatewayError('not_found', `Unknown service "${service}"`);
  return integration;
}

export function assertHttpUrl(value: string, what: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new GatewayError('bad_request', `${what} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GatewayError('bad_request', `${what} must be http or https`);
}
