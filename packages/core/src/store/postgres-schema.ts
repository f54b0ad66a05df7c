import type pg from 'pg';
import {
  appliedRows,
  assertUsable,
  MIGRATIONS_TABLE,
  type MigrateOptions,
  type MigrationStatus,
  migrationStatus,
} from './migration-plan.js';
import { advisoryLockText, withAdvisoryLock } from './postgres-locks.js';
import type { DbRow } from './rows.js';
import { DEFAULT_WORKSPACE } from './types.js';

/**
 * Creates the schema (if one is named) and applies the migrations not applied yet, then makes sure the default
 * workspace exists. `namespace` is the schema name used in lock keys (`public` when none is named). Refuses (a
 * `SchemaVersionError`, nothing changed) a schema newer than the code, and pending migrations with `mode: 'never'`.
 */
export async function migrate(pool: pg.Pool, schema: string | undefined, namespace: string, options: MigrateOptions = {}): Promise<void> {
  // Several instances starting together: one migrates, the others wait and then find nothing left to do.
  await withAdvisoryLock(pool, advisoryLockText(namespace, 'migrate'), async (client) => {
    const status = await readStatus(client);
    assertUsable(status, options.mode ?? 'auto');
    if (status.pending.length > 0) {
      if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await client.query(MIGRATIONS_TABLE);
    }
    for (const migration of status.pending) {
      const started = performance.now();
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
      options.onApplied?.({ version: migration.version, name: migration.name, ms: Math.round(performance.now() - started) });
    }
    await client.query('INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [
      DEFAULT_WORKSPACE,
      'Default workspace',
      new Date().toISOString(),
    ]);
  });
}

/** The schema's migrations against the code's, changing nothing (a missing schema or table: nothing applied). */
export async function migrationStatusOf(pool: pg.Pool | pg.PoolClient): Promise<MigrationStatus> {
  return readStatus(pool);
}

async function readStatus(client: pg.Pool | pg.PoolClient): Promise<MigrationStatus> {
  // The schema is on the session's search_path (see PostgresStore); to_regclass finds the table there or answers null.
  const exists = await client.query<DbRow>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (exists.rows[0]?.present !== true) return migrationStatus([]);
  const rows = await client.query<DbRow>('SELECT version, name, applied_at FROM schema_migrations');
  return migrationStatus(appliedRows(rows.rows));
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
