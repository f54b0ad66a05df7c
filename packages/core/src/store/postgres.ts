import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { auditPage, auditQuerySql, auditSeriesPoints, auditSeriesSql } from './audit-sql.js';
import { SqlAuthorizationTables } from './authorization-sql.js';
import { ChangeHub } from './changes.js';
import { SqlEventTable } from './events-sql.js';
import { SqlInstanceTable } from './instances.js';
import { SqlMemberTable } from './members-sql.js';
import type { MigrateOptions, MigrationStatus } from './migration-plan.js';
import { KeyedMutex } from './mutex.js';
import { openPools } from './pg.js';
import { appendAuditRows, keepAuditMonths, pruneAuditOnce } from './postgres-audit.js';
import { ClusterSession } from './postgres-cluster.js';
import { advisoryLockText, withAdvisoryLock } from './postgres-locks.js';
import { ChangeListener, changePayload, notifying, writeAndNotify } from './postgres-notify.js';
import type { ClusterLink, PostgresStoreOptions } from './postgres-options.js';
import { leaseQuota, returnQuota } from './postgres-quota.js';
import { leaseTokens } from './postgres-rate.js';
import { migrate as migrateSchema, migrationStatusOf } from './postgres-schema.js';
import type { QuotaLease, QuotaLeaseRequest, QuotaLeases } from './quota-types.js';
import { RecordMethods, type RecordRunner } from './records-sql.js';
import { SqlRegistrationTable } from './registrations-sql.js';
import { auditRecord, type DbRow } from './rows.js';
import { SqlSessionTable } from './sessions.js';
import { SqlSubscriptionTable } from './subscriptions-sql.js';
import type {
  AuditPage,
  AuditPruneLimits,
  AuditPruneResult,
  AuditQuery,
  AuditRecord,
  AuditSeriesPoint,
  AuditSeriesQuery,
  Store,
  StoreChange,
  StoreChangeListener,
} from './types.js';
import { numberPlaceholders, type Statement, WorkspaceRecords } from './workspace-sql.js';

export type { PostgresStoreOptions } from './postgres-options.js';

/**
 * PostgreSQL store, for several gateway instances sharing one database. Same schema (the `postgres` text of each
 * migration), same semantics and same TEXT encoding of JSON columns as `SqliteStore`.
 *
 * Cross-instance behaviour:
 * - `withConnectionLock` and `withClusterLock` take a session-level advisory lock (`pg_advisory_lock(hashtextextended(<text>, 0))`,
 *   see `advisoryLockText`) on a dedicated session from a separate lock pool, after queueing in-process per key.
 * - Every write that changes something sends `pg_notify('portico_changes', <json>)` in the same statement, so the
 *   notification is delivered if and only if the write commits; postgres-notify.ts relays other processes' changes.
 *
 * Schema and migrations are in postgres-schema.ts, advisory locks in postgres-locks.ts, LISTEN/NOTIFY in
 * postgres-notify.ts, the SQL shared with SQLite in the `*-sql.ts` modules; this file runs it and maps the rest of the
 * `Store` interface to SQL.
 */
export class PostgresStore extends RecordMethods implements Store, QuotaLeases {
  private readonly pool: pg.Pool;
  private readonly lockPool: pg.Pool;
  private readonly schema: string | undefined;
  /** Schema name used in lock keys and notification payloads. */
  private readonly namespace: string;
  /** Tells this store's own notifications apart when they come back through LISTEN. */
  private readonly origin = randomUUID();
  private readonly localLocks = new KeyedMutex();
  private readonly changes = new ChangeHub();
  private readonly listener: ChangeListener;
  private closed = false;
  protected readonly workspaces: WorkspaceRecords;
  protected readonly db: RecordRunner = {
    query: async ({ sql, args }) => this.all(numberPlaceholders(sql), args),
    write: (before, write, change) => this.write(before, write, change),
    change: async (write, change) => {
      const { sql, args } = notifying(write, this.payload(change.kind, change.workspaceId, change.id));
      const rows = await this.all(sql, args);
      if (rows.length > 0) this.changes.emit(change);
      return rows;
    },
  };

  constructor(connectionString: string, options: PostgresStoreOptions = {}) {
    super();
    if (options.schema !== undefined && (options.schema === '' || Buffer.byteLength(options.schema) > 63)) {
      throw new Error('PostgreSQL schema name must have 1 to 63 bytes');
    }
    this.schema = options.schema;
    this.namespace = options.schema ?? 'public';
    const applicationName = options.applicationName ?? 'portico';
    const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    ({ pool: this.pool, lockPool: this.lockPool } = openPools(connectionString, { ...options, applicationName, connectTimeoutMs }));
    this.listener = new ChangeListener({
      connectionString,
      connectTimeoutMs,
      applicationName,
      origin: this.origin,
      namespace: this.namespace,
      emit: (change) => this.changes.emit(change),
      ...(options.onListenState ? { onState: options.onListenState } : {}),
    });
    this.workspaces = new WorkspaceRecords(this.db);
  }

  readonly migrate = async (options?: MigrateOptions): Promise<void> => {
    await migrateSchema(this.pool, this.schema, this.namespace, options);
    // This month's and next month's audit partitions; until made, the default partition takes their rows.
    await keepAuditMonths(this.pool, this.lockPool, this.retentionLock).catch(() => false);
  };
  readonly migrationStatus = (): Promise<MigrationStatus> => migrationStatusOf(this.pool);
  readonly openClusterSession = async (): Promise<ClusterLink> =>
    new ClusterSession(await this.lockPool.connect(), this.pool, this.namespace);

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([this.listener.close(), this.pool.end(), this.lockPool.end()]);
  }

  readonly ping = async (): Promise<void> => void (await this.pool.query('SELECT 1'));

  readonly listening = (): boolean => this.listener.up;

  leaseTokens(bucket: string, want: number, burst: number, perMs: number): Promise<{ granted: number; left: number }> {
    return leaseTokens(this.pool, bucket, want, burst, perMs);
  }

  leaseQuota(request: QuotaLeaseRequest): Promise<QuotaLease> {
    return leaseQuota(this.pool, request);
  }

  returnQuota(service: string, workspaceId: string, windowMs: number, grantMs: number, tokens: number): Promise<void> {
    return returnQuota(this.pool, service, workspaceId, windowMs, grantMs, tokens);
  }

  withConnectionLock<T>(workspaceId: string, service: string, fn: () => Promise<T>): Promise<T> {
    return this.locked(advisoryLockText(this.namespace, 'connection', workspaceId, service), fn);
  }

  withClusterLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.locked(advisoryLockText(this.namespace, 'cluster', name), fn);
  }

  // Callers in this process queue here first, holding no database session: a burst of waiters costs one lock session.
  private locked = <T>(lock: string, fn: () => Promise<T>): Promise<T> =>
    this.localLocks.run(lock, () => withAdvisoryLock(this.lockPool, lock, fn));

  onChange(listener: StoreChangeListener): () => void {
    const unsubscribe = this.changes.on(listener);
    this.listener.start();
    return unsubscribe;
  }

  /**
   * Resolves once the LISTEN connection is up (starting it if needed), i.e. from when other processes' changes are
   * heard. Startup code that must not miss a change may await it; tests do.
   */
  whenListening(): Promise<void> {
    return this.listener.whenListening();
  }

  appendAudit(records: readonly AuditRecord[]): Promise<void> {
    return appendAuditRows(this.pool, records);
  }

  async listAudit(workspaceId: string, limit: number): Promise<AuditRecord[]> {
    const rows = await this.all('SELECT * FROM audit WHERE workspace_id = $1 ORDER BY id DESC LIMIT $2', [workspaceId, limit]);
    return rows.map(auditRecord);
  }

  async auditSeries(query: AuditSeriesQuery): Promise<AuditSeriesPoint[]> {
    const { sql, args } = auditSeriesSql('postgres', query);
    return auditSeriesPoints(await this.all(sql, args), query.bucket);
  }

  async queryAudit(query: AuditQuery): Promise<AuditPage> {
    const { sql, args } = auditQuerySql('postgres', query);
    return auditPage(await this.all(sql, args), query.limit);
  }

  /** One instance at a time: the others skip their run while one holds the retention lock (postgres-audit.ts). */
  pruneAudit(before: string, limits: AuditPruneLimits): Promise<AuditPruneResult | null> {
    return pruneAuditOnce(this.pool, this.lockPool, this.retentionLock, before, limits);
  }
  private get retentionLock(): string {
    return advisoryLockText(this.namespace, 'audit-retention');
  }

  /** One statement of the session, authorization, member, event and instance tables: its rows and how many it changed. */
  private readonly statement = (sql: string, args: unknown[]) =>
    this.pool.query<DbRow>(sql, args).then((result) => ({ rows: result.rows, changed: result.rowCount ?? 0 }));
  readonly authorization = new SqlAuthorizationTables('postgres', this.statement);
  readonly sessions = new SqlSessionTable('postgres', this.statement);
  readonly members = new SqlMemberTable('postgres', this.statement);
  readonly events = new SqlEventTable('postgres', this.statement);
  readonly subscriptions = new SqlSubscriptionTable('postgres', this.statement);
  readonly registrations = new SqlRegistrationTable('postgres', this.statement);
  readonly instances = new SqlInstanceTable('postgres', this.statement);

  private readonly all = async (sql: string, args: unknown[]) => (await this.pool.query<DbRow>(sql, args)).rows;

  /** See `SqlRunner.write`: `before`, then `write` with its notification, in one transaction (postgres-notify.ts). */
  private async write(before: Statement[], write: Statement, change: StoreChange): Promise<{ rows: DbRow[]; counts: number[] }> {
    const result = await writeAndNotify(this.pool, before, write, this.payload(change.kind, change.workspaceId, change.id));
    if (result.rows.length > 0) this.changes.emit(change);
    return result;
  }

  private payload(kind: StoreChange['kind'], workspaceId: string, id: string): string {
    return changePayload(this.origin, this.namespace, kind, workspaceId, id);
  }
}
