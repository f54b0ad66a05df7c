import { isIP } from 'node:net';

/** Checks PORTICO_TRUST_PROXY: comma-separated addresses or CIDR ranges; returns them and what is wrong. */
export function parseTrustedProxies(raw: string | undefined): { proxies: string[]; problems: string[] } {
  const proxies: string[] = [];
  const problems: string[] = [];
  for (const entry of (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const max = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (family === 0 || !validBits || extra !== undefined) {
      problems.push(`PORTICO_TRUST_PROXY: "${entry}" is not an IP address or CIDR range (10.0.0.0/8, 127.0.0.1, ::1)`);
    } else proxies.push(entry);
  }
  return { proxies, problems };
}
