import { BlockList, isIP } from 'node:net';

/**
 * The client's address behind trusted proxies (PORTICO_TRUST_PROXY): when the peer of the connection is one of them,
 * `X-Forwarded-For` is read from the right, past every trusted hop, and the first address that is not a trusted proxy
 * is the client's. A peer that is not trusted is the client, whatever it sent in `X-Forwarded-For` (a caller cannot
 * choose the address it is logged and rate-limited under).
 */
export class ClientAddress {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  /** `proxies`: addresses and CIDR ranges (`10.0.0.0/8`, `::1`), checked by {@link parseTrustedProxies}. */
  constructor(proxies: readonly string[]) {
    this.any = proxies.length > 0;
    for (const entry of proxies) {
      const [address, bits] = entry.split('/') as [string, string | undefined];
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.trusted.addAddress(address, family);
      else this.trusted.addSubnet(address, Number(bits), family);
    }
  }

  of(peer: string | undefined, forwardedFor: string | undefined): string {
    const direct = normalise(peer ?? '');
    if (!this.any || !direct || !this.isTrusted(direct) || !forwardedFor) return direct || 'unknown';
    const hops = forwardedFor
      .split(',')
      .map((hop) => normalise(hop.trim()))
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] as string;
      if (isIP(hop) === 0) return direct; // not an address: the chain cannot be trusted past here
      if (!this.isTrusted(hop)) return hop;
    }
    return hops[0] ?? direct;
  }

  private isTrusted(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    return this.trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) → `10.0.0.1`. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
