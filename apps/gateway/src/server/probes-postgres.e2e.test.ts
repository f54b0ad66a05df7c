// Readiness on PostgreSQL: pending migrations and the LISTEN connection (the other probes: probes.test.ts).
import { randomBytes } from 'node:crypto';
import { PostgresStore } from '@portico/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { Readiness } from '../observability/readiness.js';

/**
 * The operator's probes: `/healthz` says the process is alive whatever its dependencies do; `/readyz` answers 503
 * naming what fails (the database, the LISTEN connection on PostgreSQL, draining before a stop).
 */
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
      const { databaseVersion } = await store.migrationStatus(); // the one before it (versions may skip a number)
      expect(databaseVersion).toBeLessThan(codeVersion);
      expect(await readiness.report()).toEqual({
        failing: ['migrations'],
        message: `not ready: migrations pending (schema ${databaseVersion}, code ${codeVersion})`,
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
