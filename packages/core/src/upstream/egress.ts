import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { HOST_NAME, normalizeHost } from '../contract/egress-hosts.js';
import type { UpstreamRequest } from '../contract/operation.js';
import type { Plugin } from '../contract/plugin.js';
import { GatewayError } from '../errors.js';

/**
 * The egress policy: where the gateway may send upstream requests.
 *
 * - An address an upstream hands out (an upload URL, a paging link) is requested only on the host of the
 *   integration's base URL or on a host the plugin declares (`upstream.egressHosts`), before any connection opens.
 * - A base URL (the operator's override or the plugin's own) may not point at a link-local address (169.254.0.0/16,
 *   fe80::/10), a cloud metadata address or name, or an IPv6 special-purpose address that tunnels or translates to an
 *   IPv4 address or reaches the network's own services ({@link SPECIAL_IPV6_RANGES}), unless the operator allows it
 *   (`allowPrivate`); loopback and the private ranges stay allowed (upstream proxies and sandboxes live there).
 * - At connection time, every address a host name resolves to is checked the same way (a name that resolves to
 *   169.254.169.254 is refused), through the `lookup` given to the upstream client's agents.
 */
export interface EgressOptions {
  /**
   * Link-local and metadata destinations the operator allows anyway (`PORTICO_EGRESS_ALLOW_PRIVATE`): `'all'`, or
   * host names, IP addresses and CIDR ranges (`169.254.10.0/24`). Default: none.
   */
  allowPrivate?: 'all' | readonly string[];
  /**
   * Hosts a workspace may point an integration's stored base URL at besides the plugin's own
   * (`PORTICO_WORKSPACE_UPSTREAM_HOSTS`): `'any'`, or names, `*.domain`, addresses and CIDR ranges. Default: none
   * (workspace-base-urls.ts).
   */
  workspaceHosts?: 'any' | readonly string[];
  /** Resolves a host name to all its addresses at connection time. Default: `dns.lookup`. Tests inject one. */
  resolve?: Resolver;
}

export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** The `code` of the network error a refused name gives (the upstream client maps it to 502, without retrying). */
export const EGRESS_REFUSED = 'EPORTICOEGRESS';

/** Cloud metadata and host-platform endpoints, refused whatever range they are in. */
export const METADATA_ADDRESSES: readonly string[] = [
  '169.254.169.254', // AWS, GCP, Azure, OCI, OpenStack, DigitalOcean instance metadata
  '169.254.170.2', // AWS ECS task metadata and credentials
  'fd00:ec2::254', // AWS instance metadata over IPv6
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (classic)
  '168.63.129.16', // Azure WireServer (host platform)
];

/** Names of metadata services (a trailing dot and letter case do not matter). */
export const METADATA_HOSTNAMES: readonly string[] = [
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
];

/**
 * IPv6 ranges of IANA's special-purpose registry refused besides link-local: those that carry an IPv4 address to a
 * tunnel or translator the gateway cannot see through (which could lead to 169.254.169.254), and the anycast addresses
 * of the network's own services. The rest of the registry is allowed as its IPv4 counterparts are: `::1` (loopback,
 * exempt from `::/96` with `::`), `::ffff:0:0/96` (IPv4-mapped: checked as the IPv4 address it is), `64:ff9b::/96`
 * (well-known NAT64: only public IPv4 behind it, so each refused IPv4 range is refused in it too), `fc00::/7` (unique
 * local, the private range), and ranges no connection reaches (`100::/64` discard, `100:0:0:1::/64` dummy,
 * `2001:2::/48` benchmarking, `2001:db8::/32` and `3fff::/20` documentation, ORCHID, AMT, AS112, `5f00::/16` SRv6).
 */
export const SPECIAL_IPV6_RANGES: ReadonlyArray<readonly [address: string, prefix: number, name: string]> = [
  ['::', 96, 'IPv4-compatible (deprecated)'],
  ['2002::', 16, '6to4'],
  ['2001::', 32, 'Teredo'],
  ['64:ff9b:1::', 48, 'local-use NAT64'],
  ['2001:1::1', 128, 'Port Control Protocol anycast'],
  ['2001:1::2', 128, 'TURN anycast'],
  ['2001:1::3', 128, 'DNS-SD service registration anycast'],
];

type Refusal = 'link-local' | 'metadata' | 'special-purpose';

const REFUSAL_TEXT: Record<Refusal, string> = {
  'link-local': 'a link-local address (169.254.0.0/16, fe80::/10)',
  metadata: 'a cloud metadata address',
  'special-purpose': `an IPv6 special-purpose address (${SPECIAL_IPV6_RANGES.map(([address, prefix, name]) => `${name} ${address}/${prefix}`).join(', ')})`,
};

const METADATA_NAMES = new Set(METADATA_HOSTNAMES);
const METADATA_BLOCK = new BlockList();
const LINK_LOCAL_BLOCK = new BlockList();
for (const address of METADATA_ADDRESSES) addRange(METADATA_BLOCK, address, isIP(address) === 6 ? 128 : 32);
addRange(LINK_LOCAL_BLOCK, '169.254.0.0', 16);
addRange(LINK_LOCAL_BLOCK, 'fe80::', 10);
const SPECIAL_BLOCK = new BlockList();
for (const [address, prefix] of SPECIAL_IPV6_RANGES) SPECIAL_BLOCK.addSubnet(address, prefix, 'ipv6');
/** `::` and `::1`, inside `::/96`: the unspecified address and loopback, allowed as 0.0.0.0 and 127.0.0.1 are. */
const SPECIAL_EXEMPT = new BlockList();
SPECIAL_EXEMPT.addSubnet('::', 127, 'ipv6');

/** Adds a range, and for IPv4 also its NAT64 form (64:ff9b::/96), which reaches the same address. */
export function addRange(list: BlockList, address: string, prefix: number): void {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  list.addSubnet(address, prefix, family);
  if (family === 'ipv4') {
    const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    list.addSubnet(`64:ff9b::${hex(a, b)}:${hex(c, d)}`, 96 + prefix, 'ipv6');
  }
}

/** Reads `PORTICO_EGRESS_ALLOW_PRIVATE`: off (default), on, or a list of names, addresses and ranges. Throws on a bad entry. */
export function parseEgressAllowance(raw: string | undefined): 'all' | string[] | undefined {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'off' || value === '0' || value === 'false') return undefined;
  if (value === 'on' || value === '1' || value === 'true' || value === 'all') return 'all';
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!allowanceEntryValid(entry)) {
      throw new Error(`"${entry}" is not a host name, an IP address or a CIDR range (on, off, or a comma-separated list of them)`);
    }
  }
  return entries;
}

function allowanceEntryValid(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  if (prefix !== undefined) {
    const bits = Number(prefix);
    const max = isIP(address) === 4 ? 32 : isIP(address) === 6 ? 128 : -1;
    return /^\d{1,3}$/.test(prefix) && bits >= 0 && bits <= max;
  }
  return isIP(normalizeHost(address)) !== 0 || HOST_NAME.test(normalizeHost(address));
}

interface BaseFacts {
  /** `host` of the base URL (name and non-default port), as an absolute URL on it must have. */
  host: string;
  hostname: string;
  /** Why requests may not go there (an unparsable URL, another scheme), or a refused destination. */
  problem?: { invalid: string } | { refusal: Refusal };
}

/** Cached facts about base URLs: a handful exist per gateway; the bound only guards against unbounded growth. */
const BASE_CACHE_LIMIT = 1_000;

export class EgressPolicy {
  private readonly allowAll: boolean;
  private readonly allowedNames = new Set<string>();
  private readonly allowedAddresses = new BlockList();
  private readonly resolve: Resolver;
  private readonly bases = new Map<string, BaseFacts>();
  private readonly matchers = new WeakMap<Plugin, (hostname: string) => boolean>();

  constructor(options: EgressOptions = {}) {
    this.allowAll = options.allowPrivate === 'all';
    if (Array.isArray(options.allowPrivate)) {
      for (const entry of options.allowPrivate as readonly string[]) {
        const [address, prefix] = entry.split('/') as [string, string | undefined];
        const family = isIP(normalizeHost(address));
        if (family === 0) this.allowedNames.add(normalizeHost(address));
        else {
          const ip = normalizeHost(address);
          this.allowedAddresses.addSubnet(
            ip,
            prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix),
            family === 6 ? 'ipv6' : 'ipv4',
          );
        }
      }
    }
    this.resolve = options.resolve ?? ((hostname, lookupOptions, callback) => dnsLookup(hostname, lookupOptions, callback));
  }

  /** Why `value` may not be a base URL (`what` names it in the message), or undefined. */
  baseUrlProblem(value: string, what: string): string | undefined {
    const facts = this.baseFacts(value);
    return facts.problem ? problemText(what, facts.hostname, facts.problem) : undefined;
  }

  /** Throws `code` (400 for an administrator's input) unless `value` may be a base URL. */
  assertBaseUrl(value: string, what: string, code: 'bad_request' | 'upstream_error' = 'bad_request'): void {
    const problem = this.baseUrlProblem(value, what);
    if (problem) throw new GatewayError(code, problem);
  }

  /**
   * Before a request of `plugin` opens a connection: its base URL must be allowed, and an absolute URL (handed out by
   * the upstream) must be on the base URL's host or one of the plugin's `egressHosts`. Otherwise 502 `upstream_error`.
   * Facts about a base URL are computed once; a request to a relative path costs one map lookup.
   */
  assertRequest(plugin: Plugin, request: UpstreamRequest, baseUrl: string): void {
    const base = this.baseFacts(baseUrl);
    if (base.problem)
      throw new GatewayError('upstream_error', problemText(`The base URL of ${plugin.displayName}`, base.hostname, base.problem));
    if (request.url === undefined) return;
    const url = new URL(request.url); // its scheme was checked before: it parses
    const hostname = normalizeHost(url.hostname);
    const refusal = this.refusalOfHost(hostname);
    if (refusal) {
      throw new GatewayError(
        'upstream_error',
        `${plugin.displayName} handed out an address on ${hostname}, ${REFUSAL_TEXT[refusal]}; it was not requested`,
      );
    }
    if (url.host === base.host || this.matcher(plugin)(hostname)) return;
    const hosts = [base.hostname, ...(plugin.upstream.egressHosts ?? [])].join(', ');
    throw new GatewayError(
      'upstream_error',
      `${plugin.displayName} handed out an address on ${hostname}, outside the hosts it may hand out (${hosts}); it was not requested`,
    );
  }

  /**
   * The `lookup` of the upstream client's agents: resolves every address of a name and refuses the name when any of
   * them is link-local or a metadata address (a DNS answer cannot lead a request there), with {@link EGRESS_REFUSED}.
   */
  readonly lookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
    const name = normalizeHost(hostname);
    const refusal = this.refusalOfHost(name);
    if (refusal) {
      callback(refused(`${name} is ${REFUSAL_TEXT[refusal]}`), '', 0);
      return;
    }
    const trusted = this.allowAll || this.allowedNames.has(name);
    this.resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' }), '', 0);
      for (const { address } of trusted ? [] : addresses) {
        const found = this.refusalOfAddress(address);
        if (found) return callback(refused(`${name} resolves to ${address}, ${REFUSAL_TEXT[found]}`), '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };

  private baseFacts(value: string): BaseFacts {
    let facts = this.bases.get(value);
    if (facts) return facts;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      facts = { host: '', hostname: '', problem: { invalid: 'is not a valid URL' } };
    }
    if (url) {
      const hostname = normalizeHost(url.hostname);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        facts = { host: url.host, hostname, problem: { invalid: `is not http or https (got "${url.protocol}")` } };
      } else {
        const refusal = this.refusalOfHost(hostname);
        facts = { host: url.host, hostname, ...(refusal ? { problem: { refusal } } : {}) };
      }
    }
    if (this.bases.size >= BASE_CACHE_LIMIT) this.bases.clear();
    this.bases.set(value, facts as BaseFacts);
    return facts as BaseFacts;
  }

  private matcher(plugin: Plugin): (hostname: string) => boolean {
    let match = this.matchers.get(plugin);
    if (!match) {
      const exact = new Set<string>();
      const suffixes: string[] = [];
      for (const entry of plugin.upstream.egressHosts ?? []) {
        if (entry.startsWith('*.')) suffixes.push(entry.slice(1));
        else exact.add(normalizeHost(entry));
      }
      match = (hostname) => exact.has(hostname) || (isIP(hostname) === 0 && suffixes.some((suffix) => hostname.endsWith(suffix)));
      this.matchers.set(plugin, match);
    }
    return match;
  }

  /** A normalised host name or IP literal: refused, and why; undefined when allowed. */
  private refusalOfHost(hostname: string): Refusal | undefined {
    if (this.allowAll || this.allowedNames.has(hostname)) return undefined;
    if (isIP(hostname) !== 0) return this.refusalOfAddress(hostname);
    return METADATA_NAMES.has(hostname) ? 'metadata' : undefined;
  }

  private refusalOfAddress(address: string): Refusal | undefined {
    if (this.allowAll) return undefined;
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (this.allowedAddresses.check(address, family)) return undefined;
    if (METADATA_BLOCK.check(address, family)) return 'metadata';
    if (LINK_LOCAL_BLOCK.check(address, family)) return 'link-local';
    if (family === 'ipv6' && SPECIAL_BLOCK.check(address, family) && !SPECIAL_EXEMPT.check(address, family)) return 'special-purpose';
    return undefined;
  }
}

function problemText(what: string, hostname: string, problem: NonNullable<BaseFacts['problem']>): string {
  if ('invalid' in problem) return `${what} ${problem.invalid}`;
  return `${what} points at ${hostname}, ${REFUSAL_TEXT[problem.refusal]}: the gateway does not send requests there unless PORTICO_EGRESS_ALLOW_PRIVATE allows it`;
}

function refused(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${message}: the gateway does not connect there unless PORTICO_EGRESS_ALLOW_PRIVATE allows it`), {
    code: EGRESS_REFUSED,
  });
}
