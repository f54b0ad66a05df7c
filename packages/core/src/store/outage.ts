import { errorSummary, GatewayError } from '../errors.js';
import { type Logger, silentLogger } from '../logger.js';

/** How long, by default, what is in memory keeps serving after the database stopped answering (PORTICO_DEGRADED_SECONDS). */
export const DEFAULT_DEGRADED_MS = 300_000;
/** One log line per kind of failure per this interval, with how many were not logged. */
export const OUTAGE_LOG_INTERVAL_MS = 10_000;
/** While the database is down, memory answers without asking it; one read per this interval checks whether it is back. */
const RECHECK_MS = 1_000;
/** `Retry-After` of the 503 a call gets when it needs the database and memory cannot answer. */
const RETRY_AFTER_S = 5;

/** Error codes of a database that does not answer (Node's sockets, pg's SQLSTATE classes 08 and 57P0x). */
const DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const DOWN_MESSAGES = [/connection terminated/i, /timeout exceeded when trying to connect/i, /connection (?:was )?(?:closed|ended)/i];

/** Whether `error` says the database does not answer (rather than a mistake in a query, which stays a 500). */
export function isDatabaseDown(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (DOWN_CODES.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code))) return true;
    if (typeof message === 'string' && DOWN_MESSAGES.some((pattern) => pattern.test(message))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseDown)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Degraded mode: while the database does not answer, what the gateway last read — API keys, OAuth access tokens,
 * integration settings, tool sets, connection credentials — keeps serving from memory for `graceMs` after the first
 * failed read; what memory cannot answer (an unknown key, a setting never read) gets 503 `unavailable` with
 * `Retry-After`. Failures are logged once per kind per OUTAGE_LOG_INTERVAL_MS, never a stack per request.
 */
export class DatabaseOutage {
  private downSince: number | undefined;
  private lastCheck = 0;
  private readonly said = new Map<string, { at: number; unsaid: number }>();

  constructor(
    readonly graceMs: number = DEFAULT_DEGRADED_MS,
    private readonly logger: Logger = silentLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Since when the database has not answered (epoch ms), or undefined while it answers. */
  get since(): number | undefined {
    return this.downSince;
  }

  /** Whether memory may still answer for the database (it is down, and for no longer than the grace). */
  private withinGrace(): boolean {
    return this.downSince !== undefined && this.now() - this.downSince <= this.graceMs;
  }

  /**
   * A read of `kind` through memory: `read` asks the database; `remembered` is what memory holds (undefined: nothing).
   * While the database is known down (and within the grace), memory answers without asking, but for one read a second
   * that checks whether it is back. A read that fails because the database does not answer is answered from memory,
   * or becomes 503 `unavailable`. Any other failure is thrown as it is.
   */
  async read<T>(kind: string, read: () => Promise<T>, remembered: () => { value: T } | undefined): Promise<T> {
    if (this.downSince !== undefined && this.withinGrace() && this.now() - this.lastCheck < RECHECK_MS) {
      const memory = remembered();
      if (memory) return memory.value;
    }
    this.lastCheck = this.now();
    let value: T;
    try {
      value = await read();
    } catch (error) {
      if (!isDatabaseDown(error)) throw error;
      this.down(kind, error);
      const memory = this.withinGrace() ? remembered() : undefined;
      if (memory) return memory.value;
      throw this.unavailable(kind);
    }
    this.up();
    return value;
  }

  /** A cache entry's value while it is fresh; else `load` through `read`, with the entry (expired) as memory. */
  through<T>(kind: string, entry: { value: T; expires: number } | undefined, load: () => Promise<T>): T | Promise<T> {
    return entry && entry.expires > this.now() ? entry.value : this.read(kind, load, () => entry && { value: entry.value });
  }

  /** The database did not answer a read of `kind`: the outage starts (if it had not), said once per kind per interval. */
  down(kind: string, error: unknown): void {
    const now = this.now();
    if (this.downSince === undefined) {
      this.downSince = now;
      this.logger.warn(
        { graceSeconds: Math.round(this.graceMs / 1000) },
        'the database does not answer: serving known keys, tokens and settings from memory (degraded mode)',
      );
    }
    const said = this.said.get(kind);
    if (said && now - said.at < OUTAGE_LOG_INTERVAL_MS) {
      said.unsaid++;
      return;
    }
    this.logger.warn(
      { kind, err: errorSummary(error), notLogged: said?.unsaid ?? 0, downSeconds: Math.round((now - this.downSince) / 1000) },
      'database unavailable',
    );
    this.said.set(kind, { at: now, unsaid: 0 });
  }

  /** A read succeeded: the outage (if any) is over. */
  up(): void {
    if (this.downSince === undefined) return;
    this.logger.info({ downSeconds: Math.round((this.now() - this.downSince) / 1000) }, 'the database answers again: degraded mode ends');
    this.downSince = undefined;
    this.said.clear();
  }

  /** The 503 of a call that needs the database while memory cannot answer it. */
  unavailable(kind: string): GatewayError {
    const over = this.downSince !== undefined && !this.withinGrace();
    return new GatewayError(
      'unavailable',
      over
        ? `The database has not answered for longer than the gateway serves from memory (${kind}): retry later`
        : `The database does not answer and this call needs it (${kind}): retry later`,
      { retryAfter: RETRY_AFTER_S },
    );
  }
}
