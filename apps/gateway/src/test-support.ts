import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Plugin, silentLogger } from '@portico/core';
import { loadConfig } from './config.js';
import { type RunningGateway, startGateway } from './server.js';

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
  options: { plugins?: Plugin[]; sandbox?: boolean; env?: Record<string, string> } = {},
): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-test-'));
  const config = loadConfig({ PORTICO_DATA_DIR: dataDir, PORTICO_PORT: '0', PORTICO_UPSTREAM_RETRIES: '0', ...options.env });
  const gateway = await startGateway({
    config,
    logger: silentLogger,
    ...(options.sandbox ? { sandbox: true } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
  });
  const key = gateway.createdKey?.key as string;
  return {
    ...gateway,
    key,
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

/** The official MCP client, connected over Streamable HTTP with an API key. */
export async function connectMcp(gatewayUrl: string, key: string): Promise<import('@modelcontextprotocol/sdk/client/index.js').Client> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'portico-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  return client;
}
