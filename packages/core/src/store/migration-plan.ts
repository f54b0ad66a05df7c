import type { AppliedMigration, MigrateMode, MigrationStatus } from './migration-types.js';
import { MIGRATIONS } from './migrations.js';

export type { AppliedMigration, MigrateMode, MigrateOptions, MigrationStatus } from './migration-types.js';

/**
 * The schema cannot be used by this code as it is: newer than the code (`schema_newer`), or behind it while
 * migrating at start is forbidden (`migrations_pending`). The message names both versions and what to do.
 */
export class SchemaVersionError extends Error {
  constructor(
    readonly reason: 'schema_newer' | 'migrations_pending',
    message: string,
  ) {
    super(message);
    this.name = 'SchemaVersionError';
  }
}

/** The table recording applied migrations, the same in both dialects. */
export const MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)';

export const CODE_SCHEMA_VERSION = Math.max(0, ...MIGRATIONS.map((m) => m.version));

/** Compares the rows of `schema_migrations` with the migrations this code knows. */
export function migrationStatus(rows: readonly AppliedMigration[]): MigrationStatus {
  const known = new Set(MIGRATIONS.map((m) => m.version));
  const sorted = [...rows].sort((a, b) => a.version - b.version);
  const done = new Set(sorted.map((r) => r.version));
  return {
    codeVersion: CODE_SCHEMA_VERSION,
    databaseVersion: Math.max(0, ...sorted.map((r) => r.version)),
    applied: sorted.filter((r) => known.has(r.version)),
    pending: MIGRATIONS.filter((m) => !done.has(m.version)),
    unknown: sorted.filter((r) => !known.has(r.version)),
  };
}

/** Throws the `SchemaVersionError` that keeps this code from touching the database, if there is one. */
export function assertUsable(status: MigrationStatus, mode: MigrateMode): void {
  if (status.unknown.length > 0) {
    const newest = status.unknown.at(-1) as AppliedMigration;
    throw new SchemaVersionError(
      'schema_newer',
      `The database schema is at version ${status.databaseVersion} ("${newest.name}"), newer than this Portico knows ` +
        `(version ${status.codeVersion}): it was migrated by a newer release. Run that release (or newer) against this ` +
        'database, or restore a backup taken before the upgrade; this one will not serve it.',
    );
  }
  if (mode === 'never' && status.pending.length > 0) {
    throw new SchemaVersionError(
      'migrations_pending',
      `The database schema is at version ${status.databaseVersion}, this Portico needs version ${status.codeVersion} ` +
        `(${status.pending.length} pending migration${status.pending.length === 1 ? '' : 's'}), and PORTICO_MIGRATE=never ` +
        "forbids migrating at start. Run 'portico migrate up' (see 'portico migrate status'), then start again.",
    );
  }
}

/** `schema_migrations` rows as read by either store (`applied_at` as text). */
export function appliedRows(rows: readonly Record<string, unknown>[]): AppliedMigration[] {
  return rows.map((r) => ({ version: Number(r.version), name: String(r.name), appliedAt: String(r.applied_at) }));
}
