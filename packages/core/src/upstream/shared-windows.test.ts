import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import type { PreparedRequest, UpstreamClient } from './client.js';
import { hasQuotaLeases, leaseLifetime, maxBatch, type QuotaLease, type QuotaLeases } from './shared-windows.js';
import { call, instance, OK, quoted, request, upstream } from './shared-windows.test-support.js';

describe('the lease policy', () => {
  it('lets a grant be spent for a second of a minute window and 5 s of an hour; batches a twentieth of the limit', () => {
    expect(leaseLifetime(60_000)).toBe(1_000);
    expect(leaseLifetime(3_600_000)).toBe(5_000);
    expect([maxBatch(1), maxBatch(50), maxBatch(180), maxBatch(1_000)]).toEqual([1, 2, 9, 50]);
    expect(hasQuotaLeases({})).toBe(false);
  });
});

describe('when the database cannot be asked', () => {
  const failing = (answer: () => Promise<QuotaLease>): QuotaLeases & { leases: number } => {
    const store = {
      leases: 0,
      leaseQuota: () => {
        store.leases += 1;
        return answer();
      },
      returnQuota: async () => {},
    };
    return store;
  };

  it('limits each connection in this process alone for a second after a failed lease, and says so once', async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (_: object, msg?: string) => void warnings.push(msg ?? '') };
    const store = failing(() => Promise.reject(new Error('connection refused')));
    const limiter = instance(store, { concurrency: 0, perMinute: 3 }, logger);
    const { client, sent } = upstream();
    const results = await Promise.all(Array.from({ length: 5 }, () => call(limiter, client, 'a')));
    // the process' own window still holds: 3 a minute, the rest refused with the minute's wait
    expect(results.filter((r) => r === 'sent')).toHaveLength(3);
    expect(results.filter((r) => typeof r === 'number' && r >= 59)).toHaveLength(2);
    expect(sent).toHaveLength(3);
    expect(store.leases).toBe(1);
    expect(warnings).toEqual(['could not lease upstream quota tokens: limiting each connection in this process alone for now']);
  });

  it('gives up on a lease that does not answer within a second, and the waiting calls go', async () => {
    const store = failing(() => new Promise<QuotaLease>(() => {}));
    const limiter = instance(store, { concurrency: 0, perHour: 10 });
    const { client, sent } = upstream();
    const started = performance.now();
    expect(await Promise.all([call(limiter, client, 'a'), call(limiter, client, 'a')])).toEqual(['sent', 'sent']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(sent).toHaveLength(2);
  });

  it('never leases for a per-second window or the in-flight cap: those stay per host', async () => {
    const store = failing(() => Promise.reject(new Error('not expected')));
    const limiter = instance(store, { concurrency: 2, perSecond: 5 });
    const { client, sent } = upstream();
    const results = await Promise.all(Array.from({ length: 7 }, () => call(limiter, client, 'a')));
    expect(results.filter((r) => r === 'sent').length).toBeGreaterThanOrEqual(5);
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(store.leases).toBe(0);
  });
});

describe('a shared window spent for now', () => {
  /** A budget answering from a script of leases, recording what was asked and given back. */
  function scripted(answers: Array<Partial<QuotaLease>>) {
    const asked: number[] = [];
    const askedAt: number[] = [];
    const givenBack: number[] = [];
    const store: QuotaLeases = {
      leaseQuota: async (lease) => {
        asked.push(lease.want);
        askedAt.push(performance.now());
        return { granted: 0, grantMs: asked.length, nextInMs: 0, ...answers.shift() };
      },
      returnQuota: async (_service, _workspace, _window, _grant, tokens) => void givenBack.push(tokens),
    };
    return { store, asked, askedAt, givenBack };
  }

  it('lets a call wait for the budget when it frees within the queue’s bound, then sends it', async () => {
    const { store, asked, askedAt } = scripted([{ granted: 0, nextInMs: 300 }, { granted: 1 }]);
    const limiter = instance(store, { concurrency: 0, perMinute: 50 });
    const { client, sent } = upstream();
    const started = performance.now();
    expect(await call(limiter, client, 'a')).toBe('sent');
    expect(sent[0]).toBeDefined();
    expect((sent[0] as number) - started).toBeGreaterThanOrEqual(290);
    // asked again only once the budget said it would have a token (then a batch of 2 ahead, the grant being spent)
    expect(asked.slice(0, 2)).toEqual([1, 1]);
    expect((askedAt[1] as number) - (askedAt[0] as number)).toBeGreaterThanOrEqual(290);
  });

  it('refuses at once the waiting calls the budget cannot serve within their bound, with its wait', async () => {
    const { store } = scripted([{ granted: 1, nextInMs: 45_000 }]);
    const limiter = instance(store, { concurrency: 0, perMinute: 50 });
    const { client, sent } = upstream();
    const started = performance.now();
    const results = await Promise.all([1, 2, 3].map(() => call(limiter, client, 'a')));
    expect(results).toEqual(['sent', 45, 45]);
    expect(sent).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1_000); // not held for the 10 s queue wait
  });

  it('takes a token of the shared window for a retry too', async () => {
    const { store, asked } = scripted([{ granted: 1 }, { granted: 1 }]);
    const limiter = instance(store, { concurrency: 0, perHour: 1_000 });
    const tries: number[] = [];
    const client = {
      options: { timeoutMs: 30_000, retryLimit: 1, retryAfterCapMs: 0 },
      send: async (sent: PreparedRequest) => {
        tries.push(performance.now());
        await sent.beforeRetry?.();
        tries.push(performance.now());
        return OK;
      },
    } as unknown as UpstreamClient;
    await limiter.send(client, quoted, request, { workspaceId: 'a' });
    expect(tries).toHaveLength(2);
    expect(asked).toHaveLength(2); // one lease for the request, one for its retry
  });
});
