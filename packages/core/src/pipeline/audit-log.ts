import type { SpanContext } from '@opentelemetry/api';
import type { ConnectionAudit } from '../connections/credentials.js';
import { errorSummary } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AuditRecord, Store } from '../store/types.js';
import { currentSpanContext, storeSpan, tracingOn } from '../upstream/spans.js';
import type { AuditSpool } from './audit-spool.js';
import { type AuditDetail, Observers } from './observers.js';

/** A full queue is written at once instead of waiting for the timer. */
const AUDIT_BATCH = 500;
/** Requests an audit batch's span links to, at most (a span's links are bounded: 128 by the SDK's default). */
const MAX_LINKS = 128;
/** Records kept in memory while the store cannot take them (about 300 bytes each); past it the oldest are dropped. */
export const AUDIT_HOLD_DEFAULT = 100_000;
/** With nothing new to write, how often records on disk are tried again while the store refuses them. */
const SPOOL_RETRY_MS = 5_000;

/** Where else the audit trail goes, and where it waits when the store refuses it. */
export interface AuditLogOptions {
  /** Records kept in memory when they can be kept nowhere else; past it the oldest are dropped. */
  holdLimit?: number;
  /** Records the store refused wait on disk here (bounded), and survive a restart; without it, in memory. */
  spool?: AuditSpool;
  /** Told of every record as it is recorded, before the store sees it (an export to a SIEM); must not throw. */
  exporter?: (record: AuditRecord) => void;
}

/**
 * The audit trail, written off the request path: records queue in memory and go to the store in batches, every
 * `flushMs` and whenever a request fills a batch. Flushes run one after another; a failed write is never thrown: its
 * records are held — on disk when a spool is configured (bounded by its size; what it held at a stop is written by the
 * next start), else in memory (up to `holdLimit`, oldest dropped first) — and written again at every flush until the
 * store takes them. A drop is an error line. Observers count held, written and dropped records.
 */
export class AuditLog implements ConnectionAudit {
  private queue: AuditRecord[] = [];
  /** The spans of the requests whose records are queued (only while spans are recorded): the batch's write links to them. */
  private queueSpans: SpanContext[] = [];
  /** Records a write failed for, oldest first: written before the queue at the next flush. */
  private held: AuditRecord[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly holdLimit: number;
  private readonly spool: AuditSpool | undefined;
  private readonly exporter: ((record: AuditRecord) => void) | undefined;
  /** Whether the spool may hold records: at start (a previous run may have left some) and after each failed write. */
  private spoolPending = true;
  private lastDrainAt = 0;
  /** The last write was refused: said once in a warning line, not at every flush of the outage. */
  private refusing = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    flushMs: number,
    /** Told of every record as it is queued (metrics). */
    private readonly observers: Observers = new Observers(),
    options: AuditLogOptions | number = {},
  ) {
    const settings = typeof options === 'number' ? { holdLimit: options } : options;
    this.holdLimit = settings.holdLimit ?? AUDIT_HOLD_DEFAULT;
    this.spool = settings.spool;
    this.exporter = settings.exporter;
    this.timer = setInterval(() => void this.flush({ spoolBackoff: true }), flushMs);
    this.timer.unref();
  }

  /** The outcome of one invocation; `detail` goes to observers only. */
  request(record: AuditRecord, detail?: AuditDetail): void {
    this.queue.push(record);
    if (tracingOn()) {
      const span = currentSpanContext();
      if (span && this.queueSpans.length < MAX_LINKS) this.queueSpans.push(span);
    }
    this.observers.audited(record, detail);
    this.exporter?.(record);
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
      clientAddress: null, // no request of a caller made it
    };
    this.queue.push(record);
    this.observers.audited(record);
    this.exporter?.(record);
  }

  /** How many records wait for the store after a failed write. */
  get heldRecords(): number {
    return this.held.length;
  }

  /**
   * Writes what waits. Records on disk are tried every time, except by the timer while the store refuses writes and
   * nothing new came (then every few seconds: a large spool is not re-read every second of an outage).
   */
  async flush(options: { spoolBackoff?: boolean } = {}): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeOnce(options.spoolBackoff === true));
    return this.flushing;
  }

  private async writeOnce(spoolBackoff: boolean): Promise<void> {
    const retried = this.held.length;
    const batch = retried > 0 ? [...this.held, ...this.queue] : this.queue;
    const links = this.queueSpans;
    this.held = [];
    this.queue = [];
    this.queueSpans = [];
    let storeUp: boolean | undefined;
    if (batch.length > 0) {
      try {
        await storeSpan('audit write', () => this.store.appendAudit(batch), links);
        storeUp = true;
        this.refusing = false;
        this.observers.auditTrail({ written: batch.length });
        if (retried > 0) this.logger.info({ records: retried }, 'audit records held during a database outage are written');
      } catch (error) {
        storeUp = false;
        if (!this.refusing)
          this.logger.warn(
            { err: errorSummary(error), records: batch.length, ...(this.spool ? { dir: this.spool.dir } : {}) },
            'could not write audit records: holding them',
          );
        this.refusing = true;
        await this.hold(batch, batch.length - retried);
      }
    }
    // What the spool holds goes once the store takes writes again (or, with nothing new to write, is tried now and
    // then): after the newest records, each keeping the time of its call.
    if (
      this.spool &&
      this.spoolPending &&
      storeUp !== false &&
      (storeUp || !spoolBackoff || Date.now() - this.lastDrainAt >= SPOOL_RETRY_MS)
    ) {
      await this.drainSpool(this.spool);
    }
  }

  private async hold(batch: AuditRecord[], newlyHeld: number): Promise<void> {
    if (this.spool && (await this.holdOnDisk(this.spool, batch, newlyHeld))) return;
    const dropped = Math.max(0, batch.length - this.holdLimit);
    this.held = dropped > 0 ? batch.slice(dropped) : batch;
    this.observers.auditTrail({ held: newlyHeld, dropped });
    if (dropped > 0) {
      this.logger.error(
        { dropped, holdLimit: this.holdLimit },
        'audit records dropped: the hold is full and the database still refuses them',
      );
    }
  }

  private async drainSpool(spool: AuditSpool): Promise<void> {
    this.lastDrainAt = Date.now();
    try {
      const written = await spool.drain((records) => this.store.appendAudit(records), AUDIT_BATCH);
      this.spoolPending = false;
      if (written === 0) return;
      this.observers.auditTrail({ written });
      this.logger.info({ records: written, dir: spool.dir }, 'audit records held on disk during a database outage are written');
    } catch {
      // still refused: the records stay on disk for the next attempt
    }
  }

  /** Appends records the store refused to the spool; false if the disk failed too (then they are held in memory). */
  private async holdOnDisk(spool: AuditSpool, batch: AuditRecord[], newlyHeld: number): Promise<boolean> {
    try {
      const refused = await spool.append(batch);
      this.spoolPending = true;
      this.observers.auditTrail({ held: Math.max(0, newlyHeld - refused), dropped: refused });
      if (refused > 0) {
        this.logger.error(
          { dropped: refused, dir: spool.dir },
          'audit records dropped: the spool on disk is full and the database still refuses them',
        );
      }
      return true;
    } catch (error) {
      this.logger.error({ err: errorSummary(error), dir: spool.dir }, 'could not hold audit records on disk: holding them in memory');
      return false;
    }
  }

  /**
   * At close, after the last flush: records held in memory are lost (counted, and said in an error line); records on
   * disk stay there for the next start, which writes them (said in a warning line).
   */
  async abandonHeld(): Promise<void> {
    const dropped = this.held.length;
    if (dropped > 0) {
      this.held = [];
      this.observers.auditTrail({ dropped });
      this.logger.error({ dropped }, 'audit records dropped: the database still refused them when the gateway stopped');
    }
    if (this.spool && this.spoolPending) {
      await this.spool.release().catch(() => {});
      const waiting = await this.spool.count().catch(() => 0);
      if (waiting > 0)
        this.logger.warn(
          { records: waiting, dir: this.spool.dir },
          'audit records stay on disk: the next start writes them to the database',
        );
    }
  }

  /** Stops the timer; records still queued are written by the next `flush`. */
  stop(): void {
    clearInterval(this.timer);
  }
}
