import { parseArgs } from 'node:util';
import { type MigrationStatus, openStore, PostgresStore, type Store } from '@portico/core';
import { loadConfig } from '../config/load.js';
import { type Command, type Io, pad, UsageError } from './command.js';

const HELP = `Usage:
  portico migrate status
  portico migrate up [--dry-run]

The database's schema against the migrations this release knows. A start applies pending migrations by itself
unless PORTICO_MIGRATE=never; with several instances on one PostgreSQL database, one migrates and the others wait.

  status      Each migration: its version, name and when it was applied, or "pending"; and migrations applied by a
              newer release (a database this release refuses to serve)
  up          Apply the pending migrations, one log line each (version, name, ms)
  --dry-run   With up: print the SQL each pending migration would run, in the database's dialect; apply nothing`;

async function migrate(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({ args: rest, options: { 'dry-run': { type: 'boolean' } }, strict: true });
  if (sub !== 'status' && sub !== 'up') throw new UsageError('expected portico migrate status|up (see portico migrate --help)');
  if (sub === 'status' && values['dry-run']) throw new UsageError('--dry-run goes with up (portico migrate up --dry-run)');
  const config = loadConfig(env);
  const store = openStore(config.databaseUrl, {
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    connectTimeoutMs: config.databaseConnectSeconds * 1000,
  });
  try {
    const status = await store.migrationStatus();
    if (sub === 'status') {
      printStatus(status, io);
      return 0;
    }
    if (values['dry-run']) return dryRun(status, store, io);
    await store.migrate({
      mode: 'auto',
      onApplied: ({ version, name, ms }) => io.out(`applied ${version} ${name} (${ms} ms)`),
    });
    const after = await store.migrationStatus();
    io.out(
      status.pending.length === 0
        ? `Nothing to apply: the schema is at version ${after.databaseVersion}.`
        : `The schema is at version ${after.databaseVersion}.`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

function printStatus(status: MigrationStatus, io: Io): void {
  io.out(`Schema version ${status.databaseVersion}; this release knows version ${status.codeVersion}.`);
  const rows = [
    ...status.applied.map((m) => [String(m.version), m.appliedAt, m.name]),
    ...status.pending.map((m) => [String(m.version), 'pending', m.name]),
    ...status.unknown.map((m) => [String(m.version), `${m.appliedAt} (by a newer release)`, m.name]),
  ];
  const widths = [7, Math.max(7, ...rows.map((r) => (r[1] as string).length))];
  io.out(pad(['VERSION', 'APPLIED', 'NAME'], widths));
  for (const row of rows) io.out(pad(row, widths));
  if (status.unknown.length > 0) {
    io.out('This database was migrated by a newer release: this one refuses to serve it (run that release or newer).');
  } else if (status.pending.length > 0) {
    io.out(`${status.pending.length} pending: 'portico migrate up' applies them (a start does too, unless PORTICO_MIGRATE=never).`);
  }
}

function dryRun(status: MigrationStatus, store: Store, io: Io): number {
  if (status.unknown.length > 0) throw new UsageError(`the schema (version ${status.databaseVersion}) is newer than this release knows`);
  const dialect = store instanceof PostgresStore ? 'postgres' : 'sqlite';
  if (status.pending.length === 0) {
    io.out(`-- Nothing to apply: the schema is at version ${status.databaseVersion}.`);
    return 0;
  }
  io.out(`-- ${status.pending.length} pending migration(s), ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}; nothing applied.`);
  for (const migration of status.pending) {
    io.out('');
    io.out(`-- ${migration.version}: ${migration.name}`);
    const statements = migration[dialect];
    if (statements.length === 0) io.out(`-- (no statement in this dialect; only recorded as applied)`);
    for (const sql of statements) io.out(`${sql.replace(/\n\s+/g, '\n  ')};`);
  }
  return 0;
}

/** `portico migrate`: the schema's migrations — status, apply, dry run. */
export const migrateCommand: Command = { help: HELP, run: migrate };
