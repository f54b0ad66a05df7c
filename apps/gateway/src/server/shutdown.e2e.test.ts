import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { Agent, createServer, get, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_WORKSPACE, openStore, silentLogger } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { openRuntime } from '../runtime/runtime.js';

/**
 * Graceful shutdown of the built gateway (`portico serve` as a child process; needs `pnpm build` first): a signal
 * stops new connections at once, the call in flight finishes and is audited, and the process exits 0 within the
 * grace period. A call still running when the grace period ends is cut off, and the process still exits 0.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'apps/gateway/dist/bin.js');
const pluginModule = join(root, 'packages/core/dist/testing/example-plugin.js');

/** The upstream: answers GET /items after `holdMs`, and tells when a request has arrived. */
let upstream: Server;
let upstreamUrl: string;
let holdMs = 1_000;
let arrived: () => void = () => undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    arrived();
    const timer = setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [{ id: 'it_1', name: 'held' }] }));
    }, holdMs);
    res.on('close', () => clearTimeout(timer));
    req.resume();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

/** A data directory with the example integration connected and REST enabled, and an API key for it. */
async function prepare(): Promise<{ dataDir: string; key: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-shutdown-'));
  const runtime = await openRuntime(loadConfig({ PORTICO_DATA_DIR: dataDir }), silentLogger, { plugins: [examplePlugin] });
  try {
    await runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
    await runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    const created = await runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'shutdown-test',
      scopes: { admin: false, services: '*', readOnly: true },
    });
    return { dataDir, key: created.key };
  } finally {
    await runtime.close();
  }
}

interface Gateway {
  child: ChildProcess;
  url: string;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function spawnGateway(dataDir: string, graceMs: number): Promise<Gateway> {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: {
      PATH: process.env.PATH,
      PORTICO_DATA_DIR: dataDir,
      PORTICO_PLUGINS: pluginModule,
      PORTICO_EXAMPLE_BASE_URL: upstreamUrl,
      PORTICO_PORT: '0',
      PORTICO_LOG_LEVEL: 'info',
      PORTICO_UPSTREAM_RETRIES: '0',
      PORTICO_SHUTDOWN_GRACE_MS: String(graceMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 15_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is listening on (http:\/\/[0-9.]+:(\d+))/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] as string, port: Number(match[2]), output: () => output, exited });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(({ code }) => reject(new Error(`gateway exited (${code}):\n${output}`)));
  });
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** One GET with the raw answer's `connection` header (fetch hides it). */
function rawGet(url: string, key: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { authorization: `Bearer ${key}` }, agent: new Agent({ keepAlive: true }) }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }));
    }).on('error', reject);
  });
}

const upstreamReached = () => new Promise<void>((resolve) => (arrived = resolve));

describe.each(['SIGTERM', 'SIGINT'] as const)('on %s', (signal) => {
  it('refuses new connections, finishes the call in flight, audits it and exits 0 within the grace period', async () => {
    holdMs = 1_000;
    const { dataDir, key } = await prepare();
    const gateway = await spawnGateway(dataDir, 5_000);
    const reached = upstreamReached();
    const call = rawGet(`${gateway.url}/api/v1/example/items`, key);
    await reached;
    const signalled = performance.now();
    gateway.child.kill(signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await refused(gateway.port)).toBe(true);

    const response = await call;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ items: [{ id: 'it_1', name: 'held' }] });
    // begun before the signal, answered after it: the answer closes its connection (the client reconnects elsewhere)
    expect(response.connection).toBe('close');

    const exit = await gateway.exited;
    expect(exit, gateway.output()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(5_000);
    expect(gateway.output()).not.toMatch(/"level":(50|60)/);

    const store = openStore(`file:${join(dataDir, 'portico.db')}`);
    try {
      const audit = await store.listAudit(DEFAULT_WORKSPACE, 10);
      expect(audit).toEqual([expect.objectContaining({ service: 'example', operation: 'list_items', protocol: 'rest', status: 200 })]);
    } finally {
      await store.close();
    }
  });
});

it('closes the connections still busy when the grace period ends, and exits 0', async () => {
  holdMs = 20_000;
  const { dataDir, key } = await prepare();
  const gateway = await spawnGateway(dataDir, 500);
  const reached = upstreamReached();
  const call = fetch(`${gateway.url}/api/v1/example/items`, { headers: { authorization: `Bearer ${key}` } }).then(
    (r) => r.status,
    () => 'connection closed',
  );
  await reached;
  const signalled = performance.now();
  gateway.child.kill('SIGTERM');
  expect(await call).toBe('connection closed');
  const exit = await gateway.exited;
  expect(exit, gateway.output()).toMatchObject({ code: 0, signal: null });
  expect(exit.at - signalled).toBeLessThan(3_000);
  expect(gateway.output()).toContain('shutdown grace over');
});
