// node bench/audit-partitions.mjs [--rows N] [--url postgres://…]: the audit table on PostgreSQL with N records (default
// 1,000,000) spread evenly over the last four months. On two copies of the same records it measures:
//   - the unpartitioned table (schema version 14): typical audit queries, then retention of the oldest month the way
//     version 14 ran it (batched DELETEs of 1,000 through the `at` index; the 20 ms pauses between them left out);
//   - the same table upgraded to version 15 (partitioned by month: the upgrade's own time), the same queries, then a
//     retention run (`Store.pruneAudit`) that drops that month.
// Needs `pnpm build` (it runs core's dist/) and a PostgreSQL (default: the tests' local `test` database); it
// makes two schemas of its own and drops them at the end. Prints one JSON object.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { importCore, importPg } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    runs: { type: 'string', default: '21' },
  },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const URL = String(values.url);
const { MIGRATIONS, PostgresStore } = await importCore();
const { default: pg } = await importPg();

/** `YYYY-MM-01T00:00:00.000Z` of the month `add` months from this one. */
const monthStart = (/** @type {number} */ add) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + add, 1)).toISOString();
};
const FIRST = monthStart(-3);
const CUTOFF = monthStart(-2);
const END = new Date().toISOString();

/** @param {import('../packages/core/node_modules/@types/pg/index.js').Client} sql @param {string} schema */
async function version14(sql, schema) {
  await sql.query(`CREATE SCHEMA "${schema}"`);
  await sql.query(`SET search_path TO "${schema}"`);
  await sql.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const migration of MIGRATIONS.filter((m) => m.version <= 14)) {
    for (const statement of migration.postgres) await sql.query(statement);
    await sql.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [migration.version, migration.name, new Date().toISOString()]);
  }
  await sql.query("INSERT INTO workspaces VALUES ('default', 'Default workspace', $1)", [FIRST]);
  // Evenly spaced in time, ids in time order; six services, ten keys, one record in fifty an error, a few workspaces.
  await sql.query(
    `INSERT INTO audit (at, workspace_id, key_id, service, operation, protocol, status, code, duration_ms, client_address)
     SELECT to_char(($1::timestamptz + (($2::timestamptz - $1::timestamptz) * i / $3)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            CASE WHEN i % 20 = 0 THEN 'ws_' || (i % 7) ELSE 'default' END, 'key_' || (i % 10),
            (ARRAY['crm','accounting','practice','notes','chat','calls'])[1 + i % 6], 'op_' || (i % 40),
            CASE WHEN i % 3 = 0 THEN 'mcp' ELSE 'rest' END, CASE WHEN i % 50 = 0 THEN 502 ELSE 200 END,
            CASE WHEN i % 50 = 0 THEN 'upstream_error' END, 20 + i % 300, '203.0.113.' || (i % 250)
     FROM generate_series(1, $3) AS i`,
    [FIRST, END, ROWS],
  );
  await sql.query('ANALYZE audit');
}

/** Median and 95th percentile of `RUNS` runs of `fn`, ms. @param {() => Promise<unknown>} fn */
async function timed(fn) {
  await fn();
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => Math.round((times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? 0) * 10) / 10;
  return { medianMs: at(0.5), p95Ms: at(0.95) };
}

/** The audit queries of the dashboard, the CLI and the REST API, on a store. @param {import('../packages/core/src/index.js').Store} store */
async function queries(store) {
  const base = { workspaceId: 'default', limit: 100 };
  /** @type {string | null} */
  let tenth = null;
  let cursor = null;
  for (let i = 0; i < 10; i++) cursor = (await store.queryAudit({ ...base, ...(cursor ? { before: cursor } : {}) })).next;
  tenth = cursor;
  const boundary = monthStart(-1);
  const hourBefore = new Date(Date.parse(boundary) - 3_600_000).toISOString();
  const hourAfter = new Date(Date.parse(boundary) + 3_600_000).toISOString();
  return {
    latestPage: await timed(() => store.queryAudit(base)),
    eleventhPage: await timed(() => store.queryAudit({ ...base, ...(tenth ? { before: tenth } : {}) })),
    byService: await timed(() => store.queryAudit({ ...base, service: 'accounting' })),
    errorsOnly: await timed(() => store.queryAudit({ ...base, status: '5xx' })),
    acrossMonthBoundary: await timed(() => store.queryAudit({ ...base, since: hourBefore, until: hourAfter })),
    chartLastDay: await timed(() =>
      store.auditSeries({ workspaceId: 'default', since: new Date(Date.now() - 86_400_000).toISOString(), bucket: 'hour' }),
    ),
  };
}

const admin = new pg.Client({ connectionString: URL });
await admin.connect();
const id = randomBytes(4).toString('hex');
const schemas = [`portico_bench_v14_${id}`, `portico_bench_v15_${id}`];
/** @type {Record<string, unknown>} */
const result = {
  rows: ROWS,
  from: FIRST,
  until: END,
  cutoff: CUTOFF,
  runs: RUNS,
  postgres: (await admin.query('SHOW server_version')).rows[0].server_version,
  loadAverageAtStart: loadavg().map((n) => Math.round(n * 10) / 10),
};
try {
  const sql = new pg.Client({ connectionString: URL });
  await sql.connect();
  let started = performance.now();
  for (const schema of schemas) await version14(sql, schema);
  result.loadBothMs = Math.round(performance.now() - started);
  await sql.query(`SET search_path TO "${schemas[0]}"`);
  const oldMonth = Number((await sql.query('SELECT count(*) AS n FROM audit WHERE at < $1', [CUTOFF])).rows[0].n);
  result.oldestMonthRows = oldMonth;
  result.tableBytesV14 = Number((await sql.query("SELECT pg_total_relation_size('audit') AS n")).rows[0].n);

  // Version 14: queries, then the oldest month deleted as its retention did it.
  const v14 = new PostgresStore(URL, { schema: schemas[0], poolSize: 2 });
  result.queriesV14 = await queries(v14);
  await v14.close();
  started = performance.now();
  let deleted = 0;
  for (;;) {
    const batch = await sql.query('DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE at < $1 ORDER BY at LIMIT $2)', [
      CUTOFF,
      1000,
    ]);
    deleted += batch.rowCount ?? 0;
    if ((batch.rowCount ?? 0) < 1000) break;
  }
  result.retentionV14 = { deleted, ms: Math.round(performance.now() - started) };

  // Version 15: the upgrade, the same queries, then a retention run that drops the month.
  const v15 = new PostgresStore(URL, { schema: schemas[1], poolSize: 2 });
  started = performance.now();
  await v15.migrate();
  result.upgradeTo15Ms = Math.round(performance.now() - started);
  await sql.query(`SET search_path TO "${schemas[1]}"`);
  await sql.query('ANALYZE audit');
  result.queriesV15 = await queries(v15);
  result.tableBytesV15 = Number(
    (await sql.query("SELECT sum(pg_total_relation_size(inhrelid)) AS n FROM pg_inherits WHERE inhparent = 'audit'::regclass")).rows[0].n,
  );
  started = performance.now();
  const pruned = await v15.pruneAudit(CUTOFF, { batchSize: 1000, maxBatches: 1000, pauseMs: 0 });
  result.retentionV15 = { ...pruned, ms: Math.round(performance.now() - started) };
  // The steady state: a run with nothing to drop (every 10 minutes).
  result.idleRunV15 = await timed(() => v15.pruneAudit(CUTOFF, { batchSize: 1000, maxBatches: 1000, pauseMs: 0 }));
  await v15.close();
  await sql.end();
} finally {
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
}
result.machine = { cpus: cpus().length, loadAverageAtEnd: loadavg().map((n) => Math.round(n * 10) / 10) };
console.log(JSON.stringify(result, null, 2));
