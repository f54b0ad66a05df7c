import { randomBytes } from 'node:crypto';
import { subscriptionSecretAad } from '../connections/connection-keys.js';
import type { KeyRing } from '../connections/key-ring.js';
import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { DeliveryAttemptRecord, SubscriptionRecord } from '../store/subscription-types.js';
import type { Store } from '../store/types.js';
import { SubscriberEgress, type SubscriberEgressOptions } from '../upstream/subscriber-egress.js';
import { type DeliverySettings, eventView, OutboundDelivery } from './outbound-delivery.js';

/** How many subscriptions a workspace may have, and how many types one may name. */
const MAX_SUBSCRIPTIONS = 50;
const MAX_TYPES = 50;
/** `*`, `{service}.*`, or an event type (`call.completed`). */
const TYPE_PATTERN = /^(\*|[a-z][a-z0-9_-]{0,63}\.\*|[a-z][a-z0-9_]*(\.[a-z0-9_]+)+)$/;
const SUBSCRIPTION_ID = /^sub_[A-Za-z0-9_-]{1,64}$/;

/** A subscription as the admin API shows it: never its secret. */
export interface SubscriptionView {
  id: string;
  url: string;
  types: string[];
  created_at: string;
}

const view = (s: SubscriptionRecord): SubscriptionView => ({ id: s.id, url: s.url, types: s.types, created_at: s.createdAt });

const attemptView = (a: DeliveryAttemptRecord) => ({
  event_id: a.eventId,
  attempt: a.attempt,
  at: a.at,
  status: a.status,
  error: a.error,
  duration_ms: a.durationMs,
  outcome: a.outcome,
});

/**
 * Outbound event subscriptions (docs/adr/0041-outbound-subscriptions.md): a workspace's subscribers, each with a
 * secret the gateway makes (shown once, sealed at rest), their delivery log and dead letters; and the delivery loop.
 */
export class OutboundEvents {
  private egressPolicy = new SubscriberEgress();
  readonly delivery: OutboundDelivery;

  constructor(
    private readonly store: Store,
    private readonly keys: KeyRing,
    logger: Logger,
  ) {
    this.delivery = new OutboundDelivery(store, keys, logger, () => this.egressPolicy);
  }

  /** Sets where deliveries may go and how they are retried (before `start`). */
  configure(options: { egress?: SubscriberEgressOptions; delivery?: Partial<DeliverySettings> }): void {
    if (options.egress) this.egressPolicy = new SubscriberEgress(options.egress);
    this.delivery.settings = { ...this.delivery.settings, ...options.delivery };
  }

  /** Subscribes `url` to the workspace's events of `types`; answers the subscription with its secret, this once. */
  async subscribe(
    workspaceId: string,
    input: { url?: unknown; types?: unknown },
    now = new Date(),
  ): Promise<SubscriptionView & { secret: string }> {
    const { url, types } = input;
    if (typeof url !== 'string' || url.length > 2048) throw new GatewayError('bad_request', 'url must be a URL of at most 2048 characters');
    const problem = this.egressPolicy.urlProblem(url);
    if (problem) throw new GatewayError('bad_request', problem);
    if (!Array.isArray(types) || types.length === 0 || types.length > MAX_TYPES) {
      throw new GatewayError('bad_request', `types must be a list of 1 to ${MAX_TYPES} event types, {service}.* or *`);
    }
    for (const t of types) {
      if (typeof t !== 'string' || t.length > 128 || !TYPE_PATTERN.test(t)) {
        throw new GatewayError(
          'bad_request',
          `types: '${String(t).slice(0, 128)}' is not an event type (call.completed), {service}.* or *`,
        );
      }
    }
    if ((await this.store.subscriptions.list(workspaceId)).length >= MAX_SUBSCRIPTIONS) {
      throw new GatewayError('bad_request', `A workspace has at most ${MAX_SUBSCRIPTIONS} subscriptions`);
    }
    const id = `sub_${randomBytes(12).toString('base64url')}`;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const record: SubscriptionRecord = {
      id,
      workspaceId,
      url,
      types: [...new Set(types as string[])],
      secret: this.keys.current.encrypt(secret, subscriptionSecretAad(workspaceId, id)),
      createdAt: now.toISOString(),
    };
    await this.store.subscriptions.create(record);
    return { ...view(record), secret };
  }

  async list(workspaceId: string): Promise<SubscriptionView[]> {
    return (await this.store.subscriptions.list(workspaceId)).map(view);
  }

  private async find(workspaceId: string, id: string): Promise<SubscriptionRecord> {
    const found = SUBSCRIPTION_ID.test(id) ? await this.store.subscriptions.get(workspaceId, id) : undefined;
    if (!found) throw new GatewayError('not_found', `No subscription '${id.slice(0, 80)}' in this workspace`);
    return found;
  }

  async unsubscribe(workspaceId: string, id: string): Promise<void> {
    await this.find(workspaceId, id);
    await this.store.subscriptions.delete(workspaceId, id);
  }

  /**
   * The subscription's delivery log (newest first), its dead letters (oldest first), and the next delivery in its
   * queue (the event, its failed attempts so far, when it is tried again; null when nothing is queued).
   */
  async deliveries(workspaceId: string, id: string, limit = 100) {
    const sub = await this.find(workspaceId, id);
    const attempts = await this.store.subscriptions.attempts(sub.id, limit);
    const dead = await this.store.subscriptions.deadLetters(sub.id, limit);
    const next = await this.store.subscriptions.head(sub.id);
    return {
      subscription: view(sub),
      next_delivery: next
        ? { event_id: next.event?.id ?? null, attempts: next.attempts, failing_since: next.failingSince, retry_at: next.retryAt }
        : null,
      attempts: attempts.map(attemptView),
      dead_letters: dead.map((d) => ({ attempts: d.attempts, failing_since: d.failingSince, event: d.event ? eventView(d.event) : null })),
    };
  }

  /** Queues the subscription's dead letters again (or the one of `eventId`); how many. */
  async redeliver(workspaceId: string, id: string, eventId?: unknown): Promise<{ queued: number }> {
    const sub = await this.find(workspaceId, id);
    if (eventId !== undefined && (typeof eventId !== 'string' || !/^evt_[A-Za-z0-9_-]{1,64}$/.test(eventId))) {
      throw new GatewayError('bad_request', 'event_id must be an event id (evt_…)');
    }
    const queued = await this.store.subscriptions.redeliver(sub.id, eventId);
    if (eventId !== undefined && queued === 0) throw new GatewayError('not_found', `No dead letter of ${eventId} for this subscription`);
    if (queued > 0) this.delivery.wake();
    return { queued };
  }
}
