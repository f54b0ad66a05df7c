import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eventSecretAad, registrationSecretAad } from '../connections/connection-keys.js';
import type { KeyRing } from '../connections/key-ring.js';
import type { Handshake, InboundDelivery, NormalisedEvent, PluginEvents } from '../contract/events.js';
import { assertInput, INPUT_LIMITS } from '../contract/input-limits.js';
import type { Registry } from '../contract/registry.js';
import { errorSummary, GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { EventQuery, EventRecord } from '../store/event-types.js';
import type { RegistrationKey, RegistrationRecord } from '../store/registration-types.js';
import type { Store } from '../store/types.js';
import { OutboundEvents } from './outbound-events.js';
import { setupDigest, topicOfDelivery } from './webhook-registrations.js';

/** What a delivery is answered with when it was accepted: the handshake's answer, or what was stored. */
export type DeliveryAnswer = Readonly<Record<string, unknown>>;
/** The answer with the headers an application expects back (Clio's `X-Hook-Secret`). */
export interface DeliveryReply {
  body: DeliveryAnswer;
  headers: Readonly<Record<string, string>>;
}

/** A webhook the gateway registered with the application for a topic (a Clio model): its id there and expiry. */
export interface RegisteredWebhook {
  topic: string;
  id: string;
  expires_at: string | null;
}

/**
 * A service whose webhooks the workspace receives: whether it can check them (a secret saved, or a registered
 * webhook's), and the webhooks the gateway registered with the application, one per topic, for plugins that do.
 */
export interface InboundSource {
  service: string;
  configured: boolean;
  secret_hint: string;
  registered_webhooks?: RegisteredWebhook[];
}

/** A signing secret is the application's: at least 8 characters, at most 512, printable ASCII. */
const SECRET = /^[\x21-\x7e]{8,512}$/;
/** How many old events a delivery deletes at most (retention). */
const PRUNE_PER_DELIVERY = 100;
/** An event type as the doors filter by it: `call.completed`. */
const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;

/** Whether two secrets are the same, in constant time (their digests are compared, so lengths do not show). */
function sameSecret(a: string, b: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** What a plugin's normaliser made, held to the shape readers rely on; the problem, or undefined when it holds. */
function eventProblem(e: NormalisedEvent): string | undefined {
  if (!EVENT_TYPE.test(e.type) || e.type.length > 128) return `event type '${e.type.slice(0, 128)}' is not {record}.{what}`;
  if (typeof e.upstreamId !== 'string' || e.upstreamId === '' || e.upstreamId.length > 512) return 'an event without an id';
  if (e.recordId !== undefined && (typeof e.recordId !== 'string' || e.recordId.length > 512)) return 'a record id over 512 characters';
  return undefined;
}

/**
 * Inbound events (docs/adr/0040-inbound-events.md): the workspaces' signing secrets, sealed like credentials; a
 * delivery verified by its plugin, held to the plugin's timestamp window, refused when its replay key was seen, and
 * its events stored once each; and the stored events read back within a caller's services.
 */
export class InboundEvents {
  /** Events older than this many days are deleted, a few at each delivery to their workspace; 0 keeps them. */
  retentionDays = 30;
  /** The workspaces' subscribers and the delivery of stored events to them (outbound-events.ts). */
  readonly outbound: OutboundEvents;

  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly keys: KeyRing,
    private readonly logger: Logger,
  ) {
    this.outbound = new OutboundEvents(store, keys, logger);
  }

  /** The plugin's events of a service; not_found when the service is unknown or sends no webhooks the gateway reads. */
  private eventsOf(service: string): PluginEvents {
    const events = this.registry.get(service)?.plugin.events;
    if (!events) throw new GatewayError('not_found', `The integration '${service}' does not receive events`);
    return events;
  }

  /** Saves (or replaces) the workspace's signing secret for a service's webhooks, sealed with the current key. */
  async setSecret(workspaceId: string, service: string, secret: string, now = new Date()): Promise<void> {
    const events = this.eventsOf(service);
    if (!SECRET.test(secret)) {
      throw new GatewayError('bad_request', `The signing secret must be 8-512 printable characters without spaces (${events.secretHint})`);
    }
    const at = now.toISOString();
    const sealed = this.keys.current.encrypt(secret, eventSecretAad(workspaceId, service));
    const existing = await this.store.events.getSecret(workspaceId, service);
    await this.store.events.putSecret({ workspaceId, service, secret: sealed, createdAt: existing?.createdAt ?? at, updatedAt: at });
  }

  /**
   * The saved signing secret, for the operator on the gateway's host (`portico events show`): an application that
   * delivered it in a handshake may ask for it back (Notion's verification form). Never through the doors.
   */
  async revealSecret(workspaceId: string, service: string): Promise<string | undefined> {
    this.eventsOf(service);
    const stored = await this.store.events.getSecret(workspaceId, service);
    return stored && this.keys.for(stored.secret).decrypt(stored.secret, eventSecretAad(workspaceId, service));
  }

  deleteSecret(workspaceId: string, service: string): Promise<boolean> {
    this.eventsOf(service);
    return this.store.events.deleteSecret(workspaceId, service);
  }

  /** The services of the workspace whose webhooks are set up (a secret saved), with each one's hint. */
  async configured(workspaceId: string): Promise<InboundSource[]> {
    const saved = new Set(await this.store.events.listSecretServices(workspaceId));
    const sources: InboundSource[] = [];
    for (const i of this.registry.list()) {
      if (!i.plugin.events) continue;
      // the webhooks the gateway registered with the application (webhook-registrations.ts), when its plugin does
      const registered = i.plugin.events.subscriptions ? await this.store.registrations.list(workspaceId, i.service) : [];
      const webhooks = registered.flatMap((r) => (r.upstreamId ? [{ topic: r.topic, id: r.upstreamId, expires_at: r.expiresAt }] : []));
      sources.push({
        service: i.service,
        configured: saved.has(i.service) || registered.some((r) => r.secret),
        secret_hint: i.plugin.events.secretHint,
        ...(i.plugin.events.subscriptions ? { registered_webhooks: webhooks } : {}),
      });
    }
    return sources;
  }

  /**
   * Receives one delivery for a workspace and service: verified with the workspace's secret, within the timestamp
   * window, not seen before, normalised and stored. Refusals are GatewayErrors (401 forged or stale, 400 replayed or
   * unreadable, 404 not set up), each logged in one line without the secret or the signature.
   */
  async receive(workspaceId: string, service: string, delivery: InboundDelivery, now = Date.now()): Promise<DeliveryAnswer> {
    return (await this.reply(workspaceId, service, delivery, now)).body;
  }

  /** As `receive`, with the headers the answer carries (a handshake's). */
  async reply(workspaceId: string, service: string, delivery: InboundDelivery, now = Date.now()): Promise<DeliveryReply> {
    const refuse = (code: 'unauthorized' | 'bad_request' | 'not_found', reason: string, message: string): never => {
      this.logger.warn({ workspace: workspaceId, service, reason }, 'webhook delivery refused');
      throw new GatewayError(code, message);
    };
    const events = this.registry.get(service)?.plugin.events;
    const stored = events && (await this.store.events.getSecret(workspaceId, service));
    // each subscription the plugin registered signs with a secret of its own: the one of the topic the URL names (a
    // topic without one: the workspace's secret only; another topic's secret never)
    const topic = topicOfDelivery(events?.subscriptions, delivery.query);
    const registered = topic === undefined ? undefined : await this.store.registrations.get({ workspaceId, service, topic });
    if (!events || (!stored && !registered)) {
      return refuse('not_found', 'not_set_up', `Events from '${service}' are not set up in this workspace`);
    }
    const secret = stored && this.keys.for(stored.secret).decrypt(stored.secret, eventSecretAad(workspaceId, service));
    const secrets = [secret, registered?.secret ? this.registrationSecret(registered.secret, registered) : undefined].filter(
      (s): s is string => s !== undefined,
    );

    const handshake = events.handshake?.(delivery);
    if (handshake) return this.handshake(workspaceId, service, delivery, handshake, { secret, secrets, registered }, refuse, now);

    let check: ReturnType<PluginEvents['verify']> = { outcome: 'forged', message: 'No signing secret is known yet' };
    for (const candidate of secrets) {
      check = events.verify(delivery, candidate);
      if (check.outcome === 'signed') break;
    }
    if (check.outcome === 'forged') return refuse('unauthorized', 'forged', check.message);
    const window = events.toleranceSeconds * 1000;
    if (check.signedAt !== undefined && !(Math.abs(now - check.signedAt) <= window)) {
      return refuse('unauthorized', 'stale', `The delivery was signed more than ${events.toleranceSeconds} seconds from now`);
    }
    // remembered as long as the window accepts the delivery (after that it is refused as stale), as a digest
    const expires = new Date(Math.max(check.signedAt ?? now, now) + window).toISOString();
    const replayKey = createHash('sha256').update(check.replayKey).digest('base64url');
    if (!(await this.store.events.remember(workspaceId, service, replayKey, expires, new Date(now).toISOString()))) {
      return refuse('bad_request', 'replayed', 'This delivery was received before: a replay is not accepted');
    }

    let normalised: ReturnType<PluginEvents['normalise']>;
    try {
      const body: unknown = JSON.parse(Buffer.from(delivery.body).toString('utf8'));
      assertInput(body, 'body', { ...INPUT_LIMITS, maxParams: INPUT_LIMITS.maxKeys });
      normalised = events.normalise(body, delivery);
      const problem = 'events' in normalised ? normalised.events.map(eventProblem).find(Boolean) : undefined;
      if (problem) throw new Error(problem);
    } catch (error) {
      const why = error instanceof Error ? error.message : 'unreadable';
      return refuse('bad_request', 'unreadable', `The delivery is not a ${service} event: ${why}`);
    }
    if ('answer' in normalised) return { body: normalised.answer, headers: {} };
    const receivedAt = new Date(now).toISOString();
    const records = normalised.events.map((e) => this.record(workspaceId, service, e, receivedAt));
    const saved = await this.store.events.append(records).catch(async (error: unknown) => {
      // not stored: the application's retry of this very delivery (Intuit resends the same bytes) must not be a replay
      await this.store.events.forget(workspaceId, service, replayKey).catch(() => {});
      throw error;
    });
    this.logger.info(
      { workspace: workspaceId, service, stored: saved.length, types: saved.map((e) => e.type) },
      'webhook delivery received',
    );
    if (saved.length > 0) this.outbound.delivery.wake(); // queued for the workspace's subscribers as they were stored
    if (this.retentionDays > 0) {
      // a few more than a delivery adds: a workspace's events stay within the retention period as it receives more
      const before = new Date(now - this.retentionDays * 86_400_000).toISOString();
      await this.store.events.prune(workspaceId, before, PRUNE_PER_DELIVERY).catch((error: unknown) => {
        this.logger.warn(
          { err: errorSummary(error), workspace: workspaceId },
          'could not delete old events; the next delivery tries again',
        );
      });
    }
    return { body: { received: normalised.events.length, stored: saved.length, events: saved.map((e) => e.id) }, headers: {} };
  }

  /**
   * An unsigned setup request that brings the signing secret (docs/adr/0043-webhook-handshakes.md): answered when it
   * brings the secret already saved, or when the operator armed it, its URL's `?setup=` being the saved secret (a
   * one-time setup token), and then its secret replaces the saved one; any other is refused (401).
   */
  private async handshake(
    workspaceId: string,
    service: string,
    delivery: InboundDelivery,
    handshake: Handshake,
    known: { secret: string | undefined; secrets: string[]; registered: RegistrationRecord | undefined },
    refuse: (code: 'unauthorized' | 'bad_request', reason: string, message: string) => never,
    now: number,
  ): Promise<DeliveryReply> {
    const reply = { body: handshake.reply.body, headers: handshake.reply.headers ?? {} };
    if (known.secrets.some((s) => sameSecret(handshake.secret, s))) return reply;
    const setup = delivery.query.setup;
    const pending = known.registered?.setupHash;
    if (setup !== undefined && pending && sameSecret(setupDigest(setup), pending)) {
      // the subscription the gateway registered (webhook-registrations.ts): its URL's token, spent by this handshake
      if (!SECRET.test(handshake.secret))
        return refuse('bad_request', 'unreadable', `The setup request carries no usable ${service} secret`);
      const key = known.registered as RegistrationRecord;
      const sealed = this.keys.current.encrypt(handshake.secret, registrationSecretAad(key));
      if (await this.store.registrations.takeHandshake(key, pending, sealed, new Date(now).toISOString())) {
        const fields = { workspace: workspaceId, service, topic: key.topic };
        this.logger.info(fields, 'webhook handshake accepted: the registered subscription is enabled');
        return reply;
      }
    }
    const saved = known.secret;
    if (setup === undefined || saved === undefined || !sameSecret(setup, saved)) {
      return refuse('unauthorized', 'handshake_not_armed', 'A setup request is accepted only at a URL armed with ?setup=');
    }
    if (!SECRET.test(handshake.secret)) return refuse('bad_request', 'unreadable', `The setup request carries no usable ${service} secret`);
    await this.setSecret(workspaceId, service, handshake.secret, new Date(now));
    this.logger.info({ workspace: workspaceId, service }, 'webhook handshake accepted: its signing secret is saved');
    return reply;
  }

  private registrationSecret(sealed: string, key: RegistrationKey): string {
    return this.keys.for(sealed).decrypt(sealed, registrationSecretAad(key));
  }

  private record(workspaceId: string, service: string, e: NormalisedEvent, receivedAt: string): Omit<EventRecord, 'seq'> {
    return {
      id: `evt_${randomBytes(12).toString('base64url')}`,
      workspaceId,
      service,
      type: e.type,
      upstreamId: e.upstreamId,
      recordId: e.recordId ?? null,
      occurredAt: e.occurredAt ?? null,
      receivedAt,
      payload: e.payload,
    };
  }

  list(query: EventQuery): Promise<EventRecord[]> {
    return this.store.events.list(query);
  }
}
