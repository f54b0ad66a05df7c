import type { Dialect } from './audit-sql.js';
import type { EventQuery, EventRecord, EventSecretRecord, EventTable } from './event-types.js';
import type { DbRow } from './rows.js';

/** Runs one statement: its rows and how many it changed. */
export type EventStatement = (sql: string, args: unknown[]) => Promise<{ rows: readonly DbRow[]; changed: number }>;

/** Runs a statement written with `?` placeholders: as it is on SQLite, numbered (`$1`, `$2` …) on PostgreSQL. */
export function runIn(dialect: Dialect, query: EventStatement, sql: string, args: unknown[]) {
  let n = 0;
  return query(dialect === 'sqlite' ? sql : sql.replace(/\?/g, () => `$${++n}`), args);
}

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function eventOfRow(row: DbRow): EventRecord {
  return {
    seq: Number(row.seq),
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    service: String(row.service),
    type: String(row.type),
    upstreamId: String(row.upstream_id),
    recordId: text(row.record_id),
    occurredAt: text(row.occurred_at),
    receivedAt: String(row.received_at),
    payload: JSON.parse(String(row.payload)),
  };
}

function secret(row: DbRow): EventSecretRecord {
  return {
    workspaceId: String(row.workspace_id),
    service: String(row.service),
    secret: String(row.secret),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

/** Inbound events, their replay keys and signing secrets, in the SQL both databases share; only placeholders differ. */
export class SqlEventTable implements EventTable {
  constructor(
    private readonly dialect: Dialect,
    private readonly query: EventStatement,
  ) {}

  private run(sql: string, args: unknown[]) {
    return runIn(this.dialect, this.query, sql, args);
  }

  async getSecret(workspaceId: string, service: string): Promise<EventSecretRecord | undefined> {
    const sql = 'SELECT * FROM event_secrets WHERE workspace_id = ? AND service = ?';
    const row = (await this.run(sql, [workspaceId, service])).rows[0];
    return row ? secret(row) : undefined;
  }

  async listSecretServices(workspaceId: string): Promise<string[]> {
    const sql = 'SELECT service FROM event_secrets WHERE workspace_id = ? ORDER BY service';
    return (await this.run(sql, [workspaceId])).rows.map((row) => String(row.service));
  }

  async putSecret(r: EventSecretRecord): Promise<void> {
    const sql = `INSERT INTO event_secrets (workspace_id, service, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, service) DO UPDATE SET secret = excluded.secret, updated_at = excluded.updated_at`;
    await this.run(sql, [r.workspaceId, r.service, r.secret, r.createdAt, r.updatedAt]);
  }

  async allSecrets(): Promise<EventSecretRecord[]> {
    return (await this.run('SELECT * FROM event_secrets ORDER BY workspace_id, service', [])).rows.map(secret);
  }

  async swapSecret(r: EventSecretRecord, expected: string): Promise<boolean> {
    const sql = 'UPDATE event_secrets SET secret = ?, updated_at = ? WHERE workspace_id = ? AND service = ? AND secret = ?';
    return (await this.run(sql, [r.secret, r.updatedAt, r.workspaceId, r.service, expected])).changed > 0;
  }

  async deleteSecret(workspaceId: string, service: string): Promise<boolean> {
    const sql = 'DELETE FROM event_secrets WHERE workspace_id = ? AND service = ?';
    return (await this.run(sql, [workspaceId, service])).changed > 0;
  }

  async remember(workspaceId: string, service: string, key: string, expiresAt: string, now: string): Promise<boolean> {
    await this.run('DELETE FROM event_deliveries WHERE expires_at <= ?', [now]);
    const sql = `INSERT INTO event_deliveries (workspace_id, service, replay_key, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, service, replay_key) DO NOTHING`;
    return (await this.run(sql, [workspaceId, service, key, expiresAt])).changed > 0;
  }

  async forget(workspaceId: string, service: string, key: string): Promise<void> {
    await this.run('DELETE FROM event_deliveries WHERE workspace_id = ? AND service = ? AND replay_key = ?', [workspaceId, service, key]);
  }

  async append(records: readonly Omit<EventRecord, 'seq'>[]): Promise<EventRecord[]> {
    const stored: EventRecord[] = [];
    for (const r of records) {
      const sql = `INSERT INTO events (id, workspace_id, service, type, upstream_id, record_id, occurred_at, received_at, payload)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, service, upstream_id) DO NOTHING`;
      const args = [
        r.id,
        r.workspaceId,
        r.service,
        r.type,
        r.upstreamId,
        r.recordId,
        r.occurredAt,
        r.receivedAt,
        JSON.stringify(r.payload),
      ];
      if ((await this.run(sql, args)).changed === 0) continue;
      const row = (await this.run('SELECT * FROM events WHERE id = ?', [r.id])).rows[0];
      if (row) stored.push(eventOfRow(row));
    }
    return stored;
  }

  async prune(workspaceId: string, before: string, limit: number): Promise<number> {
    // the oldest few by the (workspace_id, seq) index, then only those old enough: cheap when there is nothing to delete
    const sql = `DELETE FROM events WHERE workspace_id = ? AND received_at < ? AND seq IN
       (SELECT seq FROM events WHERE workspace_id = ? ORDER BY seq LIMIT ?)`;
    return (await this.run(sql, [workspaceId, before, workspaceId, limit])).changed;
  }

  async list(q: EventQuery): Promise<EventRecord[]> {
    const where = ['workspace_id = ?', 'seq > ?'];
    const args: unknown[] = [q.workspaceId, q.after];
    if (q.services !== '*') {
      if (q.services.length === 0) return [];
      where.push(`service IN (${q.services.map(() => '?').join(', ')})`);
      args.push(...q.services);
    }
    if (q.service !== undefined) {
      where.push('service = ?');
      args.push(q.service);
    }
    if (q.type !== undefined) {
      where.push('type = ?');
      args.push(q.type);
    }
    if (q.before !== undefined) {
      where.push('seq < ?');
      args.push(q.before);
    }
    const sql = `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY seq${q.newestFirst ? ' DESC' : ''} LIMIT ?`;
    return (await this.run(sql, [...args, q.limit])).rows.map(eventOfRow);
  }
}

const EVENT_TABLES = (seq: string) => [
  `CREATE TABLE events (
     seq ${seq},
     id TEXT NOT NULL UNIQUE,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     service TEXT NOT NULL,
     type TEXT NOT NULL,
     upstream_id TEXT NOT NULL,
     record_id TEXT,
     occurred_at TEXT,
     received_at TEXT NOT NULL,
     payload TEXT NOT NULL,
     UNIQUE (workspace_id, service, upstream_id))`,
  'CREATE INDEX events_workspace_seq ON events(workspace_id, seq)',
  `CREATE TABLE event_deliveries (
     workspace_id TEXT NOT NULL,
     service TEXT NOT NULL,
     replay_key TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, service, replay_key))`,
  'CREATE INDEX event_deliveries_expiry ON event_deliveries(expires_at)',
  `CREATE TABLE event_secrets (
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     service TEXT NOT NULL,
     secret TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, service))`,
];

/** The migration of inbound events: the events, the replay keys of recent deliveries, the signing secrets. */
export const EVENTS_TABLES = {
  sqlite: EVENT_TABLES('INTEGER PRIMARY KEY AUTOINCREMENT'),
  postgres: EVENT_TABLES('BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY'),
};
