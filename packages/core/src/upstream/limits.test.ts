import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpstreamResponse } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { NO_UPSTREAM_LIMITS, type UpstreamLimits } from '../contract/upstream-limits.js';
import { GatewayError } from '../errors.js';
import { examplePlugin } from '../testing/example-plugin.js';
import type { PreparedRequest, UpstreamClient } from './client.js';
import { ConnectionLimiter, UpstreamLimiter } from './limits.js';

afterEach(() => {
  vi.useRealTimers();
});

/** The error a refused acquire throws (synchronously or as a rejection). */
async function refusal(attempt: () => unknown): Promise<GatewayError> {
  try {
    await attempt();
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a refusal');
}

const limiter = (concurrency: number, limits: UpstreamLimits = {}, queueLength = 100, now?: () => number) =>
  new ConnectionLimiter('Acme', concurrency, limits, queueLength, now);

/** A client stand-in: each send runs `answer`, counting the sends in flight. */
function fakeClient(answer: (request: PreparedRequest) => Promise<UpstreamResponse>, timeoutMs = 30_000) {
  const seen: PreparedRequest[] = [];
  const client = {
    options: { timeoutMs, retryLimit: 0, retryAfterCapMs: 0 },
    send: (request: PreparedRequest) => {
      seen.push(request);
      return answer(request);
    },
  } as unknown as UpstreamClient;
  return { client, seen };
}

const OK: UpstreamResponse = { status: 200, headers: {}, body: { ok: true } };
const request: PreparedRequest = { method: 'GET', url: 'http://127.0.0.1:1/items' };

describe('a connection’s slots', () => {
  it('admits waiting calls in the order they came (FIFO), one per freed slot', async () => {
    const slots = limiter(2);
    const first = (await slots.acquire(1_000)) as () => void;
    const second = (await slots.acquire(1_000)) as () => void;
    const order: string[] = [];
    const waiting = ['c', 'd', 'e', 'f'].map((name) =>
      Promise.resolve(slots.acquire(1_000)).then((release) => {
        order.push(name);
        return release;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    expect(slots.load).toEqual({ active: 2, waiting: 4 });
    second();
    second(); // a second release of the same slot frees nothing more
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['c']);
    first();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['c', 'd']);
    for (const release of await Promise.all(waiting.slice(0, 2))) release();
    const rest = await Promise.all(waiting.slice(2));
    expect(order).toEqual(['c', 'd', 'e', 'f']);
    for (const release of rest) release();
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it('releases the slot when the request fails, and the next waiting call gets it', async () => {
    const slots = limiter(1);
    const { client } = fakeClient(async () => {
      throw new GatewayError('upstream_error', 'Acme failed (500)');
    });
    const failing = slots.send(client, request, 1_000);
    const next = slots.send(fakeClient(async () => OK).client, request, 1_000);
    await expect(failing).rejects.toMatchObject({ code: 'upstream_error' });
    await expect(next).resolves.toEqual(OK);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it('refuses at once with 429, Retry-After and the error body when the queue is full', async () => {
    const slots = limiter(1, {}, 2);
    const held = (await slots.acquire(1_000)) as () => void;
    const queued = [slots.acquire(1_000), slots.acquire(1_000)];
    const refused = await refusal(() => slots.acquire(1_000));
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused.status).toBe(429);
    expect(refused.code).toBe('rate_limited');
    expect(refused.retryAfter).toBe(1);
    expect(refused.message).toBe(
      'Too many requests to Acme on this connection: 1 request is in flight (at most 1) and 2 calls are waiting, the most that may wait; retry after 1 s',
    );
    held();
    ((await queued[0]) as () => void)();
    ((await queued[1]) as () => void)();
  });

  it('refuses a call that waited its longest without a slot, and frees its place in the queue', async () => {
    vi.useFakeTimers();
    const slots = limiter(1, {}, 1);
    const held = (await slots.acquire(1_000)) as () => void;
    const waiting = refusal(() => slots.acquire(250));
    vi.advanceTimersByTime(250);
    const refused = await waiting;
    expect(refused).toMatchObject({ code: 'rate_limited', retryAfter: 1 });
    expect(refused.message).toContain('1 request is in flight (at most 1) and none finished within 250 ms; retry after 1 s');
    expect(slots.load).toEqual({ active: 1, waiting: 0 });
    const again = slots.acquire(1_000); // the queue has room again
    held();
    ((await again) as () => void)();
  });

  it('drops a waiting call whose caller went away, without giving it a slot', async () => {
    const slots = limiter(1);
    const held = (await slots.acquire(1_000)) as () => void;
    let gone = false;
    const abandoned = refusal(() => slots.acquire(1_000, () => gone));
    const next = slots.acquire(1_000);
    gone = true;
    held();
    expect((await abandoned).message).toContain('the caller went away while waiting');
    const release = (await next) as () => void;
    expect(slots.load).toEqual({ active: 1, waiting: 0 });
    release();
  });

  it('starts at most perMinute requests in any minute: refuses at once with the seconds to wait when that is past the longest wait', async () => {
    let now = 0;
    const slots = limiter(0, { perMinute: 3 }, 100, () => now);
    for (const at of [0, 10_000, 20_000]) {
      now = at;
      ((await slots.acquire(10_000)) as () => void)();
    }
    now = 25_000;
    const refused = await refusal(() => slots.acquire(10_000));
    expect(refused).toMatchObject({ code: 'rate_limited', retryAfter: 35 });
    expect(refused.message).toBe('Too many requests to Acme on this connection: at most 3 requests a minute are sent; retry after 35 s');
    now = 60_000; // the first request's minute is over: one more may start, the next 10 s later
    ((await slots.acquire(0)) as () => void)();
    await expect(refusal(() => slots.acquire(0))).resolves.toMatchObject({ retryAfter: 10 });
  });

  it('paces waiting calls to the window instead of refusing them when the wait fits', async () => {
    vi.useFakeTimers();
    const slots = limiter(0, { perSecond: 2 }, 100, () => Date.now());
    const started: number[] = [];
    const t0 = Date.now();
    const calls = Array.from({ length: 5 }, () =>
      Promise.resolve(slots.acquire(5_000)).then((release) => {
        started.push(Date.now() - t0);
        release();
      }),
    );
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(calls);
    // two at once, two a second later, one more a second after that: never three within a second
    expect(started).toEqual([0, 0, 1_000, 1_000, 2_000]);
  });

  it('counts a retry as a request of the window: it waits for a slot of its own', async () => {
    let now = 0;
    const slots = limiter(0, { perMinute: 2 }, 100, () => now);
    const { client } = fakeClient(async (sent) => {
      await sent.beforeRetry?.(); // one retry
      return OK;
    });
    await slots.send(client, request, 1_000);
    now = 1_000;
    const refused = await refusal(() => slots.send(fakeClient(async () => OK).client, request, 1_000));
    expect(refused).toMatchObject({ code: 'rate_limited', retryAfter: 59 });
  });

  it('lets a wait take at most three quarters of the time budget, and passes the budget’s end to the client', async () => {
    const slots = limiter(1, {}, 10);
    const { client, seen } = fakeClient(async () => OK, 2_000);
    const held = (await slots.acquire(1_000)) as () => void;
    const before = performance.now();
    const waited = refusal(() => slots.send(client, request, 60_000));
    await expect(waited).resolves.toMatchObject({ code: 'rate_limited' });
    expect(performance.now() - before).toBeGreaterThanOrEqual(1_490);
    expect(performance.now() - before).toBeLessThan(1_900);
    held();
    await slots.send(client, request, 60_000);
    expect(seen[0]?.deadline).toBeGreaterThan(performance.now());
  });
});

describe('limits per integration', () => {
  const registry = new Registry();
  const plain = registry.register(examplePlugin);
  const paced = registry.register(
    definePlugin({ ...examplePlugin, service: 'paced', upstream: { ...examplePlugin.upstream, limits: { perMinute: 50 } } }),
  );

  it('gives every connection of a plugin that declares nothing the default cap, one limiter per workspace', () => {
    const limits = new UpstreamLimiter();
    expect(limits.limitsOf(plain)).toEqual({ concurrency: 32, perSecond: 0, perMinute: 0, perHour: 0 });
    expect(limits.limitsOf(paced)).toEqual({ concurrency: 32, perSecond: 0, perMinute: 50, perHour: 0 });
    const a = limits.connection(plain, 'a');
    expect(a?.concurrency).toBe(32);
    expect(limits.connection(plain, 'a')).toBe(a);
    expect(limits.connection(plain, 'b')).not.toBe(a);
  });

  it('does no work for a connection without limits: the request goes to the client as it is', async () => {
    const limits = new UpstreamLimiter({ services: { example: NO_UPSTREAM_LIMITS }, maxConcurrency: 1 });
    expect(limits.connection(plain, 'a')).toBeUndefined();
    const { client, seen } = fakeClient(async () => OK);
    await Promise.all([1, 2, 3].map(() => limits.send(client, plain, request, { workspaceId: 'a' })));
    expect(seen).toEqual([request, request, request]);
    expect(new UpstreamLimiter({ maxConcurrency: 0 }).connection(plain, 'a')).toBeUndefined();
  });

  it('lets an operator’s override replace a plugin’s declaration', () => {
    const limits = new UpstreamLimiter({ services: { paced: { concurrency: 4, perMinute: 0 } } });
    expect(limits.limitsOf(paced)).toEqual({ concurrency: 4, perSecond: 0, perMinute: 0, perHour: 0 });
    expect(() => new UpstreamLimiter({ services: { paced: { concurrency: -1 } } })).toThrow(/concurrency must be a whole number/);
  });
});
