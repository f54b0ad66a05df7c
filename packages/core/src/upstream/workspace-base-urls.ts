import { BlockList, isIP } from 'node:net';
import { HOST_NAME, normalizeHost } from '../contract/egress-hosts.js';
import type { Plugin } from '../contract/plugin.js';
import { GatewayError } from '../errors.js';
import type { EgressPolicy } from './egress.js';

/**
 * Base URLs a workspace stores for an integration (admin API, dashboard form, `portico integrations configure`).
 *
 * With workspaces, whoever sets such a URL is a tenant, not the operator: the URL must not turn the gateway inward
 * (its metrics port, a sidecar, the cloud's metadata), nor carry the workspace's upstream token there. So a stored
 * base URL, besides the egress policy every base URL meets (egress.ts), must:
 * - carry no user name or password, and no `?` or `#` (which would swallow the operation's path);
 * - point at one of the plugin's own hosts: the host of its default base URL and the hosts it declares
 *   (`upstream.egressHosts`) — or at a host the operator approves (`PORTICO_WORKSPACE_UPSTREAM_HOSTS`: names,
 *   `*.domain`, addresses, CIDR ranges, or `any`). An IP literal (loopback, `[::1]`, decimal or octal forms, which
 *   URL parsing turns into dotted ones, private, link-local) and any other name (one resolving to loopback included)
 *   is refused unless approved.
 * The check runs when the URL is stored and again before every call that would use a stored one (a value stored before
 * this rule, or straight into the database, is refused too). The operator's own base URLs
 * (`PORTICO_<SERVICE>_BASE_URL`, sandboxes) are not workspace URLs: they keep working as before.
 */
export type WorkspaceHosts = 'any' | readonly string[];

/** Reads `PORTICO_WORKSPACE_UPSTREAM_HOSTS`: none (default), `any`, or a comma-separated list. Throws on a bad entry. */
export function parseWorkspaceHosts(raw: string | undefined): 'any' | string[] | undefined {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'none') return undefined;
  if (value === 'any') return 'any';
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!entryValid(entry)) {
      throw new Error(
        `"${entry}" is not a host name, *.domain, an IP address or a CIDR range (any, none, or a comma-separated list of them)`,
      );
    }
  }
  return entries;
}

function entryValid(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const host = normalizeHost(address);
  if (prefix !== undefined) {
    const max = isIP(host) === 4 ? 32 : isIP(host) === 6 ? 128 : -1;
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= max;
  }
  if (host.startsWith('*.')) return HOST_NAME.test(host.slice(2)) && host.slice(2).includes('.');
  return isIP(host) !== 0 || HOST_NAME.test(host);
}

export class WorkspaceBaseUrls {
  private readonly any: boolean;
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly addresses = new BlockList();
  private readonly declared = new WeakMap<Plugin, { hosts: string[]; match: (hostname: string) => boolean }>();

  constructor(
    private readonly egress: EgressPolicy,
    approved: WorkspaceHosts | undefined,
  ) {
    this.any = approved === 'any';
    for (const entry of approved === 'any' || approved === undefined ? [] : approved) {
      const [address, prefix] = entry.toLowerCase().split('/') as [string, string | undefined];
      const host = normalizeHost(address);
      const family = isIP(host);
      if (family !== 0)
        this.addresses.addSubnet(host, prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
      else if (host.startsWith('*.')) this.suffixes.push(host.slice(1));
      else this.names.add(host);
    }
  }

  /** Why `value` may not be stored as `plugin`'s base URL by a workspace (`what` names it), or undefined. */
  problem(plugin: Plugin, value: string, what: string): string | undefined {
    const general = this.egress.baseUrlProblem(value, what);
    if (general) return general;
    if (value.includes('?') || value.includes('#')) {
      return `${what} may not contain "?" or "#": the operation's path is appended to it`;
    }
    const url = new URL(value); // parses: the egress policy said so
    const authority = value.slice(value.indexOf('//') + 2).split('/')[0] ?? '';
    if (url.username !== '' || url.password !== '' || authority.includes('@')) {
      return `${what} may not carry a user name or password`;
    }
    const hostname = normalizeHost(url.hostname);
    if (this.approved(hostname)) return undefined;
    const own = this.declaredHosts(plugin);
    if (isIP(hostname) === 0 && own.match(hostname)) return undefined;
    return `${what} points at ${hostname}, which is not one of ${plugin.displayName}'s hosts (${own.hosts.join(', ')}): a workspace may point it only there, or at hosts the operator approves with PORTICO_WORKSPACE_UPSTREAM_HOSTS`;
  }

  /** Throws `code` (400 when a workspace stores it, 502 when a stored one would be used) unless `value` may be stored. */
  assert(plugin: Plugin, value: string, what: string, code: 'bad_request' | 'upstream_error'): void {
    const problem = this.problem(plugin, value, what);
    if (problem) throw new GatewayError(code, problem);
  }

  private approved(hostname: string): boolean {
    if (this.any || this.names.has(hostname)) return true;
    const family = isIP(hostname);
    if (family !== 0) return this.addresses.check(hostname, family === 6 ? 'ipv6' : 'ipv4');
    return this.suffixes.some((suffix) => hostname.endsWith(suffix));
  }

  private declaredHosts(plugin: Plugin): { hosts: string[]; match: (hostname: string) => boolean } {
    let found = this.declared.get(plugin);
    if (!found) {
      const hosts: string[] = [];
      const base = plugin.upstream.baseUrl;
      try {
        // a base URL computed from the connection: its default (no connection facts) names the plugin's host
        hosts.push(normalizeHost(new URL(typeof base === 'function' ? base({}) : base).hostname));
      } catch {
        // no default host: only the declared ones
      }
      hosts.push(...(plugin.upstream.egressHosts ?? []).map((entry) => entry.toLowerCase()));
      const exact = new Set(hosts.filter((h) => !h.startsWith('*.')).map(normalizeHost));
      const suffixes = hosts.filter((h) => h.startsWith('*.')).map((h) => h.slice(1));
      found = { hosts, match: (hostname) => exact.has(hostname) || suffixes.some((suffix) => hostname.endsWith(suffix)) };
      this.declared.set(plugin, found);
    }
    return found;
  }
}
