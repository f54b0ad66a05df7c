import { apiKey, connection, type DbRow, integration, oauthState } from './rows.js';
import type { ApiKeyRecord, ConnectionRecord, IntegrationSettingsRecord, OAuthStateRecord, StoreChange } from './types.js';
import { type SqlRunner, type Statement, WorkspaceMethods } from './workspace-sql.js';

/** How the SQL of both stores reaches a database: `SqlRunner`, and one write that reports its change by itself. */
export interface RecordRunner extends SqlRunner {
  /**
   * Runs `write` (an INSERT, UPDATE or DELETE without RETURNING) with `RETURNING *`, as one statement. When it returned
   * rows, `change` is reported to this store's listeners and, where other processes listen (PostgreSQL), notified by
   * that same statement, so that it is delivered if and only if the write commits. Resolves the rows of `write`.
   */
  change(write: Statement, change: StoreChange): Promise<DbRow[]>;
}

/**
 * The API key, integration settings, upstream connection and OAuth state half of the `Store` interface, in the SQL
 * SQLite and PostgreSQL share (with `?` placeholders, which the PostgreSQL runner numbers), on top of the workspace
 * and tool-set methods. Each store sets its `RecordRunner` as `db`.
 */
export abstract class RecordMethods extends WorkspaceMethods {
  protected abstract readonly db: RecordRunner;

  async createApiKey(r: ApiKeyRecord): Promise<void> {
    await this.db.change(
      {
        sql: `INSERT INTO api_keys (id, workspace_id, name, hash, prefix, scopes, created_at, last_used_at, expires_at, revoked_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [
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
        ],
      },
      { kind: 'api_key', workspaceId: r.workspaceId, id: r.id },
    );
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.db.query({ sql: 'SELECT * FROM api_keys WHERE hash = ?', args: [hash] });
    return row ? apiKey(row) : undefined;
  }

  async getApiKey(workspaceId: string, id: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.db.query({ sql: 'SELECT * FROM api_keys WHERE workspace_id = ? AND id = ?', args: [workspaceId, id] });
    return row ? apiKey(row) : undefined;
  }

  async listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    const sql = 'SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id';
    return (await this.db.query({ sql, args: [workspaceId] })).map(apiKey);
  }

  async revokeApiKey(workspaceId: string, id: string, at: string): Promise<boolean> {
    const rows = await this.db.change(
      { sql: 'UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND id = ? AND revoked_at IS NULL', args: [at, workspaceId, id] },
      { kind: 'api_key', workspaceId, id },
    );
    return rows.length > 0;
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    // Hot-path bookkeeping: deliberately no notification (last use changes nothing a cache relies on).
    await this.db.query({ sql: 'UPDATE api_keys SET last_used_at = ? WHERE id = ?', args: [at, id] });
  }

  async getIntegration(workspaceId: string, service: string): Promise<IntegrationSettingsRecord | undefined> {
    const [row] = await this.db.query({
      sql: 'SELECT * FROM integrations WHERE workspace_id = ? AND service = ?',
      args: [workspaceId, service],
    });
    return row ? integration(row) : undefined;
  }

  async listIntegrations(workspaceId: string): Promise<IntegrationSettingsRecord[]> {
    const sql = 'SELECT * FROM integrations WHERE workspace_id = ? ORDER BY service';
    return (await this.db.query({ sql, args: [workspaceId] })).map(integration);
  }

  async putIntegration(r: IntegrationSettingsRecord): Promise<void> {
    await this.db.change(
      {
        sql: `INSERT INTO integrations (workspace_id, service, mcp_enabled, rest_enabled, base_url, settings, updated_at, connection_policy)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (workspace_id, service) DO UPDATE SET mcp_enabled = excluded.mcp_enabled,
                rest_enabled = excluded.rest_enabled, base_url = excluded.base_url, settings = excluded.settings,
                updated_at = excluded.updated_at, connection_policy = excluded.connection_policy`,
        args: [
          r.workspaceId,
          r.service,
          r.mcpEnabled ? 1 : 0,
          r.restEnabled ? 1 : 0,
          r.baseUrl,
          JSON.stringify(r.settings),
          r.updatedAt,
          r.connectionPolicy ?? null,
        ],
      },
      { kind: 'integration', workspaceId: r.workspaceId, id: r.service },
    );
  }

  async getConnection(workspaceId: string, service: string, memberId?: string | null): Promise<ConnectionRecord | undefined> {
    const sql = 'SELECT * FROM connections WHERE workspace_id = ? AND service = ? AND member_id = ?';
    const [row] = await this.db.query({ sql, args: [workspaceId, service, memberId ?? ''] });
    return row ? connection(row) : undefined;
  }

  async listConnections(workspaceId: string): Promise<ConnectionRecord[]> {
    const sql = "SELECT * FROM connections WHERE workspace_id = ? AND member_id = '' ORDER BY service";
    return (await this.db.query({ sql, args: [workspaceId] })).map(connection);
  }

  async listMemberConnections(workspaceId: string, memberId: string): Promise<ConnectionRecord[]> {
    if (!memberId) return [];
    const sql = 'SELECT * FROM connections WHERE workspace_id = ? AND member_id = ? ORDER BY service';
    return (await this.db.query({ sql, args: [workspaceId, memberId] })).map(connection);
  }

  async allConnections(): Promise<ConnectionRecord[]> {
    return (await this.db.query({ sql: 'SELECT * FROM connections ORDER BY workspace_id, service, member_id', args: [] })).map(connection);
  }

  async putConnection(r: Omit<ConnectionRecord, 'version'>): Promise<ConnectionRecord> {
    const [row] = await this.db.change(
      {
        sql: `INSERT INTO connections (workspace_id, service, member_id, kind, secret, meta, status, expires_at, version, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
              ON CONFLICT (workspace_id, service, member_id) DO UPDATE SET kind = excluded.kind, secret = excluded.secret,
                meta = excluded.meta, status = excluded.status, expires_at = excluded.expires_at,
                version = connections.version + 1, updated_at = excluded.updated_at`,
        args: [
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
      },
      { kind: 'connection', workspaceId: r.workspaceId, id: r.service },
    );
    if (!row) throw new Error('INSERT … RETURNING returned no row');
    return connection(row);
  }

  async swapConnection(r: Omit<ConnectionRecord, 'version'>, expectedVersion: number): Promise<ConnectionRecord | undefined> {
    const [row] = await this.db.change(
      {
        sql: `UPDATE connections SET kind = ?, secret = ?, meta = ?, status = ?, expires_at = ?, version = version + 1, updated_at = ?
              WHERE workspace_id = ? AND service = ? AND member_id = ? AND version = ?`,
        args: [
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
      },
      { kind: 'connection', workspaceId: r.workspaceId, id: r.service },
    );
    return row ? connection(row) : undefined;
  }

  async deleteConnection(workspaceId: string, service: string, memberId?: string | null): Promise<boolean> {
    const rows = await this.db.change(
      {
        sql: 'DELETE FROM connections WHERE workspace_id = ? AND service = ? AND member_id = ?',
        args: [workspaceId, service, memberId ?? ''],
      },
      { kind: 'connection', workspaceId, id: service },
    );
    return rows.length > 0;
  }

  async createOAuthState(r: OAuthStateRecord): Promise<void> {
    await this.db.query({
      sql: `INSERT INTO oauth_states (state_hash, workspace_id, service, key_id, verifier, redirect_uri, created_at, expires_at, used_at, member_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        r.stateHash,
        r.workspaceId,
        r.service,
        r.keyId,
        r.verifier,
        r.redirectUri,
        r.createdAt,
        r.expiresAt,
        r.usedAt,
        r.memberId ?? null,
      ],
    });
  }

  async consumeOAuthState(stateHash: string, at: string): Promise<OAuthStateRecord | undefined> {
    const [row] = await this.db.query({
      sql: 'UPDATE oauth_states SET used_at = ? WHERE state_hash = ? AND used_at IS NULL RETURNING *',
      args: [at, stateHash],
    });
    return row ? oauthState(row) : undefined;
  }
}
