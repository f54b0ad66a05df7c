import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import type { Plugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { NO_UPSTREAM_LIMITS } from '../contract/upstream-limits.js';
import { queryString, queryValues, restCallFor, restInvocation } from '../doors/rest.js';
import { type ErrorCode, GatewayError } from '../errors.js';
import { Engine, type Principal } from '../pipeline/engine.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';

/** What the upstream must receive. `path` includes the base URL's own path (`/v1/pages/abc`). */
export interface ExpectedRequest {
  method: string;
  path: string;
  /** Exact query (absent means none). Repeated keys are arrays. */
  query?: Record<string, string | string[]>;
  /** Exact JSON (or form or multipart, as an object of strings) body; absent means no body. */
  body?: unknown;
  /** Raw body, base64 (uploads). */
  rawBase64?: string;
  /** Headers that must be present with these values (names lowercase). */
  headers?: Record<string, string>;
  /** Whether the connection's credentials must be sent (default true). */
  auth?: boolean;
}

export interface ScriptedResponse {
  status?: number;
  /** JSON body. Strings `{{upstream}}` inside it are replaced by the recorder's base URL. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface OperationFixture {
  /** Test name; defaults to the operation name. */
  name?: string;
  operation: string;
  params: Record<string, unknown>;
  /** Integration settings for the call. */
  settings?: Record<string, unknown>;
  /** Non-secret connection facts (realm id, region…). */
  connection?: Record<string, unknown>;
  /** The upstream exchanges, in order. Empty when the gateway must refuse before calling the upstream. */
  exchanges: Array<{ request: ExpectedRequest; response: ScriptedResponse }>;
  /**
   * Every fixture runs through both doors, MCP (the params as arguments) and REST (the params sent as a REST client
   * would: path, query string and JSON body), and both must make the same upstream requests and get the same answer.
   * A fixture that cannot be expressed over REST says why here (e.g. an object given for a string query parameter,
   * which a query string can only carry as text).
   */
  restSkip?: string;
  expect: { output: unknown } | { error: { code: ErrorCode; message?: string; retryAfter?: number } };
}

export interface FixtureHarnessOptions {
  /** The credential stored for the connection. */
  token?: string;
  /** Headers every authenticated request must carry, e.g. `{ authorization: 'Bearer fixture-token' }`. */
  authHeaders?: Record<string, string>;
  /** Headers every request must carry (API version pins…). */
  headers?: Record<string, string>;
}

export interface FixtureHarness {
  /** Runs one fixture through the real pipeline (validation, got, error mapping) against a loopback recorder. */
  check(fixture: OperationFixture): Promise<void>;
  close(): Promise<void>;
}

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: IncomingMessage['headers'];
  raw: Buffer;
}

const PRINCIPAL: Principal = {
  keyId: null,
  workspaceId: DEFAULT_WORKSPACE,
  scopes: { admin: true, services: '*', readOnly: false },
};

/**
 * The generic fixture runner: input → expected upstream request(s) → scripted upstream response(s) → expected
 * output or error. One runner serves every operation of every plugin; a plugin's test only lists fixtures.
 */
export async function createFixtureHarness(plugin: Plugin, options: FixtureHarnessOptions = {}): Promise<FixtureHarness> {
  const token = options.token ?? 'fixture-token';
  let script: ScriptedResponse[] = [];
  let recorded: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://recorder');
      const query: Record<string, string | string[]> = {};
      for (const [k, v] of url.searchParams) {
        const prev = query[k];
        query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
      }
      recorded.push({ method: req.method ?? '', path: url.pathname, query, headers: req.headers, raw: Buffer.concat(chunks) });
      const next = script.shift();
      if (!next) {
        res.writeHead(599, { 'content-type': 'application/json' }).end('{"message":"fixture: unexpected extra upstream request"}');
        return;
      }
      const body = next.body === undefined ? '' : JSON.stringify(next.body).replaceAll('{{upstream}}', base);
      res.writeHead(next.status ?? 200, { 'content-type': 'application/json', ...next.headers }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const store = new SqliteStore(':memory:');
  await store.migrate();
  const registry = new Registry();
  const integration = registry.register(plugin);
  const service = integration.service;
  const engine = new Engine({
    registry,
    store,
    encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))),
    upstream: { retryLimit: 0, timeoutMs: 5_000 },
    // The recorder/sandbox listens on loopback: approved as the operator would (PORTICO_WORKSPACE_UPSTREAM_HOSTS).
    egress: { workspaceHosts: ['127.0.0.1'] },
    // The recorder is not the application: its limits (Clio's 50 a minute) would refuse fixtures, not test them.
    upstreamLimits: { services: { [service]: NO_UPSTREAM_LIMITS } },
    // The recorder answers only the fixture's scripted requests: no who-am-I when a fixture connects.
    identifyConnections: false,
  });

  async function check(fixture: OperationFixture): Promise<void> {
    const meta = fixture.connection ?? {};
    const defaultBase = plugin.upstream.baseUrl;
    const basePath = new URL(typeof defaultBase === 'function' ? defaultBase(meta) : defaultBase).pathname.replace(/\/+$/, '');
    await engine.connectToken(DEFAULT_WORKSPACE, service, token, meta);
    // Each fixture starts from the plugin's defaults: settings of an earlier fixture must not leak into this one.
    await store.putIntegration({
      workspaceId: DEFAULT_WORKSPACE,
      service,
      mcpEnabled: true,
      restEnabled: true,
      baseUrl: null,
      settings: {},
      updatedAt: new Date().toISOString(),
    });
    await engine.configureIntegration(DEFAULT_WORKSPACE, service, { baseUrl: `${base}${basePath}`, settings: fixture.settings ?? {} });

    const label = fixture.name ?? fixture.operation;
    const operation = integration.operations.get(fixture.operation);
    await runDoor(fixture, `${label} [mcp]`, () =>
      engine.invoke({ principal: PRINCIPAL, protocol: 'mcp', service, operation: fixture.operation, params: fixture.params }),
    );
    // A path parameter that is missing cannot be put in a URL: that call is only possible over MCP.
    const pathComplete = operation?.pathParams.every((name) => !['', undefined, null].includes(fixture.params[name] as never));
    if (operation && pathComplete && fixture.restSkip === undefined) {
      const call = restCallFor(operation, fixture.params);
      // Through the wire formats: the query string as text, the body as JSON, then the gateway's own translation.
      const query = queryValues(queryString(call.query));
      const body = call.body === undefined ? undefined : (JSON.parse(JSON.stringify(call.body)) as Record<string, unknown>);
      await runDoor(fixture, `${label} [rest ${call.method} ${call.path}]`, async () => {
        const invocation = restInvocation(integration, { ...call, query, ...(body ? { body } : {}) });
        return engine.invoke({
          principal: PRINCIPAL,
          protocol: 'rest',
          service,
          operation: invocation.operation.name,
          params: invocation.params,
          stringParams: invocation.stringParams,
        });
      });
    }
  }

  async function runDoor(fixture: OperationFixture, label: string, call: () => Promise<{ body: unknown }>): Promise<void> {
    recorded = [];
    script = fixture.exchanges.map((e) => e.response);
    let output: unknown;
    let failure: unknown;
    try {
      output = (await call()).body;
    } catch (error) {
      failure = error;
    }

    assert.equal(recorded.length, fixture.exchanges.length, `${label}: number of upstream requests`);
    fixture.exchanges.forEach((exchange, i) => {
      const got = recorded[i] as Recorded;
      const want = exchange.request;
      assert.equal(got.method, want.method, `${label}: request ${i + 1} method`);
      assert.equal(got.path, want.path, `${label}: request ${i + 1} path`);
      assert.deepEqual(got.query, want.query ?? {}, `${label}: request ${i + 1} query`);
      if (want.rawBase64 !== undefined) {
        assert.equal(got.raw.toString('base64'), want.rawBase64, `${label}: request ${i + 1} raw body`);
      } else {
        assert.deepEqual(parseBody(got), want.body, `${label}: request ${i + 1} body`);
      }
      const expectedHeaders = { ...options.headers, ...(want.auth === false ? {} : options.authHeaders), ...want.headers };
      for (const [name, value] of Object.entries(expectedHeaders)) {
        assert.equal(got.headers[name], value, `${label}: request ${i + 1} header ${name}`);
      }
      if (want.auth === false) {
        assert.equal(got.headers.authorization, undefined, `${label}: request ${i + 1} must not carry credentials`);
      }
    });

    if ('output' in fixture.expect) {
      if (failure) throw failure;
      assert.deepEqual(output, fixture.expect.output, `${label}: output`);
    } else {
      assert.ok(failure instanceof GatewayError, `${label}: expected a ${fixture.expect.error.code} error, got ${failure ?? 'success'}`);
      assert.equal(failure.code, fixture.expect.error.code, `${label}: error code (message: ${failure.message})`);
      if (fixture.expect.error.retryAfter !== undefined) {
        assert.equal(failure.retryAfter, fixture.expect.error.retryAfter, `${label}: Retry-After`);
      }
      if (fixture.expect.error.message) {
        assert.ok(failure.message.includes(fixture.expect.error.message), `${label}: error message "${failure.message}"`);
      }
    }
  }

  return {
    check,
    async close() {
      await engine.close();
      await store.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseBody(recorded: Recorded): unknown {
  if (recorded.raw.length === 0) return undefined;
  const type = String(recorded.headers['content-type'] ?? '');
  const text = recorded.raw.toString('utf8');
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (type.includes('json')) return JSON.parse(text);
  if (type.includes('multipart/form-data')) return multipartFields(text, type);
  return text;
}

/** A multipart/form-data body's text parts as an object of strings (what a fixture's `body` states). */
function multipartFields(text: string, type: string): Record<string, string> {
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const part of text.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    const name = /name="([^"]*)"/i.exec(part.slice(0, split))?.[1];
    if (split >= 0 && name !== undefined) fields[name] = part.slice(split + 4).replace(/\r\n$/, '');
  }
  return fields;
}
