import type pg from 'pg';
import { pruneBatchSql, pruneInBatches } from './audit-sql.js';
import { dropAuditMonths, ensureAuditMonths } from './postgres-partitions.js';
import type { DbRow } from './rows.js';
import type { AuditPruneLimits, AuditPruneResult, AuditRecord } from './types.js';

/**
 * Audit retention on PostgreSQL: one instance at a time. The run holds the session advisory lock `lock` (see
 * `advisoryLockText`: `["portico", <schema>, "audit-retention"]`), taken with `pg_try_advisory_lock` on a session of
 * `lockPool`: an instance that finds it taken skips its run (null) instead of queueing behind it. Under the lock it
 * creates this month's and next month's partitions if missing, drops the months entirely older than `before` (a
 * month goes whole: its records stay until its last one is older than `before`), then deletes the older records of
 * the default partition in bounded batches (postgres-partitions.ts). The statements go through `pool`, whose
 * sessions have the schema on their search path.
 */
export async function pruneAuditOnce(
  pool: pg.Pool,
  lockPool: pg.Pool,
  lock: string,
  before: string,
  limits: AuditPruneLimits,
): Promise<AuditPruneResult | null> {
  return underTryLock(lockPool, lock, async () => {
    await ensureAuditMonths(pool, Date.now());
    const dropped = await dropAuditMonths(pool, before);
    const rest = await pruneInBatches(limits, async (size) => (await pool.query(pruneBatchSql('postgres'), [before, size])).rowCount ?? 0);
    return { deleted: dropped + rest.deleted, more: rest.more };
  });
}

/**
 * Creates this month's and next month's audit partitions if missing, under the retention lock (at each start, so that
 * a gateway without retention gets them too); skipped, resolving false, while another instance holds it.
 */
export async function keepAuditMonths(pool: pg.Pool, lockPool: pg.Pool, lock: string): Promise<boolean> {
  const done = await underTryLock(lockPool, lock, async () => {
    await ensureAuditMonths(pool, Date.now());
    return true;
  });
  return done ?? false;
}

/** Runs `fn` holding the session advisory lock `lock`, or resolves null at once if another session holds it. */
async function underTryLock<T>(lockPool: pg.Pool, lock: string, fn: () => Promise<T>): Promise<T | null> {
  const session = await lockPool.connect();
  let healthy = false;
  try {
    const taken = await session.query<DbRow>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [lock]);
    if (taken.rows[0]?.locked !== true) {
      healthy = true;
      return null;
    }
    try {
      return await fn();
    } finally {
      try {
        const released = await session.query<DbRow>('SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS released', [lock]);
        healthy = released.rows[0]?.released === true;
      } catch {
        healthy = false;
      }
    }
  } finally {
    // A session that may still hold the lock must not go back to the pool.
    session.release(healthy ? undefined : true);
  }
}

/** Appends audit records in one statement whatever their number. */
export async function appendAuditRows(pool: pg.Pool, records: readonly AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  // One statement whatever the batch size (no parameter limit, atomic like SQLite's batch); ORDER BY the
  // ordinality keeps ids, and so listAudit's order, in the order of the batch.
  await pool.query(
    `INSERT INTO audit (at, workspace_id, key_id, service, operation, protocol, status, code, duration_ms, client_address, member_id, connection)
       SELECT at, workspace_id, key_id, service, operation, protocol, status, code, duration_ms, client_address, member_id, connection
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::integer[], $8::text[], $9::integer[], $10::text[], $11::text[], $12::text[])
         WITH ORDINALITY AS r(at, workspace_id, key_id, service, operation, protocol, status, code, duration_ms, client_address, member_id, connection, n)
       ORDER BY n`,
    [
      records.map((r) => r.at),
      records.map((r) => r.workspaceId),
      records.map((r) => r.keyId),
      records.map((r) => r.service),
      records.map((r) => r.operation),
      records.map((r) => r.protocol),
      records.map((r) => r.status),
      records.map((r) => r.code),
      records.map((r) => Math.round(r.durationMs)),
      records.map((r) => r.clientAddress ?? null),
      records.map((r) => r.memberId ?? null),
      records.map((r) => r.connection ?? null),
    ],
  );
}
