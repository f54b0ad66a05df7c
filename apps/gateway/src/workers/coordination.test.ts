import { GatewayError, Registry, silentLogger, UpstreamLimiter } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { CoordinationHost } from './host.js';
import { WorkerLink } from './link.js';

/**
 * The primary's coordination host and its workers' links, joined by an in-memory channel that serialises each
 * message as node:cluster's IPC does (JSON). The real processes are tested in e2e/workers.e2e.test.ts.
 */
function cluster(limits = { concurrency: 1, perMinute: 0 }) {
  const registry = new Registry();
  registry.register(examplePlugin);
  const host = new CoordinationHost(new UpstreamLimiter({ services: { example: limits }, queueWaitMs: 5_000 }), registry, silentLogger);
  let nextId = 1;
  const join = () => {
    const id = nextId++;
    let deliver: (message: unknown) => void = () => {};
    host.attach({ id, send: (message) => queueMicrotask(() => deliver(JSON.parse(JSON.stringify(message)))) });
    const link = new WorkerLink({
      send: (message) => queueMicrotask(() => host.receive(id, JSON.parse(JSON.stringify(message)))),
      onMessage: (listener) => {
        deliver = listener;
      },
    });
    return { id, link };
  };
  return { host, join };
}

const settled = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(
    () => {
      state = 'granted';
    },
    () => {
      state = 'refused';
    },
  );
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('workers sharing the primary’s upstream slots', () => {
  it('a slot held by one worker makes the other wait; released, the other gets it', async () => {
    const { host, join } = cluster();
    const a = join();
    const b = join();
    const release = await a.link.acquire('example', 'default', 1_000);
    expect(host.holding(a.id)).toBe(1);
    const waiting = b.link.acquire('example', 'default', 1_000);
    expect(await settled(waiting)).toBe('pending');
    release();
    release(); // twice: still one release
    expect(await settled(waiting)).toBe('granted');
    expect(host.holding(a.id)).toBe(0);
    expect(host.holding(b.id)).toBe(1);
  });

  it('a worker that dies has its slots released and its waiting calls dropped', async () => {
    const { host, join } = cluster();
    const a = join();
    const b = join();
    const c = join();
    await a.link.acquire('example', 'default', 1_000);
    const bWaits = b.link.acquire('example', 'default', 1_000);
    const cWaits = c.link.acquire('example', 'default', 1_000);
    expect(await settled(cWaits)).toBe('pending');
    expect(host.detach(a.id)).toBe(1); // A is killed: its slot comes back, B (first in line) gets it
    expect(await settled(bWaits)).toBe('granted');
    host.detach(b.id); // B dies holding it: C gets it, B's grant is not kept for a dead worker
    expect(await settled(cWaits)).toBe('granted');
    expect(host.holding(b.id)).toBe(0);
  });

  it('a call whose caller went away while waiting gives its slot back when its turn comes, without sending', async () => {
    const { host, join } = cluster();
    const a = join();
    const b = join();
    const release = await a.link.acquire('example', 'default', 1_000);
    let gone = false;
    const waiting = b.link.acquire('example', 'default', 1_000, () => gone);
    gone = true;
    release();
    await expect(waiting).rejects.toMatchObject({ code: 'rate_limited' });
    await settled(Promise.resolve());
    expect(host.holding(b.id)).toBe(0);
    await expect(a.link.acquire('example', 'default', 10)).resolves.toBeTypeOf('function');
  });

  it('refusals cross as the 429 the in-process limiter gives, with Retry-After', async () => {
    const { join } = cluster({ concurrency: 0, perMinute: 2 });
    const a = join();
    const b = join();
    await a.link.acquire('example', 'default', 100);
    await b.link.acquire('example', 'default', 100);
    const refused = await a.link.acquire('example', 'default', 100).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ code: 'rate_limited' });
    expect((refused as GatewayError).retryAfter).toBeGreaterThanOrEqual(59);
    expect((refused as GatewayError).message).toMatch(/at most 2 requests a minute/);
    await expect(b.link.pace('example', 'default', 100)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});

describe('SQLite coordination through the primary', () => {
  it('a named lock is held by one worker at a time and freed when its holder dies', async () => {
    const { host, join } = cluster();
    const a = join();
    const b = join();
    let releaseA: () => void = () => {};
    const aHolds = a.link.withLock('refresh', () => new Promise<void>((resolve) => (releaseA = resolve)));
    await settled(Promise.resolve());
    const order: string[] = [];
    const bHolds = b.link.withLock('refresh', async () => {
      order.push('b');
    });
    expect(await settled(bHolds)).toBe('pending');
    host.detach(a.id); // A killed inside the lock
    expect(await settled(bHolds)).toBe('granted');
    expect(order).toEqual(['b']);
    releaseA();
    await aHolds.catch(() => {});
  });

  it('per-key tokens come from one bucket for every worker', async () => {
    const { join } = cluster();
    const a = join();
    const b = join();
    expect(await a.link.leaseTokens('key:k', 2, 3, 0)).toEqual({ granted: 2, left: 1 });
    expect(await b.link.leaseTokens('key:k', 2, 3, 0)).toEqual({ granted: 1, left: 0 });
    expect(await a.link.leaseTokens('key:k', 2, 3, 0)).toEqual({ granted: 0, left: 0 });
  });

  it('a change written by one worker reaches the others, not itself', async () => {
    const { join } = cluster();
    const a = join();
    const b = join();
    const c = join();
    const heard: string[] = [];
    a.link.onChange(() => heard.push('a'));
    b.link.onChange((change) => heard.push(`b:${change.kind}:${change.id}`));
    c.link.onChange(() => heard.push('c'));
    a.link.publishChange({ kind: 'api_key', workspaceId: 'default', id: 'k1' });
    await settled(Promise.resolve());
    expect(heard.sort()).toEqual(['b:api_key:k1', 'c']);
  });
});

describe('per-address abuse limits counted by the primary', () => {
  it('attempts through either worker count against one limit, and one given back through a worker frees it', async () => {
    const { join } = cluster();
    const a = join();
    const b = join();
    const first = await a.link.take('sign-in\u0000198.51.100.7', 3, 60_000);
    expect(first.wait).toBe(0);
    expect((await b.link.take('sign-in\u0000198.51.100.7', 3, 60_000)).wait).toBe(0);
    expect((await a.link.take('sign-in\u0000198.51.100.7', 3, 60_000)).wait).toBe(0);
    // per worker, each would still have room: the primary counts three
    expect((await b.link.take('sign-in\u0000198.51.100.7', 3, 60_000)).wait).toBeGreaterThanOrEqual(59);
    expect((await b.link.take('sign-in\u0000203.0.113.9', 3, 60_000)).wait).toBe(0); // another address
    a.link.giveBack('sign-in\u0000198.51.100.7', first.ticket as number);
    expect((await b.link.take('sign-in\u0000198.51.100.7', 3, 60_000)).wait).toBe(0);
    expect((await a.link.take('sign-in\u0000198.51.100.7', 3, 60_000)).wait).toBeGreaterThan(0);
  });

  it('fails closed: a worker cut off from its primary refuses the attempt with 503 unavailable, counting nothing alone', async () => {
    const { join } = cluster();
    const a = join();
    a.link.disconnected();
    const refused = await a.link.take('registration\u0000198.51.100.7', 10, 60_000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ code: 'unavailable', status: 503, retryAfter: 1 });
  });

  it('fails closed when the primary does not answer in time', async () => {
    const silent = new WorkerLink({ send: () => {}, onMessage: () => {} }, 50);
    const started = performance.now();
    await expect(silent.take('sign-in\u0000198.51.100.7', 10, 60_000)).rejects.toMatchObject({ code: 'unavailable' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});
