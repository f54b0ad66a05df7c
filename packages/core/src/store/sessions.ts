import type { Dialect } from './audit-sql.js';
import type { DbRow } from './rows.js';
import type { SessionRecord, SessionTable } from './types.js';

/** Runs one statement: its rows and how many it changed. */
export type SessionQuery = (sql: string, args: string[]) => Promise<{ rows: readonly DbRow[]; changed: number }>;

/** The session table in the SQL both databases share; only the placeholders differ. */
export class SqlSessionTable implements SessionTable {
  constructor(
    private readonly dialect: Dialect,
    private readonly query: SessionQuery,
  ) {}

  private sql(text: string): string {
    if (this.dialect === 'sqlite') return text;
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  }

  async create(r: SessionRecord): Promise<void> {
    await this.query(
      this.sql(
        'INSERT INTO dashboard_sessions (id_hash, workspace_id, key_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      [r.idHash, r.workspaceId, r.keyId, r.createdAt, r.lastSeenAt, r.expiresAt],
    );
  }

  async get(idHash: string): Promise<SessionRecord | undefined> {
    const row = (await this.query(this.sql('SELECT * FROM dashboard_sessions WHERE id_hash = ?'), [idHash])).rows[0];
    if (!row) return undefined;
    return {
      idHash: String(row.id_hash),
      workspaceId: String(row.workspace_id),
      keyId: String(row.key_id),
      createdAt: String(row.created_at),
      lastSeenAt: String(row.last_seen_at),
      expiresAt: String(row.expires_at),
    };
  }

  async touch(idHash: string, at: string): Promise<void> {
    await this.query(this.sql('UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?'), [at, idHash]);
  }

  async delete(idHash: string): Promise<boolean> {
    return (await this.query(this.sql('DELETE FROM dashboard_sessions WHERE id_hash = ?'), [idHash])).changed > 0;
  }

  async deleteOfKey(keyId: string): Promise<number> {
    return (await this.query(this.sql('DELETE FROM dashboard_sessions WHERE key_id = ?'), [keyId])).changed;
  }

  async prune(now: string, idleBefore: string): Promise<number> {
    const sql = this.sql('DELETE FROM dashboard_sessions WHERE expires_at <= ? OR last_seen_at < ?');
    return (await this.query(sql, [now, idleBefore])).changed;
  }
}

export const SESSIONS_TABLE = [
  `CREATE TABLE dashboard_sessions (
     id_hash TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     key_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_seen_at TEXT NOT NULL,
     expires_at TEXT NOT NULL)`,
  'CREATE INDEX dashboard_sessions_key ON dashboard_sessions(key_id)',
];
