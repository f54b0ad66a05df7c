import { DEFAULT_WORKSPACE, tracingOn } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.test-support.js';

/**
 * OpenTelemetry spans exported over OTLP/HTTP (JSON) to a receiver on loopback, from a gateway calling a stub upstream
 * on loopback: the request's server span, the upstream call's client span and the store's spans in one trace, the
 * upstream told the client span's id, and no secret in any attribute. Without an endpoint: no span at all.
 */
const REST_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const MCP_TRACE = '5cf92f3577b34da6a3ce929d0e0e4737';
const PROBE_TRACE = '7ef92f3577b34da6a3ce929d0e0e4739';
const PARENT = '00f067aa0ba902b7';
const UPSTREAM_TOKEN = 'upstream-token-b1c2d3e4f5';
const CLIENT_SECRET = 'client-secret-a9b8c7d6';
const SERVER = 2;
const CLIENT = 3;

let upstream: StubUpstream;
let receiver: OtlpReceiver;

beforeAll(async () => {
  upstream = await startStubUpstream((method, url) =>
    url.pathname === '/items' && method === 'GET'
      ? { status: 200, body: { items: [] } }
      : { status: 404, body: { message: 'no such item' } },
  );
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await upstream?.close();
  await receiver?.close();
});

async function start(env: Record<string, string>): Promise<TestGateway> {
  const gateway = await startTestGateway({
    plugins: [examplePlugin],
    env: {
      PORTICO_EXAMPLE_BASE_URL: upstream.url,
      PORTICO_EXAMPLE_CLIENT_ID: 'trace-test',
      PORTICO_EXAMPLE_CLIENT_SECRET: CLIENT_SECRET,
      ...env,
    },
  });
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', UPSTREAM_TOKEN);
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
  return gateway;
}

/** A stateless MCP tools/call, as one HTTP request carrying `traceparent`. */
async function mcpCall(gateway: TestGateway, traceparent: string) {
  const response = await fetch(`${gateway.url}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${gateway.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      traceparent,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'call_example', arguments: { method: 'list_items', params: {} } },
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(text).not.toContain('"isError":true');
  return response;
}

/** The traceparent the stub upstream received with the request made after `seen`. */
function sentUpstream(seen: number): string {
  const sent = upstream.requests.slice(seen);
  expect(sent).toHaveLength(1);
  return String(sent[0]?.headers.traceparent);
}

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let spans: ReceivedSpan[];
  let gateway: TestGateway;
  const seen: { restAnswer?: string; restUpstream?: string; mcpUpstream?: string } = {};

  beforeAll(async () => {
    gateway = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(tracingOn()).toBe(true);
    let before = upstream.requests.length;
    const rest = await gateway.rest('GET', '/api/v1/example/items', { headers: { traceparent: `00-${REST_TRACE}-${PARENT}-01` } });
    expect(rest.status).toBe(200);
    seen.restAnswer = rest.headers.get('traceparent') ?? '';
    seen.restUpstream = sentUpstream(before);
    before = upstream.requests.length;
    await mcpCall(gateway, `00-${MCP_TRACE}-${PARENT}-01`);
    expect((await gateway.rest('GET', '/readyz', { key: null, headers: { traceparent: `00-${PROBE_TRACE}-${PARENT}-01` } })).status).toBe(
      200,
    );
    seen.mcpUpstream = sentUpstream(before);
    await gateway.close(); // flushes the audit log, then exports the spans still buffered
    spans = receiver.spans;
  });

  const ofTrace = (traceId: string) => spans.filter((s) => s.traceId === traceId);
  const server = (traceId: string) => ofTrace(traceId).find((s) => s.kind === SERVER) as ReceivedSpan;

  it('a REST call: server span under the caller’s parent, upstream client span and store spans under it, one trace', () => {
    const request = server(REST_TRACE);
    expect(request).toMatchObject({
      parentSpanId: PARENT,
      name: 'GET /api/v1/:service/{*rest}',
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/api/v1/:service/{*rest}',
        'http.response.status_code': 200,
        'url.path': '/api/v1/example/items',
        'portico.service': 'example',
        'portico.operation': 'list_items',
        'portico.protocol': 'rest',
      },
      resource: { 'service.name': 'portico' },
    });
    // the answer names the server span
    expect(seen.restAnswer).toBe(`00-${REST_TRACE}-${request.spanId}-01`);
    const children = ofTrace(REST_TRACE).filter((s) => s.parentSpanId === request.spanId);
    expect(children.map((s) => s.name).sort()).toEqual(expect.arrayContaining(['GET', 'connection lookup', 'key lookup']));
    const call = children.find((s) => s.kind === CLIENT && s.name === 'GET') as ReceivedSpan;
    expect(call.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
      'url.full': `${upstream.url}/items`,
      'portico.service': 'example',
      'portico.operation': 'list_items',
    });
    // the upstream was told the client span's id as its parent
    expect(seen.restUpstream).toBe(`00-${REST_TRACE}-${call.spanId}-01`);
  });

  it('an MCP tools/call: the same shape, the service and operation named on the server span', () => {
    const request = server(MCP_TRACE);
    expect(request).toMatchObject({
      parentSpanId: PARENT,
      name: 'POST /api/mcp',
      attributes: {
        'http.response.status_code': 200,
        'portico.service': 'example',
        'portico.operation': 'list_items',
        'portico.protocol': 'mcp',
      },
    });
    const call = ofTrace(MCP_TRACE).find((s) => s.kind === CLIENT && s.name === 'GET') as ReceivedSpan;
    expect(call.parentSpanId).toBe(request.spanId);
    expect(seen.mcpUpstream).toBe(`00-${MCP_TRACE}-${call.spanId}-01`);
  });

  it('the audit write is a span of its own, linked to the requests whose records it wrote', () => {
    const writes = spans.filter((s) => s.name === 'audit write');
    const links = writes.flatMap((s) => s.links.map((l) => `${l.traceId}/${l.spanId}`));
    expect(links).toEqual(
      expect.arrayContaining([`${REST_TRACE}/${server(REST_TRACE).spanId}`, `${MCP_TRACE}/${server(MCP_TRACE).spanId}`]),
    );
  });

  it('does not trace the probes', () => {
    expect(ofTrace(PROBE_TRACE)).toEqual([]);
  });

  it('puts no API key, token or client secret in any span', () => {
    expect(spans.length).toBeGreaterThanOrEqual(8);
    const exported = receiver.exports.map((e) => e.body.toString()).join('\n');
    for (const secret of [gateway.key, UPSTREAM_TOKEN, CLIENT_SECRET, 'Bearer']) expect(exported).not.toContain(secret);
  });
});

describe('without an OTLP endpoint', () => {
  it('records no span, and the traceparent sent upstream is today’s: the caller’s trace under a span id of our own', async () => {
    const exportsBefore = receiver.exports.length;
    const gateway = await start({});
    try {
      expect(tracingOn()).toBe(false);
      const before = upstream.requests.length;
      const rest = await gateway.rest('GET', '/api/v1/example/items', { headers: { traceparent: `00-${REST_TRACE}-${PARENT}-01` } });
      expect(rest.status).toBe(200);
      expect(sentUpstream(before)).toMatch(new RegExp(`^00-${REST_TRACE}-(?!${PARENT})[0-9a-f]{16}-01$`));
    } finally {
      await gateway.close();
    }
    expect(receiver.exports.length).toBe(exportsBefore);
  });
});

describe('with OTEL_EXPORTER_OTLP_PROTOCOL unset (http/protobuf, the specification’s default)', () => {
  it('exports protobuf bodies to /v1/traces carrying the call’s trace id', async () => {
    const before = receiver.exports.length;
    const traceId = '6df92f3577b34da6a3ce929d0e0e4738';
    const gateway = await start({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` });
    try {
      const rest = await gateway.rest('GET', '/api/v1/example/items', { headers: { traceparent: `00-${traceId}-${PARENT}-01` } });
      expect(rest.status).toBe(200);
    } finally {
      await gateway.close();
    }
    const sent = receiver.exports.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((e) => e.path === '/v1/traces' && e.headers['content-type'] === 'application/x-protobuf')).toBe(true);
    // protobuf carries ids as raw bytes
    expect(Buffer.concat(sent.map((e) => e.body)).includes(Buffer.from(traceId, 'hex'))).toBe(true);
  });
});
