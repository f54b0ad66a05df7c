// The audit table partitioned by month on PostgreSQL (postgres-partitions.ts): the upgrade, the months ahead,
// retention by dropping months, and queries across months giving what SQLite gives.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { PostgresStore } from './postgres.js';
import { dropSchemas, POSTGRES_REQUIRED, postgresProblem, TEST_POSTGRES_URL } from './postgres.test-support.js';
import { audit } from './samples.test-support.js';
import { SqliteStore } from './sqlite.js';
import type { AuditEntry, AuditQuery, AuditRecord, Store } from './types.js';
import { DEFAULT_WORKSPACE } from './types.js';

const problem = await postgresProblem();
if (problem !== undefined && POSTGRES_REQUIRED) throw new Error(`PostgreSQL is required but cannot be reached: ${problem}`);

const schemas: string[] = [];
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closing.splice(0).reverse()) await close();
});
afterAll(async () => {
  if (problem !== undefined) return;
  await dropSchemas(...schemas);
});

/** A session on a fresh schema of its own (closed after the test). */
async function freshSchema(): Promise<{ schema: string; sql: pg.Client }> {
  const schema = `portico_months_${randomBytes(5).toString('hex')}`;
  schemas.push(schema);
  const sql = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await sql.connect();
  closing.push(() => sql.end());
  await sql.query(`CREATE SCHEMA "${schema}"`);
  await sql.query(`SET search_path TO "${schema}"`);
  return { schema, sql };
}

function storeOn(schema: string): PostgresStore {
  const store = new PostgresStore(TEST_POSTGRES_URL, { schema, poolSize: 3, lockPoolSize: 2 });
  closing.push(() => store.close());
  return store;
}

/** Schema version 14 on `sql`'s schema, as the release before the months left it. */
async function version14(sql: pg.Client): Promise<void> {
  await sql.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const migration of MIGRATIONS.filter((m) => m.version <= 14)) {
    for (const statement of migration.postgres) await sql.query(statement);
    await sql.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
      migration.version,
      migration.name,
      '2026-01-01T00:00:00.000Z',
    ]);
  }
}

/** An audit record as the release before wrote it. */
const INSERT_V14 = `INSERT INTO audit (at, workspace_id, key_id, service, operation, protocol, status, code, duration_ms, client_address, member_id, connection)
  VALUES ($1, 'default', 'key_1', $2, $3, 'rest', 200, NULL, 5, '203.0.113.9', NULL, NULL)`;

/** The partitions of `audit`, by name. */
async function partitions(sql: pg.Client): Promise<string[]> {
  const { rows } = await sql.query(
    "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'audit'::regclass ORDER BY 1",
  );
  return rows.map((r) => String(r.relname));
}

/** The partition of this month (`add` 0) or a month later. */
function thisMonth(add: number): string {
  const now = new Date();
  return `audit_${new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + add, 1)).toISOString().slice(0, 7).replace('-', '_')}`;
}

/** Which partition holds each record, by operation. */
async function placed(sql: pg.Client): Promise<Record<string, string>> {
  const { rows } = await sql.query('SELECT operation, tableoid::regclass::text AS part FROM audit');
  return Object.fromEntries(rows.map((r) => [String(r.operation), String(r.part)]));
}

/** The clock of `Date` (only: pg's timers keep running) at a time. */
function clockAt(iso: string): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
}

/** Every page of a query, `limit` records at a time, following `next`. */
async function allPages(store: Store, query: Omit<AuditQuery, 'before'>): Promise<AuditEntry[][]> {
  const pages: AuditEntry[][] = [];
  let before: string | undefined;
  do {
    const page = await store.queryAudit({ ...query, ...(before ? { before } : {}) });
    pages.push(page.records);
    before = page.next ?? undefined;
  } while (before !== undefined && pages.length < 100);
  return pages;
}

describe.skipIf(problem !== undefined)(`audit partitioned by month on PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('upgrading from schema 14 gives each month with records its partition, keeps every id and order, and ids go on', async () => {
    const { schema, sql } = await freshSchema();
    await version14(sql);
    const rows: Array<[operation: string, at: string, service: string]> = [
      ['jan-a', '2026-01-03T08:00:00.000Z', 'notion'],
      ['feb-a', '2026-02-01T00:00:00.000Z', 'clio'],
      ['jan-b', '2026-01-31T23:59:59.999Z', 'notion'],
      ['apr-a', '2026-04-10T12:00:00.000Z', 'clio'],
      ['feb-b', '2026-02-27T10:00:00.000Z', 'notion'],
      ['apr-b', '2026-04-30T23:00:00.000Z', 'notion'],
      ['apr-gone', '2026-04-30T23:30:00.000Z', 'notion'],
    ];
    for (const [operation, at, service] of rows) await sql.query(INSERT_V14, [at, service, operation]);
    // The newest record was deleted: its id (7) is not given again.
    await sql.query("DELETE FROM audit WHERE operation = 'apr-gone'");
    const before = (await sql.query('SELECT id, operation FROM audit ORDER BY id DESC')).rows.map((r) => `${r.id} ${r.operation}`);

    const store = storeOn(schema);
    await store.migrate();
    expect((await store.migrationStatus()).databaseVersion).toBe(Math.max(...MIGRATIONS.map((m) => m.version))); // 15 and every one after

    expect(await partitions(sql)).toEqual(
      [...new Set(['audit_2026_01', 'audit_2026_02', 'audit_2026_04', thisMonth(0), thisMonth(1)])].sort().concat('audit_default'),
    );
    expect(await placed(sql)).toEqual({
      'jan-a': 'audit_2026_01',
      'jan-b': 'audit_2026_01',
      'feb-a': 'audit_2026_02',
      'feb-b': 'audit_2026_02',
      'apr-a': 'audit_2026_04',
      'apr-b': 'audit_2026_04',
    });
    const pages = await allPages(store, { workspaceId: DEFAULT_WORKSPACE, limit: 2 });
    expect(pages.flat().map((r) => `${r.id} ${r.operation}`)).toEqual(before);
    expect(pages.flat()[0]).toMatchObject({ service: 'notion', clientAddress: '203.0.113.9', at: '2026-04-30T23:00:00.000Z' });
    expect(
      (await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, service: 'clio', limit: 10 })).records.map((r) => r.operation),
    ).toEqual(['apr-a', 'feb-a']);

    await store.appendAudit([audit('after-upgrade', { at: new Date().toISOString() })]);
    const [newest] = (await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 1 })).records;
    expect(newest).toMatchObject({ id: '8', operation: 'after-upgrade' });
    expect((await placed(sql))['after-upgrade']).toBe(thisMonth(0));
  });

  it('upgrading while an instance of the release before keeps writing loses none of its records', async () => {
    const { schema, sql } = await freshSchema();
    await version14(sql);
    for (let i = 0; i < 2000; i++) await sql.query(INSERT_V14, [`2026-0${1 + (i % 9)}-15T00:00:00.000Z`, 'notion', `old-${i}`]);
    // The older instance: its own session, writing one record after the other until told to stop.
    const older = new pg.Client({ connectionString: TEST_POSTGRES_URL, options: `-c search_path=${schema}` });
    await older.connect();
    closing.push(() => older.end());
    let stop = false;
    let written = 0;
    const writing = (async () => {
      while (!stop) {
        await older.query(INSERT_V14, [new Date().toISOString(), 'clio', `during-${written}`]);
        written++;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const store = storeOn(schema);
    await store.migrate();
    const after = written;
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop = true;
    await writing;
    expect(after).toBeGreaterThan(0);
    expect(written).toBeGreaterThan(after); // it kept writing once the table was partitioned
    const counted = await sql.query("SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM audit WHERE operation LIKE 'during-%'");
    expect(counted.rows[0]).toEqual({ n: written, ids: written });
    expect((await store.workspaceUsage(DEFAULT_WORKSPACE))?.auditRecords).toBe(2000 + written);
    const months = Array.from({ length: 9 }, (_, i) => `audit_2026_0${i + 1}`);
    expect(await partitions(sql)).toEqual([...new Set([...months, thisMonth(0), thisMonth(1)])].sort().concat('audit_default'));
    expect((await placed(sql))['during-0']).toBe(thisMonth(0));
  });

  it('makes the months ahead at start and at each retention run, and moves into a new month the rows that waited for it', async () => {
    const { schema, sql } = await freshSchema();
    const store = storeOn(schema);
    clockAt('2026-05-20T10:00:00.000Z');
    await store.migrate();
    expect(await partitions(sql)).toEqual(['audit_2026_05', 'audit_2026_06', 'audit_default']);

    // A record of a month no partition holds yet waits in the default partition, and is found like any other.
    await store.appendAudit([audit('may', { at: '2026-05-20T10:00:00.000Z' }), audit('july', { at: '2026-07-02T09:00:00.000Z' })]);
    expect(await placed(sql)).toEqual({ may: 'audit_2026_05', july: 'audit_default' });
    const listed = (await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 10 })).records;

    clockAt('2026-06-30T23:00:00.000Z');
    expect(await store.pruneAudit('2026-01-01T00:00:00.000Z', { batchSize: 10, maxBatches: 5 })).toEqual({ deleted: 0, more: false });
    expect(await partitions(sql)).toEqual(['audit_2026_05', 'audit_2026_06', 'audit_2026_07', 'audit_default']);
    expect(await placed(sql)).toEqual({ may: 'audit_2026_05', july: 'audit_2026_07' });
    expect((await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 10 })).records).toEqual(listed);

    // A later start makes the months ahead too (retention off: no run makes them).
    clockAt('2026-09-01T00:00:00.000Z');
    await store.migrate();
    expect(await partitions(sql)).toEqual([
      'audit_2026_05',
      'audit_2026_06',
      'audit_2026_07',
      'audit_2026_09',
      'audit_2026_10',
      'audit_default',
    ]);
    await store.appendAudit([audit('october', { at: '2026-10-31T23:59:59.999Z' }), audit('november', { at: '2026-11-01T00:00:00.000Z' })]);
    expect(await placed(sql)).toMatchObject({ october: 'audit_2026_10', november: 'audit_default' });
  });

  it('retention drops the months entirely older than the cutoff, keeps the month it falls in whole, and deletes stray rows one by one', async () => {
    const { schema, sql } = await freshSchema();
    const store = storeOn(schema);
    clockAt('2025-11-10T00:00:00.000Z');
    await store.migrate();
    const november = Array.from({ length: 3 }, (_, i) => audit(`nov-${i}`, { at: `2025-11-1${i}T00:00:00.000Z` }));
    const december = Array.from({ length: 2 }, (_, i) => audit(`dec-${i}`, { at: `2025-12-2${i}T00:00:00.000Z` }));
    await store.appendAudit([...november, ...december]);
    clockAt('2026-01-05T00:00:00.000Z');
    expect(await store.pruneAudit('2025-01-01T00:00:00.000Z', { batchSize: 10, maxBatches: 5 })).toEqual({ deleted: 0, more: false });
    await store.appendAudit([
      audit('jan-early', { at: '2026-01-05T00:00:00.000Z' }),
      audit('jan-late', { at: '2026-01-20T00:00:00.000Z' }),
      audit('feb', { at: '2026-02-01T00:00:00.000Z', workspaceId: 'other' }),
      // No month partition holds these: they wait in the default partition.
      audit('stray-old', { at: '2025-06-30T00:00:00.000Z' }),
      audit('stray-new', { at: '2026-04-01T00:00:00.000Z' }),
    ]);
    expect(await partitions(sql)).toEqual(['audit_2025_11', 'audit_2025_12', 'audit_2026_01', 'audit_2026_02', 'audit_default']);

    // 30 days of retention on 10 February (cutoff 11 January): November and December go whole; January, which the
    // cutoff falls in, stays whole until it is all older than the cutoff; the stray old row goes on its own.
    clockAt('2026-02-10T00:00:00.000Z');
    expect(await store.pruneAudit('2026-01-11T00:00:00.000Z', { batchSize: 10, maxBatches: 5 })).toEqual({ deleted: 6, more: false });
    expect(await partitions(sql)).toEqual(['audit_2026_01', 'audit_2026_02', 'audit_2026_03', 'audit_default']);
    expect((await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 10 })).records.map((r) => r.operation)).toEqual([
      'stray-new',
      'jan-late',
      'jan-early',
    ]);
    expect((await store.queryAudit({ workspaceId: 'other', limit: 10 })).records.map((r) => r.operation)).toEqual(['feb']);
    expect(await store.workspaceUsage(DEFAULT_WORKSPACE)).toMatchObject({ auditRecords: 3 });

    // Once the cutoff reaches the end of January (on 3 March with 30 days), all of January goes.
    clockAt('2026-03-03T00:00:00.000Z');
    expect(await store.pruneAudit('2026-02-01T00:00:00.000Z', { batchSize: 10, maxBatches: 5 })).toEqual({ deleted: 2, more: false });
    expect(await partitions(sql)).toEqual(['audit_2026_02', 'audit_2026_03', 'audit_2026_04', 'audit_default']);

    // Stray rows go in bounded batches; a run that stops with some left says so.
    await store.appendAudit(Array.from({ length: 5 }, (_, i) => audit(`old-${i}`, { at: `2025-0${i + 1}-01T12:00:00.000Z` })));
    expect(await store.pruneAudit('2026-02-01T00:00:00.000Z', { batchSize: 2, maxBatches: 2 })).toEqual({ deleted: 4, more: true });
    expect(await store.pruneAudit('2026-02-01T00:00:00.000Z', { batchSize: 2, maxBatches: 2 })).toEqual({ deleted: 1, more: false });
    expect(await store.pruneAudit('2026-02-01T00:00:00.000Z', { batchSize: 2, maxBatches: 2 })).toEqual({ deleted: 0, more: false });
    expect((await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 10 })).records.map((r) => r.operation)).toEqual(['stray-new']);
  });

  it('pages across a month boundary through the same records, in the same order, as SQLite', async () => {
    const { schema, sql } = await freshSchema();
    const store = storeOn(schema);
    clockAt('2026-01-20T00:00:00.000Z');
    await store.migrate();
    vi.useRealTimers();
    const sqlite = new SqliteStore(':memory:');
    closing.push(() => sqlite.close());
    await sqlite.migrate();

    // Written out of time order, as a spool written late would: ids do not follow `at` across the boundary.
    const services = ['notion', 'clio', 'slack'];
    const records: AuditRecord[] = Array.from({ length: 40 }, (_, i) => {
      const second = String(50 + (i % 10)).padStart(2, '0');
      const at =
        i % 3 === 0 ? `2026-02-01T00:00:${String(i).padStart(2, '0')}.000Z` : `2026-01-31T23:59:${second}.${String(i).padStart(3, '0')}Z`;
      return audit(`op-${i}`, {
        at,
        service: services[i % 3] as string,
        keyId: i % 4 === 0 ? 'key_2' : 'key_1',
        status: i % 5 === 0 ? 503 : i % 7 === 0 ? 404 : 200,
        protocol: i % 2 ? 'mcp' : 'rest',
        durationMs: i,
      });
    });
    for (let i = 0; i < records.length; i += 7) {
      await store.appendAudit(records.slice(i, i + 7));
      await sqlite.appendAudit(records.slice(i, i + 7));
    }
    const spread = (await sql.query('SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM audit GROUP BY 1 ORDER BY 1')).rows;
    expect(spread).toEqual([
      { part: 'audit_2026_01', n: 26 },
      { part: 'audit_2026_02', n: 14 },
    ]);

    const queries: Array<Omit<AuditQuery, 'before'>> = [
      { workspaceId: DEFAULT_WORKSPACE, limit: 3 },
      { workspaceId: DEFAULT_WORKSPACE, limit: 4, service: 'clio' },
      { workspaceId: DEFAULT_WORKSPACE, limit: 5, keyId: 'key_2' },
      { workspaceId: DEFAULT_WORKSPACE, limit: 2, status: '5xx' },
      { workspaceId: DEFAULT_WORKSPACE, limit: 3, protocol: 'mcp', status: 404 },
      { workspaceId: DEFAULT_WORKSPACE, limit: 3, since: '2026-01-31T23:59:55.000Z', until: '2026-02-01T00:00:20.000Z' },
      { workspaceId: DEFAULT_WORKSPACE, limit: 3, since: '2026-02-01T00:00:00.000Z' },
      { workspaceId: DEFAULT_WORKSPACE, limit: 3, until: '2026-02-01T00:00:00.000Z', service: 'notion' },
      { workspaceId: 'other', limit: 3 },
    ];
    for (const query of queries) {
      const onPostgres = await allPages(store, query);
      expect(onPostgres, JSON.stringify(query)).toEqual(await allPages(sqlite, query));
    }
    const everything = (await allPages(store, queries[0] as AuditQuery)).flat();
    expect(everything).toHaveLength(40);
    expect(everything.map((r) => r.operation)).toEqual(records.map((r) => r.operation).reverse());
    const series = { workspaceId: DEFAULT_WORKSPACE, since: '2026-01-31T23:59:00.000Z', bucket: 'minute' } as const;
    expect(await store.auditSeries(series)).toEqual(await sqlite.auditSeries(series));
    expect((await store.auditSeries(series)).map((p) => p.at)).toEqual(
      expect.arrayContaining(['2026-01-31T23:59:00.000Z', '2026-02-01T00:00:00.000Z']),
    );
  });
});
