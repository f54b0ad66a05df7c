import { BlockList, isIP } from 'node:net';
import { addRange } from '../upstream/egress.js';

/**
 * Addresses a Client ID Metadata Document may be fetched from: public ones only. A `client_id` is a URL anyone can
 * write into an authorization request, so fetching it must not reach the gateway itself, its network or the cloud
 * host's services (SSRF). Stricter than the egress policy of upstream calls, which lets loopback and private ranges
 * through because upstream proxies and sandboxes live there.
 */
const NOT_PUBLIC: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible: an IPv4 address in disguise
  ['2001::', 32], // Teredo: tunnels to an IPv4 address
  ['2002::', 16], // 6to4: tunnels to an IPv4 address
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
];

const BLOCK = new BlockList();
// Each IPv4 range also in its NAT64 form (64:ff9b::/96); IPv4-mapped IPv6 (::ffff:a.b.c.d) BlockList checks itself.
for (const [address, prefix] of NOT_PUBLIC) addRange(BLOCK, address, prefix);

/** Whether an IP address (v4 or v6, without brackets) is public: not loopback, private, link-local or reserved. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !BLOCK.check(address, family === 6 ? 'ipv6' : 'ipv4');
}
