import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, Registry } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { GatewayMetrics, UNKNOWN } from './metrics.js';

// Prometheus metrics: what moves after REST and MCP calls, upstream calls, refreshes and rate-limit refusals; who may
// read them (an admin key on the main port, anyone who reaches a separate metrics port); labels that stay bounded.

let upstream: StubUpstream;
let gateway: TestGateway;
let mcp: Client;
let tokenAnswer: { status: number; body: unknown } = { status: 200, body: { access_token: 'fresh', expires_in: 3600 } };

beforeAll(async () => {
  upstream = await startStubUpstream((method, url) => {
    if (url.pathname === '/oauth/token') return tokenAnswer;
    if (url.pathname === '/items' && method === 'GET') return { status: 200, body: { items: [] } };
    if (url.pathname === '/v2/items/busy') return { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '120' } };
    if (url.pathname === '/v2/items/boom') return { status: 500, body: { message: 'exploded' } };
    return { status: 404, body: { message: 'no such item' } };
  });
  gateway = await startTestGateway({
    plugins: [examplePlugin],
    env: {
      PORTICO_EXAMPLE_BASE_URL: upstream.url,
      PORTICO_EXAMPLE_CLIENT_ID: 'metrics-test',
      PORTICO_EXAMPLE_CLIENT_SECRET: 'metrics-secret',
      PORTICO_EXAMPLE_OAUTH_TOKEN_URL: `${upstream.url}/oauth/token`,
    },
  });
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
  mcp = await connectMcp(gateway.url, gateway.key);
});

afterAll(async () => {
  await mcp?.close();
  await gateway?.close();
  await upstream?.close();
});

/** The exposition text, read with the admin key. */
async function scrape(): Promise<string> {
  const res = await gateway.rest('GET', '/metrics');
  expect(res.status).toBe(200);
  return res.body as string;
}

/** The value of one series (0 when absent); labels in any order. */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).match(/^\{(.*)\}/)?.[1] ?? '';
    const have = labelText ? labelText.split(/,(?=[a-z_]+=")/) : [];
    if (wanted.length === have.length && wanted.every((w) => have.includes(w))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

/** How much each series moved while `action` ran. */
async function moved(action: () => Promise<unknown>) {
  const before = await scrape();
  await action();
  await gateway.runtime.engine.flushAudit();
  const after = await scrape();
  return (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
}

const callTool = (method: string, params: Record<string, unknown> = {}) =>
  mcp.callTool({ name: 'call_example', arguments: { method, params } });

describe('/metrics on the main port', () => {
  it('is refused without a key and to a key that is not an admin key, with the error body', async () => {
    const anonymous = await gateway.rest('GET', '/metrics', { key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: true, code: 'unauthorized', message: expect.any(String) });
    const { key } = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'caller',
      scopes: { admin: false, services: '*', readOnly: false },
    });
    const caller = await gateway.rest('GET', '/metrics', { key });
    expect(caller.status).toBe(403);
    expect(caller.body).toEqual({ error: true, code: 'forbidden', message: expect.any(String) });
    const admin = await gateway.rest('GET', '/metrics');
    expect(admin.status).toBe(200);
    expect(admin.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('counts REST and MCP calls by service, operation, protocol, status and code, and their duration', async () => {
    const delta = await moved(async () => {
      expect((await gateway.rest('GET', '/api/v1/example/items')).status).toBe(200);
      expect((await gateway.rest('GET', '/api/v1/example/items/nosuch')).status).toBe(404);
      expect((await callTool('list_items')).isError).toBeFalsy();
      expect((await callTool('list_items')).isError).toBeFalsy();
    });
    const labels = { service: 'example', operation: 'list_items', status: '200', code: 'ok' };
    expect(delta('portico_requests_total', { ...labels, protocol: 'rest' })).toBe(1);
    expect(delta('portico_requests_total', { ...labels, protocol: 'mcp' })).toBe(2);
    expect(
      delta('portico_requests_total', { service: 'example', operation: 'get_item', protocol: 'rest', status: '404', code: 'not_found' }),
    ).toBe(1);
    expect(delta('portico_request_duration_seconds_count', { service: 'example', protocol: 'mcp' })).toBe(2);
    expect(delta('portico_request_duration_seconds_bucket', { service: 'example', protocol: 'rest', le: '+Inf' })).toBe(2);
    // the upstream calls: latency by outcome
    expect(delta('portico_upstream_request_duration_seconds_count', { service: 'example', outcome: 'ok' })).toBe(3);
    expect(delta('portico_upstream_request_duration_seconds_count', { service: 'example', outcome: 'not_found' })).toBe(1);
    // and the HTTP answers of each door
    expect(delta('portico_http_responses_total', { door: 'rest', status: '200' })).toBe(1);
    expect(delta('portico_http_responses_total', { door: 'rest', status: '404' })).toBe(1);
    expect(delta('portico_http_responses_total', { door: 'mcp', status: '200' })).toBe(2);
  });

  it('counts an upstream 429 as a rate-limit refusal from the upstream, and an upstream 500 by its code', async () => {
    const delta = await moved(async () => {
      expect((await gateway.rest('GET', '/api/v1/example/items/busy')).status).toBe(429);
      expect((await callTool('get_item', { item_id: 'busy' })).isError).toBe(true);
      expect((await gateway.rest('GET', '/api/v1/example/items/boom')).status).toBe(502);
    });
    expect(delta('portico_rate_limited_total', { service: 'example', protocol: 'rest', source: 'upstream' })).toBe(1);
    expect(delta('portico_rate_limited_total', { service: 'example', protocol: 'mcp', source: 'upstream' })).toBe(1);
    expect(
      delta('portico_requests_total', { service: 'example', operation: 'get_item', protocol: 'rest', status: '429', code: 'rate_limited' }),
    ).toBe(1);
    expect(delta('portico_upstream_request_duration_seconds_count', { service: 'example', outcome: 'rate_limited' })).toBe(2);
    expect(delta('portico_upstream_request_duration_seconds_count', { service: 'example', outcome: 'upstream_error' })).toBe(1);
    expect(delta('portico_http_responses_total', { door: 'rest', status: '429' })).toBe(1);
  });

  it('counts OAuth refreshes by service and outcome', async () => {
    const expired = { accessToken: 'stale', refreshToken: 'refresh-1', expiresAt: new Date(Date.now() - 60_000).toISOString() };
    const delta = await moved(async () => {
      await gateway.runtime.engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', expired);
      tokenAnswer = { status: 503, body: { message: 'down for maintenance' } };
      expect((await gateway.rest('GET', '/api/v1/example/items')).status).toBe(502);
      tokenAnswer = { status: 200, body: { access_token: 'fresh', expires_in: 3600 } };
      expect((await gateway.rest('GET', '/api/v1/example/items')).status).toBe(200);
    });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer fresh');
    expect(delta('portico_oauth_refreshes_total', { service: 'example', outcome: 'upstream_error' })).toBe(1);
    expect(delta('portico_oauth_refreshes_total', { service: 'example', outcome: 'ok' })).toBe(1);
  });

  it('keeps its labels bounded: unknown services and operations are one (unknown) label, never the input', async () => {
    // The doors refuse most junk before the pipeline (unknown service: 404; MCP: the tool's enum); the pipeline is
    // called here directly with what might still reach it, as any door's input would.
    const principal = { keyId: null, workspaceId: DEFAULT_WORKSPACE, scopes: { admin: true, services: '*' as const, readOnly: false } };
    const invoke = (service: string, operation: string) =>
      gateway.runtime.engine.invoke({ principal, protocol: 'mcp', service, operation, params: {} }).catch(() => undefined);
    const junk = (round: number) => async () => {
      for (let i = 0; i < 10; i++) {
        await gateway.rest('GET', `/api/v1/zz${round}x${i}/things`);
        await invoke('example', `op_${round}_${i}`);
        await invoke(`zz${round}x${i}`, `op_${round}_${i}`);
        await gateway.rest('GET', `/nowhere/${round}/${i}`);
      }
    };
    await junk(1)();
    const first = await scrape();
    const delta = await moved(junk(2));
    const second = await scrape();
    expect(second).not.toMatch(/zz\dx|op_\d_|nowhere/);
    expect(
      delta('portico_requests_total', { service: 'example', operation: UNKNOWN, protocol: 'mcp', status: '404', code: 'not_found' }),
    ).toBe(10);
    expect(
      delta('portico_requests_total', { service: UNKNOWN, operation: UNKNOWN, protocol: 'mcp', status: '404', code: 'not_found' }),
    ).toBe(10);
    expect(delta('portico_http_responses_total', { door: 'rest', status: '404' })).toBe(10);
    expect(delta('portico_http_responses_total', { door: 'other', status: '404' })).toBe(10);
    // the same series as after the first round: junk adds no series
    const series = (text: string) => text.split('\n').filter((line) => line.startsWith('portico_')).length;
    expect(series(second)).toBe(series(first));
  });

  it('carries the process metrics and the version', async () => {
    const text = await scrape();
    expect(value(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^portico_build_info\{version="[^"]+"\} 1$/m);
  });
});

describe('/metrics on a port of its own (PORTICO_METRICS_PORT)', () => {
  let separate: TestGateway;
  beforeAll(async () => {
    separate = await startTestGateway({ plugins: [examplePlugin], env: { PORTICO_METRICS_PORT: '0' } });
  });
  afterAll(async () => {
    await separate?.close();
  });

  const get = (url: string, init: { method?: string; host?: string } = {}) =>
    new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers: init.host ? { host: init.host } : {} }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('serves them there without a key, and not on the main port', async () => {
    expect(separate.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const scraped = await get(`${separate.metricsUrl}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(scraped.body).toContain('portico_build_info');
    const main = await separate.rest('GET', '/metrics');
    expect(main.status).toBe(404);
    expect(main.body).toEqual({ error: true, code: 'not_found', message: expect.any(String) });
  });

  it('answers nothing else there, each with the error body, and refuses a foreign Host (DNS rebinding)', async () => {
    const expectError = (answer: { status: number; body: string }, status: number, code: string) => {
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.body)).toEqual({ error: true, code, message: expect.any(String) });
    };
    expectError(await get(`${separate.metricsUrl}/api/admin/keys`), 404, 'not_found');
    expectError(await get(`${separate.metricsUrl}/metrics`, { method: 'POST' }), 405, 'method_not_allowed');
    expectError(await get(`${separate.metricsUrl}/metrics`, { host: 'attacker.example' }), 403, 'forbidden');
    expect((await get(`${separate.metricsUrl}/metrics`, { host: 'localhost' })).status).toBe(200);
  });
});

describe('GatewayMetrics', () => {
  it('tells a rate limit of the gateway from one of the upstream, and counts OAuth connects', async () => {
    const registry = new Registry();
    registry.register(examplePlugin);
    const metrics = new GatewayMetrics(registry, '0.0.0-test');
    const record = {
      at: new Date().toISOString(),
      workspaceId: DEFAULT_WORKSPACE,
      keyId: 'key_1',
      service: 'example',
      operation: 'list_items',
      protocol: 'rest' as const,
      status: 429,
      code: 'rate_limited',
      durationMs: 1,
      clientAddress: '127.0.0.1',
    };
    metrics.observer.audited?.(record, {});
    metrics.observer.audited?.(record, {});
    metrics.observer.audited?.(record, { upstreamStatus: 429 });
    metrics.observer.audited?.(
      { ...record, service: 'nosuch', operation: 'oauth_connect', protocol: 'admin', status: 400, code: 'bad_request' },
      {},
    );
    const text = await metrics.render();
    expect(value(text, 'portico_rate_limited_total', { service: 'example', protocol: 'rest', source: 'gateway' })).toBe(2);
    expect(value(text, 'portico_rate_limited_total', { service: 'example', protocol: 'rest', source: 'upstream' })).toBe(1);
    expect(value(text, 'portico_oauth_connects_total', { service: UNKNOWN, outcome: 'bad_request' })).toBe(1);
  });
});
