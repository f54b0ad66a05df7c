import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Client, createClient, type InValue, type Row } from '@libsql/client/sqlite3'; // local files only: skips the remote (HTTP/WebSocket) clients
import { auditPage, auditQuerySql, auditSeriesPoints, auditSeriesSql, pruneBatchSql, pruneInBatches } from './audit-sql.js';
import { SqlAuthorizationTables } from './authorization-sql.js';
import { ChangeHub } from './changes.js';
import { SqlEventTable } from './events-sql.js';
import { SqlInstanceTable } from './instances.js';
import { SqlMemberTable } from './members-sql.js';
import {
  appliedRows,
  assertUsable,
  MIGRATIONS_TABLE,
  type MigrateOptions,
  type MigrationStatus,
  migrationStatus,
} from './migration-plan.js';
import { KeyedMutex } from './mutex.js';
import { RecordMethods, type RecordRunner } from './records-sql.js';
import { SqlRegistrationTable } from './registrations-sql.js';
import { auditRecord, type DbRow } from './rows.js';
import { SqlSessionTable } from './sessions.js';
import { SqliteAuditWriter } from './sqlite-audit-writer.js';
import { SqlSubscriptionTable } from './subscriptions-sql.js';
import {
  type AuditPage,
  type AuditPruneLimits,
  type AuditPruneResult,
  type AuditQuery,
  type AuditRecord,
  type AuditSeriesPoint,
  type AuditSeriesQuery,
  DEFAULT_WORKSPACE,
  type Store,
  type StoreChangeListener,
} from './types.js';
import { type Statement, WorkspaceRecords } from './workspace-sql.js';

/** Files SQLite keeps next to a database: they hold the same data. */
const SIDECARS = ['', '-wal', '-shm', '-journal'];

/** Appends the audit records given as one JSON array of rows (`appendAudit`), in the array's order. */
const APPEND_AUDIT = `INSERT INTO audit (at, workspace_id, key_id, service, operation, protocol, status, code, duration_ms, client_address, member_id, connection)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
         json_extract(value, '$[4]'), json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]'),
         json_extract(value, '$[8]'), json_extract(value, '$[9]'), json_extract(value, '$[10]'), json_extract(value, '$[11]')
  FROM json_each(?) ORDER BY key`;

/**
 * The database holds API key hashes and encrypted credentials: only its owner may read it. A missing directory is
 * created 0700 and a missing database 0600 (SQLite gives its WAL, shared-memory and journal files the database's
 * mode); existing files readable by others are made 0600. Returns the files it tightened.
 */
function keepPrivate(path: string): string[] {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  if (process.platform === 'win32') return [];
  const tightened: string[] = [];
  for (const file of SIDECARS.map((suffix) => `${path}${suffix}`)) {
    if (!existsSync(file) || (statSync(file).mode & 0o077) === 0) continue;
    chmodSync(file, 0o600);
    tightened.push(file);
  }
  return tightened;
}

/**
 * Embedded SQLite store (libsql). `path` is a file path, or `:memory:` for tests.
 * Needs no server: the default for a single gateway instance. Its connection lock and change notifications are
 * in-process only: several processes sharing one SQLite file do not see each other's locks or changes (use
 * PostgreSQL for several instances).
 */
export class SqliteStore extends RecordMethods implements Store {
  private readonly client: Client;
  /** A database file's audit batches are written from a thread of their own; an in-memory database's here. */
  private readonly auditWriter: SqliteAuditWriter | undefined;
  private readonly locks = new KeyedMutex();
  private readonly changes = new ChangeHub();
  private pruning = false;
  protected readonly workspaces: WorkspaceRecords;
  protected readonly db: RecordRunner = {
    query: async ({ sql, args }) => (await this.client.execute({ sql, args: args as InValue[] })).rows as unknown as DbRow[],
    write: async (before: Statement[], write: Statement, change) => {
      const results = await this.client.batch(
        [...before, { sql: `${write.sql} RETURNING *`, args: write.args }].map(({ sql, args }) => ({ sql, args: args as InValue[] })),
        'write',
      );
      const rows = (results.at(-1)?.rows ?? []) as unknown as DbRow[];
      if (rows.length > 0) this.changes.emit(change);
      return { rows, counts: results.slice(0, -1).map((r) => r.rowsAffected) };
    },
    change: async ({ sql, args }, change) => {
      const rows = (await this.client.execute({ sql: `${sql} RETURNING *`, args: args as InValue[] })).rows as unknown as DbRow[];
      if (rows.length > 0) this.changes.emit(change);
      return rows;
    },
  };
  /** Files of this database that others could read when it was opened, and that were made owner-only (0600). */
  readonly tightenedFiles: readonly string[];

  constructor(path: string) {
    super();
    this.tightenedFiles = path === ':memory:' ? [] : keepPrivate(path);
    this.client = createClient({ url: path === ':memory:' ? ':memory:' : `file:${path}` });
    this.auditWriter = path === ':memory:' ? undefined : new SqliteAuditWriter(`file:${path}`, APPEND_AUDIT);
    this.workspaces = new WorkspaceRecords(this.db);
  }

  async migrate(options: MigrateOptions = {}): Promise<void> {
    await this.client.execute('PRAGMA journal_mode = WAL');
    await this.client.execute('PRAGMA busy_timeout = 5000');
    const status = await this.migrationStatus();
    assertUsable(status, options.mode ?? 'auto');
    if (status.pending.length > 0) await this.client.execute(MIGRATIONS_TABLE);
    for (const migration of status.pending) {
      const started = performance.now();
      await this.client.batch(
        [
          ...migration.sqlite.map((sql) => ({ sql, args: [] })),
          {
            sql: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
            args: [migration.version, migration.name, new Date().toISOString()],
          },
        ],
        'write',
      );
      options.onApplied?.({ version: migration.version, name: migration.name, ms: Math.round(performance.now() - started) });
    }
    await this.client.execute({
      sql: 'INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
      args: [DEFAULT_WORKSPACE, 'Default workspace', new Date().toISOString()],
    });
  }

  async close(): Promise<void> {
    await this.auditWriter?.close();
    this.client.close();
  }

  async migrationStatus(): Promise<MigrationStatus> {
    const table = await this.client.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'");
    if (table.rows.length === 0) return migrationStatus([]);
    const rows = await this.client.execute('SELECT version, name, applied_at FROM schema_migrations');
    return migrationStatus(appliedRows(rows.rows as unknown as DbRow[]));
  }

  async ping(): Promise<void> {
    await this.client.execute('SELECT 1');
  }

  withConnectionLock<T>(workspaceId: string, service: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(JSON.stringify([workspaceId, service]), fn);
  }

  withClusterLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(JSON.stringify(['cluster', name]), fn);
  }

  onChange(listener: StoreChangeListener): () => void {
    return this.changes.on(listener);
  }

  /** One statement of the session, authorization, member, event and instance tables: its rows and how many it changed. */
  private readonly statement = async (sql: string, args: readonly unknown[]) => {
    const result = await this.client.execute({ sql, args: args as InValue[] });
    return { rows: result.rows, changed: result.rowsAffected };
  };
  readonly authorization = new SqlAuthorizationTables('sqlite', this.statement);
  readonly instances = new SqlInstanceTable('sqlite', this.statement);
  readonly members = new SqlMemberTable('sqlite', this.statement);
  readonly events = new SqlEventTable('sqlite', this.statement);
  readonly subscriptions = new SqlSubscriptionTable('sqlite', this.statement);
  readonly registrations = new SqlRegistrationTable('sqlite', this.statement);
  readonly sessions = new SqlSessionTable('sqlite', this.statement);

  private async all(sql: string, args: InValue[]): Promise<Row[]> {
    return (await this.client.execute({ sql, args })).rows;
  }

  private async run(sql: string, args: InValue[]): Promise<number> {
    return (await this.client.execute({ sql, args })).rowsAffected;
  }

  async appendAudit(records: readonly AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    // One statement of one parameter, the batch as a JSON array of rows, unpacked by SQLite's json_each in order: about
    // half the CPU per record of multi-row INSERTs with ten parameters a row (measured on 500-record batches),
    // and the statement is the same whatever the batch's size.
    const rows = JSON.stringify(
      records.map((r) => [
        r.at,
        r.workspaceId,
        r.keyId,
        r.service,
        r.operation,
        r.protocol,
        r.status,
        r.code,
        Math.round(r.durationMs),
        r.clientAddress ?? null,
        r.memberId ?? null,
        r.connection ?? null,
      ]),
    );
    if (this.auditWriter) await this.auditWriter.write(rows);
    else await this.client.execute({ sql: APPEND_AUDIT, args: [rows] });
  }

  async listAudit(workspaceId: string, limit: number): Promise<AuditRecord[]> {
    const rows = await this.all('SELECT * FROM audit WHERE workspace_id = ? ORDER BY id DESC LIMIT ?', [workspaceId, limit]);
    return rows.map(auditRecord);
  }

  async auditSeries(query: AuditSeriesQuery): Promise<AuditSeriesPoint[]> {
    const { sql, args } = auditSeriesSql('sqlite', query);
    return auditSeriesPoints(await this.all(sql, args as InValue[]), query.bucket);
  }

  async queryAudit(query: AuditQuery): Promise<AuditPage> {
    const { sql, args } = auditQuerySql('sqlite', query);
    return auditPage(await this.all(sql, args as InValue[]), query.limit);
  }

  /** One process uses a SQLite file: there is no one to take turns with, only runs of this store to keep apart. */
  async pruneAudit(before: string, limits: AuditPruneLimits): Promise<AuditPruneResult | null> {
    if (this.pruning) return null;
    this.pruning = true;
    try {
      return await pruneInBatches(limits, (size) => this.run(pruneBatchSql('sqlite'), [before, size]));
    } finally {
      this.pruning = false;
    }
  }
}
