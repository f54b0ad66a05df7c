import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { EGRESS_REFUSED, type Resolver } from './egress.js';
import { SubscriberEgress } from './subscriber-egress.js';

/** A resolver answering from a table, as DNS would. */
const resolver =
  (table: Record<string, string[]>): Resolver =>
  (hostname, _options, callback) =>
    callback(
      null,
      (table[hostname] ?? []).map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

/** What `lookup` answers for a name: its addresses, or the refusal's code and message. */
function look(policy: SubscriberEgress, hostname: string): Promise<{ code?: string; message?: string; addresses?: unknown }> {
  return new Promise((resolve) => {
    policy.lookup(hostname, { all: true }, (error, addresses) =>
      resolve(error ? { code: (error as NodeJS.ErrnoException).code as string, message: error.message } : { addresses }),
    );
  });
}

describe('where event deliveries may go', () => {
  const TABLE = {
    'hooks.example.com': ['203.0.113.10'],
    'inside.example.com': ['203.0.113.11', '10.0.0.5'],
    'mapped.example.com': ['::ffff:a9fe:a9fe'],
  };

  it('refuses internal hosts in the URL, however the address is written, unless the operator allows them', () => {
    const strict = new SubscriberEgress();
    for (const url of [
      'https://127.0.0.1/x',
      'https://2130706433/x', // 127.0.0.1 in decimal
      'https://0x7f.1/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://192.168.1.20/x',
      'https://172.20.0.1/x',
      'https://100.64.0.1/x',
      'https://[fd00::1]/x',
      'https://169.254.169.254/x',
      'https://0.0.0.0/x',
      'https://localhost/x',
      'https://app.localhost/x',
      'https://metadata.google.internal/x',
    ]) {
      expect(strict.urlProblem(url), url).toMatch(/internal address/);
    }
    expect(strict.urlProblem('https://hooks.example.com/portico')).toBeUndefined();
    expect(strict.urlProblem('https://203.0.113.10:8443/portico')).toBeUndefined();
    expect(strict.urlProblem('http://hooks.example.com/portico')).toMatch(/must be https/);
    expect(strict.urlProblem('https://hooks.example.com/x#frag')).toMatch(/fragment/);

    const allowing = new SubscriberEgress({ allowPrivate: ['127.0.0.1', '10.0.0.0/8'] });
    expect(allowing.urlProblem('http://127.0.0.1:9000/x')).toBeUndefined();
    expect(allowing.urlProblem('https://10.2.3.4/x')).toBeUndefined();
    expect(allowing.urlProblem('http://10.2.3.4/x')).toMatch(/must be https/); // http only to loopback
    expect(allowing.urlProblem('http://127.0.0.2/x')).toMatch(/internal address/);
  });

  it('refuses a name when any address it resolves to is internal, at connection time', async () => {
    const strict = new SubscriberEgress({ resolve: resolver(TABLE) });
    expect(await look(strict, 'hooks.example.com')).toEqual({ addresses: [{ address: '203.0.113.10', family: 4 }] });
    const inside = await look(strict, 'inside.example.com');
    expect(inside).toMatchObject({ code: EGRESS_REFUSED, message: expect.stringContaining('resolves to 10.0.0.5') });
    expect(await look(strict, 'mapped.example.com')).toMatchObject({ code: EGRESS_REFUSED });
    expect(await look(strict, 'localhost')).toMatchObject({ code: EGRESS_REFUSED });
    const allowing = new SubscriberEgress({ resolve: resolver(TABLE), allowPrivate: ['10.0.0.5'] });
    expect(await look(allowing, 'inside.example.com')).toMatchObject({ addresses: expect.any(Array) });
  });
});
