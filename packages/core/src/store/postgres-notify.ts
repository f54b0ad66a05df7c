import type pg from 'pg';
import type { Notification } from 'pg';
import { CHANGE_KINDS } from './changes.js';
import { loadPg } from './pg.js';
import type { ListenState } from './postgres-options.js';
import type { DbRow } from './rows.js';
import type { StoreChange } from './types.js';
import { numberPlaceholders, type Statement } from './workspace-sql.js';

/*
 * A dedicated LISTEN connection (opened on the store's first `onChange`) relays other processes' changes to the
 * store's listeners; the writing store reports its own writes synchronously and ignores their echo. Delivery holds
 * while the LISTEN connection is up: it reconnects after a drop (250 ms, doubling to 5 s) and then reports `'*'` for
 * every kind, since anything may have changed meanwhile. Caches fed by `onChange` must still expire after a bounded time.
 */

/** The channel every Portico store of a database notifies on; payloads say which schema they belong to. */
export const CHANGE_CHANNEL = 'portico_changes';

/** The NOTIFY payload: `o` tells a store its own echo apart, `s` the schema (the channel is database-wide). */
interface ChangePayload extends StoreChange {
  o: string;
  s: string;
}

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7900;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

/** The NOTIFY payload of a change written by the store `origin` in the schema `namespace`. */
export function changePayload(origin: string, namespace: string, kind: StoreChange['kind'], workspaceId: string, id: string): string {
  const payload = JSON.stringify({ o: origin, s: namespace, kind, workspaceId, id } satisfies ChangePayload);
  if (Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES) return payload;
  // Ids this long do not occur in practice; rather than fail the write, tell the others to drop that whole kind.
  return JSON.stringify({ o: origin, s: namespace, kind, workspaceId: '*', id: '*' } satisfies ChangePayload);
}

interface ChangeListenerOptions {
  connectionString: string;
  /** How long opening the connection may take, ms. */
  connectTimeoutMs: number;
  /** Shown in `pg_stat_activity`, with `:listen` added. */
  applicationName: string;
  /** The listening store's own id: its own notifications come back too and are ignored. */
  origin: string;
  /** The store's schema name: notifications for other schemas are ignored. */
  namespace: string;
  /** Reports one change to the store's listeners. */
  emit: (change: StoreChange) => void;
  /** Told of each loss of the LISTEN connection and each return. */
  onState?: (state: ListenState) => void;
}

/**
 * The dedicated LISTEN connection of a PostgresStore: relays other processes' changes to `emit`. It reconnects after a
 * drop (250 ms, doubling to 5 s) and then reports `'*'` for every kind, since anything may have changed meanwhile.
 */
export class ChangeListener {
  private started = false;
  private client: pg.Client | undefined;
  private listening = false;
  private listenedBefore = false;
  private timer: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_MIN_MS;
  private waiters: Array<() => void> = [];
  private closed = false;
  /** When the connection that was up went down (ms since the epoch). */
  private downSince: number | undefined;

  constructor(private readonly options: ChangeListenerOptions) {}

  /** Opens the LISTEN connection, once. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.connect();
  }

  /** Whether the LISTEN connection is up now (false before it first opened, while it reconnects, once closed). */
  get up(): boolean {
    return this.listening;
  }

  /** Resolves once the LISTEN connection is up (starting it if needed). */
  whenListening(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store is closed'));
    this.start();
    if (this.listening) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops listening for good; resolves when the connection has ended. */
  close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    return client ? client.end().catch(() => {}) : Promise.resolve();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { connectionString, applicationName, connectTimeoutMs } = this.options;
    const client = new (loadPg().Client)({
      connectionString,
      application_name: `${applicationName}:listen`,
      connectionTimeoutMillis: connectTimeoutMs,
    });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error): void => {
      if (lost) return;
      lost = true;
      if (this.client === client) {
        this.client = undefined;
        if (this.listening && !this.closed) {
          this.downSince = Date.now();
          const code = (error as { code?: string } | undefined)?.code;
          this.options.onState?.({ up: false, reason: code ?? (error ? error.message.slice(0, 200) : 'connection ended') });
        }
        this.listening = false;
      }
      client.end().catch(() => {});
      this.scheduleReconnect();
    };
    // A dropped connection shows as 'error' and/or 'end'; either means: reconnect.
    client.on('error', (error) => onLost(error));
    client.on('end', () => onLost());
    client.on('notification', (message) => this.onNotification(message));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (lost || this.closed || this.client !== client) {
      await client.end().catch(() => {});
      return;
    }
    this.listening = true;
    this.reconnectDelay = RECONNECT_MIN_MS;
    if (this.downSince !== undefined) this.options.onState?.({ up: true, downMs: Date.now() - this.downSince });
    this.downSince = undefined;
    // Changes made while we were not listening were never delivered: tell caches to forget everything.
    if (this.listenedBefore) for (const kind of CHANGE_KINDS) this.options.emit({ kind, workspaceId: '*', id: '*' });
    this.listenedBefore = true;
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, RECONNECT_MAX_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, delay);
    // The retry alone must not keep a process alive that has nothing else to do.
    this.timer.unref();
  }

  private onNotification(message: Notification): void {
    if (message.channel !== CHANGE_CHANNEL || message.payload === undefined) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message.payload);
    } catch {
      return;
    }
    if (!isChangePayload(payload) || payload.o === this.options.origin || payload.s !== this.options.namespace) return;
    this.options.emit({ kind: payload.kind, workspaceId: payload.workspaceId, id: payload.id });
  }
}

function isChangePayload(value: unknown): value is ChangePayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.o === 'string' &&
    typeof v.s === 'string' &&
    typeof v.workspaceId === 'string' &&
    typeof v.id === 'string' &&
    CHANGE_KINDS.some((kind) => kind === v.kind)
  );
}

/**
 * `write` (`?` placeholders, no RETURNING) as one PostgreSQL statement that returns its rows (`RETURNING *`) and
 * notifies `payload` when it returned any: the notification is delivered if and only if the write commits.
 */
export function notifying(write: Statement, payload: string): Statement {
  return {
    sql: `WITH w AS (${numberPlaceholders(write.sql)} RETURNING *) SELECT w.*, pg_notify('${CHANGE_CHANNEL}', $${write.args.length + 1}) FROM w`,
    args: [...write.args, payload],
  };
}

/**
 * `before`, then `write` with its notification, in one transaction: the notification is delivered if and only if the
 * write commits. Returns the written rows and how many rows each `before` statement changed.
 */
export async function writeAndNotify(
  pool: pg.Pool,
  before: readonly Statement[],
  write: Statement,
  payload: string,
): Promise<{ rows: DbRow[]; counts: number[] }> {
  const last = notifying(write, payload);
  const client = await pool.connect();
  const counts: number[] = [];
  try {
    await client.query('BEGIN');
    for (const s of before) counts.push((await client.query(numberPlaceholders(s.sql), s.args)).rowCount ?? 0);
    const rows = (await client.query<DbRow>(last.sql, last.args)).rows;
    await client.query('COMMIT');
    return { rows, counts };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
