// Audit retention and the upgrade on PostgreSQL (on SQLite: audit-store.test.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PostgresStore } from './postgres.js';
import { dropSchemas, TEST_POSTGRES_URL as PG_URL, postgresProblem } from './postgres.test-support.js';
import { audit, T3 } from './samples.test-support.js';
import { DEFAULT_WORKSPACE } from './types.js';

const OLD = '2020-01-01T00:00:00.000Z';
const CUTOFF = '2026-01-01T00:00:00.000Z';
const INDEXES = ['audit_at', 'audit_workspace_key', 'audit_workspace_service'];

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const pgProblem = await postgresProblem();

if (pgProblem !== undefined && process.env.PORTICO_REQUIRE_POSTGRES === '1') {
  throw new Error(`PostgreSQL is required but cannot be reached: ${pgProblem}`);
}

describe.skipIf(pgProblem !== undefined)('PostgresStore audit', () => {
  const schemas: string[] = [];
  afterAll(async () => {
    await dropSchemas(...schemas);
  });

  async function instances(count: number): Promise<{ schema: string; stores: PostgresStore[] }> {
    const schema = `portico_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const stores = Array.from({ length: count }, () => new PostgresStore(PG_URL, { schema, poolSize: 3 }));
    for (const store of stores) {
      closing.push(() => store.close());
      await store.migrate();
    }
    return { schema, stores };
  }

  /** A separate session holding the retention lock, its key derived here on its own. */
  async function holdRetentionLock(schema: string): Promise<() => Promise<void>> {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    const lock = JSON.stringify(['portico', schema, 'audit-retention']);
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lock]);
    return async () => {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]);
      await client.end();
    };
  }

  it('prunes on one instance at a time: while one holds the retention lock, the others skip at once', async () => {
    const { schema, stores } = await instances(2);
    const [a, b] = stores as [PostgresStore, PostgresStore];
    await a.appendAudit([...Array.from({ length: 4 }, (_, i) => audit(`old${i}`, { at: OLD })), audit('kept', { at: T3 })]);

    const release = await holdRetentionLock(schema);
    const started = performance.now();
    expect(await a.pruneAudit(CUTOFF, { batchSize: 10, maxBatches: 5 })).toBeNull();
    expect(await b.pruneAudit(CUTOFF, { batchSize: 10, maxBatches: 5 })).toBeNull();
    expect(performance.now() - started).toBeLessThan(2_000); // skipped, not queued
    expect((await a.listAudit(DEFAULT_WORKSPACE, 10)).length).toBe(5);
    await release();

    // A slow run of A (one record a batch, 150 ms apart) holds the lock: B's run meanwhile is skipped.
    const running = a.pruneAudit(CUTOFF, { batchSize: 1, maxBatches: 10, pauseMs: 150 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await b.pruneAudit(CUTOFF, { batchSize: 10, maxBatches: 5 })).toBeNull();
    expect(await running).toEqual({ deleted: 4, more: false });
    expect((await b.listAudit(DEFAULT_WORKSPACE, 10)).map((r) => r.operation)).toEqual(['kept']);
    // Afterwards the lock is free again for anyone.
    expect(await b.pruneAudit(CUTOFF, { batchSize: 10, maxBatches: 5 })).toEqual({ deleted: 0, more: false });
  });

  it('upgrades a database of the previous release and keeps its records', async () => {
    const { schema, stores } = await instances(1);
    const [store] = stores as [PostgresStore];
    await store.appendAudit([audit('before-upgrade', { at: OLD }), audit('recent', { at: T3, keyId: 'k9' })]);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      for (const index of INDEXES) await admin.query(`DROP INDEX "${schema}".${index}`);
      await admin.query(`DELETE FROM "${schema}".schema_migrations WHERE version = 4`);
      await store.migrate();
      const found = await admin.query('SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2', [schema, 'audit']);
      expect(found.rows.map((r) => r.indexname)).toEqual(expect.arrayContaining(INDEXES));
    } finally {
      await admin.end();
    }
    expect((await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, keyId: 'k9', limit: 10 })).records.map((r) => r.operation)).toEqual([
      'recent',
    ]);
  });
});
