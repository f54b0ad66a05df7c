import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { createRateLimiter, type LeaseTokens, leaseChunk, type RateLimiter, type RateLimitOptions } from './rate-limit.js';

/** A clock the test moves by hand (ms). */
function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** What `admit` decided: 'ok', or the refusal's Retry-After in seconds. */
async function decide(limiter: RateLimiter, key: string): Promise<'ok' | number> {
  try {
    await limiter.admit(key);
    return 'ok';
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'rate_limited') return error.retryAfter as number;
    throw error;
  }
}

/**
 * The database's shared bucket, in memory, with the statement's arithmetic (postgres-rate.ts): refill on the shared
 * clock, take up to `want` whole tokens. Counts the round trips; `failing` makes them throw.
 */
function sharedBucket(time: { now: () => number }) {
  const rows = new Map<string, { tokens: number; at: number }>();
  const state = { calls: 0, wants: [] as number[], failing: false };
  const lease: LeaseTokens = async (bucket, want, burst, perMs) => {
    state.calls += 1;
    state.wants.push(want);
    await new Promise((resolve) => setTimeout(resolve, 1)); // a round trip: the caller really waits
    if (state.failing) throw new Error('connection refused');
    const now = time.now();
    const row = rows.get(bucket) ?? { tokens: burst, at: now };
    const available = Math.min(burst, row.tokens + Math.max(0, now - row.at) * perMs);
    const granted = Math.min(want, Math.floor(available));
    rows.set(bucket, { tokens: available - granted, at: Math.max(row.at, now) });
    return { granted, left: available - granted };
  };
  return { lease, state };
}

describe('rate limit, one process (in-memory buckets)', () => {
  const options: RateLimitOptions = { perMinute: 60, burst: 3 }; // one token a second

  it('admits the burst, refuses the next call with Retry-After and the wait in the message, then refills', async () => {
    const time = clock();
    const limiter = createRateLimiter(options, { logger: silentLogger, now: time.now }) as RateLimiter;
    for (let i = 0; i < 3; i++) expect(limiter.admit('a')).toBeUndefined(); // no promise on the common path
    const refusal = await limiter.admit('a')?.catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ code: 'rate_limited', status: 429, retryAfter: 1 });
    expect((refusal as GatewayError).message).toBe('Rate limit of this API key exceeded (60 calls a minute, bursts of 3); retry after 1 s');
    time.advance(999);
    expect(await decide(limiter, 'a')).toBe(1);
    time.advance(1);
    expect(await decide(limiter, 'a')).toBe('ok');
    time.advance(60_000); // idle for a long time: back to the burst, not more
    for (let i = 0; i < 3; i++) expect(await decide(limiter, 'a')).toBe('ok');
    expect(await decide(limiter, 'a')).toBe(1);
  });

  it('keeps each key to its own bucket', async () => {
    const time = clock();
    const limiter = createRateLimiter(options, { logger: silentLogger, now: time.now }) as RateLimiter;
    for (let i = 0; i < 3; i++) await decide(limiter, 'a');
    expect(await decide(limiter, 'a')).toBe(1);
    for (let i = 0; i < 3; i++) expect(await decide(limiter, 'b')).toBe('ok');
  });

  it('says a long wait in whole seconds, rounded up', async () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 1, burst: 1 }, { logger: silentLogger, now: time.now }) as RateLimiter;
    expect(await decide(limiter, 'a')).toBe('ok');
    time.advance(500);
    expect(await decide(limiter, 'a')).toBe(60); // 59.5 s → 60
  });

  it('is no limiter at all when off (perMinute 0 or no options)', () => {
    expect(createRateLimiter({ perMinute: 0, burst: 60 }, { logger: silentLogger })).toBeUndefined();
    expect(createRateLimiter(undefined, { logger: silentLogger })).toBeUndefined();
    expect(() => createRateLimiter({ perMinute: 60, burst: 0 }, { logger: silentLogger })).toThrow(/burst/);
  });
});

describe('rate limit, several processes (tokens leased from a shared bucket)', () => {
  it('leases a tenth of the burst at a time', () => {
    expect(leaseChunk(60)).toBe(6);
    expect(leaseChunk(5)).toBe(1);
    expect(leaseChunk(1)).toBe(1);
  });

  it('two processes together admit the shared burst, not one each, with one round trip per chunk', async () => {
    const time = clock();
    const shared = sharedBucket(time);
    const options = { perMinute: 60, burst: 40 }; // chunk 4; the clock does not move: no refill
    const [a, b] = [0, 1].map(() => createRateLimiter(options, { leaseTokens: shared.lease, logger: silentLogger, now: time.now }));
    let admitted = 0;
    for (let i = 0; i < 100; i++) if ((await decide((i % 2 === 0 ? a : b) as RateLimiter, 'k')) === 'ok') admitted += 1;
    // at most the burst; at least the burst less what each process may hold unspent (a chunk)
    expect(admitted).toBeLessThanOrEqual(40);
    expect(admitted).toBeGreaterThanOrEqual(40 - 2 * leaseChunk(40));
    // one lease per chunk admitted, plus the one that found the bucket empty, per process
    expect(shared.state.calls).toBeLessThanOrEqual(Math.ceil(40 / leaseChunk(40)) + 2);
  });

  it('refuses locally while the shared bucket is empty (no round trip), and leases again once a chunk has refilled', async () => {
    const time = clock();
    const shared = sharedBucket(time);
    const options = { perMinute: 600, burst: 20 }; // 10 a second, chunk 2 → a chunk refills in 200 ms
    const limiter = createRateLimiter(options, { leaseTokens: shared.lease, logger: silentLogger, now: time.now }) as RateLimiter;
    let admitted = 0;
    while ((await decide(limiter, 'k')) === 'ok') admitted += 1;
    expect(admitted).toBe(20);
    const calls = shared.state.calls;
    for (let i = 0; i < 50; i++) expect(await decide(limiter, 'k')).toBe(1);
    expect(shared.state.calls).toBe(calls);
    time.advance(200);
    expect(await decide(limiter, 'k')).toBe('ok');
    expect(await decide(limiter, 'k')).toBe('ok');
    expect(shared.state.calls).toBe(calls + 1);
  });

  it('calls arriving together wait for one lease sized for all of them', async () => {
    const time = clock();
    const shared = sharedBucket(time);
    const limiter = createRateLimiter(
      { perMinute: 60, burst: 100 },
      { leaseTokens: shared.lease, logger: silentLogger, now: time.now },
    ) as RateLimiter;
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => decide(limiter, 'k')));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(30);
    expect(shared.state.calls).toBeLessThanOrEqual(3);
  });

  it('limits each key in the process alone while the database cannot be asked, warns once, and asks again after a second', async () => {
    const time = clock();
    const shared = sharedBucket(time);
    const warnings: unknown[] = [];
    const logger = { ...silentLogger, warn: (...args: unknown[]) => warnings.push(args) } as Logger;
    const limiter = createRateLimiter({ perMinute: 60, burst: 3 }, { leaseTokens: shared.lease, logger, now: time.now }) as RateLimiter;
    shared.state.failing = true;
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await decide(limiter, 'k'));
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 1, 1]); // the burst, from a local bucket
    expect(shared.state.calls).toBe(1);
    expect(warnings).toHaveLength(1);
    shared.state.failing = false;
    time.advance(1_000);
    expect(await decide(limiter, 'k')).toBe('ok'); // from the database again
    expect(shared.state.calls).toBe(2);
  });
});
