import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { EGRESS_REFUSED, EgressPolicy, parseEgressAllowance, type Resolver } from './egress.js';

/**
 * IPv6 addresses that lead to an IPv4 address through a tunnel or translator the gateway cannot see through, or to the
 * network's own services, are refused like link-local and metadata addresses: 169.254.169.254 is a9fe:a9fe in hex.
 */
const REFUSED: Array<[string, RegExp]> = [
  ['http://[::169.254.169.254]/', /IPv6 special-purpose address/], // IPv4-compatible
  ['http://[::a9fe:a9fe]/', /IPv6 special-purpose address/],
  ['http://[::10.0.0.1]/', /IPv6 special-purpose address/], // the whole deprecated range, not only what it embeds
  ['http://[2002:a9fe:a9fe::1]/', /IPv6 special-purpose address/], // 6to4 of 169.254.169.254
  ['http://[2002:808:808::1]/', /IPv6 special-purpose address/],
  ['http://[64:ff9b:1::a9fe:a9fe]/', /IPv6 special-purpose address/], // local-use NAT64, /96 layout
  ['http://[64:ff9b:1:a9fe:a9:fe00::]/', /IPv6 special-purpose address/], // local-use NAT64, /48 layout (RFC 6052)
  ['http://[2001:0:4136:e378:8000:63bf:5601:5601]/', /IPv6 special-purpose address/], // Teredo, client 169.254.169.254
  ['http://[2001:1::1]/', /IPv6 special-purpose address/], // Port Control Protocol anycast
  ['http://[2001:1::2]/', /IPv6 special-purpose address/],
  ['http://[2001:1::3]/', /IPv6 special-purpose address/],
  // embedded forms that are the IPv4 address itself
  ['http://[::ffff:169.254.169.254]/', /a cloud metadata address/],
  ['http://[::ffff:a9fe:1]/', /a link-local address/],
  ['http://[64:ff9b::169.254.169.254]/', /a cloud metadata address/],
  ['http://[64:ff9b::a9fe:102]/', /a link-local address/],
];

const ALLOWED = [
  'http://[::1]:8080/', // loopback
  'http://[::]:8080/', // unspecified, as 0.0.0.0
  'http://[::ffff:10.0.0.1]/', // IPv4-mapped private address
  'http://[64:ff9b::808:808]/', // well-known NAT64 of a public address
  'http://[fd12:3456::1]/', // unique local: the private range
  'http://[2606:4700:4700::1111]/', // public
  'http://[2001:4860:4860::8888]/', // public, inside 2000::/3 next to Teredo's 2001::/32
  'http://[2001:db8::1]/', // documentation: no connection reaches it
];

describe('IPv6 special-purpose addresses as base URLs', () => {
  it('refuses those that tunnel or translate to IPv4, and the network services’ anycast addresses', () => {
    const policy = new EgressPolicy();
    for (const [url, message] of REFUSED) {
      const problem = policy.baseUrlProblem(url, 'The base URL');
      expect(problem, url).toMatch(message);
      expect(problem, url).toMatch(/unless PORTICO_EGRESS_ALLOW_PRIVATE allows it/);
    }
  });

  it('allows loopback, the private range, well-known NAT64 of a public address and public addresses', () => {
    const policy = new EgressPolicy();
    for (const url of ALLOWED) expect(policy.baseUrlProblem(url, 'The base URL'), url).toBeUndefined();
  });

  it('names the range in the message', () => {
    const problem = new EgressPolicy().baseUrlProblem('http://[2002:a9fe:a9fe::1]/', 'The base URL');
    expect(problem).toMatch(/points at 2002:a9fe:a9fe::1, an IPv6 special-purpose address \(.*6to4 2002::\/16/);
  });

  it('lets the operator allow a range, as with link-local addresses', () => {
    const policy = new EgressPolicy({ allowPrivate: parseEgressAllowance('64:ff9b:1::/48') as string[] });
    expect(policy.baseUrlProblem('http://[64:ff9b:1::a00:1]/', 'x')).toBeUndefined();
    expect(policy.baseUrlProblem('http://[2002:a9fe:a9fe::1]/', 'x')).toMatch(/special-purpose/);
  });
});

describe('IPv6 special-purpose addresses at connection time', () => {
  const names: Record<string, LookupAddress[]> = {
    'sixtofour.test': [
      { address: '93.184.215.14', family: 4 },
      { address: '2002:a9fe:a9fe::1', family: 6 },
    ],
    'compat.test': [{ address: '::a9fe:a9fe', family: 6 }],
    'public.test': [{ address: '2606:4700:4700::1111', family: 6 }],
  };
  const resolve: Resolver = (hostname, _options, callback) => callback(null, names[hostname] ?? []);
  const lookup = (policy: EgressPolicy, hostname: string) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
      policy.lookup(hostname, { all: true }, (error, address) => done({ error, address })),
    );

  it('refuses a name with any such address, and connects to a public IPv6 address', async () => {
    const policy = new EgressPolicy({ resolve });
    const sixToFour = await lookup(policy, 'sixtofour.test');
    expect(sixToFour.error?.code).toBe(EGRESS_REFUSED);
    expect(sixToFour.error?.message).toMatch(/^sixtofour\.test resolves to 2002:a9fe:a9fe::1, an IPv6 special-purpose address/);
    expect((await lookup(policy, 'compat.test')).error?.code).toBe(EGRESS_REFUSED);
    expect(await lookup(policy, 'public.test')).toEqual({ error: null, address: names['public.test'] });
  });
});
