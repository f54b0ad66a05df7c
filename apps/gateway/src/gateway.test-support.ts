import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_WORKSPACE, type Logger, type Plugin, type SandboxServer, silentLogger } from '@portico/core';
import { loadConfig } from './config/load.js';
import { type RunningGateway, startGateway } from './server/start.js';

/** Test-only helpers: a gateway on a free loopback port with its own temporary data directory. */
export interface TestGateway extends RunningGateway {
  key: string;
  rest(
    method: string,
    path: string,
    init?: { body?: unknown; rawBody?: string; headers?: Record<string, string>; key?: string | null },
  ): Promise<{
    status: number;
    headers: Headers;
    body: unknown;
  }>;
}

export async function startTestGateway(
  options: { plugins?: Plugin[]; sandbox?: boolean; env?: Record<string, string>; logger?: Logger } = {},
): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-test-'));
  const config = loadConfig({
    PORTICO_DATA_DIR: dataDir,
    PORTICO_PORT: '0',
    PORTICO_UPSTREAM_RETRIES: '0',
    // Suites send hundreds of calls a second with one key: a limit far above that keeps the limiter on every call's
    // path without refusing any (rate-limit.test.ts sets its own).
    PORTICO_RATE_LIMIT_PER_MINUTE: '60000000',
    PORTICO_RATE_LIMIT_BURST: '1000000',
    ...options.env,
  });
  const gateway = await startGateway({
    config,
    logger: options.logger ?? silentLogger,
    ...(options.sandbox ? { sandbox: true } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
  });
  const key = gateway.createdKey?.key as string;
  return {
    ...gateway,
    key,
    /**
     * The gateway's stop; without arguments (a test done with its gateway, no balancer in front), the idle kept-alive
     * connections of the test's own client are closed as the port closes instead of three seconds later. A test of the
     * drain passes `graceMs` and `drainMs` and gets the stop exactly as an instance does it.
     */
    async close(graceMs?: number, drainMs?: number) {
      if (graceMs !== undefined || drainMs !== undefined) return gateway.close(graceMs, drainMs);
      const sweep = setInterval(() => gateway.server.closeIdleConnections(), 10);
      try {
        await gateway.close();
      } finally {
        clearInterval(sweep);
      }
    },
    async rest(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const useKey = init.key === undefined ? key : init.key;
      if (useKey !== null) headers.authorization = `Bearer ${useKey}`;
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${gateway.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
  };
}

export interface StubUpstream {
  url: string;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** A tiny upstream for the example plugin: answers by a routing function. */
export async function startStubUpstream(
  answer: (method: string, url: URL, body: string) => { status: number; body?: unknown; headers?: Record<string, string> },
): Promise<StubUpstream> {
  const requests: StubUpstream['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = answer(req.method ?? '', new URL(req.url ?? '/', 'http://stub'), body);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The PostgreSQL server tests use, and why it cannot be used (undefined when it can). */
export const TEST_POSTGRES_URL = process.env.PORTICO_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresProblem(): Promise<string | undefined> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    const problem = `PostgreSQL at ${TEST_POSTGRES_URL.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@')} is not reachable (${(error as Error).message})`;
    if (process.env.PORTICO_REQUIRE_POSTGRES === '1')
      throw new Error(`${problem}, and PORTICO_REQUIRE_POSTGRES=1 makes these tests mandatory`);
    console.warn(`skipping PostgreSQL tests: ${problem}`);
    return problem;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops the schemas a test made on the test server (for `afterAll`), each with everything in it. */
export async function dropTestSchemas(...schemas: string[]): Promise<void> {
  if (schemas.length === 0) return;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}

/**
 * fetch giving each request a signal of its own that follows the one it was passed. The MCP client passes every request
 * its transport's one signal, on which Node's fetch keeps a listener per request until the request is collected: a
 * test of more than 1,500 calls on one client would be told of a listener leak that is none.
 */
export const fetchOwnSignal: typeof fetch = (url, init) =>
  fetch(url, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);

/** The official MCP client, connected over Streamable HTTP with an API key. */
export async function connectMcp(gatewayUrl: string, key: string): Promise<import('@modelcontextprotocol/sdk/client/index.js').Client> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'portico-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: fetchOwnSignal,
    }),
  );
  return client;
}

/**
 * A sandboxed integration's test calls through a gateway, each asked over both doors: `gateway` and `client` are read
 * when a helper runs (they are set in a beforeAll).
 */
export function bothDoors(
  service: string,
  reach: () => { gateway: TestGateway; client: import('@modelcontextprotocol/sdk/client/index.js').Client },
) {
  /** POSTs to one of the sandbox's control endpoints (`/__sandbox/reset`, `/__sandbox/fail-next`); answers its JSON. */
  async function control(path: string, body: unknown = {}): Promise<{ ok: boolean; pending?: number }> {
    const origin = new URL(reach().gateway.sandboxes[service]?.url as string).origin;
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${service} sandbox ${path} answered ${response.status}`);
    return (await response.json()) as { ok: boolean; pending?: number };
  }

  /** `call_<service>` over MCP: whether it failed, and its structured answer. */
  async function mcp(method: string, params: Record<string, unknown>) {
    const result = await reach().client.callTool({ name: `call_${service}`, arguments: { method, params } });
    return { isError: Boolean(result.isError), body: result.structuredContent as unknown };
  }

  /** The same call over REST and MCP: both must succeed with the same JSON, which is returned. */
  async function succeedsBoth<T>(rest: { method: string; path: string; body?: unknown }, method: string, params: Record<string, unknown>) {
    const viaRest = await reach().gateway.rest(rest.method, rest.path, rest.body === undefined ? {} : { body: rest.body });
    if (viaRest.status >= 300) throw new Error(`${method} over REST: ${viaRest.status} ${JSON.stringify(viaRest.body)}`);
    const viaMcp = await mcp(method, params);
    if (viaMcp.isError) throw new Error(`${method} over MCP: ${JSON.stringify(viaMcp.body)}`);
    if (!isDeepStrictEqual(restoreShortened(viaMcp.body, viaRest.body), viaRest.body)) {
      throw new Error(`${method}: MCP answered ${JSON.stringify(viaMcp.body)}, REST ${JSON.stringify(viaRest.body)}`);
    }
    return viaRest.body as T;
  }

  /** The same failure over both protocols (`arm` runs before each, e.g. queueing an injected failure); the REST answer. */
  async function failsBoth(
    rest: { method: string; path: string; body?: unknown },
    method: string,
    params: Record<string, unknown>,
    arm?: () => Promise<unknown>,
  ) {
    await arm?.();
    const viaRest = await reach().gateway.rest(rest.method, rest.path, rest.body === undefined ? {} : { body: rest.body });
    await arm?.();
    const viaMcp = await mcp(method, params);
    if (!viaMcp.isError) throw new Error(`${method} over MCP succeeded where REST answered ${viaRest.status}`);
    if (!isDeepStrictEqual(viaMcp.body, viaRest.body)) {
      throw new Error(`${method}: MCP failed with ${JSON.stringify(viaMcp.body)}, REST with ${JSON.stringify(viaRest.body)}`);
    }
    return viaRest;
  }

  return { control, mcp, succeedsBoth, failsBoth };
}

type McpClient = import('@modelcontextprotocol/sdk/client/index.js').Client;

/** A gateway in sandbox mode (every installed plugin on its sandbox) and an MCP client with its admin key. */
export async function startSandboxedGateway(): Promise<{ gateway: TestGateway; client: McpClient }> {
  const gateway = await startTestGateway({ sandbox: true });
  return { gateway, client: await connectMcp(gateway.url, gateway.key) };
}

/** Closes what {@link startSandboxedGateway} started (either may be missing when the start failed). */
export async function stopSandboxedGateway(started: { gateway?: TestGateway; client?: McpClient }): Promise<void> {
  await started.client?.close();
  await started.gateway?.close();
}

/**
 * A plain gateway (not in sandbox mode) with one plugin whose sandbox plays both its API and its OAuth provider
 * (`/oauth/authorize`, `/oauth/token` and, when given, the revocation path at the sandbox's origin), REST enabled and
 * not connected: the only credential it will have is what an OAuth flow stores.
 */
export async function startOAuthGateway(
  plugin: Plugin,
  options: { revokePath?: string; env?: Record<string, string> } = {},
): Promise<{ sandbox: SandboxServer; gateway: TestGateway; client: McpClient }> {
  const sandbox = await (await (plugin.sandbox as NonNullable<Plugin['sandbox']>)()).startSandbox();
  const origin = new URL(sandbox.url).origin;
  const prefix = `PORTICO_${plugin.service.toUpperCase()}`;
  const gateway = await startTestGateway({
    plugins: [plugin],
    env: {
      [`${prefix}_BASE_URL`]: sandbox.url,
      [`${prefix}_CLIENT_ID`]: 'portico-test-app',
      [`${prefix}_CLIENT_SECRET`]: 'portico-test-secret',
      [`${prefix}_OAUTH_AUTHORIZE_URL`]: `${origin}/oauth/authorize`,
      [`${prefix}_OAUTH_TOKEN_URL`]: `${origin}/oauth/token`,
      ...(options.revokePath ? { [`${prefix}_OAUTH_REVOKE_URL`]: `${origin}${options.revokePath}` } : {}),
      ...options.env,
    },
  });
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, plugin.service, { restEnabled: true });
  return { sandbox, gateway, client: await connectMcp(gateway.url, gateway.key) };
}

/**
 * An MCP answer shortened to the result budget (`portico_truncated`), with the records it left out put back from the
 * REST answer of the same call — only where the shortening is faithful: each cut list is the first records of the REST
 * list, of the total the note names. Otherwise (or when texts were cut) the MCP answer as it is, so that a comparison
 * with the REST answer fails. Answers that were not shortened are returned unchanged.
 */
export function restoreShortened(mcp: unknown, rest: unknown): unknown {
  if (typeof mcp !== 'object' || mcp === null || !('portico_truncated' in mcp)) return mcp;
  const { portico_truncated: note, ...body } = mcp as {
    portico_truncated: { arrays: Array<{ path: string; kept: number; total: number }>; strings: string[] };
  };
  if (note.strings.length > 0) return mcp;
  const restWrapped = typeof rest === 'object' && rest !== null && !Array.isArray(rest) ? rest : { result: rest };
  const restored = structuredClone(body) as Record<string, unknown>;
  for (const { path, kept, total } of note.arrays) {
    const steps = [...path.matchAll(/[^.[\]]+/g)].map((m) => m[0]);
    const last = steps.pop() as string;
    const holder = steps.reduce<unknown>((node, step) => (node as Record<string, unknown> | undefined)?.[step], restored) as
      | Record<string, unknown>
      | undefined;
    const full = [...steps, last].reduce<unknown>((node, step) => (node as Record<string, unknown> | undefined)?.[step], restWrapped);
    const cut = holder?.[last];
    if (!holder || !Array.isArray(full) || !Array.isArray(cut) || full.length !== total || cut.length !== kept) return mcp;
    if (!isDeepStrictEqual(cut, full.slice(0, kept))) return mcp;
    holder[last] = full;
  }
  return restWrapped === rest ? restored : restored.result;
}
