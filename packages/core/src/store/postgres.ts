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
import { CHANGE_CHANNEL, ChangeListener, changePayload, writeAndNotify } from './postgres-notify.js';
import type { ClusterLink, PostgresStoreOptions } from './postgres-options.js';
import { leaseQuota, returnQuota } from './postgres-quota.js';
import { leaseTokens } from './postgres-rate.js';
import { migrate as migrateSchema, migrationStatusOf } from './postgres-schema.js';
import type { QuotaLease, QuotaLeaseRequest, QuotaLeases } from './quota-types.js';
import { SqlRegistrationTable } from './registrations-sql.js';
import { apiKey, auditRecord, connection, type DbRow, integration, oauthState } from './rows.js';
import { SqlSessionTable } from './sessions.js';
import { SqlSubscriptionTable } from './subscriptions-sql.js';
import type {
  ApiKeyRecord,
  AuditPage,
  AuditPruneLimits,
  AuditPruneResult,
  AuditQuery,
  AuditRecord,
  AuditSeriesPoint,
  AuditSeriesQuery,
  ConnectionRecord,
  IntegrationSettingsRecord,
  OAuthStateRecord,
  Store,
  StoreChange,
  StoreChangeListener,
} from './types.js';
import { numberPlaceholders, type Statement, WorkspaceMethods, WorkspaceRecords } from './workspace-sql.js';

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
 * postgres-notify.ts; this file maps the `Store` interface to SQL.
 */
export class PostgresStore extends WorkspaceMethods implements Store, QuotaLeases {
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
    this.workspaces = new WorkspaceRecords({
      query: async ({ sql, args }) => this.all(numberPlaceholders(sql), args),
      write: (before, write, change) => this.write(before, write, change),
    });
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

  async createApiKey(r: ApiKeyRecord): Promise<void> {
    await this.pool.query(
      `WITH w AS (
         INSERT INTO api_keys (id, workspace_id, name, hash, prefix, scopes, created_at, last_used_at, expires_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id)
       SELECT pg_notify('${CHANGE_CHANNEL}', $11) FROM w`,
      [
        r.id,
        r.workspaceId,
        r.name,
        r.hash,
        r.prefix,
        JSON.stringify(r.scopes),
        r.createdAt,
        r.lastUsedAt,
        r.expiresAt,
        r.revokedAt,
        this.payload('api_key', r.workspaceId, r.id),
      ],
    );
    this.changed('api_key', r.workspaceId, r.id);
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.one('SELECT * FROM api_keys WHERE hash = $1', [hash]);
    return row ? apiKey(row) : undefined;
  }

  async getApiKey(workspaceId: string, id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.one('SELECT * FROM api_keys WHERE workspace_id = $1 AND id = $2', [workspaceId, id]);
    return row ? apiKey(row) : undefined;
  }

  async listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    return (await this.all('SELECT * FROM api_keys WHERE workspace_id = $1 ORDER BY created_at, id', [workspaceId])).map(apiKey);
  }

  async revokeApiKey(workspaceId: string, id: string, at: string): Promise<boolean> {
    const result = await this.pool.query(
      `WITH w AS (UPDATE api_keys SET revoked_at = $1 WHERE workspace_id = $2 AND id = $3 AND revoked_at IS NULL RETURNING id)
       SELECT pg_notify('${CHANGE_CHANNEL}', $4) FROM w`,
      [at, workspaceId, id, this.payload('api_key', workspaceId, id)],
    );
    const changed = (result.rowCount ?? 0) > 0;
    if (changed) this.changed('api_key', workspaceId, id);
    return changed;
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    // Hot-path bookkeeping: deliberately no notification (last use changes nothing a cache relies on).
    await this.pool.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id]);
  }

  async getIntegration(workspaceId: string, service: string): Promise<IntegrationSettingsRecord | undefined> {
    const row = await this.one('SELECT * FROM integrations WHERE workspace_id = $1 AND service = $2', [workspaceId, service]);
    return row ? integration(row) : undefined;
  }

  async listIntegrations(workspaceId: string): Promise<IntegrationSettingsRecord[]> {
    return (await this.all('SELECT * FROM integrations WHERE workspace_id = $1 ORDER BY service', [workspaceId])).map(integration);
  }

  async putIntegration(r: IntegrationSettingsRecord): Promise<void> {
    await this.pool.query(
      `WITH w AS (
         INSERT INTO integrations (workspace_id, service, mcp_enabled, rest_enabled, base_url, settings, updated_at, connection_policy)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $9)
         ON CONFLICT (workspace_id, service) DO UPDATE SET mcp_enabled = excluded.mcp_enabled,
           rest_enabled = excluded.rest_enabled, base_url = excluded.base_url, settings = excluded.settings,
           updated_at = excluded.updated_at, connection_policy = excluded.connection_policy
         RETURNING service)
       SELECT pg_notify('${CHANGE_CHANNEL}', $8) FROM w`,
      [
        r.workspaceId,
        r.service,
        r.mcpEnabled ? 1 : 0,
        r.restEnabled ? 1 : 0,
        r.baseUrl,
        JSON.stringify(r.settings),
        r.updatedAt,
        this.payload('integration', r.workspaceId, r.service),
        r.connectionPolicy ?? null,
      ],
    );
    this.changed('integration', r.workspaceId, r.service);
  }

  async getConnection(workspaceId: string, service: string, memberId?: string | null): Promise<ConnectionRecord | undefined> {
    const sql = 'SELECT * FROM connections WHERE workspace_id = $1 AND service = $2 AND member_id = $3';
    const row = await this.one(sql, [workspaceId, service, memberId ?? '']);
    return row ? connection(row) : undefined;
  }

  async listConnections(workspaceId: string): Promise<ConnectionRecord[]> {
    const sql = "SELECT * FROM connections WHERE workspace_id = $1 AND member_id = '' ORDER BY service";
    return (await this.all(sql, [workspaceId])).map(connection);
  }

  async listMemberConnections(workspaceId: string, memberId: string): Promise<ConnectionRecord[]> {
    if (!memberId) return [];
    const sql = 'SELECT * FROM connections WHERE workspace_id = $1 AND member_id = $2 ORDER BY service';
    return (await this.all(sql, [workspaceId, memberId])).map(connection);
  }

  async allConnections(): Promise<ConnectionRecord[]> {
    return (await this.all('SELECT * FROM connections ORDER BY workspace_id, service, member_id', [])).map(connection);
  }

  async putConnection(r: Omit<ConnectionRecord, 'version'>): Promise<ConnectionRecord> {
    const row = await this.one(
      `WITH w AS (
         INSERT INTO connections (workspace_id, service, kind, secret, meta, status, expires_at, version, created_at, updated_at, member_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $11)
         ON CONFLICT (workspace_id, service, member_id) DO UPDATE SET kind = excluded.kind, secret = excluded.secret,
           meta = excluded.meta, status = excluded.status, expires_at = excluded.expires_at,
           version = connections.version + 1, updated_at = excluded.updated_at
         RETURNING *)
       SELECT w.*, pg_notify('${CHANGE_CHANNEL}', $10) FROM w`,
      [
        r.workspaceId,
        r.service,
        r.kind,
        r.secret,
        JSON.stringify(r.meta),
        r.status,
        r.expiresAt,
        r.createdAt,
        r.updatedAt,
        this.payload('connection', r.workspaceId, r.service),
        r.memberId ?? '',
      ],
    );
    if (!row) throw new Error('INSERT … RETURNING returned no row');
    this.changed('connection', r.workspaceId, r.service);
    return connection(row);
  }

  async swapConnection(r: Omit<ConnectionRecord, 'version'>, expectedVersion: number): Promise<ConnectionRecord | undefined> {
    const row = await this.one(
      `WITH w AS (
         UPDATE connections SET kind = $1, secret = $2, meta = $3, status = $4, expires_at = $5, version = version + 1,
           updated_at = $6
         WHERE workspace_id = $7 AND service = $8 AND version = $9 AND member_id = $11 RETURNING *)
       SELECT w.*, pg_notify('${CHANGE_CHANNEL}', $10) FROM w`,
      [
        r.kind,
        r.secret,
        JSON.stringify(r.meta),
        r.status,
        r.expiresAt,
        r.updatedAt,
        r.workspaceId,
        r.service,
        expectedVersion,
        this.payload('connection', r.workspaceId, r.service),
        r.memberId ?? '',
      ],
    );
    if (!row) return undefined;
    this.changed('connection', r.workspaceId, r.service);
    return connection(row);
  }

  async deleteConnection(workspaceId: string, service: string, memberId?: string | null): Promise<boolean> {
    const result = await this.pool.query(
      `WITH w AS (DELETE FROM connections WHERE workspace_id = $1 AND service = $2 AND member_id = $4 RETURNING service)
       SELECT pg_notify('${CHANGE_CHANNEL}', $3) FROM w`,
      [workspaceId, service, this.payload('connection', workspaceId, service), memberId ?? ''],
    );
    const deleted = (result.rowCount ?? 0) > 0;
    if (deleted) this.changed('connection', workspaceId, service);
    return deleted;
  }

  async createOAuthState(r: OAuthStateRecord): Promise<void> {
    await this.one(
      `INSERT INTO oauth_states (state_hash, workspace_id, service, key_id, verifier, redirect_uri, created_at, expires_at, used_at, member_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [r.stateHash, r.workspaceId, r.service, r.keyId, r.verifier, r.redirectUri, r.createdAt, r.expiresAt, r.usedAt, r.memberId ?? null],
    );
  }

  async consumeOAuthState(stateHash: string, at: string): Promise<OAuthStateRecord | undefined> {
    const row = await this.one('UPDATE oauth_states SET used_at = $1 WHERE state_hash = $2 AND used_at IS NULL RETURNING *', [
      at,
      stateHash,
    ]);
    return row ? oauthState(row) : undefined;
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

  private readonly one = async (sql: string, args: unknown[]) => (await this.pool.query<DbRow>(sql, args)).rows[0];
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

  private changed(kind: StoreChange['kind'], workspaceId: string, id: string): void {
    this.changes.emit({ kind, workspaceId, id });
  }
}
