import type pg from 'pg';
import type { PoolClient } from 'pg';
import type { DbRow } from './rows.js';

/**
 * The text whose `hashtextextended(text, 0)` is the 64-bit advisory lock key. JSON keeps the parts unambiguous
 * (`a:b` + `c` differs from `a` + `b:c`) and is easy to reproduce anywhere; `hashtextextended` is the function
 * PostgreSQL uses for hash partitioning, so its value is stable across versions and platforms. The `portico`
 * prefix keeps our keys apart from other applications' advisory locks on the same database.
 *
 * Connection locks: `["portico", <schema or "public">, "connection", <workspaceId>, <service>]`;
 * migrations: `["portico", <schema or "public">, "migrate"]`.
 */
export function advisoryLockText(namespace: string, ...parts: string[]): string {
  return JSON.stringify(['portico', namespace, ...parts]);
}

/**
 * Runs `fn` holding the session-level advisory lock `lock` on a session of `pool` (waiting for it as long as it takes).
 * The session goes back to the pool only when the lock was released cleanly.
 */
export async function withAdvisoryLock<T>(pool: pg.Pool, lock: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let healthy = false;
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lock]);
    try {
      return await fn(client);
    } finally {
      healthy = await unlock(client, lock);
    }
  } finally {
    // A session that may still hold the lock must not go back to the pool.
    client.release(healthy ? undefined : true);
  }
}

/** Releases a session advisory lock; false when the session is broken or did not hold it (then it must be discarded). */
async function unlock(client: PoolClient, lock: string): Promise<boolean> {
  try {
    const result = await client.query<DbRow>('SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS released', [lock]);
    return result.rows[0]?.released === true;
  } catch {
    return false;
  }
}
