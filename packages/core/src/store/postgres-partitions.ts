import type pg from 'pg';
import type { DbRow } from './rows.js';

/**
 * The audit table on PostgreSQL is partitioned by month of `at` (docs/adr/0039-audit-partitioned-by-month.md): one
 * partition `audit_YYYY_MM` per month, holding `at` from `'YYYY-MM'` up to the next month (`at` is an ISO-8601 UTC
 * text compared in the "C" collation, so that text order is time order), and `audit_default` for any row no month
 * takes (a month not created yet, or an `at` that is not a date). Retention is by whole months: a month is dropped
 * once all of it is older than the cutoff, the default partition's rows are deleted one by one. This month and the
 * next are created by every start and every retention run (`ensureAuditMonths`).
 */

const COLUMNS = `at TEXT COLLATE "C" NOT NULL, workspace_id TEXT NOT NULL, key_id TEXT, service TEXT NOT NULL,
   operation TEXT NOT NULL, protocol TEXT NOT NULL, status INTEGER NOT NULL, code TEXT, duration_ms INTEGER NOT NULL,
   client_address TEXT, member_id TEXT, connection TEXT`;
const NAMES =
  'id, at, workspace_id, key_id, service, operation, protocol, status, code, duration_ms, client_address, member_id, connection';

/**
 * Migration 15 (PostgreSQL): the unpartitioned table becomes the partitioned one. Its rows move with their ids, the
 * ids go on from where the old sequence stood, and every month holding rows gets its partition (this month and the
 * next follow at once: `ensureAuditMonths`). The indexes are those of migrations 1 and 4; the primary key becomes `(id, at)` (a partitioned table's
 * unique keys include the partition key), `id` staying unique as the identity's.
 */
export const AUDIT_BY_MONTH = [
  'ALTER TABLE audit RENAME TO audit_unpartitioned',
  `DO $$ BEGIN
     EXECUTE format('ALTER SEQUENCE %s RENAME TO audit_unpartitioned_id_seq', pg_get_serial_sequence('audit_unpartitioned', 'id'));
   END $$`,
  `CREATE TABLE audit (id BIGINT GENERATED ALWAYS AS IDENTITY, ${COLUMNS}) PARTITION BY RANGE (at)`,
  'CREATE TABLE audit_default PARTITION OF audit DEFAULT',
  `DO $$ DECLARE month TEXT; BEGIN
     FOR month IN
       SELECT DISTINCT substr(at, 1, 7) FROM audit_unpartitioned WHERE at ~ '^[0-9]{4}-(0[1-9]|1[0-2])'
     LOOP
       EXECUTE format('CREATE TABLE %I PARTITION OF audit FOR VALUES FROM (%L) TO (%L)', 'audit_' || replace(month, '-', '_'),
         month, to_char(to_date(month, 'YYYY-MM') + interval '1 month', 'YYYY-MM'));
     END LOOP;
   END $$`,
  `INSERT INTO audit (${NAMES}) OVERRIDING SYSTEM VALUE SELECT ${NAMES} FROM audit_unpartitioned`,
  `DO $$ DECLARE next BIGINT; BEGIN
     SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END INTO next FROM audit_unpartitioned_id_seq;
     PERFORM setval(pg_get_serial_sequence('audit', 'id'), next, false);
   END $$`,
  'DROP TABLE audit_unpartitioned',
  'ALTER TABLE audit ADD PRIMARY KEY (id, at)',
  'CREATE INDEX audit_workspace_at ON audit(workspace_id, id)',
  'CREATE INDEX audit_workspace_service ON audit(workspace_id, service, id)',
  'CREATE INDEX audit_workspace_key ON audit(workspace_id, key_id, id)',
  'CREATE INDEX audit_at ON audit(at)',
];

/** A month partition: its table and its bounds (`YYYY-MM`, the upper one excluded). */
export interface AuditMonth {
  table: string;
  from: string;
  to: string;
}

/** `YYYY-MM` of a time, and of the month `add` months later (UTC). */
export function monthOf(ms: number, add = 0): string {
  const date = new Date(ms);
  const shifted = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + add, 1));
  return shifted.toISOString().slice(0, 7);
}

function monthTable(month: string): string {
  return `audit_${month.replace('-', '_')}`;
}

/** The month partitions of `audit` (on the session's search path), oldest first. */
export async function auditMonths(client: pg.Pool | pg.PoolClient): Promise<AuditMonth[]> {
  const { rows } = await client.query<DbRow>(
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'audit'::regclass ORDER BY c.relname`,
  );
  const months: AuditMonth[] = [];
  for (const row of rows) {
    const match = /^audit_(\d{4})_(\d{2})$/.exec(String(row.relname));
    if (!match) continue;
    const from = `${match[1]}-${match[2]}`;
    months.push({ table: String(row.relname), from, to: monthOf(Date.parse(`${from}-01T00:00:00Z`), 1) });
  }
  return months;
}

/** How long DDL on the audit table waits for its lock before giving up until the next run (queries queue behind it). */
const LOCK_TIMEOUT = "SET LOCAL lock_timeout = '5s'";

/**
 * Creates the partitions of this month and the next (of `now`) if missing. Rows of such a month that waited in the
 * default partition move into it: the new table is filled and attached in one transaction that keeps writers out of
 * the default partition meanwhile, and ATTACH (unlike CREATE … PARTITION OF) leaves reads and writes of the other
 * months running. Run by one instance at a time (the caller holds the retention lock).
 */
export async function ensureAuditMonths(pool: pg.Pool, now: number): Promise<string[]> {
  const existing = new Set((await auditMonths(pool)).map((m) => m.from));
  const created: string[] = [];
  for (const month of [monthOf(now), monthOf(now, 1)]) {
    if (existing.has(month)) continue;
    const table = monthTable(month);
    const next = monthOf(Date.parse(`${month}-01T00:00:00Z`), 1);
    await transaction(pool, async (client) => {
      await client.query(LOCK_TIMEOUT);
      await client.query('LOCK TABLE audit_default IN EXCLUSIVE MODE');
      await client.query(`CREATE TABLE ${table} (LIKE audit INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      await client.query(`INSERT INTO ${table} SELECT * FROM audit_default WHERE at >= $1 AND at < $2`, [month, next]);
      await client.query('DELETE FROM audit_default WHERE at >= $1 AND at < $2', [month, next]);
      await client.query(`ALTER TABLE audit ATTACH PARTITION ${table} FOR VALUES FROM ('${month}') TO ('${next}')`);
    });
    created.push(month);
  }
  return created;
}

/**
 * Drops every month partition that lies entirely before `before` (an ISO time), oldest first; resolves with the
 * number of rows they held. The month `before` falls in is kept whole.
 */
export async function dropAuditMonths(pool: pg.Pool, before: string): Promise<number> {
  let dropped = 0;
  for (const month of await auditMonths(pool)) {
    if (!(month.to <= before)) continue;
    let rows = 0;
    await transaction(pool, async (client) => {
      await client.query(LOCK_TIMEOUT);
      rows = Number((await client.query<DbRow>(`SELECT count(*) AS n FROM ${month.table}`)).rows[0]?.n ?? 0);
      await client.query(`DROP TABLE ${month.table}`);
    });
    dropped += rows;
  }
  return dropped;
}

async function transaction(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await fn(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
