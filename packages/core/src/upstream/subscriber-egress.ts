import { lookup as dnsLookup, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { normalizeHost } from '../contract/egress-hosts.js';
import { addRange, EGRESS_REFUSED, METADATA_ADDRESSES, METADATA_HOSTNAMES, type Resolver, SPECIAL_IPV6_RANGES } from './egress.js';

/**
 * Where event deliveries may go (docs/adr/0041-outbound-subscriptions.md). A subscriber URL is a workspace's, not the
 * operator's, so it is held tighter than an upstream base URL: besides link-local, metadata and the IPv6
 * special-purpose ranges, loopback, the private ranges, shared address space, multicast and the unspecified addresses are
 * refused too, both as the URL's host and as any address its name resolves to at connection time, unless the operator
 * allows the destination (`PORTICO_EGRESS_ALLOW_PRIVATE`: `all`, or names, addresses and ranges).
 */
const INTERNAL: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3], // multicast, reserved, broadcast
  ['::', 127], // unspecified and loopback
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ...SPECIAL_IPV6_RANGES.map(([address, prefix]) => [address, prefix] as const),
  ...METADATA_ADDRESSES.map((address) => [address, isIP(address) === 6 ? 128 : 32] as const),
];
const BLOCK = new BlockList();
for (const [address, prefix] of INTERNAL) addRange(BLOCK, address, prefix);
const INTERNAL_NAMES = new Set([...METADATA_HOSTNAMES, 'localhost']);
const LOOPBACK = new BlockList();
addRange(LOOPBACK, '127.0.0.0', 8);
LOOPBACK.addAddress('::1', 'ipv6');

export interface SubscriberEgressOptions {
  /** `PORTICO_EGRESS_ALLOW_PRIVATE`, parsed (upstream/egress.ts): the internal destinations the operator allows. */
  allowPrivate?: 'all' | readonly string[];
  resolve?: Resolver;
}

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

export class SubscriberEgress {
  private readonly allowAll: boolean;
  private readonly allowedNames = new Set<string>();
  private readonly allowedAddresses = new BlockList();
  private readonly resolve: Resolver;

  constructor(options: SubscriberEgressOptions = {}) {
    this.allowAll = options.allowPrivate === 'all';
    for (const entry of Array.isArray(options.allowPrivate) ? (options.allowPrivate as readonly string[]) : []) {
      const [address, prefix] = entry.split('/') as [string, string | undefined];
      const host = normalizeHost(address);
      if (isIP(host) === 0) this.allowedNames.add(host);
      else this.allowedAddresses.addSubnet(host, prefix === undefined ? (isIP(host) === 6 ? 128 : 32) : Number(prefix), familyOf(host));
    }
    this.resolve = options.resolve ?? ((hostname, lookupOptions, callback) => dnsLookup(hostname, lookupOptions, callback));
  }

  /** Whether the operator allows an internal destination: the name itself, or an address. */
  private allowed(host: string): boolean {
    return this.allowAll || this.allowedNames.has(host) || (isIP(host) !== 0 && this.allowedAddresses.check(host, familyOf(host)));
  }

  private internal(host: string): boolean {
    if (isIP(host) !== 0) return BLOCK.check(host, familyOf(host));
    return INTERNAL_NAMES.has(host) || host.endsWith('.localhost');
  }

  /**
   * Why `value` may not be a subscriber URL, or undefined. https, or http to a loopback destination the operator
   * allows (a subscriber on the gateway's own host); no user name or password, no fragment; not internal unless allowed.
   */
  urlProblem(value: string): string | undefined {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'url is not a valid URL';
    }
    const host = normalizeHost(url.hostname);
    if (url.username || url.password) return 'url may not carry a user name or password';
    if (url.hash) return 'url may not have a fragment (#…)';
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return `url must be https (got "${url.protocol}")`;
    if (this.internal(host) && !this.allowed(host)) {
      return `url points at ${host}, an internal address: the gateway delivers there only when PORTICO_EGRESS_ALLOW_PRIVATE allows it`;
    }
    const loopback = host === 'localhost' || (isIP(host) !== 0 && LOOPBACK.check(host, familyOf(host)));
    if (url.protocol === 'http:' && !(loopback && this.allowed(host))) {
      return 'url must be https (http only to a loopback address that PORTICO_EGRESS_ALLOW_PRIVATE allows)';
    }
    return undefined;
  }

  /** The `lookup` of delivery requests: every address a name resolves to must be allowed, or the name is refused. */
  readonly lookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
    const name = normalizeHost(hostname);
    const trusted = this.allowed(name);
    if (!trusted && this.internal(name)) {
      callback(refused(`${name} is an internal address`), '', 0);
      return;
    }
    this.resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' }), '', 0);
      for (const { address } of trusted ? [] : addresses) {
        if (this.internal(address) && !this.allowed(address))
          return callback(refused(`${name} resolves to ${address}, an internal address`), '', 0);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
}

function refused(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${message}: the gateway does not deliver there unless PORTICO_EGRESS_ALLOW_PRIVATE allows it`), {
    code: EGRESS_REFUSED,
  });
}
