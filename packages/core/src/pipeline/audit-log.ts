import type { ConnectionAudit } from '../connections/credentials.js';
import { errorSummary } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AuditRecord, Store } from '../store/types.js';
import { type AuditDetail, Observers } from './observers.js';

/** A full queue is written at once instead of waiting for the timer. */
const AUDIT_BATCH = 500;

/**
 * The audit trail, written off the request path: records queue in memory and go to the store in batches, every
 * `flushMs` and whenever a request fills a batch. Flushes run one after another; a failed write is logged, never thrown.
 */
export class AuditLog implements ConnectionAudit {
  private queue: AuditRecord[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    flushMs: number,
    /** Told of every record as it is queued (metrics). */
    private readonly observers: Observers = new Observers(),
  ) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  /** The outcome of one invocation; `detail` goes to observers only. */
  request(record: AuditRecord, detail?: AuditDetail): void {
    this.queue.push(record);
    this.observers.audited(record, detail);
    if (this.queue.length >= AUDIT_BATCH) void this.flush();
  }

  /** An event outside an invocation (OAuth connect, token refresh): it takes no time of its own. */
  event(
    workspaceId: string,
    keyId: string | null,
    service: string,
    operation: string,
    protocol: AuditRecord['protocol'],
    status: number,
    code: string | null,
  ): void {
    const record: AuditRecord = {
      at: new Date().toISOString(),
      workspaceId,
      keyId,
      service,
      operation,
      protocol,
      status,
      code,
      durationMs: 0,
    };
    this.queue.push(record);
    this.observers.audited(record);
  }

  async flush(): Promise<void> {
    const batch = this.queue;
    if (batch.length === 0) return this.flushing;
    this.queue = [];
    this.flushing = this.flushing
      .then(() => this.store.appendAudit(batch))
      .catch((error) => this.logger.warn({ err: errorSummary(error), records: batch.length }, 'could not write audit records'));
    return this.flushing;
  }

  /** Stops the timer; records still queued are written by the next `flush`. */
  stop(): void {
    clearInterval(this.timer);
  }
}
