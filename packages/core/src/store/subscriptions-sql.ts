import type { Dialect } from './audit-sql.js';
import { type EventStatement, eventOfRow, runIn } from './events-sql.js';
import type { DbRow } from './rows.js';
import type { DeliveryAttemptRecord, QueuedDelivery, SubscriptionRecord, SubscriptionTable } from './subscription-types.js';

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function subscription(row: DbRow): SubscriptionRecord {
  return {
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    url: String(row.url),
    types: JSON.parse(String(row.types)),
    secret: String(row.secret),
    createdAt: String(row.created_at),
  };
}

/** A queue row, joined with its event (`e_`-less columns of `events`) when the event is still kept. */
function queued(row: DbRow): QueuedDelivery {
  return {
    subscriptionId: String(row.q_subscription),
    workspaceId: String(row.q_workspace),
    eventSeq: Number(row.q_seq),
    state: row.q_state === 'dead' ? 'dead' : 'pending',
    attempts: Number(row.q_attempts),
    failingSince: text(row.q_failing_since),
    retryAt: text(row.q_retry_at),
    ...(row.id === null || row.id === undefined ? {} : { event: eventOfRow(row) }),
  };
}

function attempt(row: DbRow): DeliveryAttemptRecord {
  return {
    subscriptionId: String(row.subscription_id),
    workspaceId: String(row.workspace_id),
    eventId: String(row.event_id),
    eventSeq: Number(row.event_seq),
    attempt: Number(row.attempt),
    at: String(row.at),
    status: row.status === null || row.status === undefined ? null : Number(row.status),
    error: text(row.error),
    durationMs: Number(row.duration_ms),
    outcome: String(row.outcome) as DeliveryAttemptRecord['outcome'],
  };
}

const QUEUED = `SELECT q.subscription_id AS q_subscription, q.workspace_id AS q_workspace, q.event_seq AS q_seq, q.state AS q_state,
   q.attempts AS q_attempts, q.failing_since AS q_failing_since, q.retry_at AS q_retry_at, e.*
   FROM event_deliveries_out q LEFT JOIN events e ON e.seq = q.event_seq`;

/** The lease check every write of the deliverer carries: it still holds the subscription's lease. */
const HOLDING = 'EXISTS (SELECT 1 FROM event_subscriptions s WHERE s.id = ? AND s.lease_owner = ?)';

/** Outbound subscriptions, their delivery queue and attempt log, in the SQL both databases share. */
export class SqlSubscriptionTable implements SubscriptionTable {
  constructor(
    private readonly dialect: Dialect,
    private readonly query: EventStatement,
  ) {}

  private run(sql: string, args: unknown[]) {
    return runIn(this.dialect, this.query, sql, args);
  }

  async create(r: SubscriptionRecord): Promise<void> {
    const sql = `INSERT INTO event_subscriptions (id, workspace_id, url, types, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)`;
    await this.run(sql, [r.id, r.workspaceId, r.url, JSON.stringify(r.types), r.secret, r.createdAt]);
  }

  async get(workspaceId: string, id: string): Promise<SubscriptionRecord | undefined> {
    const row = (await this.run('SELECT * FROM event_subscriptions WHERE workspace_id = ? AND id = ?', [workspaceId, id])).rows[0];
    return row ? subscription(row) : undefined;
  }

  async list(workspaceId: string): Promise<SubscriptionRecord[]> {
    const sql = 'SELECT * FROM event_subscriptions WHERE workspace_id = ? ORDER BY created_at, id';
    return (await this.run(sql, [workspaceId])).rows.map(subscription);
  }

  async all(): Promise<SubscriptionRecord[]> {
    return (await this.run('SELECT * FROM event_subscriptions ORDER BY workspace_id, created_at, id', [])).rows.map(subscription);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const gone = (await this.run('DELETE FROM event_subscriptions WHERE workspace_id = ? AND id = ?', [workspaceId, id])).changed > 0;
    if (gone) {
      await this.run('DELETE FROM event_deliveries_out WHERE subscription_id = ?', [id]);
      await this.run('DELETE FROM event_delivery_attempts WHERE subscription_id = ?', [id]);
    }
    return gone;
  }

  async swapSecret(id: string, secret: string, expected: string): Promise<boolean> {
    return (await this.run('UPDATE event_subscriptions SET secret = ? WHERE id = ? AND secret = ?', [secret, id, expected])).changed > 0;
  }

  async lease(id: string, owner: string, until: string, now: string): Promise<boolean> {
    const sql = `UPDATE event_subscriptions SET lease_owner = ?, lease_until = ?
       WHERE id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until <= ?)`;
    return (await this.run(sql, [owner, until, id, owner, now])).changed > 0;
  }

  async release(id: string, owner: string): Promise<void> {
    await this.run('UPDATE event_subscriptions SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?', [id, owner]);
  }

  async due(now: string, limit: number): Promise<string[]> {
    // the heads (oldest pending of each subscription) that are due: a later event waits behind a head retried later
    const sql = `SELECT q.subscription_id FROM event_deliveries_out q
       WHERE q.state = 'pending' AND (q.retry_at IS NULL OR q.retry_at <= ?) AND NOT EXISTS (SELECT 1 FROM event_deliveries_out p
         WHERE p.subscription_id = q.subscription_id AND p.state = 'pending' AND p.event_seq < q.event_seq)
       ORDER BY q.subscription_id LIMIT ?`;
    return (await this.run(sql, [now, limit])).rows.map((row) => String(row.subscription_id));
  }

  async head(id: string): Promise<QueuedDelivery | undefined> {
    const sql = `${QUEUED} WHERE q.subscription_id = ? AND q.state = 'pending' ORDER BY q.event_seq LIMIT 1`;
    const row = (await this.run(sql, [id])).rows[0];
    return row ? queued(row) : undefined;
  }

  async settle(d: QueuedDelivery, owner: string, a: DeliveryAttemptRecord, retryAt: string | null): Promise<boolean> {
    const where = `subscription_id = ? AND event_seq = ? AND state = 'pending' AND ${HOLDING}`;
    const key = [d.subscriptionId, d.eventSeq, d.subscriptionId, owner];
    const changed =
      a.outcome === 'delivered'
        ? (await this.run(`DELETE FROM event_deliveries_out WHERE ${where}`, key)).changed
        : (
            await this.run(
              `UPDATE event_deliveries_out SET state = ?, attempts = ?, failing_since = COALESCE(failing_since, ?), retry_at = ? WHERE ${where}`,
              [a.outcome === 'dead' ? 'dead' : 'pending', a.attempt, a.at, retryAt, ...key],
            )
          ).changed;
    if (changed === 0) return false;
    const sql = `INSERT INTO event_delivery_attempts
       (subscription_id, workspace_id, event_id, event_seq, attempt, at, status, error, duration_ms, outcome)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
    await this.run(sql, [
      a.subscriptionId,
      a.workspaceId,
      a.eventId,
      a.eventSeq,
      a.attempt,
      a.at,
      a.status,
      a.error,
      a.durationMs,
      a.outcome,
    ]);
    return true;
  }

  async drop(id: string, eventSeq: number): Promise<void> {
    await this.run('DELETE FROM event_deliveries_out WHERE subscription_id = ? AND event_seq = ?', [id, eventSeq]);
  }

  async trimLog(id: string, keep: number): Promise<void> {
    const sql = `DELETE FROM event_delivery_attempts WHERE subscription_id = ? AND id < (SELECT MIN(id) FROM
       (SELECT id FROM event_delivery_attempts WHERE subscription_id = ? ORDER BY id DESC LIMIT ?) kept)`;
    await this.run(sql, [id, id, keep]);
  }

  async attempts(id: string, limit: number): Promise<DeliveryAttemptRecord[]> {
    const sql = 'SELECT * FROM event_delivery_attempts WHERE subscription_id = ? ORDER BY id DESC LIMIT ?';
    return (await this.run(sql, [id, limit])).rows.map(attempt);
  }

  async deadLetters(id: string, limit: number): Promise<QueuedDelivery[]> {
    const sql = `${QUEUED} WHERE q.subscription_id = ? AND q.state = 'dead' ORDER BY q.event_seq LIMIT ?`;
    return (await this.run(sql, [id, limit])).rows.map(queued);
  }

  async redeliver(id: string, eventId?: string): Promise<number> {
    const one = eventId === undefined ? '' : ' AND event_seq IN (SELECT seq FROM events WHERE id = ?)';
    const sql = `UPDATE event_deliveries_out SET state = 'pending', attempts = 0, failing_since = NULL, retry_at = NULL
       WHERE subscription_id = ? AND state = 'dead'${one}`;
    return (await this.run(sql, eventId === undefined ? [id] : [id, eventId])).changed;
  }
}

const SUBSCRIPTION_TABLES = (serial: string) => [
  `CREATE TABLE event_subscriptions (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     url TEXT NOT NULL,
     types TEXT NOT NULL,
     secret TEXT NOT NULL,
     created_at TEXT NOT NULL,
     lease_owner TEXT,
     lease_until TEXT)`,
  'CREATE INDEX event_subscriptions_workspace ON event_subscriptions(workspace_id)',
  `CREATE TABLE event_deliveries_out (
     subscription_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     event_seq BIGINT NOT NULL,
     state TEXT NOT NULL,
     attempts INTEGER NOT NULL,
     failing_since TEXT,
     retry_at TEXT,
     PRIMARY KEY (subscription_id, event_seq))`,
  'CREATE INDEX event_deliveries_out_due ON event_deliveries_out(state, retry_at)',
  `CREATE TABLE event_delivery_attempts (
     id ${serial},
     subscription_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     event_id TEXT NOT NULL,
     event_seq BIGINT NOT NULL,
     attempt INTEGER NOT NULL,
     at TEXT NOT NULL,
     status INTEGER,
     error TEXT,
     duration_ms INTEGER NOT NULL,
     outcome TEXT NOT NULL)`,
  'CREATE INDEX event_delivery_attempts_subscription ON event_delivery_attempts(subscription_id, id)',
];

/** Queues each stored event for every subscription of its workspace, in the statement that stores it. */
const FAN_OUT = `INSERT INTO event_deliveries_out (subscription_id, workspace_id, event_seq, state, attempts)
   SELECT id, NEW.workspace_id, NEW.seq, 'pending', 0 FROM event_subscriptions WHERE workspace_id = NEW.workspace_id`;

/** The migration of outbound subscriptions: subscribers, the delivery queue (filled by a trigger), the attempt log. */
export const SUBSCRIPTIONS_TABLES = {
  sqlite: [
    ...SUBSCRIPTION_TABLES('INTEGER PRIMARY KEY AUTOINCREMENT'),
    `CREATE TRIGGER events_fan_out AFTER INSERT ON events BEGIN ${FAN_OUT}; END`,
  ],
  postgres: [
    ...SUBSCRIPTION_TABLES('BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY'),
    `CREATE FUNCTION events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${FAN_OUT}; RETURN NULL; END $$`,
    'CREATE TRIGGER events_fan_out AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_fan_out()',
  ],
};
