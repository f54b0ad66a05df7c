import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createClient } from '@libsql/client';
import type { Logger } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { DRAIN_SWEEP_AFTER_MS } from './start.js';

/**
 * The operator's probes: `/healthz` says the process is alive whatever its dependencies do; `/readyz` answers 503
 * naming what fails (the database, the LISTEN connection on PostgreSQL, draining before a stop).
 */
const gateways: TestGateway[] = [];
afterEach(async () => {
  for (const gateway of gateways.splice(0)) await gateway.close(0, 0);
});

async function start(env: Record<string, string> = {}): Promise<TestGateway> {
  const gateway = await startTestGateway({ plugins: [examplePlugin], env });
  gateways.push(gateway);
  return gateway;
}

/** One GET on a kept-alive connection, with the raw answer headers (fetch hides `connection`). */
function rawGet(
  url: string,
  agent: Agent,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    }).on('error', reject);
  });
}

it('/healthz and /readyz answer 200 while the database answers', async () => {
  const gateway = await start();
  const health = await gateway.rest('GET', '/healthz', { key: null });
  expect(health.status).toBe(200);
  expect(health.body).toMatchObject({ status: 'ok', integrations: ['example'] });
  const ready = await gateway.rest('GET', '/readyz', { key: null });
  expect(ready).toMatchObject({ status: 200, body: { status: 'ready' } });
  expect(ready.headers.get('cache-control')).toBe('no-store');
});

it('without the database, /healthz still answers 200 and /readyz 503 naming the database', async () => {
  const gateway = await start();
  await gateway.runtime.store.close(); // the database is gone: every query fails from now on
  const health = await gateway.rest('GET', '/healthz', { key: null });
  expect(health.status).toBe(200);
  const ready = await gateway.rest('GET', '/readyz', { key: null });
  expect(ready.status).toBe(503);
  expect(ready.body).toEqual({ error: true, code: 'not_ready', message: 'not ready: database', failing: ['database'] });
});

it('on close: readiness turns 503 at once; for the drain period the connections open before answer with Connection: close, new ones are kept alive; then the port closes', async () => {
  const gateway = await start({ PORTICO_DRAIN_SECONDS: '1' });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const before = await rawGet(`${gateway.url}/healthz`, agent);
    expect(before.headers.connection).toBe('keep-alive');
    const began = performance.now();
    const closed = gateway.close(1_000).then(() => performance.now());
    const ready = await rawGet(`${gateway.url}/readyz`, agent); // on the connection kept alive before the signal
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ code: 'not_ready', failing: ['draining'] });
    expect(ready.headers.connection).toBe('close');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = await rawGet(`${gateway.url}/healthz`, agent); // a new connection is still accepted while draining
    expect(later.status).toBe(200);
    expect(later.headers.connection).toBe('keep-alive'); // a balancer reuses it rather than opening one a request
    await new Promise((resolve) => setTimeout(resolve, 900)); // the port is closed now
    const last = await rawGet(`${gateway.url}/healthz`, agent); // on the connection opened during the drain
    expect(last.status).toBe(200);
    expect(last.headers.connection).toBe('close');
    const end = await closed;
    expect(end - began).toBeGreaterThanOrEqual(950);
    await expect(rawGet(`${gateway.url}/healthz`, agent)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  } finally {
    agent.destroy();
  }
});

/** A raw connection to the gateway, accepted before anything is sent on it. */
async function openConnection(url: string): Promise<{ socket: Socket; received: () => string; ended: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  await new Promise((resolve) => setTimeout(resolve, 50)); // accepted by the gateway
  return { socket, received: () => received, ended };
}

it('when the port closes, a connection it accepted just before is still answered (with Connection: close), not reset', async () => {
  const gateway = await start();
  const { socket, ended } = await openConnection(gateway.url);
  const closed = gateway.close(2_000, 0);
  await new Promise((resolve) => setTimeout(resolve, 50)); // the port is closed: a balancer's request arrives now
  await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const answer = await ended;
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  await closed;
});

it('a kept-alive connection left idle through the drain is closed after it, without waiting for the grace period', async () => {
  const gateway = await start();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const before = await rawGet(`${gateway.url}/healthz`, agent);
    expect(before.headers.connection).toBe('keep-alive');
    const began = performance.now();
    await gateway.close(10_000, 0);
    expect(performance.now() - began).toBeLessThan(5_000);
  } finally {
    agent.destroy();
  }
});

it('the shipped nginx configuration lets go of an idle connection before a stopping gateway closes it', () => {
  // Every connection still idle at the sweep has been idle since the port closed: nginx, which closes its own after
  // keepalive_timeout, has let it go by then, and never writes a request onto one the gateway is closing.
  const conf = readFileSync(new URL('../../../../deploy/nginx.conf', import.meta.url), 'utf8');
  const upstream = /upstream gateways \{([^}]*)\}/.exec(conf)?.[1] ?? '';
  const seconds = Number(/^\s*keepalive_timeout (\d+)s;/m.exec(upstream)?.[1]);
  expect(seconds, 'keepalive_timeout in the upstream block').toBeGreaterThan(0);
  expect(seconds * 1_000 + 500).toBeLessThanOrEqual(DRAIN_SWEEP_AFTER_MS);
});

describe('readiness and the schema version', () => {
  /** The gateway's SQLite database, opened beside it (as an operator restoring a backup under it would). */
  async function withDatabase(gateway: TestGateway) {
    const db = createClient({ url: gateway.runtime.config.databaseUrl });
    const versions = async () =>
      (await db.execute('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r) => Number(r.version));
    return { db, versions };
  }

  it('names pending migrations with both versions while the schema is older than the code, and is ready once migrated', async () => {
    const gateway = await start();
    const { db, versions } = await withDatabase(gateway);
    try {
      const code = (await versions()).at(-1) as number;
      // the database now says the last migration never ran (a backup from before it, restored under a running instance)
      const last = await db.execute({ sql: 'SELECT * FROM schema_migrations WHERE version = ?', args: [code] });
      await db.execute({ sql: 'DELETE FROM schema_migrations WHERE version = ?', args: [code] });
      const previous = (await versions()).at(-1) as number; // the version before it (versions may skip a number)
      const ready = await gateway.rest('GET', '/readyz', { key: null });
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        error: true,
        code: 'not_ready',
        message: `not ready: migrations pending (schema ${previous}, code ${code})`,
        failing: ['migrations'],
      });
      expect((await gateway.rest('GET', '/healthz', { key: null })).status).toBe(200); // liveness does not care
      const row = last.rows[0] as unknown as { version: number; name: string; applied_at: string };
      await db.execute({
        sql: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        args: [row.version, row.name, row.applied_at],
      });
      expect((await gateway.rest('GET', '/readyz', { key: null })).status).toBe(200);
    } finally {
      db.close();
    }
  });

  it('stays ready on a schema newer than the code (a newer instance migrated it), with one warning line', async () => {
    const warnings: Array<{ obj: object; msg?: string }> = [];
    const logger: Logger = { debug() {}, info() {}, error() {}, warn: (obj, msg) => warnings.push({ obj, ...(msg ? { msg } : {}) }) };
    const gateway = await startTestGateway({ plugins: [examplePlugin], logger });
    gateways.push(gateway);
    const { db, versions } = await withDatabase(gateway);
    try {
      const code = (await versions()).at(-1) as number;
      await db.execute({
        sql: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        args: [code + 1, 'from_a_newer_release', new Date().toISOString()],
      });
      for (let probe = 0; probe < 3; probe++) {
        expect(await gateway.rest('GET', '/readyz', { key: null })).toMatchObject({ status: 200, body: { status: 'ready' } });
      }
      const newer = warnings.filter((w) => w.msg?.startsWith('the database schema is newer than this release'));
      expect(newer).toEqual([{ obj: { schemaVersion: code + 1, codeVersion: code }, msg: expect.any(String) }]);
    } finally {
      db.close();
    }
  });
});

it('keeps a well-formed inbound X-Request-Id and echoes it; replaces a malformed one', async () => {
  const gateway = await start();
  const kept = await gateway.rest('GET', '/healthz', { key: null, headers: { 'x-request-id': 'lb-7f3a:42' } });
  expect(kept.headers.get('x-request-id')).toBe('lb-7f3a:42');
  for (const bad of ['a b', 'x'.repeat(129), '<script>']) {
    const replaced = await gateway.rest('GET', '/healthz', { key: null, headers: { 'x-request-id': bad } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  }
  const none = await gateway.rest('GET', '/healthz', { key: null });
  expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});
