import type pg from 'pg';
import { pruneBatchSql, pruneInBatches } from './audit-sql.js';
import type { DbRow } from './rows.js';
import type { AuditPruneLimits, AuditPruneResult } from './types.js';

/**
 * Audit retention on PostgreSQL: one instance at a time. The run holds the session advisory lock `lock` (see
 * `advisoryLockText`: `["portico", <schema>, "audit-retention"]`), taken with `pg_try_advisory_lock` on a session of
 * `lockPool`: an instance that finds it taken skips its run (null) instead of queueing behind it. The deletes go
 * through `pool`, whose sessions have the schema on their search path.
 */
export async function pruneAuditOnce(
  pool: pg.Pool,
  lockPool: pg.Pool,
  lock: string,
  before: string,
  limits: AuditPruneLimits,
): Promise<AuditPruneResult | null> {
  const session = await lockPool.connect();
  let healthy = false;
  try {
    const taken = await session.query<DbRow>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [lock]);
    if (taken.rows[0]?.locked !== true) {
      healthy = true;
      return null;
    }
    try {
      return await pruneInBatches(limits, async (size) => (await pool.query(pruneBatchSql('postgres'), [before, size])).rowCount ?? 0);
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
