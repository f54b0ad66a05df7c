import type { Dialect } from './audit-sql.js';
import type { EventStatement } from './events-sql.js';
import type { RegistrationRecord, RegistrationTable } from './registration-types.js';
import type { DbRow } from './rows.js';

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function registration(row: DbRow): RegistrationRecord {
  return {
    workspaceId: String(row.workspace_id),
    service: String(row.service),
    upstreamId: text(row.upstream_id),
    secret: text(row.secret),
    setupHash: text(row.setup_hash),
    expiresAt: text(row.expires_at),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

/** Webhook registrations, in the SQL both databases share (the lease as the outbound subscriptions take theirs). */
export class SqlRegistrationTable implements RegistrationTable {
  constructor(
    private readonly dialect: Dialect,
    private readonly query: EventStatement,
  ) {}

  private run(sql: string, args: unknown[]) {
    let n = 0;
    return this.query(this.dialect === 'sqlite' ? sql : sql.replace(/\?/g, () => `$${++n}`), args);
  }

  async add(workspaceId: string, service: string, at: string): Promise<boolean> {
    const sql = `INSERT INTO webhook_registrations (workspace_id, service, created_at, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, service) DO NOTHING`;
    return (await this.run(sql, [workspaceId, service, at, at])).changed > 0;
  }

  async get(workspaceId: string, service: string): Promise<RegistrationRecord | undefined> {
    const sql = 'SELECT * FROM webhook_registrations WHERE workspace_id = ? AND service = ?';
    const row = (await this.run(sql, [workspaceId, service])).rows[0];
    return row ? registration(row) : undefined;
  }

  async save(r: RegistrationRecord, owner: string): Promise<boolean> {
    const sql = `UPDATE webhook_registrations SET upstream_id = ?, secret = ?, setup_hash = ?, expires_at = ?, updated_at = ?
       WHERE workspace_id = ? AND service = ? AND lease_owner = ?`;
    const args = [r.upstreamId, r.secret, r.setupHash, r.expiresAt, r.updatedAt, r.workspaceId, r.service, owner];
    return (await this.run(sql, args)).changed > 0;
  }

  async takeHandshake(workspaceId: string, service: string, setupHash: string, secret: string, at: string): Promise<boolean> {
    const sql = `UPDATE webhook_registrations SET secret = ?, setup_hash = NULL, updated_at = ?
       WHERE workspace_id = ? AND service = ? AND setup_hash = ?`;
    return (await this.run(sql, [secret, at, workspaceId, service, setupHash])).changed > 0;
  }

  async delete(workspaceId: string, service: string): Promise<boolean> {
    const sql = 'DELETE FROM webhook_registrations WHERE workspace_id = ? AND service = ?';
    return (await this.run(sql, [workspaceId, service])).changed > 0;
  }

  async all(): Promise<RegistrationRecord[]> {
    return (await this.run('SELECT * FROM webhook_registrations ORDER BY workspace_id, service', [])).rows.map(registration);
  }

  async swapSecret(workspaceId: string, service: string, secret: string, expected: string): Promise<boolean> {
    const sql = 'UPDATE webhook_registrations SET secret = ? WHERE workspace_id = ? AND service = ? AND secret = ?';
    return (await this.run(sql, [secret, workspaceId, service, expected])).changed > 0;
  }

  async due(before: string, limit: number): Promise<Array<{ workspaceId: string; service: string }>> {
    const sql = `SELECT workspace_id, service FROM webhook_registrations
       WHERE upstream_id IS NULL OR expires_at < ? ORDER BY workspace_id, service LIMIT ?`;
    return (await this.run(sql, [before, limit])).rows.map((row) => ({
      workspaceId: String(row.workspace_id),
      service: String(row.service),
    }));
  }

  async lease(workspaceId: string, service: string, owner: string, until: string, now: string): Promise<boolean> {
    const sql = `UPDATE webhook_registrations SET lease_owner = ?, lease_until = ?
       WHERE workspace_id = ? AND service = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until <= ?)`;
    return (await this.run(sql, [owner, until, workspaceId, service, owner, now])).changed > 0;
  }

  async release(workspaceId: string, service: string, owner: string): Promise<void> {
    const sql = `UPDATE webhook_registrations SET lease_owner = NULL, lease_until = NULL
       WHERE workspace_id = ? AND service = ? AND lease_owner = ?`;
    await this.run(sql, [workspaceId, service, owner]);
  }
}

const TABLES = [
  `CREATE TABLE webhook_registrations (
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     service TEXT NOT NULL,
     upstream_id TEXT,
     secret TEXT,
     setup_hash TEXT,
     expires_at TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     lease_owner TEXT,
     lease_until TEXT,
     PRIMARY KEY (workspace_id, service))`,
];

/** The migration of webhook registrations: one row per workspace and service whose plugin registers its webhooks. */
export const REGISTRATIONS_TABLES = { sqlite: TABLES, postgres: TABLES };
