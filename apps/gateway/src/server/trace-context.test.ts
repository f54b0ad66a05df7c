import { Writable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { createLogger } from '../observability/logger.js';

// W3C trace context: an inbound traceparent is honoured (or a new trace started), named in the log lines and the
// answer, and carried to the upstream with a span id of the gateway's own, over REST and MCP.

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

let upstream: StubUpstream;
let gateway: TestGateway;
let mcp: Client;
const lines: Array<{ msg: string; [field: string]: unknown }> = [];

beforeAll(async () => {
  upstream = await startStubUpstream((method, url) =>
    url.pathname === '/items' && method === 'GET'
      ? { status: 200, body: { items: [] } }
      : { status: 404, body: { message: 'no such item' } },
  );
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  gateway = await startTestGateway({
    plugins: [examplePlugin],
    logger: createLogger('info', destination),
    env: { PORTICO_EXAMPLE_BASE_URL: upstream.url, PORTICO_EXAMPLE_CLIENT_ID: 'trace-test', PORTICO_EXAMPLE_CLIENT_SECRET: 'trace-secret' },
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

/** The access-log line of the request sent with this X-Request-Id (the logger writes asynchronously). */
async function accessLine(requestId: string) {
  for (let i = 0; i < 200 && !lines.some((l) => l.msg === 'request' && l.requestId === requestId); i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return lines.find((l) => l.msg === 'request' && l.requestId === requestId);
}

/** A REST call through the gateway to the upstream: the answer's traceparent, the upstream's, and the access line. */
async function listItems(headers: Record<string, string>) {
  const requestId = `trace-${Math.random().toString(36).slice(2)}`;
  const seen = upstream.requests.length;
  const answer = await gateway.rest('GET', '/api/v1/example/items', { headers: { 'x-request-id': requestId, ...headers } });
  expect(answer.status).toBe(200);
  const sent = upstream.requests.slice(seen);
  expect(sent).toHaveLength(1);
  return {
    answered: TRACEPARENT.exec(answer.headers.get('traceparent') ?? ''),
    upstream: TRACEPARENT.exec(String(sent[0]?.headers.traceparent)),
    tracestate: sent[0]?.headers.tracestate,
    access: await accessLine(requestId),
  };
}

describe('W3C trace context over REST', () => {
  it('a valid inbound traceparent: its trace id in the answer, the access line and the upstream call, under new span ids', async () => {
    const seen = await listItems({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE' });
    expect(seen.answered?.[1]).toBe(TRACE);
    expect(seen.upstream?.[1]).toBe(TRACE);
    expect(seen.access?.traceId).toBe(TRACE);
    // the gateway's span answers; the upstream call is a span of its own; the caller's parent id is passed on nowhere
    expect(seen.answered?.[2]).not.toBe(PARENT);
    expect(seen.upstream?.[2]).not.toBe(PARENT);
    expect(seen.upstream?.[2]).not.toBe(seen.answered?.[2]);
    expect(seen.upstream?.[3]).toBe('01');
    expect(seen.tracestate).toBe('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
  });

  it.each([
    ['absent', {}],
    ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-${PARENT}-01`, tracestate: 'rojo=1' }],
    ['an all-zero parent id', { traceparent: `00-${TRACE}-${'0'.repeat(16)}-01` }],
    ['malformed', { traceparent: `00-${TRACE}-${PARENT}` }],
  ])('a traceparent %s: a new trace, the same in the answer, the access line and the upstream call', async (_what, headers) => {
    const seen = await listItems(headers);
    const traceId = seen.answered?.[1];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe(TRACE);
    expect(traceId).not.toBe('0'.repeat(32));
    expect(seen.upstream?.[1]).toBe(traceId);
    expect(seen.access?.traceId).toBe(traceId);
    expect(seen.tracestate).toBeUndefined(); // a tracestate is not carried into a trace it did not come with
  });

  it("a log line written while answering the request names the caller's trace id", async () => {
    const traceId = `${'a'.repeat(31)}1`;
    const answer = await gateway.rest('GET', '/api/v1/example/items/nosuch', { headers: { traceparent: `00-${traceId}-${PARENT}-01` } });
    expect(answer.status).toBe(404);
    for (let i = 0; i < 200 && !lines.some((l) => l.msg === 'upstream answered with an error' && l.traceId === traceId); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(lines.find((l) => l.msg === 'upstream answered with an error' && l.traceId === traceId)).toMatchObject({ upstreamStatus: 404 });
  });

  it('two requests without a traceparent are two traces', async () => {
    const [first, second] = [await listItems({}), await listItems({})];
    expect(first.answered?.[1]).not.toBe(second.answered?.[1]);
  });
});

describe('W3C trace context over MCP', () => {
  it('a tool call carries the trace id of its HTTP request to the upstream', async () => {
    const traced = await connectMcpWith(`00-${TRACE}-${PARENT}-01`);
    try {
      const seen = upstream.requests.length;
      const result = await traced.callTool({ name: 'call_example', arguments: { method: 'list_items', params: {} } });
      expect(result.isError).toBeFalsy();
      const sent = upstream.requests.slice(seen);
      expect(sent).toHaveLength(1);
      const match = TRACEPARENT.exec(String(sent[0]?.headers.traceparent));
      expect(match?.[1]).toBe(TRACE);
      expect(match?.[2]).not.toBe(PARENT);
    } finally {
      await traced.close();
    }
  });

  it('without a traceparent the upstream call still carries a valid one', async () => {
    const seen = upstream.requests.length;
    expect((await mcp.callTool({ name: 'call_example', arguments: { method: 'list_items', params: {} } })).isError).toBeFalsy();
    expect(String(upstream.requests.slice(seen)[0]?.headers.traceparent)).toMatch(TRACEPARENT);
  });
});

/** The official MCP client, sending this traceparent with every HTTP request. */
async function connectMcpWith(traceparent: string): Promise<Client> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'portico-trace-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${gateway.key}`, traceparent } },
    }),
  );
  return client;
}
