import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type StubUpstream,
  startSandboxedGateway,
  startStubUpstream,
  startTestGateway,
  stopSandboxedGateway,
  type TestGateway,
} from '../gateway.test-support.js';

let upstream: StubUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startStubUpstream((method, url) => {
    if (url.pathname === '/items' && method === 'GET')
      return { status: 200, body: { items: [{ id: '1' }], limit: url.searchParams.get('limit') } };
    if (url.pathname === '/items' && method === 'POST') return { status: 201, body: { id: '2' } };
    if (url.pathname === '/v2/items/boom') return { status: 500, body: { message: 'exploded' } };
    if (url.pathname === '/v2/items/slow') return { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '120' } };
    if (url.pathname.startsWith('/v2/items/')) return { status: 404, body: { message: 'no such item' } };
    return { status: 404, body: {} };
  });
  gateway = await startTestGateway({
    plugins: [examplePlugin],
    env: { PORTICO_EXAMPLE_BASE_URL: upstream.url, PORTICO_BODY_LIMIT_BYTES: '2048' },
  });
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-secret-token');
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const expectErrorBody = (body: unknown, code: string) => {
  expect(body).toEqual({ error: true, code, message: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/); // no stack traces
};

describe('REST', () => {
  it('serves an operation, coercing query strings to declared types', async () => {
    const res = await gateway.rest('GET', '/api/v1/example/items?limit=5&tags=a&tags=b');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [{ id: '1' }], limit: '5' });
    const sent = upstream.requests.at(-1);
    expect(sent?.url).toBe('/items?limit=5&tags=a&tags=b');
    expect(sent?.headers.authorization).toBe('Bearer upstream-secret-token');
  });

  it('takes POST params from the JSON body', async () => {
    const res = await gateway.rest('POST', '/api/v1/example/items', { body: { name: 'new', notify: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: '2' });
    expect(JSON.parse(upstream.requests.at(-1)?.body ?? '')).toEqual({ name: 'new' });
    expect(upstream.requests.at(-1)?.url).toBe('/items?notify=false');
  });

  it('lets the JSON body win over the query string', async () => {
    await gateway.rest('POST', '/api/v1/example/items?name=fromquery', { body: { name: 'frombody' } });
    expect(JSON.parse(upstream.requests.at(-1)?.body ?? '')).toEqual({ name: 'frombody' });
  });

  it('prefers a static path segment over a parameter', async () => {
    const before = upstream.requests.length;
    await gateway.rest('GET', '/api/v1/example/items/current');
    expect(upstream.requests[before]?.url).toBe('/items/current');
  });

  it.each([
    ['no key', 'GET', '/api/v1/example/items', { key: null }, 401, 'unauthorized'],
    ['a malformed key', 'GET', '/api/v1/example/items', { key: 'nope' }, 401, 'unauthorized'],
    [
      'a well-formed unknown key',
      'GET',
      '/api/v1/example/items',
      { key: 'portico_00000000000000000000000000000000000000' },
      401,
      'unauthorized',
    ],
    ['a wrong type', 'GET', '/api/v1/example/items?limit=lots', {}, 400, 'bad_request'],
    ['a value out of range', 'GET', '/api/v1/example/items?limit=1000', {}, 400, 'bad_request'],
    ['an unknown parameter', 'GET', '/api/v1/example/items?colour=red', {}, 400, 'bad_request'],
    ['an unknown operation path', 'GET', '/api/v1/example/widgets', {}, 404, 'not_found'],
    ['an unknown service', 'GET', '/api/v1/nosuch/items', {}, 404, 'not_found'],
    ['a method the path does not take', 'PUT', '/api/v1/example/items', {}, 405, 'method_not_allowed'],
    [
      'malformed JSON',
      'POST',
      '/api/v1/example/items',
      { rawBody: '{"name":', headers: { 'content-type': 'application/json' } },
      400,
      'bad_request',
    ],
    ['a JSON array body', 'POST', '/api/v1/example/items', { body: ['x'] }, 400, 'bad_request'],
    [
      'a non-JSON content type',
      'POST',
      '/api/v1/example/items',
      { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } },
      400,
      'bad_request',
    ],
    ['a body over the limit', 'POST', '/api/v1/example/items', { body: { name: 'x'.repeat(5000) } }, 413, 'payload_too_large'],
    ['an unknown route', 'GET', '/nothing-here', {}, 404, 'not_found'],
    ['an upstream 404', 'GET', '/api/v1/example/items/42', {}, 404, 'not_found'],
    ['an upstream 500', 'GET', '/api/v1/example/items/boom', {}, 502, 'upstream_error'],
  ] as const)('answers %s with the error body', async (_, method, path, init, status, code) => {
    const res = await gateway.rest(method, path, init as Parameters<TestGateway['rest']>[2]);
    expect(res.status).toBe(status);
    expectErrorBody(res.body, code);
    if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('passes a long upstream Retry-After on to the caller as 429', async () => {
    const res = await gateway.rest('GET', '/api/v1/example/items/slow');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('120');
    expectErrorBody(res.body, 'rate_limited');
  });

  it('never shows the upstream token in an error', async () => {
    const res = await gateway.rest('GET', '/api/v1/example/items/boom');
    expect(JSON.stringify(res.body)).not.toContain('upstream-secret-token');
  });

  it('refuses REST when the integration has REST disabled, and serves it again when enabled', async () => {
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: false });
    const res = await gateway.rest('GET', '/api/v1/example/items');
    expect(res.status).toBe(403);
    expectErrorBody(res.body, 'forbidden');
    expect((await gateway.rest('GET', '/api/v1/example/openapi.json')).status).toBe(403);
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    expect((await gateway.rest('GET', '/api/v1/example/items')).status).toBe(200);
  });

  it('refuses writes with a read-only key and services outside a key’s scope', async () => {
    const readOnly = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'ro',
      scopes: { admin: false, services: '*', readOnly: true },
    });
    expect((await gateway.rest('GET', '/api/v1/example/items', { key: readOnly.key })).status).toBe(200);
    const write = await gateway.rest('DELETE', '/api/v1/example/items/1', { key: readOnly.key });
    expect(write.status).toBe(403);
    expectErrorBody(write.body, 'forbidden');
    const other = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'other',
      scopes: { admin: false, services: ['notion'], readOnly: false },
    });
    const denied = await gateway.rest('GET', '/api/v1/example/items', { key: other.key });
    expect(denied.status).toBe(403);
    const admin = await gateway.rest('GET', '/api/admin/keys', { key: other.key });
    expect(admin.status).toBe(403);
  });

  it('refuses revoked and expired keys', async () => {
    const created = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'short-lived',
      scopes: { admin: false, services: '*', readOnly: false },
    });
    expect((await gateway.rest('GET', '/api/v1/example/items', { key: created.key })).status).toBe(200);
    await gateway.rest('DELETE', `/api/admin/keys/${created.record.id}`);
    expect((await gateway.rest('GET', '/api/v1/example/items', { key: created.key })).status).toBe(401);
    const expired = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'expired',
      scopes: { admin: false, services: '*', readOnly: false },
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect((await gateway.rest('GET', '/api/v1/example/items', { key: expired.key })).status).toBe(401);
  });

  it('answers not_connected when the integration has no credentials', async () => {
    await gateway.runtime.engine.disconnect(DEFAULT_WORKSPACE, 'example');
    const res = await gateway.rest('GET', '/api/v1/example/items');
    expect(res.status).toBe(424);
    expectErrorBody(res.body, 'not_connected');
    await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-secret-token');
  });
});

describe('admin API', () => {
  it('creates a key that works, lists it without its secret, and validates input', async () => {
    const created = await gateway.rest('POST', '/api/admin/keys', { body: { name: 'ci', services: ['example'], read_only: true } });
    expect(created.status).toBe(201);
    const { key, id } = created.body as { key: string; id: string };
    expect(key).toMatch(/^portico_[0-9A-Za-z]{38}$/);
    expect((await gateway.rest('GET', '/api/v1/example/items', { key })).status).toBe(200);
    const list = await gateway.rest('GET', '/api/admin/keys');
    const listed = (list.body as { keys: Array<Record<string, unknown>> }).keys.find((k) => k.id === id);
    expect(listed).toMatchObject({ name: 'ci', read_only: true, services: ['example'] });
    expect(JSON.stringify(list.body)).not.toContain(key);
    const bad = await gateway.rest('POST', '/api/admin/keys', { body: { name: '', admin: 'yes' } });
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body, 'bad_request');
  });

  it('toggles protocols and stores connections without showing secrets', async () => {
    const patched = await gateway.rest('PATCH', '/api/admin/integrations/example', { body: { mcp_enabled: false } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ service: 'example', mcp_enabled: false, rest_enabled: true });
    await gateway.rest('PATCH', '/api/admin/integrations/example', { body: { mcp_enabled: true } });
    const put = await gateway.rest('PUT', '/api/admin/connections/example', { body: { token: 'upstream-secret-token' } });
    expect(put.status).toBe(200);
    const connections = await gateway.rest('GET', '/api/admin/connections');
    expect(JSON.stringify(connections.body)).not.toContain('upstream-secret-token');
    expect((await gateway.rest('PATCH', '/api/admin/integrations/nosuch', { body: {} })).status).toBe(404);
  });

  it('records an audit trail of calls', async () => {
    await gateway.rest('GET', '/api/v1/example/items');
    const audit = await gateway.rest('GET', '/api/admin/audit?limit=5');
    const records = (audit.body as { records: Array<Record<string, unknown>> }).records;
    expect(records[0]).toMatchObject({ service: 'example', operation: 'list_items', protocol: 'rest', status: 200 });
  });
});

describe('DNS-rebinding protection on a loopback gateway', () => {
  it('refuses a foreign Host or Origin and accepts loopback names', async () => {
    const { request } = await import('node:http');
    const send = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          `${gateway.url}/api/v1/example/items`,
          { headers: { authorization: `Bearer ${gateway.key}`, ...headers } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    const port = new URL(gateway.url).port;
    expect(await send({ host: `evil.example.com:${port}` })).toBe(403);
    expect(await send({ origin: 'http://evil.example.com' })).toBe(403);
    expect(await send({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
    expect(await send({ host: `127.0.0.1:${port}` })).toBe(200);
  });
});

describe('health and MCP method rules', () => {
  it('reports health without a key', async () => {
    const res = await gateway.rest('GET', '/healthz', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', integrations: ['example'] });
  });

  it('answers GET and DELETE on /api/mcp with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await gateway.rest(method, '/api/mcp');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expectErrorBody(res.body, 'method_not_allowed');
    }
  });

  it('answers malformed JSON on /api/mcp with a JSON-RPC parse error', async () => {
    const res = await gateway.rest('POST', '/api/mcp', {
      rawBody: '{',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('requires a key on /api/mcp', async () => {
    const res = await gateway.rest('POST', '/api/mcp', { key: null, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('OpenAPI servers', () => {
  it('is the absolute address the gateway serves when no public URL is configured', async () => {
    const res = await gateway.rest('GET', '/api/v1/example/openapi.json');
    expect(res.status).toBe(200);
    expect((res.body as { servers: unknown }).servers).toEqual([{ url: `${gateway.url}/api/v1/example` }]);
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('is the configured public URL when there is one', async () => {
    const other = await startTestGateway({
      plugins: [examplePlugin],
      env: { PORTICO_EXAMPLE_BASE_URL: upstream.url, PORTICO_PUBLIC_URL: 'https://gateway.example.com/' },
    });
    try {
      await other.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
      // gateway.url is the public URL; the request goes to the loopback address the server listens on
      const { port } = other.server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/example/openapi.json`, {
        headers: { authorization: `Bearer ${other.key}` },
      });
      expect(((await res.json()) as { servers: unknown }).servers).toEqual([{ url: 'https://gateway.example.com/api/v1/example' }]);
    } finally {
      await other.close();
    }
  });
});

describe('hostile input', () => {
  // A gateway with the default body limit (8 MB), so that wide and deep bodies reach the input caps.
  let wide: TestGateway;
  let readOnlyKey: string;
  beforeAll(async () => {
    wide = await startTestGateway({ plugins: [examplePlugin], env: { PORTICO_EXAMPLE_BASE_URL: upstream.url } });
    await wide.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-secret-token');
    await wide.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    readOnlyKey = (
      await wide.runtime.engine.createApiKey({
        workspaceId: DEFAULT_WORKSPACE,
        name: 'read-only',
        scopes: { admin: false, services: '*', readOnly: true },
      })
    ).key;
  });
  afterAll(() => wide.close());

  /** `count` distinct short keys (700,000 of them make about 6 MB of JSON, under the default 8 MB body limit). */
  const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [i.toString(36), 0]));

  /** Runs `request` while polling /healthz every 25 ms; answers its result and the slowest /healthz answer. */
  async function whilePolling<T>(request: () => Promise<T>): Promise<{ result: T; slowestHealthz: number }> {
    let done = false;
    let slowest = 0;
    const poll = (async () => {
      while (!done) {
        const started = performance.now();
        expect((await fetch(`${wide.url}/healthz`)).status).toBe(200);
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    try {
      const result = await request();
      done = true;
      await poll; // the answer that was in flight while the request was handled counts too
      return { result, slowestHealthz: slowest };
    } finally {
      done = true;
      await poll;
    }
  }

  it('refuses a REST body with 700,000 keys at once, from a read-only key, while /healthz keeps answering', async () => {
    const body = JSON.stringify(keys(700_000));
    expect(body.length).toBeGreaterThan(6_000_000);
    const { result, slowestHealthz } = await whilePolling(() =>
      wide.rest('POST', '/api/v1/example/items', { rawBody: body, headers: { 'content-type': 'application/json' }, key: readOnlyKey }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: true,
      code: 'bad_request',
      message: 'Too many keys: an object in the request body has more than 1000 (the limit per object)',
    });
    expect(slowestHealthz).toBeLessThan(500);
  });

  it('refuses MCP arguments with 700,000 keys at once, while /healthz keeps answering', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'call_example', arguments: { method: 'list_items', params: keys(700_000) } },
    });
    const { result, slowestHealthz } = await whilePolling(() =>
      wide.rest('POST', '/api/mcp', {
        rawBody: body,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        key: readOnlyKey,
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request: Too many values: more than 100000 in the request (the limit)',
      },
    });
    expect(slowestHealthz).toBeLessThan(500);
  });

  it('refuses arguments over the caps with the error body as the tool result, and serves a normal call', async () => {
    const call = (params: Record<string, unknown>) =>
      wide.rest('POST', '/api/mcp', {
        body: {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'call_example', arguments: { method: 'list_items', params } },
        },
        headers: { accept: 'application/json, text/event-stream' },
      });
    const refused = (await call(keys(300))).body as { result: { isError: boolean; structuredContent: unknown } };
    expect(refused.result.isError).toBe(true);
    expect(refused.result.structuredContent).toEqual({
      error: true,
      code: 'bad_request',
      message: 'Too many parameters: 300 in the params, more than 200 (the limit)',
    });
    const wideFilter = (await call({ tags: keys(3_000) })).body as { result: { isError: boolean; structuredContent: unknown } };
    expect(wideFilter.result.structuredContent).toEqual({
      error: true,
      code: 'bad_request',
      message: 'Too many keys: params.tags has more than 1000 (the limit per object)',
    });
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    const tooDeep = (await call({ tags: deep })).body as { result: { isError: boolean; structuredContent: unknown } };
    expect(tooDeep.result.structuredContent).toEqual({
      error: true,
      code: 'bad_request',
      message: 'Too deeply nested: more than 64 levels of objects and arrays in the params (the limit)',
    });
    const served = (await call({ limit: 5 })).body as { result: { isError?: boolean; structuredContent: unknown } };
    expect(served.result.isError).toBeFalsy();
    expect(served.result.structuredContent).toMatchObject({ items: [{ id: '1' }] });
  });

  it('names the unknown parameters, however many', async () => {
    const query = Array.from({ length: 9 }, (_, i) => `unknown_${i}=1`).join('&');
    const res = await wide.rest('GET', `/api/v1/example/items?${query}`);
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'bad_request');
    expect((res.body as { message: string }).message).toBe(
      `Invalid params for list_items: ${Array.from({ length: 9 }, (_, i) => `params.unknown_${i}: is not a parameter of this operation`).join('; ')}`,
    );
  });

  it.each([
    ['?__proto__=1', 'GET', '/api/v1/example/items?__proto__=1', undefined, 'params.__proto__'],
    ['?constructor=1', 'GET', '/api/v1/example/items?constructor=1', undefined, 'params.constructor'],
    ['?prototype=1', 'GET', '/api/v1/example/items?prototype=1', undefined, 'params.prototype'],
    ['a JSON __proto__ key', 'POST', '/api/v1/example/items', '{"name":"x","__proto__":{"notify":true}}', 'body.__proto__'],
    ['a nested constructor key', 'POST', '/api/v1/example/items', '{"name":"x","notify":{"constructor":1}}', 'body.notify.constructor'],
  ])('refuses %s with 400 naming the key', async (_, method, path, rawBody, where) => {
    const before = upstream.requests.length;
    const res = await wide.rest(method, path, rawBody ? { rawBody, headers: { 'content-type': 'application/json' } } : {});
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'bad_request');
    expect((res.body as { message: string }).message).toMatch(new RegExp(`^Key not allowed: ${where.replaceAll('.', '\\.')} `));
    expect(upstream.requests.length).toBe(before);
  });

  it('answers admin settings nested 10,000 deep with 400, not a 500 from the store', async () => {
    const rawBody = `{"settings":{"api_version":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`;
    const res = await wide.rest('PATCH', '/api/admin/integrations/example', { rawBody, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: true,
      code: 'bad_request',
      message: 'Too deeply nested: more than 64 levels of objects and arrays in the request body (the limit)',
    });
    const ok = await wide.rest('PATCH', '/api/admin/integrations/example', { body: { settings: { api_version: '2025-01-01' } } });
    expect(ok.status).toBe(200);
  });
});

/**
 * The one path-parameter rule, for every operation of every installed plugin that takes one (iterating the registry,
 * so plugins added later are covered): `.`, `..`, empty values and values with `/` never reach an upstream.
 */
describe('path parameters of every operation, against every sandbox', () => {
  let sandboxed: { gateway: TestGateway; client: Client };
  beforeAll(async () => {
    sandboxed = await startSandboxedGateway();
  });
  afterAll(() => stopSandboxedGateway(sandboxed ?? {}));

  /** A request with its path sent as is (fetch would resolve `.` and `%2e%2e` segments before sending). */
  const rawRequest = (method: string, path: string) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = request(
        `${sandboxed.gateway.url}/`,
        { method, path, headers: { authorization: `Bearer ${sandboxed.gateway.key}` } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  const failNext = async (service: string) => {
    const origin = new URL(sandboxed.gateway.sandboxes[service]?.url as string).origin;
    const response = await fetch(`${origin}/__sandbox/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 500 }),
    });
    return ((await response.json()) as { pending: number }).pending;
  };

  it('refuses ., .., empty and / in every path parameter over REST and MCP, before any upstream request', async () => {
    const REST_SEGMENTS = ['%2e%2e', '%2E.', '.', '..', '%2f', 'a%2Fb', '%5C'];
    const MCP_VALUES = ['..', '.', '', 'a/b', 'a\\b', '?', '#', '\n'];
    let checked = 0;
    const failures: string[] = [];
    for (const integration of sandboxed.gateway.runtime.registry.list()) {
      const service = integration.service;
      if (!sandboxed.gateway.sandboxes[service]) continue;
      expect(await failNext(service)).toBe(1); // armed: the first request that reaches this sandbox fails
      for (const operation of integration.operations.values()) {
        for (const name of operation.pathParams) {
          const expected = (body: unknown) =>
            typeof body === 'object' &&
            body !== null &&
            (body as { error?: unknown }).error === true &&
            (body as { code?: unknown }).code === 'bad_request' &&
            // the path rule's words, or the schema's where it refuses that value itself (the message that says
            // what the value must be); either way naming the parameter, before any upstream request
            String((body as { message?: unknown }).message).startsWith(`Invalid params for ${operation.name}: `) &&
            String((body as { message?: unknown }).message).includes(`params.${name}: `);
          const answers = await Promise.all([
            ...REST_SEGMENTS.map(async (segment) => {
              const path = `/api/v1/${service}${operation.definition.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, token: string) => (token === name ? segment : 'x1'))}`;
              const res = await rawRequest(operation.definition.method, path);
              return { label: `REST ${operation.definition.method} ${path}`, ok: res.status === 400 && expected(res.body), got: res };
            }),
            ...MCP_VALUES.map(async (value) => {
              const params = Object.fromEntries(operation.pathParams.map((token) => [token, token === name ? value : 'x1']));
              const result = await sandboxed.client.callTool({ name: `call_${service}`, arguments: { method: operation.name, params } });
              return {
                label: `MCP ${service}.${operation.name} ${JSON.stringify(params)}`,
                ok: Boolean(result.isError) && expected(result.structuredContent),
                got: result.structuredContent,
              };
            }),
          ]);
          for (const answer of answers) if (!answer.ok) failures.push(`${answer.label}: ${JSON.stringify(answer.got)}`);
          checked += answers.length;
        }
      }
      // Still armed: no request reached the sandbox (the first would have taken the failure); then disarm.
      expect(await failNext(service), `a refused call reached the ${service} sandbox`).toBe(2);
      await fetch(`${new URL(sandboxed.gateway.sandboxes[service]?.url as string).origin}/__sandbox/reset`, { method: 'POST' });
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(checked).toBeGreaterThan(1_000);
  }, 180_000);
});
