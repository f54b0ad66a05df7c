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
import { SqlRegistrationTable } from './registrations-sql.js';
import { apiKey, auditRecord, connection, type DbRow, integration, oauthState } from './rows.js';
import { SqlSessionTable } from './sessions.js';
import { SqliteAuditWriter } from './sqlite-audit-writer.js';
import { SqlSubscriptionTable } from './subscriptions-sql.js';
import {
  type ApiKeyRecord,
  type AuditPage,
  type AuditPruneLimits,
  type AuditPruneResult,
  type AuditQuery,
  type AuditRecord,
  type AuditSeriesPoint,
  type AuditSeriesQuery,
  type ConnectionRecord,
  DEFAULT_WORKSPACE,
  type IntegrationSettingsRecord,
  type OAuthStateRecord,
  type Store,
  type StoreChange,
  type StoreChangeListener,
} from './types.js';
import { type Statement, WorkspaceMethods, WorkspaceRecords } from './workspace-sql.js';

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
export class SqliteStore extends WorkspaceMethods implements Store {
  private readonly client: Client;
  /** A database file's audit batches are written from a thread of their own; an in-memory database's here. */
  private readonly auditWriter: SqliteAuditWriter | undefined;
  private readonly locks = new KeyedMutex();
  private readonly changes = new ChangeHub();
  private pruning = false;
  protected readonly workspaces: WorkspaceRecords;
  /** Files of this database that others could read when it was opened, and that were made owner-only (0600). */
  readonly tightenedFiles: readonly string[];

  constructor(path: string) {
    super();
    this.tightenedFiles = path === ':memory:' ? [] : keepPrivate(path);
    this.client = createClient({ url: path === ':memory:' ? ':memory:' : `file:${path}` });
    this.auditWriter = path === ':memory:' ? undefined : new SqliteAuditWriter(`file:${path}`, APPEND_AUDIT);
    this.workspaces = new WorkspaceRecords({
      query: async ({ sql, args }) => (await this.client.execute({ sql, args: args as InValue[] })).rows as unknown as DbRow[],
      write: async (before: Statement[], write: Statement, change: StoreChange) => {
        const results = await this.client.batch(
          [...before, { sql: `${write.sql} RETURNING *`, args: write.args }].map(({ sql, args }) => ({ sql, args: args as InValue[] })),
          'write',
        );
        const rows = (results.at(-1)?.rows ?? []) as unknown as DbRow[];
        if (rows.length > 0) this.changes.emit(change);
        return { rows, counts: results.slice(0, -1).map((r) => r.rowsAffected) };
      },
    });
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

  private changed(kind: StoreChange['kind'], workspaceId: string, id: string): void {
    this.changes.emit({ kind, workspaceId, id });
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

  private async one(sql: string, args: InValue[]): Promise<Row | undefined> {
    return (await this.client.execute({ sql, args })).rows[0];
  }

  private async all(sql: string, args: InValue[]): Promise<Row[]> {
    return (await this.client.execute({ sql, args })).rows;
  }

  private async run(sql: string, args: InValue[]): Promise<number> {
    return (await this.client.execute({ sql, args })).rowsAffected;
  }

  async createApiKey(r: ApiKeyRecord): Promise<void> {
    await this.run(
      `INSERT INTO api_keys (id, workspace_id, name, hash, prefix, scopes, created_at, last_used_at, expires_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.workspaceId, r.name, r.hash, r.prefix, JSON.stringify(r.scopes), r.createdAt, r.lastUsedAt, r.expiresAt, r.revokedAt],
    );
    this.changed('api_key', r.workspaceId, r.id);
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.one('SELECT * FROM api_keys WHERE hash = ?', [hash]);
    return row ? apiKey(row) : undefined;
  }

  async getApiKey(workspaceId: string, id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.one('SELECT * FROM api_keys WHERE workspace_id = ? AND id = ?', [workspaceId, id]);
    return row ? apiKey(row) : undefined;
  }

  async listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    return (await this.all('SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id', [workspaceId])).map(apiKey);
  }

  async revokeApiKey(workspaceId: string, id: string, at: string): Promise<boolean> {
    const changed = await this.run('UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND id = ? AND revoked_at IS NULL', [
      at,
      workspaceId,
      id,
    ]);
    if (changed > 0) this.changed('api_key', workspaceId, id);
    return changed > 0;
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    await this.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [at, id]);
  }

  async getIntegration(workspaceId: string, service: string): Promise<IntegrationSettingsRecord | undefined> {
    const row = await this.one('SELECT * FROM integrations WHERE workspace_id = ? AND service = ?', [workspaceId, service]);
    return row ? integration(row) : undefined;
  }

  async listIntegrations(workspaceId: string): Promise<IntegrationSettingsRecord[]> {
    return (await this.all('SELECT * FROM integrations WHERE workspace_id = ? ORDER BY service', [workspaceId])).map(integration);
  }

  async putIntegration(r: IntegrationSettingsRecord): Promise<void> {
    await this.run(
      `INSERT INTO integrations (workspace_id, service, mcp_enabled, rest_enabled, base_url, settings, updated_at, connection_policy)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, service) DO UPDATE SET mcp_enabled = excluded.mcp_enabled,
         rest_enabled = excluded.rest_enabled, base_url = excluded.base_url, settings = excluded.settings,
         updated_at = excluded.updated_at, connection_policy = excluded.connection_policy`,
      [
        r.workspaceId,
        r.service,
        r.mcpEnabled ? 1 : 0,
        r.restEnabled ? 1 : 0,
        r.baseUrl,
        JSON.stringify(r.settings),
        r.updatedAt,
        r.connectionPolicy ?? null,
      ],
    );
    this.changed('integration', r.workspaceId, r.service);
  }

  async getConnection(workspaceId: string, service: string, memberId?: string | null): Promise<ConnectionRecord | undefined> {
    const row = await this.one('SELECT * FROM connections WHERE workspace_id = ? AND service = ? AND member_id = ?', [
      workspaceId,
      service,
      memberId ?? '',
    ]);
    return row ? connection(row) : undefined;
  }

  async listConnections(workspaceId: string): Promise<ConnectionRecord[]> {
    const sql = "SELECT * FROM connections WHERE workspace_id = ? AND member_id = '' ORDER BY service";
    return (await this.all(sql, [workspaceId])).map(connection);
  }

  async listMemberConnections(workspaceId: string, memberId: string): Promise<ConnectionRecord[]> {
    if (!memberId) return [];
    const sql = 'SELECT * FROM connections WHERE workspace_id = ? AND member_id = ? ORDER BY service';
    return (await this.all(sql, [workspaceId, memberId])).map(connection);
  }

  async allConnections(): Promise<ConnectionRecord[]> {
    return (await this.all('SELECT * FROM connections ORDER BY workspace_id, service, member_id', [])).map(connection);
  }

  async putConnection(r: Omit<ConnectionRecord, 'version'>): Promise<ConnectionRecord> {
    const row = await this.one(
      `INSERT INTO connections (workspace_id, service, member_id, kind, secret, meta, status, expires_at, version, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
       ON CONFLICT (workspace_id, service, member_id) DO UPDATE SET kind = excluded.kind, secret = excluded.secret,
         meta = excluded.meta, status = excluded.status, expires_at = excluded.expires_at,
         version = connections.version + 1, updated_at = excluded.updated_at
       RETURNING *`,
      [
        r.workspaceId,
        r.service,
        r.memberId ?? '',
        r.kind,
        r.secret,
        JSON.stringify(r.meta),
        r.status,
        r.expiresAt,
        r.createdAt,
        r.updatedAt,
      ],
    );
    this.changed('connection', r.workspaceId, r.service);
    return connection(row as Row);
  }

  async swapConnection(r: Omit<ConnectionRecord, 'version'>, expectedVersion: number): Promise<ConnectionRecord | undefined> {
    const row = await this.one(
      `UPDATE connections SET kind = ?, secret = ?, meta = ?, status = ?, expires_at = ?, version = version + 1, updated_at = ?
       WHERE workspace_id = ? AND service = ? AND member_id = ? AND version = ? RETURNING *`,
      [
        r.kind,
        r.secret,
        JSON.stringify(r.meta),
        r.status,
        r.expiresAt,
        r.updatedAt,
        r.workspaceId,
        r.service,
        r.memberId ?? '',
        expectedVersion,
      ],
    );
    if (!row) return undefined;
    this.changed('connection', r.workspaceId, r.service);
    return connection(row);
  }

  async deleteConnection(workspaceId: string, service: string, memberId?: string | null): Promise<boolean> {
    const sql = 'DELETE FROM connections WHERE workspace_id = ? AND service = ? AND member_id = ?';
    const deleted = (await this.run(sql, [workspaceId, service, memberId ?? ''])) > 0;
    if (deleted) this.changed('connection', workspaceId, service);
    return deleted;
  }

  async createOAuthState(r: OAuthStateRecord): Promise<void> {
    await this.one(
      `INSERT INTO oauth_states (state_hash, workspace_id, service, key_id, verifier, redirect_uri, created_at, expires_at, used_at, member_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.stateHash, r.workspaceId, r.service, r.keyId, r.verifier, r.redirectUri, r.createdAt, r.expiresAt, r.usedAt, r.memberId ?? null],
    );
  }

  async consumeOAuthState(stateHash: string, at: string): Promise<OAuthStateRecord | undefined> {
    const row = await this.one('UPDATE oauth_states SET used_at = ? WHERE state_hash = ? AND used_at IS NULL RETURNING *', [at, stateHash]);
    return row ? oauthState(row) : undefined;
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
