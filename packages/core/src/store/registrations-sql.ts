import type { Dialect } from './audit-sql.js';
import { type EventStatement, runIn } from './events-sql.js';
import type { RegistrationKey, RegistrationRecord, RegistrationTable } from './registration-types.js';
import type { DbRow } from './rows.js';

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function registration(row: DbRow): RegistrationRecord {
  return {
    workspaceId: String(row.workspace_id),
    service: String(row.service),
    topic: String(row.topic),
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
    return runIn(this.dialect, this.query, sql, args);
  }

  async add(key: RegistrationKey, at: string): Promise<boolean> {
    const sql = `INSERT INTO webhook_registrations (workspace_id, service, topic, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, service, topic) DO NOTHING`;
    return (await this.run(sql, [key.workspaceId, key.service, key.topic, at, at])).changed > 0;
  }

  async get(key: RegistrationKey): Promise<RegistrationRecord | undefined> {
    const sql = 'SELECT * FROM webhook_registrations WHERE workspace_id = ? AND service = ? AND topic = ?';
    const row = (await this.run(sql, [key.workspaceId, key.service, key.topic])).rows[0];
    return row ? registration(row) : undefined;
  }

  async list(workspaceId: string, service: string): Promise<RegistrationRecord[]> {
    const sql = 'SELECT * FROM webhook_registrations WHERE workspace_id = ? AND service = ? ORDER BY topic';
    return (await this.run(sql, [workspaceId, service])).rows.map(registration);
  }

  async save(r: RegistrationRecord, owner: string): Promise<boolean> {
    const sql = `UPDATE webhook_registrations SET upstream_id = ?, secret = ?, setup_hash = ?, expires_at = ?, updated_at = ?
       WHERE workspace_id = ? AND service = ? AND topic = ? AND lease_owner = ?`;
    const args = [r.upstreamId, r.secret, r.setupHash, r.expiresAt, r.updatedAt, r.workspaceId, r.service, r.topic, owner];
    return (await this.run(sql, args)).changed > 0;
  }

  async takeHandshake(key: RegistrationKey, setupHash: string, secret: string, at: string): Promise<boolean> {
    const sql = `UPDATE webhook_registrations SET secret = ?, setup_hash = NULL, updated_at = ?
       WHERE workspace_id = ? AND service = ? AND topic = ? AND setup_hash = ?`;
    return (await this.run(sql, [secret, at, key.workspaceId, key.service, key.topic, setupHash])).changed > 0;
  }

  async delete(key: RegistrationKey): Promise<boolean> {
    const sql = 'DELETE FROM webhook_registrations WHERE workspace_id = ? AND service = ? AND topic = ?';
    return (await this.run(sql, [key.workspaceId, key.service, key.topic])).changed > 0;
  }

  async all(): Promise<RegistrationRecord[]> {
    return (await this.run('SELECT * FROM webhook_registrations ORDER BY workspace_id, service, topic', [])).rows.map(registration);
  }

  async swapSecret(key: RegistrationKey, secret: string, expected: string): Promise<boolean> {
    const sql = 'UPDATE webhook_registrations SET secret = ? WHERE workspace_id = ? AND service = ? AND topic = ? AND secret = ?';
    return (await this.run(sql, [secret, key.workspaceId, key.service, key.topic, expected])).changed > 0;
  }

  async due(before: string, limit: number): Promise<RegistrationKey[]> {
    const sql = `SELECT workspace_id, service, topic FROM webhook_registrations
       WHERE upstream_id IS NULL OR expires_at < ? ORDER BY workspace_id, service, topic LIMIT ?`;
    return (await this.run(sql, [before, limit])).rows.map((row) => ({
      workspaceId: String(row.workspace_id),
      service: String(row.service),
      topic: String(row.topic),
    }));
  }

  async lease(key: RegistrationKey, owner: string, until: string, now: string): Promise<boolean> {
    const sql = `UPDATE webhook_registrations SET lease_owner = ?, lease_until = ?
       WHERE workspace_id = ? AND service = ? AND topic = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until <= ?)`;
    return (await this.run(sql, [owner, until, key.workspaceId, key.service, key.topic, owner, now])).changed > 0;
  }

  async release(key: RegistrationKey, owner: string): Promise<void> {
    const sql = `UPDATE webhook_registrations SET lease_owner = NULL, lease_until = NULL
       WHERE workspace_id = ? AND service = ? AND topic = ? AND lease_owner = ?`;
    await this.run(sql, [key.workspaceId, key.service, key.topic, owner]);
  }
}

const TABLES = [
  `CREATE TABLE webhook_registrations (
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     service TEXT NOT NULL,
     topic TEXT NOT NULL,
     upstream_id TEXT,
     secret TEXT,
     setup_hash TEXT,
     expires_at TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     lease_owner TEXT,
     lease_until TEXT,
     PRIMARY KEY (workspace_id, service, topic))`,
];

/** The migration of webhook registrations: one row per workspace, service and topic (Clio's model) whose
 * plugin registers its webhooks. */
export const REGISTRATIONS_TABLES = { sqlite: TABLES, postgres: TABLES };
