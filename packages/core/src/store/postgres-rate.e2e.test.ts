import { afterAll, describe, expect, it } from 'vitest';
import type { PostgresStore } from './postgres.js';
import { POSTGRES_REQUIRED, postgresProblem, storesOnOneSchema } from './postgres.test-support.js';

const problem = await postgresProblem();
if (problem !== undefined && POSTGRES_REQUIRED) throw new Error(`PostgreSQL is required and not reachable: ${problem}`);

describe.skipIf(problem !== undefined)(`shared rate buckets on PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`, () => {
  const shared = storesOnOneSchema('portico_rate');
  afterAll(() => shared.close());

  it('leases from a bucket created full, never grants more than it holds to concurrent instances, and refills', async () => {
    const [a, b] = (await shared.open(2)) as [PostgresStore, PostgresStore];
    const perMs = 0.0001; // one token in 10 s: the test runs well within that
    expect(await a.leaseTokens('key:first', 3, 10, perMs)).toEqual({ granted: 3, left: expect.closeTo(7, 1) });

    // 40 leases of 2 at once from two instances: exactly the burst is granted, whatever the interleaving
    const leases = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).leaseTokens('key:race', 2, 25, perMs)));
    expect(leases.reduce((sum, lease) => sum + lease.granted, 0)).toBe(25);
    expect(leases.every((lease) => Number.isInteger(lease.granted) && lease.left >= 0 && lease.left < 25)).toBe(true);

    // refilled on the database's clock: 100 tokens a second, so 30 ms later there are about 3 again
    await a.leaseTokens('key:fast', 50, 50, 0.1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const again = await b.leaseTokens('key:fast', 50, 50, 0.1);
    expect(again.granted).toBeGreaterThanOrEqual(2);
    expect(again.granted).toBeLessThan(20);
  });
});
