import { isIP } from 'node:net';

// The hosts a plugin declares its upstream may hand out addresses on (`upstream.egressHosts`), checked when the plugin
// is registered; upstream/egress.ts enforces them on every request.

/** A URL's host name as compared: without IPv6 brackets and trailing dots, lowercase. */
export function normalizeHost(hostname: string): string {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return bare.replace(/\.+$/, '').toLowerCase();
}

/** A DNS host name (labels of letters, digits, `-` and `_`), lowercase. */
export const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * What is wrong with a plugin's `egressHosts`, or undefined. Each entry is a host name (`files.slack.com`), an IP
 * address, or `*.` and a domain of at least two labels (`*.slack.com`: any host below it, not slack.com itself).
 */
export function egressHostsProblem(hosts: unknown): string | undefined {
  if (hosts === undefined) return undefined;
  if (!Array.isArray(hosts)) return 'upstream.egressHosts must be an array of host names';
  for (const entry of hosts) {
    if (typeof entry !== 'string') return 'upstream.egressHosts must be an array of host names';
    const wildcard = entry.startsWith('*.');
    const name = wildcard ? entry.slice(2) : entry;
    const valid = name === name.toLowerCase() && (isIP(name) !== 0 ? !wildcard : HOST_NAME.test(name) && (!wildcard || name.includes('.')));
    if (!valid) {
      return `upstream.egressHosts: "${entry}" must be a lowercase host name, an IP address, or *.<domain> with at least two labels`;
    }
  }
  return undefined;
}
