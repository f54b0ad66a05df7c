import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_WORKSPACE, silentLogger } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { openRuntime } from '../runtime/runtime.js';

/**
 * A rolling restart behind a real balancer: three gateway processes (the built CLI) on one PostgreSQL schema behind
 * Debian's HAProxy, which keeps connections to them alive and checks `/readyz` every 250 ms (out after two failures). Under a steady load of
 * MCP POSTs through HAProxy, each instance in turn gets SIGTERM, exits, and starts again on its port: no call may
 * fail. HAProxy does not retry a POST written onto a connection the server has closed, so this holds only if the
 * instance drains (PORTICO_DRAIN_SECONDS) before it stops listening. Needs `pnpm build` first; skipped, and listed,
 * without PostgreSQL or HAProxy (`apt-get install haproxy`); mandatory with PORTICO_REQUIRE_POSTGRES=1 and
 * PORTICO_REQUIRE_HAPROXY=1 (CI).
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'apps/gateway/dist/bin.js');
const pluginModule = join(root, 'packages/core/dist/testing/example-plugin.js');
const HAPROXY = process.env.PORTICO_HAPROXY ?? '/usr/sbin/haproxy';

function haproxyProblem(): string | undefined {
  if (existsSync(HAPROXY)) return undefined;
  const problem = `no HAProxy at ${HAPROXY} (apt-get install haproxy, or set PORTICO_HAPROXY)`;
  if (process.env.PORTICO_REQUIRE_HAPROXY === '1') throw new Error(`${problem}, and PORTICO_REQUIRE_HAPROXY=1 makes this test mandatory`);
  console.warn(`skipping the rolling-restart test: ${problem}`);
  return problem;
}

const problem = (await postgresProblem()) ?? haproxyProblem();
const schema = `portico_roll_${randomBytes(5).toString('hex')}`;
const encryptionKey = randomBytes(32).toString('base64');
const INSTANCES = 3;
const WORKERS = 6;

let upstream: Server;
let upstreamUrl: string;
let apiKey: string;
const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Instance {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

function spawnGateway(port: number): Promise<Instance> {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: {
      PATH: process.env.PATH,
      PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-roll-')),
      PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
      PORTICO_DATABASE_SCHEMA: schema,
      PORTICO_ENCRYPTION_KEY: encryptionKey,
      PORTICO_PLUGINS: pluginModule,
      PORTICO_EXAMPLE_BASE_URL: upstreamUrl,
      PORTICO_PORT: String(port),
      PORTICO_LOG_LEVEL: 'warn',
      PORTICO_DASHBOARD: 'off',
      PORTICO_DRAIN_SECONDS: '2',
      PORTICO_SHUTDOWN_GRACE_MS: '5000',
      PORTICO_RATE_LIMIT_PER_MINUTE: '60000000',
      PORTICO_RATE_LIMIT_BURST: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is listening on')) {
        clearTimeout(timer);
        resolve({ child, exited, output: () => output });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then((code) => reject(new Error(`gateway exited (${code}):\n${output}`)));
  });
}

function haproxyConfig(listen: number, ports: number[]): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  option http-keep-alive',
    '  http-reuse always',
    '  retries 3',
    '  option redispatch',
    'listen portico',
    `  bind 127.0.0.1:${listen}`,
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  timeout check 1500ms',
    '  http-check expect status 200',
    '  default-server inter 250ms fall 2 rise 2',
    ...ports.map((port, i) => `  server g${i + 1} 127.0.0.1:${port} check`),
    '',
  ].join('\n');
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  if (problem) return;
  upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [{ id: 'it_1', name: 'rolled' }] }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const config = loadConfig({
    PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-roll-')),
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_ENCRYPTION_KEY: encryptionKey,
  });
  const runtime = await openRuntime(config, silentLogger, { plugins: [examplePlugin] });
  try {
    await runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
    const created = await runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'rolling',
      scopes: { admin: false, services: '*', readOnly: true },
    });
    apiKey = created.key;
  } finally {
    await runtime.close();
  }
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (upstream) {
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
  if (!problem) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
});

describe.skipIf(problem !== undefined)(`a rolling restart behind HAProxy${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('restarts three instances one by one under MCP POST load with 0 failed calls', { timeout: 90_000 }, async () => {
    const ports = await Promise.all(Array.from({ length: INSTANCES }, freePort));
    const instances = await Promise.all(ports.map((port) => spawnGateway(port)));
    const listen = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'portico-haproxy-'));
    writeFileSync(join(dir, 'haproxy.cfg'), haproxyConfig(listen, ports));
    const haproxy = spawn(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(haproxy);
    let haproxyOutput = '';
    haproxy.stdout?.on('data', (c: Buffer) => (haproxyOutput += c.toString()));
    haproxy.stderr?.on('data', (c: Buffer) => (haproxyOutput += c.toString()));
    const balancer = `http://127.0.0.1:${listen}`;
    await waitFor(async () => (await fetch(`${balancer}/readyz`)).status === 200, 10_000, `HAProxy\n${haproxyOutput}`);

    let stop = false;
    let calls = 0;
    const failures: string[] = [];
    const call = async (worker: number, n: number) => {
      const id = `w${worker}-${n}`;
      try {
        const response = await fetch(`${balancer}/api/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'call_example', arguments: { method: 'list_items', params: {} } },
          }),
        });
        const text = await response.text();
        if (!text.startsWith('{')) {
          failures.push(`${id}: ${response.status} ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
          calls += 1;
          return;
        }
        const body = JSON.parse(text) as { id?: string; result?: { isError?: boolean; structuredContent?: unknown } };
        if (response.status !== 200 || body.id !== id || !body.result || body.result.isError) {
          failures.push(`${id}: ${response.status} ${text.slice(0, 200)}`);
        }
      } catch (error) {
        failures.push(`${id}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
      }
      calls += 1;
    };
    const load = Array.from({ length: WORKERS }, async (_, worker) => {
      for (let n = 0; !stop; n++) await call(worker, n);
    });

    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (let i = 0; i < INSTANCES; i++) {
        const old = instances[i] as Instance;
        old.child.kill('SIGTERM');
        expect(await old.exited, old.output()).toBe(0);
        instances[i] = await spawnGateway(ports[i] as number);
        await waitFor(async () => (await fetch(`http://127.0.0.1:${ports[i]}/readyz`)).status === 200, 10_000, `instance ${i + 1}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000)); // HAProxy's rise: two checks 250 ms apart
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      stop = true;
      await Promise.all(load);
      haproxy.kill('SIGTERM');
    }
    expect(failures, haproxyOutput).toEqual([]);
    expect(calls).toBeGreaterThan(500);
  });
});
