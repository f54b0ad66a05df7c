import type { ConnectionAudit } from '../connections/credentials.js';
import { errorSummary } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AuditRecord, Store } from '../store/types.js';
import { type AuditDetail, Observers } from './observers.js';

/** A full queue is written at once instead of waiting for the timer. */
const AUDIT_BATCH = 500;
/** Records kept in memory while the store cannot take them (about 300 bytes each); past it the oldest are dropped. */
export const AUDIT_HOLD_DEFAULT = 100_000;

/**
 * The audit trail, written off the request path: records queue in memory and go to the store in batches, every
 * `flushMs` and whenever a request fills a batch. Flushes run one after another; a failed write is never thrown: its
 * records are held (up to `holdLimit`, oldest dropped first with an error line) and written again at every flush
 * until the store takes them. Observers count held, written and dropped records.
 */
export class AuditLog implements ConnectionAudit {
  private queue: AuditRecord[] = [];
  /** Records a write failed for, oldest first: written before the queue at the next flush. */
  private held: AuditRecord[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    flushMs: number,
    /** Told of every record as it is queued (metrics). */
    private readonly observers: Observers = new Observers(),
    private readonly holdLimit: number = AUDIT_HOLD_DEFAULT,
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

  /** How many records wait for the store after a failed write. */
  get heldRecords(): number {
    return this.held.length;
  }

  async flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeOnce());
    return this.flushing;
  }

  private async writeOnce(): Promise<void> {
    const retried = this.held.length;
    const batch = retried > 0 ? [...this.held, ...this.queue] : this.queue;
    if (batch.length === 0) return;
    this.held = [];
    this.queue = [];
    try {
      await this.store.appendAudit(batch);
      this.observers.auditTrail({ written: batch.length });
      if (retried > 0) this.logger.info({ records: retried }, 'audit records held during a database outage are written');
    } catch (error) {
      const newlyHeld = batch.length - retried;
      const dropped = Math.max(0, batch.length - this.holdLimit);
      this.held = dropped > 0 ? batch.slice(dropped) : batch;
      this.observers.auditTrail({ held: newlyHeld, dropped });
      if (retried === 0)
        this.logger.warn({ err: errorSummary(error), records: batch.length }, 'could not write audit records: holding them');
      if (dropped > 0) {
        this.logger.error(
          { dropped, holdLimit: this.holdLimit },
          'audit records dropped: the hold is full and the database still refuses them',
        );
      }
    }
  }

  /** At close, after the last flush: records still held are lost; counted and said in an error line. */
  abandonHeld(): void {
    const dropped = this.held.length;
    if (dropped === 0) return;
    this.held = [];
    this.observers.auditTrail({ dropped });
    this.logger.error({ dropped }, 'audit records dropped: the database still refused them when the gateway stopped');
  }

  /** Stops the timer; records still queued are written by the next `flush`. */
  stop(): void {
    clearInterval(this.timer);
  }
}
