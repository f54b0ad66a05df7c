/**
 * Inbound events: how a plugin says what its application's webhooks look like. The gateway receives a delivery at
 * `POST /api/events/{workspace}/{service}`, finds the workspace's signing secret for the service, and asks the plugin
 * two things: is the delivery signed with that secret (`verify`), and what happened (`normalise`). The timestamp
 * window, the replay check and durable storage are the gateway's (docs/adr/0040-inbound-events.md).
 */

import type { UpstreamRequest, UpstreamResponse } from './operation.js';

/**
 * One delivery as received: the exact bytes of the body (signatures cover them), the headers (names lower-cased) and
 * the query of the delivery URL (where the operator may say which webhook it is, for applications that do not say).
 */
export interface InboundDelivery {
  body: Uint8Array;
  headers: Readonly<Record<string, string | undefined>>;
  query: Readonly<Record<string, string | undefined>>;
}

/**
 * What `verify` found. `signed`: the signature holds; `signedAt` (epoch ms) is the time the application signed or
 * stamped the delivery, when it says one (checked against `toleranceSeconds`), and `replayKey` tells this delivery
 * from every other one the application sends (its signature, say): a key seen before is a replay. `forged`: no valid
 * signature (missing, malformed, or made with another secret). `message` is shown to the sender: never the secret.
 */
export type DeliveryCheck = { outcome: 'signed'; signedAt?: number; replayKey: string } | { outcome: 'forged'; message: string };

/** One event as every application's events are told: what happened, to which record, and the upstream payload. */
export interface NormalisedEvent {
  /** `{record}.{what happened}`, lower-case: `message.posted`, `call.completed`, `prospect.created`, `bill.paid`. */
  type: string;
  /**
   * The application's id of this event, unique within the service and workspace: the same event delivered again (an
   * upstream retry) has the same id and is stored once.
   */
  upstreamId: string;
  /** The id of the record the event is about (the call, the message, the invoice), in the application's own ids. */
  recordId?: string;
  /** When it happened upstream (ISO 8601), if the payload says. */
  occurredAt?: string;
  /** The part of the delivery that describes the event, as the application sent it. */
  payload: unknown;
}

/** What a verified delivery holds: events to store, or a handshake to answer (Slack's `url_verification`). */
export type NormalisedDelivery = { events: NormalisedEvent[] } | { answer: Readonly<Record<string, unknown>> };

/**
 * An application's setup request that carries the signing secret itself, unsigned (Clio's first request with
 * `X-Hook-Secret`, Notion's `verification_token`): the secret to check later deliveries with, and what to answer the
 * application (headers it expects echoed, and a body). The gateway accepts one only when the operator armed it
 * (docs/adr/0043-webhook-handshakes.md).
 */
export interface Handshake {
  secret: string;
  reply: { headers?: Readonly<Record<string, string>>; body: Readonly<Record<string, unknown>> };
}

/**
 * A webhook subscription registered with the application: its id there, the secret the application signs its
 * deliveries with when it says it (Clio's `shared_secret`), and when it expires (ISO 8601), if it does.
 */
export interface WebhookSubscription {
  id: string;
  secret?: string;
  expiresAt?: string;
}

/** Sends one request to the application with the connection's credentials (the identify client's shape). */
export interface SubscriptionClient {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  readonly baseUrl: string;
}

/**
 * Where the application must be told where to send (Clio's webhooks, made through its API): how the plugin registers,
 * renews and removes the workspace's subscriptions with the application's API, one per topic it declares (Clio's
 * models: a webhook is one model). The gateway runs it: it registers every topic when the workspace's shared
 * connection is saved and the gateway has a public address, renews each before its `expiresAt`, and removes them
 * upstream when the connection is deleted (docs/adr/0044-webhook-subscriptions-registered-by-plugins.md). Each call
 * goes through `client` (the connection's credentials, the gateway's timeouts); `now` is the gateway's clock.
 */
export interface PluginWebhookSubscriptions {
  /**
   * What the application subscribes one at a time (Clio's models: `matter`, `contact`…): one subscription, with its own
   * secret, per topic. Lower-case letters, digits and `_`, each at most 64 characters.
   */
  topics: readonly string[];
  /**
   * The query parameter of the delivery URL that names the topic (Clio: `model`, so `?model=contact`). The gateway puts
   * the topic there in the `callbackUrl` it gives `subscribe`, and checks a delivery with the secret of the topic its
   * URL names.
   */
  topicParameter: string;
  /** Renewal starts when fewer than this many seconds remain before `expiresAt`. Default 7 days. */
  renewBeforeSeconds?: number;
  /** Registers `callbackUrl` (the workspace's delivery URL for the topic, to be used as given) for `topic`. */
  subscribe(
    client: SubscriptionClient,
    input: { topic: string; callbackUrl: string; connection: Readonly<Record<string, unknown>>; now: Date },
  ): Promise<WebhookSubscription>;
  /** Extends the subscription; answers it as it stands. A `not_found` GatewayError: it is gone upstream (registered anew). */
  renew(
    client: SubscriptionClient,
    input: { topic: string; id: string; connection: Readonly<Record<string, unknown>>; now: Date },
  ): Promise<WebhookSubscription>;
  /** Removes the subscription upstream. */
  unsubscribe(
    client: SubscriptionClient,
    input: { topic: string; id: string; connection: Readonly<Record<string, unknown>> },
  ): Promise<void>;
}

/** A plugin's inbound events: present when the application sends webhooks that the gateway can verify. */
export interface PluginEvents {
  /**
   * How far (seconds) a delivery's `signedAt` may be from the gateway's clock, either way. Deliveries signed further
   * away are refused as stale, and a replay key is remembered for as long, so a delivery is accepted once at most.
   */
  toleranceSeconds: number;
  /** Where the operator finds the signing secret in the application, for the docs and the admin API's messages. */
  secretHint: string;
  /** Checks the delivery's signature with the workspace's secret; must compare in constant time. */
  verify(delivery: InboundDelivery, secret: string): DeliveryCheck;
  /**
   * Optional: when the application delivers its signing secret in an unsigned setup request, recognises that request
   * (before `verify`) and says the secret it carries and the answer; undefined for any other delivery.
   */
  handshake?(delivery: InboundDelivery): Handshake | undefined;
  /**
   * Reads a verified delivery's JSON body. Throws an `Error` whose message is safe to show the sender when the body is
   * not a delivery of this application (answered 400).
   */
  normalise(body: unknown, delivery: InboundDelivery): NormalisedDelivery;
  /** Optional: the application's subscriptions are registered through its API, by the gateway (see above). */
  subscriptions?: PluginWebhookSubscriptions;
}
