import { describe, expect, it } from 'vitest';
import type { UpstreamResponse } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { type RegisteredIntegration, Registry } from '../contract/registry.js';
import { NO_UPSTREAM_LIMITS } from '../contract/upstream-limits.js';
import { GatewayError } from '../errors.js';
import { examplePlugin } from '../testing/example-plugin.js';
import type { PreparedRequest, UpstreamClient } from './client.js';
import { BrokeredUpstreamLimiter, type SlotBroker } from './limiter-port.js';
import { UpstreamLimiter } from './limits.js';

const OK: UpstreamResponse = { status: 200, headers: {}, body: { ok: true } };
const request: PreparedRequest = { method: 'GET', url: 'http://127.0.0.1:1/items' };

const registry = new Registry();
const plain = registry.register(examplePlugin);
const declared = registry.register(
  definePlugin({ ...examplePlugin, service: 'declared', upstream: { ...examplePlugin.upstream, limits: { concurrency: 1 } } }),
);
const paced = registry.register(
  definePlugin({ ...examplePlugin, service: 'paced', upstream: { ...examplePlugin.upstream, limits: { perMinute: 1 } } }),
);

/** A broker over an in-process limiter (as the gateway's primary holds one), recording what it was asked. */
function broker(options: ConstructorParameters<typeof UpstreamLimiter>[0] = {}) {
  const held = new UpstreamLimiter(options);
  const asked: string[] = [];
  let inHand = 0;
  const slots: SlotBroker = {
    async acquire(service, workspaceId, maxWaitMs) {
      asked.push(`acquire ${service} ${workspaceId} ${Math.round(maxWaitMs)}`);
      const connection = held.connection(registry.get(service) as RegisteredIntegration, workspaceId);
      const release = connection ? await connection.acquire(maxWaitMs) : () => {};
      inHand++;
      return () => {
        inHand--;
        release();
      };
    },
    async pace(service, workspaceId) {
      asked.push(`pace ${service} ${workspaceId}`);
      await held.connection(registry.get(service) as RegisteredIntegration, workspaceId)?.pace(performance.now());
    },
  };
  return { slots, asked, inHand: () => inHand };
}

function client(answer: (request: PreparedRequest) => Promise<UpstreamResponse> = async () => OK, timeoutMs = 8_000) {
  const seen: PreparedRequest[] = [];
  const fake = {
    options: { timeoutMs },
    send: (sent: PreparedRequest) => {
      seen.push(sent);
      return answer(sent);
    },
  } as unknown as UpstreamClient;
  return { client: fake, seen };
}

describe('a limiter whose slots another process holds', () => {
  it('asks the broker for declared limits only, within three quarters of the time budget, and releases after the answer', async () => {
    const { slots, asked, inHand } = broker();
    const limiter = new BrokeredUpstreamLimiter({ queueWaitMs: 10_000 }, slots);
    const { client: upstream, seen } = client();
    await expect(limiter.send(upstream, declared, request, { workspaceId: 'w' })).resolves.toBe(OK);
    expect(asked).toEqual(['acquire declared w 6000']);
    expect(inHand()).toBe(0);
    expect(seen[0]?.deadline).toBeGreaterThan(performance.now());
    expect(seen[0]?.beforeRetry).toBeUndefined(); // no window: a retry needs no pacing
  });

  it('keeps the default cap of a plugin that declares nothing in its own process, and asks nothing without limits', async () => {
    const { slots, asked } = broker();
    const { client: upstream, seen } = client();
    await new BrokeredUpstreamLimiter({}, slots).send(upstream, plain, request, { workspaceId: 'w' });
    await new BrokeredUpstreamLimiter({ services: { example: NO_UPSTREAM_LIMITS } }, slots).send(upstream, plain, request, {
      workspaceId: 'w',
    });
    await new BrokeredUpstreamLimiter({}, slots).send(upstream, declared, request); // no connection: no limit
    expect(asked).toEqual([]);
    expect(seen).toHaveLength(3);
    // An operator's override is a declaration: it is shared.
    await new BrokeredUpstreamLimiter({ services: { example: { concurrency: 5 } } }, slots).send(upstream, plain, request, {
      workspaceId: 'w',
    });
    expect(asked).toEqual(['acquire example w 6000']);
  });

  it('releases the slot when the request fails, and passes the refusal of a full connection on as it is', async () => {
    const { slots, inHand } = broker({ queueWaitMs: 50 });
    const limiter = new BrokeredUpstreamLimiter({ queueWaitMs: 50 }, slots);
    const failing = client(async () => {
      throw new GatewayError('upstream_timeout', 'too slow');
    });
    await expect(limiter.send(failing.client, declared, request, { workspaceId: 'w' })).rejects.toMatchObject({ code: 'upstream_timeout' });
    expect(inHand()).toBe(0);
    let finish: () => void = () => {};
    const slow = client(() => new Promise((resolve) => (finish = () => resolve(OK))));
    const first = limiter.send(slow.client, declared, request, { workspaceId: 'w' });
    await expect(limiter.send(client().client, declared, request, { workspaceId: 'w' })).rejects.toMatchObject({ code: 'rate_limited' });
    finish();
    await first;
    expect(inHand()).toBe(0);
  });

  it('paces a retry through the broker when the connection has a rate window', async () => {
    const { slots, asked } = broker();
    const limiter = new BrokeredUpstreamLimiter({}, slots);
    const retrying = client(async (sent) => {
      await sent.beforeRetry?.();
      return OK;
    });
    // One a minute: the first request took the window's slot, so its retry is refused with the wait.
    await expect(limiter.send(retrying.client, paced, request, { workspaceId: 'w' })).rejects.toMatchObject({ code: 'rate_limited' });
    expect(asked).toEqual(['acquire paced w 6000', 'pace paced w']);
  });
});
