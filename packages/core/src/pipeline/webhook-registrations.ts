import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IntegrationSettings } from '../access/integration-settings.js';
import { registrationSecretAad } from '../connections/connection-keys.js';
import type { Connections } from '../connections/credentials.js';
import type { KeyRing } from '../connections/key-ring.js';
import type { PluginWebhookSubscriptions, SubscriptionClient, WebhookSubscription } from '../contract/events.js';
import type { UpstreamRequest } from '../contract/operation.js';
import type { RegisteredIntegration, Registry } from '../contract/registry.js';
import { errorSummary, isGatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RegistrationKey, RegistrationRecord } from '../store/registration-types.js';
import type { ConnectionRecord, Store } from '../store/types.js';
import type { UpstreamSender } from '../upstream/send.js';
import type { Pipeline } from './pipeline.js';

/** Renewal starts when less than this remains before a subscription expires, unless the plugin says otherwise. */
export const RENEW_BEFORE_SECONDS = 7 * 24 * 60 * 60;
/** How often the loop looks for subscriptions to register or renew. */
const CHECK_MS = 60 * 60_000;
/** The most registrations one check works on: a workspace has one per topic (seven for Clio). */
const DUE_PER_CHECK = 1000;
/** The longest one registration, renewal or removal may take, every upstream attempt included. */
export const REGISTRATION_TIMEOUT_MS = 30_000;
/** How long an instance holds a registration while it works on it (longer than the timeout). */
const LEASE_MS = 2 * REGISTRATION_TIMEOUT_MS;
/** A signing secret is the application's: 8-512 printable characters (as a saved one). */
const SECRET = /^[\x21-\x7e]{8,512}$/;
const MAX_ID = 200;
/** A topic as a plugin declares it (Clio's models) and as a delivery URL names it. */
const TOPIC = /^[a-z][a-z0-9_]{0,63}$/;

/** The topics a plugin declares that the gateway registers: well-formed, once each. */
export function topicsOf(plugin: PluginWebhookSubscriptions | undefined): string[] {
  const topics = Array.isArray(plugin?.topics) ? plugin.topics : [];
  return [...new Set(topics.filter((t) => typeof t === 'string' && TOPIC.test(t)))];
}

/** The topic a delivery URL names in the plugin's parameter, when it is one the plugin declares. */
export function topicOfDelivery(
  plugin: PluginWebhookSubscriptions | undefined,
  query: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const named = plugin ? query[plugin.topicParameter] : undefined;
  return named !== undefined && topicsOf(plugin).includes(named) ? named : undefined;
}

/** The digest a setup token is kept as: the handshake's `?setup=` is compared with it. */
export const setupDigest = (token: string): string => createHash('sha256').update(token).digest('base64url');

/**
 * The clients the plugins' calls go through: the workspace's shared connection's credentials, its integration's
 * settings and base URL, and the upstream sender (the gateway's timeouts, limits and egress policy).
 */
export function subscriptionClients(
  connections: Pick<Connections, 'credentialsFor'>,
  settings: Pick<IntegrationSettings, 'state'>,
  pipeline: Pick<Pipeline, 'baseUrlFor'>,
  sender: UpstreamSender,
): SubscriptionClientFor {
  return async (integration, workspaceId) => {
    const loaded = await connections.credentialsFor(integration, workspaceId, undefined, null);
    const state = await settings.state(workspaceId, integration.service);
    const baseUrl = pipeline.baseUrlFor(integration, state, loaded.record.meta);
    const operation = { name: 'webhook_subscription' };
    const send = (request: UpstreamRequest) => sender.send(integration, operation, request, baseUrl, loaded.credentials, state.settings);
    return { client: { baseUrl, send }, connection: loaded.record.meta };
  };
}

/** The connection and a client to the application with its credentials: what a plugin's calls need. */
export type SubscriptionClientFor = (
  integration: RegisteredIntegration,
  workspaceId: string,
) => Promise<{ client: SubscriptionClient; connection: Readonly<Record<string, unknown>> }>;

type FailureKind = 'subscribe' | 'renew' | 'unsubscribe';

/**
 * Webhook subscriptions that plugins register with their applications
 * (docs/adr/0044-webhook-subscriptions-registered-by-plugins.md), one per topic the plugin declares (Clio's models),
 * each on its own: registered when a workspace's shared connection is saved and the gateway has a public address, renewed by a loop before they expire (one instance at a time: a lease in
 * the database, as the outbound delivery loop takes), removed upstream when the connection is deleted. The secret the
 * application signs with is sealed like credentials; the delivery URL carries a one-time setup token until the
 * application's handshake brings the secret. A failure is logged once per topic and kind until it succeeds again,
 * never with a secret or the delivery URL (which holds the token); one topic failing leaves the others be.
 */
export class WebhookRegistrations {
  /** The gateway's public base URL (`https://portico.example.com`); without it nothing is registered. */
  baseUrl: string | undefined;
  checkMs = CHECK_MS;
  timeoutMs = REGISTRATION_TIMEOUT_MS;
  private readonly owner = randomUUID();
  private readonly failing = new Set<string>();
  private readonly running = new Set<Promise<unknown>>();
  /** The registrations started by saving a connection (workspace and service), until they end. */
  private readonly registering = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly keys: KeyRing,
    private readonly logger: Logger,
    private readonly clientFor: SubscriptionClientFor,
  ) {}

  private plugin(service: string): PluginWebhookSubscriptions | undefined {
    return this.registry.get(service)?.plugin.events?.subscriptions;
  }

  /**
   * The delivery URL a registration gives the application: the workspace's, naming the topic in the plugin's
   * parameter, with the one-time setup token.
   */
  callbackUrl(key: RegistrationKey, token: string): string {
    const base = (this.baseUrl ?? '').replace(/\/+$/, '');
    const parameter = encodeURIComponent(this.plugin(key.service)?.topicParameter ?? 'topic');
    const path = `/api/events/${encodeURIComponent(key.workspaceId)}/${encodeURIComponent(key.service)}`;
    return `${base}${path}?${parameter}=${encodeURIComponent(key.topic)}&setup=${token}`;
  }

  /**
   * A connection was saved: the workspace's shared one of a plugin that registers its webhooks gets one registration
   * per topic, recorded before this resolves and registered with the application in the background, so that saving
   * a connection never waits on the application (a failure is logged, and the loop tries again). `settled()` waits
   * for that work.
   */
  async connected(record: ConnectionRecord, now = Date.now()): Promise<ConnectionRecord> {
    // without a public URL: said once at start; the command line's connections are registered by the server's loop
    if (record.memberId || !this.plugin(record.service) || !this.baseUrl) return record;
    const { workspaceId, service } = record;
    const keys = topicsOf(this.plugin(service)).map((topic) => ({ workspaceId, service, topic }));
    for (const key of keys) await this.store.registrations.add(key, new Date(now).toISOString());
    // side by side: each within the timeout, and one failing leaves the others be
    const connection = `${workspaceId}\n${service}`;
    const work = this.track(Promise.all(keys.map((key) => this.run(key, now))))
      .catch((error) =>
        this.logger.warn(
          { err: errorSummary(error), workspace: workspaceId, service },
          'could not register the webhooks; trying again at the next check',
        ),
      )
      .finally(() => {
        if (this.registering.get(connection) === work) this.registering.delete(connection);
      });
    this.registering.set(connection, work);
    return record;
  }

  /** Resolves once the registrations, renewals and removals under way have ended (each is bounded by the timeout). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * The shared connection is about to be deleted: the registrations its saving started end first (a subscription made
   * after this would be left at the application), then the subscriptions are removed upstream (best effort) and here.
   */
  async disconnecting(workspaceId: string, service: string): Promise<void> {
    await this.registering.get(`${workspaceId}\n${service}`);
    const stored = await this.store.registrations.list(workspaceId, service);
    await Promise.all(stored.map((one) => this.remove(one, 'removed here anyway')));
  }

  /** The workspace is about to be deleted: every subscription it registered is removed upstream (best effort) and here. */
  async workspaceDeleting(workspaceId: string): Promise<void> {
    const services = this.registry.list().filter((i) => i.plugin.events?.subscriptions);
    for (const { service } of services) await this.disconnecting(workspaceId, service);
  }

  /** Removes one subscription upstream (best effort: a failure is logged) and here. */
  private async remove(stored: RegistrationRecord, then: string): Promise<void> {
    const { workspaceId, service, topic } = stored;
    const plugin = this.plugin(service);
    const integration = this.registry.get(service);
    if (stored.upstreamId && plugin && integration) {
      try {
        const { client, connection } = await this.clientFor(integration, workspaceId);
        await this.withTimeout(plugin.unsubscribe(client, { topic, id: stored.upstreamId, connection }));
        const fields = { workspace: workspaceId, service, topic, subscription: stored.upstreamId };
        this.logger.info(fields, 'webhook subscription removed upstream');
        this.failing.delete(failureKey(stored, 'unsubscribe'));
      } catch (error) {
        this.fail(stored, 'unsubscribe', errorSummary(error), then);
      }
    }
    await this.store.registrations.delete(stored);
  }

  /**
   * Starts the loop: now and at every `checkMs`, registers the shared connections not registered yet (those saved by
   * the command line, or before the gateway knew its address) and renews what is due.
   */
  start(): void {
    if (this.timer) return;
    if (!this.baseUrl) {
      const services = this.registry
        .list()
        .filter((i) => i.plugin.events?.subscriptions)
        .map((i) => i.service);
      if (services.length > 0) {
        this.logger.info(
          { services },
          'webhook subscriptions are not registered with the applications: no public URL (PORTICO_PUBLIC_URL)',
        );
      }
      return;
    }
    const check = () =>
      void this.track(this.registerConnected().then(() => this.tick())).catch((error) =>
        this.logger.warn({ err: errorSummary(error) }, 'the webhook registration check failed; trying again at the next check'),
      );
    this.timer = setInterval(check, this.checkMs);
    this.timer.unref();
    check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.settled();
  }

  /** Registers or renews what is due at `now` (the loop's work; tests call it with their clock). */
  async tick(now = Date.now()): Promise<void> {
    const longest = Math.max(
      RENEW_BEFORE_SECONDS,
      ...this.registry.list().map((i) => i.plugin.events?.subscriptions?.renewBeforeSeconds ?? 0),
    );
    let due: RegistrationKey[];
    try {
      due = await this.store.registrations.due(new Date(now + longest * 1000).toISOString(), DUE_PER_CHECK);
    } catch (error) {
      this.logger.warn({ err: errorSummary(error) }, 'could not read the webhook registrations; trying again at the next check');
      return;
    }
    for (const key of due) await this.run(key, now); // each on its own: one failing leaves the others be
  }

  /** The workspaces' shared connections whose plugin registers webhooks and that have no registration yet. */
  private async registerConnected(): Promise<void> {
    const services = this.registry.list().filter((i) => i.plugin.events?.subscriptions);
    if (services.length === 0) return;
    try {
      for (const workspace of await this.store.listWorkspaces()) {
        for (const record of await this.store.listConnections(workspace.id)) {
          const integration = services.find((i) => i.service === record.service);
          if (record.memberId || record.status !== 'active' || !integration) continue;
          for (const topic of topicsOf(integration.plugin.events?.subscriptions)) {
            await this.store.registrations.add({ workspaceId: workspace.id, service: record.service, topic }, new Date().toISOString());
          }
        }
      }
    } catch (error) {
      this.logger.warn({ err: errorSummary(error) }, 'could not list the connections whose webhooks to register');
    }
  }

  /**
   * Registers or renews one workspace's subscription for a topic, if this instance takes its lease and it is due; one
   * of a topic the plugin no longer declares is removed.
   */
  private async run(key: RegistrationKey, now: number): Promise<void> {
    const { workspaceId, service, topic } = key;
    const plugin = this.plugin(service);
    const integration = this.registry.get(service);
    if (!plugin || !integration) return;
    const { registrations } = this.store;
    const at = new Date(now).toISOString();
    if (!(await registrations.lease(key, this.owner, new Date(now + LEASE_MS).toISOString(), at))) return;
    let kind: FailureKind = 'subscribe';
    try {
      const stored = await registrations.get(key);
      if (!stored) return;
      if (!topicsOf(plugin).includes(topic)) return await this.remove(stored, 'no longer declared: removed here anyway');
      const renewBefore = (plugin.renewBeforeSeconds ?? RENEW_BEFORE_SECONDS) * 1000;
      if (stored.upstreamId && stored.expiresAt && Date.parse(stored.expiresAt) - now >= renewBefore) return;
      if (stored.upstreamId && !stored.expiresAt) return; // a subscription that does not expire
      const { client, connection } = await this.clientFor(integration, workspaceId);
      if (stored.upstreamId) {
        kind = 'renew';
        try {
          const renewed = this.checked(
            await this.withTimeout(plugin.renew(client, { topic, id: stored.upstreamId, connection, now: new Date(now) })),
          );
          await this.keep(stored, renewed, at);
          this.succeeded(key, 'renew', renewed);
          return;
        } catch (error) {
          if (!(isGatewayError(error) && error.code === 'not_found')) throw error;
          kind = 'subscribe'; // gone upstream (expired, deleted there): registered anew
        }
      }
      if (!this.baseUrl) return; // nowhere to tell the application to send (a renewal needs no address)
      const token = randomBytes(24).toString('base64url');
      const armed = { ...stored, upstreamId: null, expiresAt: null, setupHash: setupDigest(token), updatedAt: at };
      if (!(await registrations.save(armed, this.owner))) return;
      const callbackUrl = this.callbackUrl(key, token);
      const made = this.checked(await this.withTimeout(plugin.subscribe(client, { topic, callbackUrl, connection, now: new Date(now) })));
      const current = (await registrations.get(key)) ?? armed; // the handshake may have come first
      await this.keep(current, made, at);
      this.succeeded(key, 'subscribe', made);
    } catch (error) {
      this.fail(key, kind, errorSummary(error), 'trying again at the next check');
    } finally {
      await registrations.release(key, this.owner).catch(() => {});
    }
  }

  /** Writes what the application answered: its id, expiry and (sealed) secret; a secret known spends the setup token. */
  private async keep(stored: RegistrationRecord, made: WebhookSubscription, at: string): Promise<void> {
    const secret = made.secret === undefined ? stored.secret : this.keys.current.encrypt(made.secret, registrationSecretAad(stored));
    const next: RegistrationRecord = {
      ...stored,
      upstreamId: made.id,
      secret,
      setupHash: made.secret === undefined ? stored.setupHash : null,
      expiresAt: made.expiresAt ?? null,
      updatedAt: at,
    };
    if (!(await this.store.registrations.save(next, this.owner))) throw new Error('the registration lease was lost meanwhile');
  }

  /** An application's answer held to the contract's shape: the plugin's answer is not trusted blindly. */
  private checked(made: WebhookSubscription): WebhookSubscription {
    if (typeof made?.id !== 'string' || made.id === '' || made.id.length > MAX_ID)
      throw new Error('the application named no subscription id');
    if (made.secret !== undefined && (typeof made.secret !== 'string' || !SECRET.test(made.secret))) {
      throw new Error('the application answered an unusable signing secret');
    }
    if (made.expiresAt !== undefined && !Number.isFinite(Date.parse(made.expiresAt)))
      throw new Error('the application answered no readable expiry');
    return made;
  }

  private succeeded(key: RegistrationKey, kind: FailureKind, made: WebhookSubscription): void {
    const { workspaceId: workspace, service, topic } = key;
    const fields = { workspace, service, topic, subscription: made.id, expires_at: made.expiresAt ?? null };
    this.logger.info(fields, kind === 'renew' ? 'webhook subscription renewed upstream' : 'webhook subscription registered upstream');
    for (const k of ['subscribe', 'renew'] as const) this.failing.delete(failureKey(key, k));
  }

  /** Logs a failure once per workspace, service, topic and kind until that kind succeeds again. */
  private fail(key: RegistrationKey, kind: FailureKind, reason: string, then?: string): void {
    const failure = failureKey(key, kind);
    if (this.failing.has(failure)) return;
    this.failing.add(failure);
    const what = {
      subscribe: 'could not register the webhook subscription upstream',
      renew: 'could not renew the webhook subscription upstream',
      unsubscribe: 'could not remove the webhook subscription upstream',
    }[kind];
    const fields = { workspace: key.workspaceId, service: key.service, topic: key.topic, kind, reason: reason.slice(0, 300) };
    this.logger.warn(fields, then ? `${what}; ${then}` : what);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    const ms = this.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }
}

const failureKey = (key: RegistrationKey, kind: FailureKind) => `${key.workspaceId}\u0000${key.service}\u0000${key.topic}\u0000${kind}`;
