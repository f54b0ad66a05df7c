// Upstream windows shared by instances on one PostgreSQL (the policy itself: shared-windows.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import type { PostgresStore } from '../store/postgres.js';
import { POSTGRES_REQUIRED, postgresProblem, storesOnOneSchema } from '../store/postgres.test-support.js';
import type { UpstreamLimiter } from './limits.js';
import { leaseLifetime, maxBatch, type QuotaLeaseRequest, type QuotaLeases } from './shared-windows.js';
import { call, instance, upstream } from './shared-windows.test-support.js';

const problem = await postgresProblem();
if (problem !== undefined && POSTGRES_REQUIRED) throw new Error(`PostgreSQL is required and not reachable: ${problem}`);

/** Counts the leases asked of a store. */
function counting(store: QuotaLeases): QuotaLeases & { leases: number } {
  const counted = {
    leases: 0,
    leaseQuota(lease: QuotaLeaseRequest) {
      counted.leases += 1;
      return store.leaseQuota(lease);
    },
    returnQuota: store.returnQuota.bind(store),
  };
  return counted;
}

describe.skipIf(problem !== undefined)(`upstream windows shared on PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`, () => {
  const shared = storesOnOneSchema('quotas_windows');
  afterAll(() => shared.close());

  it('three instances sending 120 calls at once: at most 50 a minute reach the upstream, the rest are 429 at once', async () => {
    const limiters = (await shared.open(3)).map((store) => instance(store, { concurrency: 0, perMinute: 50 }));
    const { client, sent } = upstream();
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 120 }, (_, i) => call(limiters[i % 3] as UpstreamLimiter, client, 'burst')));
    const took = performance.now() - started;
    expect(sent.length).toBeLessThanOrEqual(50);
    // at most a batch per instance left unspent (given back a second later)
    expect(sent.length).toBeGreaterThanOrEqual(50 - 3 * maxBatch(50));
    expect(results.filter((r) => r === 'sent')).toHaveLength(sent.length);
    // refused at once, not after the 10 s queue wait, with about the minute (and lease lifetime) to wait
    const waits = results.filter((r): r is number => typeof r === 'number');
    expect(waits).toHaveLength(120 - sent.length);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(55);
    expect(Math.max(...waits)).toBeLessThanOrEqual(62);
    expect(took).toBeLessThan(5_000);
    // more calls on each instance: only a token one still holds may go, the window stays within 50
    for (const limiter of limiters) {
      const result = await call(limiter, client, 'burst');
      expect(result === 'sent' || result >= 55).toBe(true);
    }
    expect(sent.length).toBeLessThanOrEqual(50);
  });

  it('gives back what an instance leased and did not spend, and leases in batches rather than per call', async () => {
    const [first, second] = await shared.open(2);
    const a = counting(first as PostgresStore);
    const quiet = instance(a, { concurrency: 0, perMinute: 50 });
    const busy = instance(second as PostgresStore, { concurrency: 0, perMinute: 50 });
    const { client, sent } = upstream();
    for (let i = 0; i < 40; i++) expect(await call(quiet, client, 'given-back')).toBe('sent');
    // a batch of 2 at most for 50 a minute: about one round trip for two calls, never one per call
    expect(a.leases).toBeLessThanOrEqual(24);
    // what the first instance leased ahead and did not spend comes back after the lease's lifetime
    await new Promise((resolve) => setTimeout(resolve, leaseLifetime(60_000) + 300));
    const more: Array<'sent' | number> = [];
    for (let i = 0; i < 11; i++) more.push(await call(busy, client, 'given-back'));
    expect(more.slice(0, 10)).toEqual(Array(10).fill('sent'));
    expect(more[10]).toBeGreaterThanOrEqual(55);
    expect(sent).toHaveLength(50);

    // a larger limit leases larger batches: 200 calls of 1,000 a minute in a handful of round trips
    const big = counting(first as PostgresStore);
    const roomy = instance(big, { concurrency: 0, perMinute: 1_000 });
    for (let i = 0; i < 200; i++) expect(await call(roomy, client, 'roomy')).toBe('sent');
    expect(big.leases).toBeLessThanOrEqual(12);
  });
});
