import { auditRecord, type DbRow } from './rows.js';
import type { AuditEntry, AuditPage, AuditPruneLimits, AuditPruneResult, AuditQuery, AuditSeriesPoint, AuditSeriesQuery } from './types.js';

/**
 * The audit query and the retention delete, as SQL both stores share: only the placeholders (`?` / `$n`) and the cast
 * of the cursor differ. Indexes (migration 4): `(workspace_id, id)` for the plain listing, `(workspace_id, service,
 * id)` and `(workspace_id, key_id, id)` for the two filters an investigation starts from, `(at)` for time ranges and
 * for retention.
 */
export type Dialect = 'sqlite' | 'postgres';

export function auditQuerySql(dialect: Dialect, query: AuditQuery): { sql: string; args: unknown[] } {
  const args: unknown[] = [];
  const param = (value: unknown): string => {
    args.push(value);
    return dialect === 'sqlite' ? '?' : `$${args.length}`;
  };
  const where = [`workspace_id = ${param(query.workspaceId)}`];
  if (query.service !== undefined) where.push(`service = ${param(query.service)}`);
  if (query.operation !== undefined) where.push(`operation = ${param(query.operation)}`);
  if (query.protocol !== undefined) where.push(`protocol = ${param(query.protocol)}`);
  if (typeof query.status === 'number') where.push(`status = ${param(query.status)}`);
  else if (query.status !== undefined) {
    const from = Number(query.status[0]) * 100;
    where.push(`status >= ${param(from)}`, `status < ${param(from + 100)}`);
  }
  if (query.code !== undefined) where.push(`code = ${param(query.code)}`);
  if (query.keyId !== undefined) where.push(`key_id = ${param(query.keyId)}`);
  if (query.since !== undefined) where.push(`at >= ${param(query.since)}`);
  if (query.until !== undefined) where.push(`at < ${param(query.until)}`);
  if (query.before !== undefined) {
    where.push(dialect === 'sqlite' ? `id < CAST(${param(query.before)} AS INTEGER)` : `id < ${param(query.before)}::bigint`);
  }
  // One more than a page: whether there is a next page is known without a second query.
  const sql = `SELECT * FROM audit WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${param(query.limit + 1)}`;
  return { sql, args };
}

/** The page from the rows of `auditQuerySql` (up to limit + 1 of them). */
export function auditPage(rows: readonly DbRow[], limit: number): AuditPage {
  const records: AuditEntry[] = rows.slice(0, limit).map((row) => ({ id: String(row.id), ...auditRecord(row) }));
  return { records, next: rows.length > limit ? (records.at(-1)?.id ?? null) : null };
}

/**
 * The chart's counts: per service, bucket (a prefix of the stored `at`, which both databases cut the same way) and
 * distinct duration, so that `auditSeriesPoints` can take the exact p95 from the counts. Uses the `(at)` index.
 */
export function auditSeriesSql(dialect: Dialect, query: AuditSeriesQuery): { sql: string; args: unknown[] } {
  const p = (n: number) => (dialect === 'sqlite' ? '?' : `$${n}`);
  const length = query.bucket === 'minute' ? 16 : 13;
  const sql = `SELECT service, substr(at, 1, ${length}) AS bucket, duration_ms, COUNT(*) AS calls,
      SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS errors
    FROM audit WHERE at >= ${p(1)} AND workspace_id = ${p(2)} AND protocol IN ('rest', 'mcp', 'dashboard')
    GROUP BY service, substr(at, 1, ${length}), duration_ms`;
  return { sql, args: [query.since, query.workspaceId] };
}

/** Folds the rows of `auditSeriesSql` into points: ordered by bucket, then service. */
export function auditSeriesPoints(rows: readonly DbRow[], bucket: AuditSeriesQuery['bucket']): AuditSeriesPoint[] {
  const groups = new Map<string, { service: string; at: string; calls: number; errors: number; durations: Array<[number, number]> }>();
  for (const row of rows) {
    const service = String(row.service);
    const prefix = String(row.bucket);
    const key = `${prefix}\u0000${service}`;
    let group = groups.get(key);
    if (!group) {
      const at = bucket === 'minute' ? `${prefix}:00.000Z` : `${prefix}:00:00.000Z`;
      group = { service, at, calls: 0, errors: 0, durations: [] };
      groups.set(key, group);
    }
    const calls = Number(row.calls);
    group.calls += calls;
    group.errors += Number(row.errors);
    group.durations.push([Number(row.duration_ms), calls]);
  }
  const points: AuditSeriesPoint[] = [];
  for (const group of groups.values()) {
    group.durations.sort((a, b) => a[0] - b[0]);
    const rank = Math.ceil(0.95 * group.calls);
    let seen = 0;
    let p95Ms = 0;
    for (const [duration, count] of group.durations) {
      seen += count;
      if (seen >= rank) {
        p95Ms = duration;
        break;
      }
    }
    points.push({ service: group.service, at: group.at, calls: group.calls, errors: group.errors, p95Ms });
  }
  return points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.service.localeCompare(b.service)));
}

/**
 * Deletes at most `$limit` records older than `$before`, oldest first (through the `at` index). On PostgreSQL only
 * those of the default partition: the months' records go with their whole month (postgres-partitions.ts).
 */
export function pruneBatchSql(dialect: Dialect): string {
  return dialect === 'sqlite'
    ? 'DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE at < ? ORDER BY at LIMIT ?)'
    : 'DELETE FROM audit_default WHERE id IN (SELECT id FROM audit_default WHERE at < $1 ORDER BY at LIMIT $2)';
}

/** The bounded retention loop both stores run: `deleteBatch` deletes one batch and says how many rows went. */
export async function pruneInBatches(limits: AuditPruneLimits, deleteBatch: (size: number) => Promise<number>): Promise<AuditPruneResult> {
  const batchSize = Math.max(1, Math.floor(limits.batchSize));
  let deleted = 0;
  for (let batch = 0; batch < limits.maxBatches; batch++) {
    if (batch > 0 && limits.pauseMs) await new Promise((resolve) => setTimeout(resolve, limits.pauseMs));
    const count = await deleteBatch(batchSize);
    deleted += count;
    if (count < batchSize) return { deleted, more: false };
  }
  return { deleted, more: true };
}
