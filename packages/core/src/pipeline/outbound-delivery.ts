import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { subscriptionSecretAad } from '../connections/connection-keys.js';
import type { KeyRing } from '../connections/key-ring.js';
import { errorSummary } from '../errors.js';
import type { Logger } from '../logger.js';
import type { EventRecord } from '../store/event-types.js';
import type { QueuedDelivery, SubscriptionRecord } from '../store/subscription-types.js';
import type { Store } from '../store/types.js';
import { EGRESS_REFUSED } from '../upstream/egress.js';
import type { SubscriberEgress } from '../upstream/subscriber-egress.js';

/** How deliveries are made and retried; every duration in milliseconds. */
export interface DeliverySettings {
  /** Each delivery request's time limit. */
  timeoutMs: number;
  /** The wait after the first failure, doubling after each one up to `retryMaxMs`. */
  retryFirstMs: number;
  retryMaxMs: number;
  /** How long an event is retried from its first failure before it becomes a dead letter. */
  retryForMs: number;
  /** How often the queue is looked at besides when an event is stored here (events stored by other instances). */
  pollMs: number;
}

export const DELIVERY_DEFAULTS: DeliverySettings = {
  timeoutMs: 10_000,
  retryFirstMs: 5_000,
  retryMaxMs: 3_600_000,
  retryForMs: 86_400_000,
  pollMs: 5_000,
};

/** How many subscriptions one instance delivers to at once, and how many attempts the log keeps per subscription. */
const CONCURRENCY = 8;
const LOG_KEPT = 1_000;

/** One event as subscribers and readers see it (`GET /api/v1/events`, `list_events`, a delivery's `data`). */
export function eventView(e: EventRecord) {
  return {
    id: e.id,
    service: e.service,
    type: e.type,
    record_id: e.recordId,
    occurred_at: e.occurredAt,
    received_at: e.receivedAt,
    /** Pass as `since` to read the events received after this one. */
    cursor: String(e.seq),
    payload: e.payload,
  };
}

/** Whether a subscription's types take the event: `*`, `{service}.*`, or the exact type. */
export function takes(types: readonly string[], e: EventRecord): boolean {
  return types.some((t) => t === '*' || t === e.type || (t.endsWith('.*') && t.slice(0, -2) === e.service));
}

interface Answer {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * The delivery loop (docs/adr/0041-outbound-subscriptions.md): for each subscription with a delivery due, it takes the
 * subscription's lease (one deliverer across instances), sends the oldest pending event signed per Standard Webhooks,
 * and settles it (delivered, retried later, or a dead letter) before the next: one delivery in flight per subscription.
 */
export class OutboundDelivery {
  settings: DeliverySettings = { ...DELIVERY_DEFAULTS };
  private readonly owner = randomUUID();
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private started = false;
  private stopping = false;
  /** The queue could not be read at the last poll (logged once until it can be again). */
  private queueUnreadable = false;

  constructor(
    private readonly store: Store,
    private readonly keys: KeyRing,
    private readonly logger: Logger,
    private readonly egress: () => SubscriberEgress,
  ) {}

  /** Starts delivering: now, at every `pollMs`, and whenever `wake` is called. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.timer = setInterval(() => this.wake(), this.settings.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks at the queue soon (an event was stored, or a retry is due). */
  wake(delayMs = 0): void {
    if (!this.started || this.stopping) return;
    const timer = setTimeout(() => void this.tick(), delayMs);
    timer.unref();
    if (delayMs === 0) {
      if (this.soon) clearTimeout(this.soon);
      this.soon = timer;
    }
  }

  /** Stops taking new deliveries, lets those in flight finish (each within its timeout) and gives their leases up. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    clearInterval(this.timer);
    clearTimeout(this.soon);
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private async tick(): Promise<void> {
    if (this.stopping) return;
    let due: string[];
    try {
      due = await this.store.subscriptions.due(new Date().toISOString(), 100);
    } catch (error) {
      // once per outage, not at every poll (a database down for an hour would otherwise fill the log)
      if (!this.queueUnreadable) {
        this.logger.warn({ err: errorSummary(error) }, 'could not read the event delivery queue; trying again at each poll');
      }
      this.queueUnreadable = true;
      return;
    }
    if (this.queueUnreadable) this.logger.info({}, 'the event delivery queue can be read again: delivering');
    this.queueUnreadable = false;
    for (const id of this.stopping ? [] : due) {
      if (this.running.has(id) || this.running.size >= CONCURRENCY) continue;
      const work = this.work(id)
        .catch((error: unknown) =>
          this.logger.warn({ err: errorSummary(error), subscription: id }, 'event delivery interrupted; trying again'),
        )
        .finally(() => {
          this.running.delete(id);
          this.wake(); // the next subscription waiting for a slot, or more work that came in meanwhile
        });
      this.running.set(id, work);
    }
  }

  /** Delivers a subscription's due events in order while this instance holds its lease. */
  private async work(id: string): Promise<void> {
    const leaseMs = Math.max(30_000, this.settings.timeoutMs * 3);
    try {
      while (!this.stopping) {
        const now = Date.now();
        if (!(await this.store.subscriptions.lease(id, this.owner, new Date(now + leaseMs).toISOString(), new Date(now).toISOString())))
          return;
        const head = await this.store.subscriptions.head(id);
        if (!head) return;
        if (head.retryAt !== null && Date.parse(head.retryAt) > now) {
          this.wake(Date.parse(head.retryAt) - now);
          return;
        }
        const sub = await this.store.subscriptions.get(head.workspaceId, id);
        if (!sub) return;
        if (!head.event || !takes(sub.types, head.event)) {
          await this.store.subscriptions.drop(id, head.eventSeq); // no longer kept (retention), or not of its types
          continue;
        }
        await this.attempt(sub, head, head.event);
      }
    } finally {
      await this.store.subscriptions.release(id, this.owner);
    }
  }

  private async attempt(sub: SubscriptionRecord, head: QueuedDelivery, event: EventRecord): Promise<void> {
    const at = new Date();
    const answer = await this.send(sub, event, at);
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    const n = head.attempts + 1;
    const failingSince = head.failingSince ? Date.parse(head.failingSince) : at.getTime();
    const { retryFirstMs, retryMaxMs, retryForMs } = this.settings;
    const outcome = ok ? 'delivered' : at.getTime() - failingSince >= retryForMs ? 'dead' : 'failed';
    const wait = Math.min(retryMaxMs, retryFirstMs * 2 ** Math.min(n - 1, 30));
    const retryAt = outcome === 'failed' ? new Date(at.getTime() + wait).toISOString() : null;
    const record = {
      subscriptionId: sub.id,
      workspaceId: sub.workspaceId,
      eventId: event.id,
      eventSeq: event.seq,
      attempt: n,
      at: at.toISOString(),
      ...answer,
      outcome,
    } as const;
    const settled = await this.store.subscriptions.settle(head, this.owner, record, retryAt);
    const fields = { workspace: sub.workspaceId, subscription: sub.id, event: event.id, attempt: n, status: answer.status };
    if (outcome === 'dead') this.logger.warn({ ...fields, error: answer.error }, 'event delivery given up: a dead letter');
    else if (outcome === 'failed') this.logger.info({ ...fields, error: answer.error, retry_at: retryAt }, 'event delivery failed');
    if (!settled) this.logger.warn(fields, 'event delivery lease lost meanwhile; the instance holding it delivers again');
    // about one attempt in 50 of each subscription trims its log: no counter per subscription to keep
    if (Math.random() < 1 / 50) await this.store.subscriptions.trimLog(sub.id, LOG_KEPT);
  }

  /** One signed POST of the event to the subscriber, within the timeout; its status or why none came. */
  private send(sub: SubscriptionRecord, event: EventRecord, at: Date): Promise<Answer> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): Answer => ({
      status,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    const egress = this.egress();
    const problem = egress.urlProblem(sub.url); // IP literals never reach `lookup`; and a URL stored before the rule
    if (problem) return Promise.resolve(done(null, problem));
    let secret: string;
    try {
      secret = this.keys.for(sub.secret).decrypt(sub.secret, subscriptionSecretAad(sub.workspaceId, sub.id));
    } catch (error) {
      return Promise.resolve(done(null, `the signing secret could not be opened: ${errorSummary(error)}`));
    }
    const body = JSON.stringify({ type: event.type, timestamp: event.receivedAt, data: eventView(event) });
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Portico-Webhooks',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(event.id, at, body),
    };
    const url = new URL(sub.url);
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const timeoutMs = this.settings.timeoutMs;
    return new Promise<Answer>((resolve) => {
      const req = request(url, { method: 'POST', headers, lookup: egress.lookup, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
        res.resume(); // the answer's body is not read: only its status counts
        res.on('end', () =>
          resolve(done(res.statusCode ?? null, res.statusCode && res.statusCode < 300 ? null : `HTTP ${res.statusCode}`)),
        );
        res.on('close', () => resolve(done(res.statusCode ?? null, `HTTP ${res.statusCode}, the answer broke off`)));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.name === 'AbortError' || error.name === 'TimeoutError') resolve(done(null, `no answer within ${timeoutMs} ms`));
        else if (error.code === EGRESS_REFUSED) resolve(done(null, error.message));
        else resolve(done(null, error.code ? `${error.code}: ${error.message}`.slice(0, 300) : errorSummary(error)));
      });
      req.end(body);
    });
  }
}
