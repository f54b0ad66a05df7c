import type { AddressInfo } from 'node:net';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from './test-support.js';

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
