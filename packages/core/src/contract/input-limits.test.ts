import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../access/api-keys.js';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import { restInvocation } from '../doors/rest.js';
import { GatewayError } from '../errors.js';
import { Engine } from '../pipeline/engine.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { examplePlugin } from '../testing/example-plugin.js';
import { createFixtureHarness, type FixtureHarness } from '../testing/fixtures.js';
import { Registry } from './registry.js';

/**
 * The input caps and the path-parameter rule through the real pipeline: over the MCP door (params as given) and the
 * REST door (the gateway's own translation of a REST call), refused with 400 before any upstream request.
 */
let harness: FixtureHarness;
beforeAll(async () => {
  harness = await createFixtureHarness(examplePlugin, { authHeaders: { authorization: 'Bearer fixture-token' } });
});
afterAll(() => harness.close());

const refused = (operation: string, params: Record<string, unknown>, message: string) =>
  harness.check({ operation, params, exchanges: [], expect: { error: { code: 'bad_request', message } } });

describe('key names', () => {
  it.each([['__proto__'], ['constructor'], ['prototype']])('refuse %s as a parameter and inside one', async (key) => {
    await refused('list_items', JSON.parse(`{"${key}":{"limit":5}}`), `Key not allowed: params.${key}`);
    await refused('create_item', JSON.parse(`{"name":"x","${key}":"1"}`), `Key not allowed: params.${key}`);
  });
});

describe('through the engine', () => {
  let engine: Engine;
  let store: SqliteStore;
  let upstream: Server;
  let upstreamRequests = 0;
  const principal: Principal = { workspaceId: DEFAULT_WORKSPACE, keyId: null, scopes: { admin: true, services: '*', readOnly: true } };

  beforeAll(async () => {
    upstream = createServer((_, res) => {
      upstreamRequests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    store = new SqliteStore(':memory:');
    await store.migrate();
    const registry = new Registry();
    registry.register(examplePlugin);
    engine = new Engine({
      registry,
      store,
      encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))),
      baseUrlOverrides: { example: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api` },
      upstream: { retryLimit: 0, timeoutMs: 1_000 },
    });
    await engine.connectToken(DEFAULT_WORKSPACE, 'example', 'token');
    await engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
  });
  afterAll(async () => {
    await engine.close();
    await store.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  const failure = async (call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (error) {
      return error as GatewayError;
    }
    throw new Error('the call succeeded');
  };
  const invoke = (params: Record<string, unknown>, stringParams?: Record<string, string | string[]>, operation = 'list_items') =>
    failure(() =>
      engine.invoke({ principal, protocol: 'mcp', service: 'example', operation, params, ...(stringParams ? { stringParams } : {}) }),
    );
  /** A REST call as the gateway translates it (`path` percent-encoded as it came, below /api/v1/example). */
  const rest = (method: 'GET' | 'DELETE', path: string, query: Record<string, string | string[]> = {}) =>
    failure(() => {
      const integration = engine.registry.get('example');
      if (!integration) throw new Error('no example integration');
      const call = restInvocation(integration, { method, path, query });
      return engine.invoke({
        principal: { ...principal, scopes: { ...principal.scopes, readOnly: false } },
        protocol: 'rest',
        service: 'example',
        operation: call.operation.name,
        params: call.params,
        stringParams: call.stringParams,
      });
    });

  it.each([['%2e%2e'], ['%2E.'], ['.'], ['..'], ['a%2Fb'], ['a%5Cb'], ['%3F'], ['%23x'], ['a%00'], ['%0A']])(
    'refuses the path parameter %s over REST, on every method, before any upstream call',
    async (segment) => {
      const before = upstreamRequests;
      for (const method of ['GET', 'DELETE'] as const) {
        const refused = await rest(method, `/items/${segment}`);
        expect(refused.code).toBe('bad_request');
        expect(refused.message).toMatch(/^Invalid params for (get|delete)_item: params\.item_id: must not /);
      }
      expect(upstreamRequests).toBe(before);
    },
  );

  it.each([['..'], ['.'], [''], ['a/b'], ['a\\b'], ['a?b'], ['a#b'], ['a\u0000b']])(
    'refuses the path parameter %j over MCP before any upstream call',
    async (value) => {
      const before = upstreamRequests;
      const refused = await invoke({ item_id: value }, undefined, 'get_item');
      expect(refused.code).toBe('bad_request');
      expect(refused.message).toMatch(/^Invalid params for get_item: params\.item_id: must not /);
      expect(upstreamRequests).toBe(before);
    },
  );

  it('refuses __proto__, constructor and prototype in a query string', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const refused = await rest('GET', '/items', { [key]: '1' });
      expect(refused.message).toMatch(new RegExp(`^Key not allowed: params\\.${key} `));
    }
  });

  it('refuses 700,000 unknown keys (a read-only key suffices) without spending seconds on them', async () => {
    const params = JSON.parse(JSON.stringify(Object.fromEntries(Array.from({ length: 700_000 }, (_, i) => [`k${i}`, i]))));
    // Listing the keys of an object already built is all a refusal may cost (the HTTP doors refuse such a body from
    // its text before it is parsed). Spreading, coercion, validation and its message took 10-20 times as long (3-5 s
    // of the event loop). Measured against that, not a fixed time: the machine running the tests may be busy.
    let started = performance.now();
    Object.keys(params);
    const listing = performance.now() - started;
    started = performance.now();
    const failure = await invoke(params);
    const elapsed = performance.now() - started;
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure.code).toBe('bad_request');
    expect(failure.message).toBe('Too many parameters: 700000 in the params, more than 200 (the limit)');
    expect(elapsed).toBeLessThan(3 * listing + 100);
  });

  it('refuses too many query parameters, an object too wide, nesting too deep', async () => {
    const query = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`q${i}`, '1']));
    expect((await invoke({}, query)).message).toMatch(/^Too many parameters: 201/);
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    expect((await invoke({ tags: wide })).message).toBe('Too many keys: params.tags has more than 1000 (the limit per object)');
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect((await invoke({ tags: deep })).message).toMatch(/^Too deeply nested: more than 64 levels/);
  });

  it('names unknown parameters, however many, and lists at most ten problems', async () => {
    const twelve = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`unknown_${i}`, i]));
    const failure = await invoke(twelve);
    expect(failure.message).toMatch(
      /^Invalid params for list_items: params\.unknown_0: is not a parameter of this operation; .*params\.unknown_9: .*; … and 2 more$/,
    );
    expect((await invoke({ colour: 'red', size: 1 })).message).toBe(
      'Invalid params for list_items: params.colour: is not a parameter of this operation; params.size: is not a parameter of this operation',
    );
  });

  it('refuses settings nested too deep or with a forbidden key', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    await expect(engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { settings: { api_version: deep } })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/^Too deeply nested: .* in the settings/),
    });
    await expect(
      engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { settings: JSON.parse('{"__proto__":{"api_version":"x"}}') }),
    ).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^Key not allowed: settings\.__proto__/) });
  });

  it('leaves normal calls alone', async () => {
    const before = upstreamRequests;
    const params = { limit: 5, status: 'open', tags: ['a', 'b'], item_id: 'x' };
    await expect(
      engine.invoke({ principal, protocol: 'mcp', service: 'example', operation: 'list_items', params: { limit: 5, tags: ['a'] } }),
    ).resolves.toEqual({
      body: { items: [] },
    });
    await expect(
      engine.invoke({ principal, protocol: 'mcp', service: 'example', operation: 'get_item', params: { item_id: '...a.b' } }),
    ).resolves.toBeDefined();
    expect(upstreamRequests).toBe(before + 2);
    expect(params).toBeDefined();
  });
});
