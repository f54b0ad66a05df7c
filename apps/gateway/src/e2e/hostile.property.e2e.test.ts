import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, type RegisteredOperation } from '@portico/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';

/**
 * Hostile input over both doors, for every operation of every installed plugin (the registry is iterated, so a plugin
 * added later is covered without new test code). Every plugin is pointed at one recording stub upstream, each below a
 * base path of its own; the properties:
 * - every answer is a result or the documented error body with a 4xx — never a 5xx, a stack or an empty body (a 5xx
 *   only as upstream_error/upstream_timeout, when the call reached the stub and the stub's generic answer did not fit);
 * - every upstream request stays on the stub's origin, below the service's base path, with no `.` or `..` segment.
 * CI runs a fixed seed with a bounded count; PORTICO_FUZZ_RUNS and PORTICO_FUZZ_SEED make a longer or another run
 * (docs/security.md).
 */
const RUNS = Number(process.env.PORTICO_FUZZ_RUNS ?? '4');
const SEED = Number(process.env.PORTICO_FUZZ_SEED ?? '20261125');

let stub: StubUpstream;
let gateway: TestGateway;
let client: Client;
/** The same attacks by an OAuth grant's access token (every service, read and write) and its MCP client. */
let grantToken: string;
let grantClient: Client;
let operations: Array<{ service: string; operation: RegisteredOperation }>;

beforeAll(async () => {
  // Answers every plugin can read: Slack's ok, QuickBooks' QueryResponse, Clio's and the others' data.
  stub = await startStubUpstream(() => ({ status: 200, body: { ok: true, data: [], QueryResponse: {}, results: [] } }));
  const services = ['lawmatics', 'quickbooks', 'clio', 'notion', 'slack', 'callrail'];
  const env = Object.fromEntries(services.map((s) => [`PORTICO_${s.toUpperCase()}_BASE_URL`, `${stub.url}/${s}-base`]));
  // The upstreams' own limits (Clio's 50 a minute…) would hold back the generated calls this test wants to see sent.
  for (const s of services) env[`PORTICO_${s.toUpperCase()}_UPSTREAM_LIMITS`] = 'none';
  gateway = await startTestGateway({ env });
  for (const integration of gateway.runtime.registry.list()) {
    await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, integration.service, 'fuzz-token', { realmId: '9130354' });
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, integration.service, { restEnabled: true });
  }
  client = await connectMcp(gateway.url, gateway.key);
  const everyService = Object.fromEntries(gateway.runtime.registry.list().map((i) => [`access_${i.service}`, 'write']));
  grantToken = (await obtainGrant(gateway.url, gateway.key, { ...everyService, expires: '1' })).accessToken;
  grantClient = await connectMcp(gateway.url, grantToken);
  operations = gateway.runtime.registry
    .list()
    .flatMap((integration) => [...integration.operations.values()].map((operation) => ({ service: integration.service, operation })));
}, 30_000);
afterAll(async () => {
  await grantClient?.close();
  await client?.close();
  await gateway?.close();
  await stub?.close();
});

// ---- values -------------------------------------------------------------------------------------------------------

const deep = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { d: value };
  return value;
};
const wide = (keys: number) => Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));

const PATH_ATTACKS = ['..', '.', '%2e%2e', '%2E.', '..%2f..', '//evil.example', 'a/b', '%2f', '..\\..', '?x=1', '#frag'];

/** A value for one parameter: mostly wrong or hostile, sometimes plausible. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 5 }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'x'), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
  fc.constantFrom(...PATH_ATTACKS),
  fc.constantFrom(deep(300), wide(3_000), 'x'.repeat(20_000), '__proto__', '{"__proto__":{"a":1}}'),
);

/** Params for an operation: each declared parameter left out, given its example value, or given a hostile value; extra keys. */
function paramsFor(operation: RegisteredOperation, example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys((operation.definition.params.properties ?? {}) as Record<string, unknown>);
  const entries = names.map((name) =>
    fc.oneof(fc.constant(undefined), fc.constant(example[name]), hostileValue).map((value) => [name, value] as const),
  );
  const extras = fc.array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'unknown_param', 'prototype'), hostileValue), {
    maxLength: 2,
  });
  return fc.tuple(fc.tuple(...entries), extras).map(([given, extra]) => {
    const out: Record<string, unknown> = {};
    for (const [name, value] of [...given, ...extra]) {
      if (value !== undefined) Object.defineProperty(out, name, { value, enumerable: true, configurable: true, writable: true });
    }
    return out;
  });
}

// ---- the two doors ------------------------------------------------------------------------------------------------

/** A REST request sent as written (no client-side normalisation of `..`), with the answer's status and text. */
function rawRest(method: string, path: string, body?: unknown, token = gateway.key): Promise<{ status: number; text: string }> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const stringify = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The REST request a client would make for these params: path tokens in the path (written raw), the rest by location. */
function restCall(service: string, operation: RegisteredOperation, params: Record<string, unknown>) {
  const locations = operation.locations as Readonly<Record<string, string>>;
  let path = operation.definition.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) return 'missing';
    const text = stringify(value);
    return PATH_ATTACKS.includes(text) ? text : encodeURIComponent(text);
  });
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    const location = locations[name] ?? (operation.definition.method === 'GET' ? 'query' : 'body');
    if (location === 'path') continue;
    if (location === 'query' || operation.definition.method === 'GET') {
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, stringify(item));
    } else {
      Object.defineProperty(body, name, { value, enumerable: true, configurable: true, writable: true });
    }
  }
  const search = query.toString();
  path = `/api/v1/${service}${path}${search ? `?${search}` : ''}`;
  return { method: operation.definition.method, path, body: operation.definition.method === 'GET' ? undefined : body };
}

// ---- what must hold -----------------------------------------------------------------------------------------------

function problemsOfAnswer(label: string, status: number, body: unknown, reachedUpstream: boolean): string[] {
  const out: string[] = [];
  const text = JSON.stringify(body) ?? '';
  if (/\n\s+at |at [\w.<>]+ \(.*:\d+:\d+\)/.test(text)) out.push(`${label}: a stack trace in the answer`);
  if (status < 400) return out;
  if (typeof body !== 'object' || body === null) return [...out, `${label}: ${status} without the JSON error body (${text.slice(0, 80)})`];
  const keys = Object.keys(body).sort();
  if (keys.join(',') !== 'code,error,message') out.push(`${label}: error body has ${keys.join(',')}`);
  const { code, message } = body as { code?: unknown; message?: unknown };
  if (typeof message !== 'string' || message === '') out.push(`${label}: empty message`);
  if (status >= 500) {
    const upstreamFault = reachedUpstream && (code === 'upstream_error' || code === 'upstream_timeout');
    if (!upstreamFault) out.push(`${label}: ${status} ${String(code)}: ${String(message).slice(0, 160)}`);
  }
  return out;
}

function problemsOfUpstream(label: string, service: string, from: number): string[] {
  const out: string[] = [];
  for (const recorded of stub.requests.slice(from)) {
    const path = recorded.url.split('?')[0] as string;
    if (!path.startsWith(`/${service}-base/`)) out.push(`${label}: upstream request ${recorded.method} ${path} left /${service}-base/`);
    const segments = path.split('/').map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
    if (segments.some((s) => s === '.' || s === '..' || s.includes('/')))
      out.push(`${label}: upstream path ${path} has a dot or slash segment`);
  }
  return out;
}

describe('hostile input, every operation, REST and MCP (fast-check, fixed seed)', () => {
  it('answers a result or the documented 4xx body, and keeps every upstream request on its base path', async () => {
    const problems: string[] = [];
    for (const { service, operation } of operations) {
      const example = (operation.definition.example ?? {}) as Record<string, unknown>;
      await fc.assert(
        fc.asyncProperty(paramsFor(operation, example), async (params) => {
          const label = `${service}.${operation.definition.name} ${JSON.stringify(params).slice(0, 120)}`;
          let from = stub.requests.length;
          const call = restCall(service, operation, params);
          const rest = await rawRest(call.method, call.path, call.body);
          let parsed: unknown;
          try {
            parsed = rest.text === '' ? undefined : JSON.parse(rest.text);
          } catch {
            parsed = rest.text;
          }
          problems.push(...problemsOfAnswer(`REST ${label}`, rest.status, parsed, stub.requests.length > from));
          problems.push(...problemsOfUpstream(`REST ${label}`, service, from));
          from = stub.requests.length;
          const mcp = await client
            .callTool({ name: `call_${service}`, arguments: { method: operation.definition.name, params } })
            .then((r) => ({ isError: Boolean(r.isError), body: r.structuredContent as unknown }))
            .catch((error: { code?: number; message?: string }) => ({ rpcError: error }));
          if ('rpcError' in mcp) {
            if (mcp.rpcError.code !== -32602)
              problems.push(`MCP ${label}: JSON-RPC error ${String(mcp.rpcError.code)} ${mcp.rpcError.message}`);
          } else if (mcp.isError) {
            const code = (mcp.body as { code?: string } | undefined)?.code;
            const status = code?.startsWith('upstream_') ? 502 : 400;
            problems.push(...problemsOfAnswer(`MCP ${label}`, status, mcp.body, stub.requests.length > from));
          }
          problems.push(...problemsOfUpstream(`MCP ${label}`, service, from));
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
    expect(problems.slice(0, 30)).toEqual([]);
  }, 240_000);

  it.each(['an API key', 'an OAuth grant'])(
    'refuses every path attack in every path parameter before any upstream request, over both doors, by %s',
    async (by) => {
      const [bearer, mcpClient] = by === 'an API key' ? [gateway.key, client] : [grantToken, grantClient];
      const problems: string[] = [];
      for (const { service, operation } of operations) {
        const tokens = [...operation.definition.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
        if (tokens.length === 0) continue;
        const example = (operation.definition.example ?? {}) as Record<string, unknown>;
        for (const token of tokens) {
          for (const attack of ['..', '.', '%2e%2e', '%2E.', '//evil.example']) {
            const params = { ...example, [token]: attack };
            const label = `${service}.${operation.definition.name} ${token}=${attack}`;
            const from = stub.requests.length;
            const call = restCall(service, operation, params);
            const rest = await rawRest(call.method, call.path, call.body, bearer as string);
            if (rest.status !== 400 && rest.status !== 404) problems.push(`REST ${label}: ${rest.status} ${rest.text.slice(0, 100)}`);
            if (attack === '..' || attack === '.' || attack === '//evil.example') {
              const mcp = await mcpClient.callTool({ name: `call_${service}`, arguments: { method: operation.definition.name, params } });
              if (!mcp.isError) problems.push(`MCP ${label}: accepted`);
            }
            if (stub.requests.length > from) problems.push(`${label}: reached the upstream (${stub.requests[from]?.url})`);
          }
        }
      }
      expect(problems.slice(0, 30)).toEqual([]);
    },
    240_000,
  );

  it('answers every MCP batch — repeated ids, cancellations, junk — promptly, with JSON-RPC, and keeps nothing', async () => {
    const { pendingMcpPosts } = await import('@portico/core/mcp');
    const id = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constantFrom('1', 'a'));
    const request = fc.oneof(
      id.map((i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })),
      id.map((i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list', params: {} })),
      fc
        .tuple(id, hostileValue)
        .map(([i, v]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'describe_method', arguments: v } })),
      fc.tuple(id, fc.constantFrom(...operations.slice(0, 20).map((o) => o.operation.definition.name))).map(([i, method]) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: `call_${operations[0]?.service}`, arguments: { method, params: {} } },
      })),
      id.map((i) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: i, reason: 'changed my mind' } })),
      hostileValue,
    );
    const problems: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.oneof(request, fc.array(request, { minLength: 1, maxLength: 8 })), async (body) => {
        const label = JSON.stringify(body).slice(0, 160);
        const started = performance.now();
        const res = await fetch(`${gateway.url}/api/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${gateway.key}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(5_000),
        }).catch((error: Error) => ({ status: 0, text: async () => error.message }));
        const text = await res.text();
        if (performance.now() - started > 4_000) problems.push(`slow answer to ${label}`);
        if (![200, 202, 400].includes(res.status)) problems.push(`${res.status} to ${label}: ${text.slice(0, 100)}`);
        if (res.status === 202 && text !== '') problems.push(`202 with a body to ${label}`);
        if (res.status !== 202) {
          try {
            const answer = JSON.parse(text) as unknown;
            const answers = Array.isArray(answer) ? answer : [answer];
            for (const a of answers as Array<Record<string, unknown>>) {
              if (a?.jsonrpc !== '2.0' || !('result' in a || 'error' in a))
                problems.push(`not JSON-RPC to ${label}: ${text.slice(0, 100)}`);
            }
          } catch {
            problems.push(`not JSON to ${label}: ${text.slice(0, 100)}`);
          }
        }
        if (/\n\s+at /.test(text)) problems.push(`a stack in the answer to ${label}`);
      }),
      { numRuns: RUNS * 50, seed: SEED },
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(pendingMcpPosts()).toBe(0);
  }, 120_000);
});
