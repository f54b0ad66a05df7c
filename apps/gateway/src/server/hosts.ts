import { ConfigError, type GatewayConfig } from '../config/load.js';

/**
 * Which Host and Origin names the gateway answers on /api (and the dashboard): the guard against DNS rebinding, where
 * a web page reaches a gateway on loopback through a host name it controls.
 */

export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** `name`, `name:port` or `[v6]:port` → lowercase name without port. */
function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.split(':')[0] ?? '';
}

export function originHost(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}

export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.includes(hostName(host));
}

/**
 * Which Host/Origin names /api accepts: the operator's list (PORTICO_ALLOWED_HOSTS, `*` for any); else loopback names,
 * the interface's address and the public URL's host. On an interface other than loopback, the gateway is reached
 * under names it cannot guess, and accepting any would leave it open to DNS rebinding: it needs PORTICO_PUBLIC_URL or
 * PORTICO_ALLOWED_HOSTS, and refuses to start without either.
 */
export function allowedHosts(config: GatewayConfig): readonly string[] | '*' {
  if (config.allowedHosts) return config.allowedHosts.includes('*') ? '*' : config.allowedHosts;
  const loopback = config.host === 'localhost' || config.host === '::1' || config.host.startsWith('127.');
  if (!loopback && !config.publicUrl) {
    throw new ConfigError(
      `PORTICO_HOST=${config.host} accepts clients from the network: set PORTICO_PUBLIC_URL or PORTICO_ALLOWED_HOSTS ` +
        '(the address clients use, or the host names they may use; * for any), so that requests naming a foreign host are refused',
    );
  }
  const names = [...LOOPBACK_HOSTS];
  if (loopback || !isWildcard(config.host)) names.push(config.host.includes(':') ? `[${config.host}]` : config.host.toLowerCase());
  if (config.publicUrl) names.push(new URL(config.publicUrl).hostname.toLowerCase());
  return names;
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '[::]';
