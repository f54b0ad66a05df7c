import type pg from 'pg';
import { MIGRATIONS } from './migrations.js';
import { advisoryLockText, withAdvisoryLock } from './postgres-locks.js';
import type { DbRow } from './rows.js';
import { DEFAULT_WORKSPACE } from './types.js';

/**
 * Creates the schema (if one is named) and applies the migrations not applied yet, then makes sure the default
 * workspace exists. `namespace` is the schema name used in lock keys (`public` when none is named).
 */
export async function migrate(pool: pg.Pool, schema: string | undefined, namespace: string): Promise<void> {
  // Several instances starting together: one migrates, the others wait and then find nothing left to do.
  await withAdvisoryLock(pool, advisoryLockText(namespace, 'migrate'), async (client) => {
    if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const done = new Set((await client.query<DbRow>('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)));
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      // DDL is transactional in PostgreSQL: a migration applies completely or not at all.
      await client.query('BEGIN');
      try {
        for (const sql of migration.postgres) await client.query(sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    }
    await client.query('INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [
      DEFAULT_WORKSPACE,
      'Default workspace',
      new Date().toISOString(),
    ]);
  });
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
