/**
 * Schema migrations, numbered and applied in order, each once (store/migrations.ts). Written in the subset of SQL
 * that SQLite and PostgreSQL share wherever possible; where dialects differ a migration carries both texts.
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: readonly string[];
  postgres: readonly string[];
}

/** A migration recorded in the database's `schema_migrations` table. */
export interface AppliedMigration {
  version: number;
  name: string;
  appliedAt: string;
}

/** Where a database's schema stands against the migrations this code knows (`portico migrate status`). */
export interface MigrationStatus {
  /** The highest migration this code knows. */
  codeVersion: number;
  /** The highest migration applied to the database (0 when none, or the schema does not exist yet). */
  databaseVersion: number;
  /** Applied migrations this code knows, in order. */
  applied: AppliedMigration[];
  /** Migrations this code knows that the database has not had yet, in order. */
  pending: Migration[];
  /** Applied migrations this code does not know: the database was migrated by a newer Portico. */
  unknown: AppliedMigration[];
}

/** Whether `migrate()` may apply pending migrations (`PORTICO_MIGRATE`): `auto` applies them, `never` refuses. */
export type MigrateMode = 'auto' | 'never';

export interface MigrateOptions {
  /** Default `auto`. With `never`, pending migrations make `migrate()` throw a `SchemaVersionError` instead. */
  mode?: MigrateMode;
  /** Called after each migration is applied (committed), with how long it took. */
  onApplied?: (migration: { version: number; name: string; ms: number }) => void;
}
