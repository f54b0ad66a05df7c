import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../observability/otlp-receiver.test-support.js';
import { listening, type PorticoProcess, runPortico, stop } from './cluster.test-support.js';
import { moduleLog } from './module-log.test-support.js';

/**
 * The built `portico serve --sandbox` with OTEL_EXPORTER_OTLP_ENDPOINT set exports the spans of a REST call and of an
 * MCP tools/call (each with an inbound traceparent) to an OTLP/HTTP receiver on loopback; without it, none of the
 * SDK's modules is even loaded (a module-resolution hook records every module the process imports).
 * Needs `pnpm build` first.
 */
const dir = mkdtempSync(join(tmpdir(), 'portico-tracing-'));
const log = moduleLog(dir);

const REST_TRACE = '0af7651916cd43dd8448eb211c80319c';
const MCP_TRACE = '1bf7651916cd43dd8448eb211c80319d';
const PARENT = 'b7ad6b7169203331';
const SERVER = 2;
const CLIENT = 3;

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
const running: PorticoProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map(stop));
  await receiver?.close();
});

/** `portico serve --sandbox` with the Notion sandbox; resolves once listening, with its URL, key and resolved-module log. */
async function serve(name: string, env: Record<string, string>) {
  const process: PorticoProcess = runPortico(['serve', '--sandbox'], {
    PORTICO_DATA_DIR: mkdtempSync(join(dir, `${name}-`)),
    PORTICO_PLUGINS: 'notes',
    PORTICO_PORT: '0',
    PORTICO_LOG_LEVEL: 'info',
    ...log.env(name),
    ...env,
  });
  running.push(process);
  const url = await listening(process);
  // the banner (stderr) may arrive after the log line
  const banner = /shown only now\):\s+(\S+)/;
  for (let i = 0; i < 200 && !banner.test(process.output()); i++) await new Promise((r) => setTimeout(r, 50));
  const key = banner.exec(process.output())?.[1] as string;
  expect(key, process.output()).toBeTruthy();
  return { process, url, key, modules: () => log.modules(name) };
}

describe('portico serve --sandbox with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let spans: ReceivedSpan[];
  let key: string;
  let output: string;
  let modules: string;

  beforeAll(async () => {
    const started = await serve('on', {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'portico-e2e',
    });
    key = started.key;
    try {
      const rest = await fetch(`${started.url}/api/v1/notion/users`, {
        headers: { authorization: `Bearer ${key}`, traceparent: `00-${REST_TRACE}-${PARENT}-01` },
      });
      expect(rest.status).toBe(200);
      const mcp = await fetch(`${started.url}/api/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          traceparent: `00-${MCP_TRACE}-${PARENT}-01`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'call_notion', arguments: { method: 'list_users', params: {} } },
        }),
      });
      const answer = await mcp.text();
      expect(mcp.status, answer).toBe(200);
      expect(answer).not.toContain('"isError":true');
    } finally {
      await stop(started.process); // SIGTERM: the last spans are exported before the process exits
    }
    spans = receiver.spans;
    output = started.process.output();
    modules = started.modules();
  });

  it('exports one trace per call: server span, upstream client span and store spans, with the attributes', () => {
    for (const [traceId, route, protocol] of [
      [REST_TRACE, '/api/v1/:service/{*rest}', 'rest'],
      [MCP_TRACE, '/api/mcp', 'mcp'],
    ] as const) {
      const trace = spans.filter((s) => s.traceId === traceId);
      const request = trace.find((s) => s.kind === SERVER) as ReceivedSpan;
      expect(request).toMatchObject({
        parentSpanId: PARENT,
        attributes: {
          'http.route': route,
          'http.response.status_code': 200,
          'portico.service': 'notion',
          'portico.operation': 'list_users',
          'portico.protocol': protocol,
        },
        resource: { 'service.name': 'portico-e2e' },
      });
      const call = trace.find((s) => s.kind === CLIENT && s.name === 'GET') as ReceivedSpan;
      expect(call).toMatchObject({
        parentSpanId: request.spanId,
        attributes: { 'http.response.status_code': 200, 'portico.service': 'notion' },
      });
      expect(call.attributes['url.full']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/users$/);
    }
    // the first call looked its key and connection up in the store
    const restStore = spans.filter((s) => s.traceId === REST_TRACE && ['key lookup', 'connection lookup'].includes(s.name));
    expect(restStore.map((s) => s.name).sort()).toEqual(['connection lookup', 'key lookup']);
    expect(spans.some((s) => s.name === 'audit write' && s.links.some((l) => l.traceId === REST_TRACE))).toBe(true);
  });

  it('puts no API key or token in any exported byte, and logs where it exports', () => {
    const exported = receiver.exports.map((e) => e.body.toString()).join('\n');
    expect(exported).not.toContain(key);
    expect(exported).not.toContain('Bearer');
    expect(output).toContain('exporting spans over OTLP');
  });

  it('loaded the SDK and the JSON exporter', () => {
    expect(modules).toContain('@opentelemetry/sdk-trace-base');
    expect(modules).toContain('@opentelemetry/exporter-trace-otlp-http');
  });
});

it('without an endpoint, loads none of the SDK’s modules and exports nothing', async () => {
  const before = receiver.exports.length;
  const started = await serve('off', {});
  try {
    const rest = await fetch(`${started.url}/api/v1/notion/users`, { headers: { authorization: `Bearer ${started.key}` } });
    expect(rest.status).toBe(200);
  } finally {
    await stop(started.process);
  }
  const modules = started.modules();
  expect(modules).toContain('@opentelemetry/api'); // the API alone: core's spans check it once
  expect(modules).not.toMatch(/@opentelemetry\/(sdk-|exporter-|resources|otlp-)/);
  expect(started.process.output()).not.toContain('exporting spans over OTLP');
  expect(receiver.exports.length).toBe(before);
});
