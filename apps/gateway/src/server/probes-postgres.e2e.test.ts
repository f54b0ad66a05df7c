// Readiness on PostgreSQL: pending migrations and the LISTEN connection (the other probes: probes.test.ts).
import { randomBytes } from 'node:crypto';
import { Agent, get } from 'node:http';
import { PostgresStore } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresProblem, startTestGateway, TEST_POSTGRES_URL, type TestGateway } from '../gateway.test-support.js';
import { Readiness } from '../observability/readiness.js';

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

it('on close: readiness turns 503 at once, answers keep coming with Connection: close for the drain period, then the port closes', async () => {
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
    expect(later.headers.connection).toBe('close');
    const end = await closed;
    expect(end - began).toBeGreaterThanOrEqual(950);
    await expect(rawGet(`${gateway.url}/healthz`, agent)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  } finally {
    agent.destroy();
  }
});

const problem = await postgresProblem();
describe.skipIf(problem !== undefined)(`readiness on PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('names pending migrations with both versions when the schema lacks the newest one', async () => {
    const schema = `otel_ready_${randomBytes(4).toString('hex')}`;
    const store = new PostgresStore(TEST_POSTGRES_URL, { schema });
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await store.migrate();
      const unsubscribe = store.onChange(() => undefined); // the LISTEN connection, which readiness also asks about
      await store.whenListening();
      const readiness = new Readiness(store);
      expect(await readiness.report()).toEqual({ failing: [], message: 'ready' });
      const { codeVersion } = await store.migrationStatus();
      await admin.query(`DELETE FROM "${schema}".schema_migrations WHERE version = $1`, [codeVersion]);
      expect(await readiness.report()).toEqual({
        failing: ['migrations'],
        message: `not ready: migrations pending (schema ${codeVersion - 1}, code ${codeVersion})`,
      });
      unsubscribe();
    } finally {
      await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });

  it('names the LISTEN connection while it is down, and is ready again once it has reconnected', async () => {
    const applicationName = `portico-ready-${randomBytes(4).toString('hex')}`;
    // its own schema, migrated: readiness also asks whether migrations are pending
    const schema = `otel_ready_${randomBytes(4).toString('hex')}`;
    const store = new PostgresStore(TEST_POSTGRES_URL, { applicationName, schema });
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await store.migrate();
      const readiness = new Readiness(store);
      const unsubscribe = store.onChange(() => undefined);
      await store.whenListening();
      expect(await readiness.problems()).toEqual([]);
      const killed = await admin.query('SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1', [
        `${applicationName}:listen`,
      ]);
      expect(killed.rows).toEqual([{ done: true }]);
      await expect.poll(() => readiness.problems(), { timeout: 2_000, interval: 5 }).toEqual(['listen']);
      await expect.poll(() => readiness.problems(), { timeout: 10_000, interval: 50 }).toEqual([]);
      unsubscribe();
    } finally {
      await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
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
