import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_WORKSPACE, definePlugin, Registry, silentLogger } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/load.js';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { upstreamLimitOptions } from './upstream-limits.js';

/**
 * The concurrency and pace caps per upstream connection, end to end: a loopback upstream that counts the requests in
 * flight per integration (the first path segment) and answers each after a set delay.
 */
interface CountingUpstream {
  url: string;
  delayMs: Record<string, number>;
  inFlight: Map<string, number>;
  peak: Map<string, number>;
  received: Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

async function startCountingUpstream(): Promise<CountingUpstream> {
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  const received = new Map<string, number>();
  const delayMs: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    const integration = (req.url ?? '/').split('/')[1] ?? '';
    const now = (inFlight.get(integration) ?? 0) + 1;
    inFlight.set(integration, now);
    peak.set(integration, Math.max(peak.get(integration) ?? 0, now));
    received.set(integration, (received.get(integration) ?? 0) + 1);
    setTimeout(() => {
      inFlight.set(integration, (inFlight.get(integration) ?? 1) - 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}');
    }, delayMs[integration] ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    delayMs,
    inFlight,
    peak,
    received,
    reset() {
      peak.clear();
      received.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const otherPlugin = definePlugin({ ...examplePlugin, service: 'other', displayName: 'Other' });

async function gatewayWith(upstream: CountingUpstream, env: Record<string, string>): Promise<TestGateway> {
  const gateway = await startTestGateway({
    plugins: [examplePlugin, otherPlugin],
    env: {
      PORTICO_EXAMPLE_BASE_URL: `${upstream.url}/example`,
      PORTICO_OTHER_BASE_URL: `${upstream.url}/other`,
      PORTICO_RATE_LIMIT_PER_MINUTE: '0', // the per-key limit is not under test here
      ...env,
    },
  });
  for (const service of ['example', 'other']) {
    await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, service, `${service}-token`);
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, service, { restEnabled: true, mcpEnabled: true });
  }
  return gateway;
}

const list = (gateway: TestGateway, service: string, init: RequestInit = {}) =>
  fetch(`${gateway.url}/api/v1/${service}/items`, { ...init, headers: { authorization: `Bearer ${gateway.key}` } });

let upstream: CountingUpstream;
beforeAll(async () => {
  upstream = await startCountingUpstream();
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.reset();
  for (const key of Object.keys(upstream.delayMs)) delete upstream.delayMs[key];
});

describe('a connection capped at 3 requests in flight', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await gatewayWith(upstream, { PORTICO_EXAMPLE_UPSTREAM_LIMITS: 'concurrency=3' });
  });
  afterAll(() => gateway.close(100));

  it('sends 30 concurrent calls never more than 3 at a time, in turn, and all succeed', async () => {
    upstream.delayMs.example = 40;
    const answers = await Promise.all(Array.from({ length: 30 }, () => list(gateway, 'example')));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(upstream.received.get('example')).toBe(30);
    expect(upstream.peak.get('example')).toBe(3);
  });

  it('keeps a second integration fast while the first is saturated', async () => {
    // Each example call holds its slot 2 s: the other integration's calls are answered while all three are taken
    // (not after a slot frees), which does not depend on how fast a busy machine runs them.
    upstream.delayMs.example = 2_000;
    const saturating = Promise.all(Array.from({ length: 9 }, () => list(gateway, 'example')));
    await expect.poll(() => upstream.inFlight.get('example')).toBe(3);
    const before = upstream.received.get('example');
    for (let i = 0; i < 5; i++) {
      expect((await list(gateway, 'other')).status).toBe(200);
      expect(upstream.inFlight.get('example')).toBe(3); // still busy meanwhile
    }
    expect(upstream.received.get('example')).toBe(before); // no example call finished and let another in
    expect((await saturating).every((a) => a.status === 200)).toBe(true);
    expect(upstream.peak.get('example')).toBe(3);
  });

  it('never sends a waiting call whose client went away', async () => {
    upstream.delayMs.example = 400;
    const busy = Promise.all(Array.from({ length: 3 }, () => list(gateway, 'example')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const abort = new AbortController();
    const abandoned = list(gateway, 'example', { signal: abort.signal }).catch((error: Error) => error.name);
    await new Promise((resolve) => setTimeout(resolve, 50));
    abort.abort();
    expect(await abandoned).toBe('AbortError');
    expect((await busy).every((a) => a.status === 200)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upstream.received.get('example')).toBe(3);
    expect((await list(gateway, 'example')).status).toBe(200); // its slot was not lost
  });
});

describe('a small queue and a pace', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await gatewayWith(upstream, {
      PORTICO_EXAMPLE_UPSTREAM_LIMITS: 'concurrency=3',
      PORTICO_UPSTREAM_QUEUE_LENGTH: '5',
      PORTICO_OTHER_UPSTREAM_LIMITS: 'per_minute=5',
    });
  });
  afterAll(() => gateway.close(100));

  it('answers the surplus 429 rate_limited with Retry-After and the error body, at once, over REST and MCP', async () => {
    upstream.delayMs.example = 1_000;
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const response = await list(gateway, 'example');
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.json(),
          at: performance.now(),
        };
      }),
    );
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(8); // 3 in flight + 5 waiting
    expect(refused).toHaveLength(22);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe('1');
      expect(answer.body).toEqual({
        error: true,
        code: 'rate_limited',
        message:
          'Too many requests to Example on this connection: 3 requests are in flight (at most 3) and 5 calls are waiting, the most that may wait; retry after 1 s',
      });
    }
    // Not held until a slot frees: every refusal comes before the first call that took a slot is answered.
    const firstServed = Math.min(...answers.filter((a) => a.status === 200).map((a) => a.at));
    expect(Math.max(...refused.map((a) => a.at))).toBeLessThan(firstServed);
    expect(upstream.received.get('example')).toBe(8);
    expect(upstream.peak.get('example')).toBe(3);

    upstream.delayMs.example = 300;
    const client = await connectMcp(gateway.url, gateway.key);
    try {
      const rest = Array.from({ length: 8 }, () => list(gateway, 'example'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const viaMcp = await client.callTool({ name: 'call_example', arguments: { method: 'list_items', params: {} } });
      expect(viaMcp.isError).toBe(true);
      expect(viaMcp.structuredContent).toMatchObject({
        error: true,
        code: 'rate_limited',
        message: expect.stringMatching(/; retry after 1 s$/),
      });
      await Promise.all(rest);
    } finally {
      await client.close();
    }
  });

  it('sends at most per_minute requests a minute: the next call is refused at once with the seconds to wait, and not sent', async () => {
    for (let i = 0; i < 5; i++) expect((await list(gateway, 'other')).status).toBe(200);
    const refused = await list(gateway, 'other');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({
      error: true,
      code: 'rate_limited',
      message: expect.stringMatching(
        /^Too many requests to Other on this connection: at most 5 requests a minute are sent; retry after \d+ s$/,
      ),
    });
    expect(upstream.received.get('other')).toBe(5);
  });
});

describe('configuration', () => {
  const registry = new Registry();
  registry.register(examplePlugin);
  registry.register(
    definePlugin({
      ...examplePlugin,
      service: 'other',
      upstream: { ...examplePlugin.upstream, limits: { concurrency: 10, perMinute: 500 } },
    }),
  );

  it('has documented defaults: 32 in flight, 200 waiting for at most 10 s, each plugin’s own limits', () => {
    const config = loadConfig({});
    expect(upstreamLimitOptions(registry, config, silentLogger)).toEqual({
      maxConcurrency: 32,
      queueLength: 200,
      queueWaitMs: 10_000,
      services: {},
    });
  });

  it('lets an operator replace the fields of a plugin’s limits they name, or all of them with none', () => {
    const config = loadConfig({
      PORTICO_OTHER_UPSTREAM_LIMITS: 'per_minute=100,per_hour=5000',
      PORTICO_EXAMPLE_UPSTREAM_LIMITS: 'none',
      PORTICO_UPSTREAM_MAX_CONCURRENCY: '8',
    });
    expect(upstreamLimitOptions(registry, config, silentLogger)).toMatchObject({
      maxConcurrency: 8,
      services: {
        other: { concurrency: 10, perMinute: 100, perHour: 5000 },
        example: { concurrency: 0, perSecond: 0, perMinute: 0, perHour: 0 },
      },
    });
  });

  it('uses a sandbox’s own limits in sandbox mode instead of the plugin’s, and the operator’s over both', () => {
    const options = upstreamLimitOptions(registry, loadConfig({ PORTICO_OTHER_UPSTREAM_LIMITS: 'per_second=3' }), silentLogger, {
      other: { perMinute: 1000 },
      example: undefined,
    });
    expect(options.services).toEqual({ other: { perMinute: 1000, perSecond: 3 }, example: {} });
  });

  it('refuses a malformed override at start, naming the variable', () => {
    expect(() => loadConfig({ PORTICO_CLIO_UPSTREAM_LIMITS: 'per_minute=fifty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORTICO_CLIO_UPSTREAM_LIMITS: 'per_minute=fifty' })).toThrow(
      /PORTICO_CLIO_UPSTREAM_LIMITS: "per_minute=fifty"/,
    );
    expect(() => loadConfig({ PORTICO_UPSTREAM_QUEUE_LENGTH: '-1' })).toThrow(/PORTICO_UPSTREAM_QUEUE_LENGTH must be a whole number/);
  });
});
