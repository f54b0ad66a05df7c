import type { Dialect } from './audit-sql.js';
import type {
  AuthorizationCodeRecord,
  AuthorizationTables,
  Consumed,
  GrantRecord,
  OAuthClientRecord,
  OAuthTokenRecord,
} from './authorization-types.js';
import type { DbRow } from './rows.js';

/** Runs one statement: its rows and how many it changed. */
export type AuthorizationQuery = (sql: string, args: Array<string | null>) => Promise<{ rows: readonly DbRow[]; changed: number }>;

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function client(row: DbRow): OAuthClientRecord {
  return {
    clientId: String(row.client_id),
    kind: String(row.kind) as OAuthClientRecord['kind'],
    name: String(row.name),
    redirectUris: JSON.parse(String(row.redirect_uris)),
    createdAt: String(row.created_at),
    lastUsedAt: text(row.last_used_at),
    expiresAt: text(row.expires_at),
  };
}

function grant(row: DbRow, prefix = ''): GrantRecord {
  const col = (name: string) => row[prefix + name];
  return {
    id: String(col('id')),
    workspaceId: String(col('workspace_id')),
    clientId: String(col('client_id')),
    clientName: String(col('client_name')),
    scopes: JSON.parse(String(col('scopes'))),
    resource: String(col('resource')),
    createdBy: text(col('created_by')),
    memberId: text(col('member_id')),
    createdAt: String(col('created_at')),
    lastUsedAt: text(col('last_used_at')),
    expiresAt: text(col('expires_at')),
    revokedAt: text(col('revoked_at')),
  };
}

function code(row: DbRow): AuthorizationCodeRecord {
  return {
    codeHash: String(row.code_hash),
    grantId: String(row.grant_id),
    workspaceId: String(row.workspace_id),
    clientId: String(row.client_id),
    redirectUri: String(row.redirect_uri),
    challenge: String(row.challenge),
    createdAt: String(row.created_at),
    expiresAt: String(row.expires_at),
    usedAt: text(row.used_at),
  };
}

function token(row: DbRow): OAuthTokenRecord {
  return {
    hash: String(row.hash),
    grantId: String(row.grant_id),
    workspaceId: String(row.workspace_id),
    kind: String(row.kind) as OAuthTokenRecord['kind'],
    createdAt: String(row.created_at),
    expiresAt: String(row.expires_at),
    usedAt: text(row.used_at),
  };
}

/**
 * The authorization server's tables in the SQL both databases share; only the placeholders differ. Nothing here is
 * cached by the callers: a token is looked up (with its grant) on every request, so a revoke on one instance ends
 * the token on every instance sharing the database at once.
 */
export class SqlAuthorizationTables implements AuthorizationTables {
  constructor(
    private readonly dialect: Dialect,
    private readonly query: AuthorizationQuery,
  ) {}

  private sql(textSql: string): string {
    if (this.dialect === 'sqlite') return textSql;
    let n = 0;
    return textSql.replace(/\?/g, () => `$${++n}`);
  }

  private run(textSql: string, args: Array<string | null>) {
    return this.query(this.sql(textSql), args);
  }

  async putClient(r: OAuthClientRecord): Promise<void> {
    await this.run(
      `INSERT INTO oauth_clients (client_id, kind, name, redirect_uris, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (client_id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris`,
      [r.clientId, r.kind, r.name, JSON.stringify(r.redirectUris), r.createdAt, r.lastUsedAt, r.expiresAt],
    );
  }

  async getClient(clientId: string): Promise<OAuthClientRecord | undefined> {
    const row = (await this.run('SELECT * FROM oauth_clients WHERE client_id = ?', [clientId])).rows[0];
    return row ? client(row) : undefined;
  }

  async touchClient(clientId: string, at: string): Promise<void> {
    await this.run('UPDATE oauth_clients SET last_used_at = ?, expires_at = NULL WHERE client_id = ?', [at, clientId]);
  }

  async pruneClients(now: string): Promise<number> {
    const sql = `DELETE FROM oauth_clients WHERE expires_at IS NOT NULL AND expires_at <= ?
       AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.client_id)`;
    return (await this.run(sql, [now])).changed;
  }

  async createGrant(r: GrantRecord): Promise<void> {
    await this.run(
      `INSERT INTO oauth_grants (id, workspace_id, client_id, client_name, scopes, resource, created_by, member_id, created_at, last_used_at, expires_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        r.id,
        r.workspaceId,
        r.clientId,
        r.clientName,
        JSON.stringify(r.scopes),
        r.resource,
        r.createdBy,
        r.memberId,
        r.createdAt,
        r.lastUsedAt,
        r.expiresAt,
        r.revokedAt,
      ],
    );
  }

  async getGrant(id: string): Promise<GrantRecord | undefined> {
    const row = (await this.run('SELECT * FROM oauth_grants WHERE id = ?', [id])).rows[0];
    return row ? grant(row) : undefined;
  }

  async listGrants(workspaceId: string): Promise<GrantRecord[]> {
    const { rows } = await this.run('SELECT * FROM oauth_grants WHERE workspace_id = ? ORDER BY created_at DESC, id', [workspaceId]);
    return rows.map((row) => grant(row));
  }

  async revokeGrant(workspaceId: string, id: string, at: string): Promise<boolean> {
    const sql = 'UPDATE oauth_grants SET revoked_at = ? WHERE workspace_id = ? AND id = ? AND revoked_at IS NULL';
    return (await this.run(sql, [at, workspaceId, id])).changed > 0;
  }

  async touchGrant(id: string, at: string): Promise<void> {
    await this.run('UPDATE oauth_grants SET last_used_at = ? WHERE id = ?', [at, id]);
  }

  async createCode(r: AuthorizationCodeRecord): Promise<void> {
    await this.run(
      `INSERT INTO oauth_codes (code_hash, grant_id, workspace_id, client_id, redirect_uri, challenge, created_at, expires_at, used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.codeHash, r.grantId, r.workspaceId, r.clientId, r.redirectUri, r.challenge, r.createdAt, r.expiresAt, r.usedAt],
    );
  }

  async consumeCode(codeHash: string, at: string): Promise<Consumed<AuthorizationCodeRecord> | undefined> {
    const first = (await this.run('UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL RETURNING *', [at, codeHash]))
      .rows[0];
    if (first) return { record: code(first), reused: false };
    const again = (await this.run('SELECT * FROM oauth_codes WHERE code_hash = ?', [codeHash])).rows[0];
    return again ? { record: code(again), reused: true } : undefined;
  }

  async createToken(r: OAuthTokenRecord): Promise<void> {
    await this.run(
      'INSERT INTO oauth_tokens (hash, grant_id, workspace_id, kind, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [r.hash, r.grantId, r.workspaceId, r.kind, r.createdAt, r.expiresAt, r.usedAt],
    );
  }

  async findToken(hash: string): Promise<{ token: OAuthTokenRecord; grant: GrantRecord } | undefined> {
    const t = (await this.run('SELECT * FROM oauth_tokens WHERE hash = ?', [hash])).rows[0];
    if (!t) return undefined;
    const g = (await this.run('SELECT * FROM oauth_grants WHERE id = ?', [String(t.grant_id)])).rows[0];
    return g ? { token: token(t), grant: grant(g) } : undefined;
  }

  async consumeRefreshToken(hash: string, at: string): Promise<Consumed<OAuthTokenRecord> | undefined> {
    const sql = "UPDATE oauth_tokens SET used_at = ? WHERE hash = ? AND kind = 'refresh' AND used_at IS NULL RETURNING *";
    const first = (await this.run(sql, [at, hash])).rows[0];
    if (first) return { record: token(first), reused: false };
    const again = (await this.run("SELECT * FROM oauth_tokens WHERE hash = ? AND kind = 'refresh'", [hash])).rows[0];
    return again ? { record: token(again), reused: true } : undefined;
  }
}

/** Migration 7: the authorization server's tables. */
export const AUTHORIZATION_TABLES = [
  `CREATE TABLE oauth_clients (
     client_id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     name TEXT NOT NULL,
     redirect_uris TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     expires_at TEXT)`,
  `CREATE TABLE oauth_grants (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     client_id TEXT NOT NULL,
     client_name TEXT NOT NULL,
     scopes TEXT NOT NULL,
     resource TEXT NOT NULL,
     created_by TEXT,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     expires_at TEXT,
     revoked_at TEXT)`,
  'CREATE INDEX oauth_grants_workspace ON oauth_grants(workspace_id)',
  'CREATE INDEX oauth_grants_client ON oauth_grants(client_id)',
  `CREATE TABLE oauth_codes (
     code_hash TEXT PRIMARY KEY,
     grant_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     client_id TEXT NOT NULL,
     redirect_uri TEXT NOT NULL,
     challenge TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     used_at TEXT)`,
  `CREATE TABLE oauth_tokens (
     hash TEXT PRIMARY KEY,
     grant_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     kind TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     used_at TEXT)`,
  'CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id)',
];
