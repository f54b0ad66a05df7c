import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type {
  DeliveryCheck,
  Handshake,
  InboundDelivery,
  NormalisedDelivery,
  PluginEvents,
  PluginWebhookSubscriptions,
  SubscriptionClient,
  WebhookSubscription,
} from '@portico/core/plugin';

/**
 * Clio Manage's webhooks (https://docs.developers.clio.com/guides/clio-manage/webhooks/). A webhook is created through
 * the API (`POST /api/v4/webhooks.json` with `url`, `model`, `events` and `fields`) for one model; Clio's first request
 * to the URL carries the webhook's secret in `X-Hook-Secret`, and the webhook is enabled when the answer echoes that
 * header. Every later delivery is signed: `X-Hook-Signature` is the hex HMAC-SHA256 of the raw body with that secret.
 */
export function handshakeClio(delivery: InboundDelivery): Handshake | undefined {
  const secret = delivery.headers['x-hook-secret'];
  if (secret === undefined || delivery.headers['x-hook-signature'] !== undefined) return undefined;
  return { secret, reply: { headers: { 'X-Hook-Secret': secret }, body: { ok: true } } };
}

export function verifyClio(delivery: InboundDelivery, secret: string): DeliveryCheck {
  const signature = delivery.headers['x-hook-signature'];
  if (!signature) return { outcome: 'forged', message: 'The X-Hook-Signature header is required' };
  if (!/^[0-9a-f]{64}$/i.test(signature)) return { outcome: 'forged', message: 'The X-Hook-Signature header is malformed' };
  const expected = createHmac('sha256', secret).update(delivery.body).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    return { outcome: 'forged', message: 'The Clio signature does not match the webhook secret' };
  }
  const signedAt = stampOf(delivery.body);
  return { outcome: 'signed', ...(signedAt === undefined ? {} : { signedAt }), replayKey: signature.toLowerCase() };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
const timeOf = (value: unknown): number | undefined => {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
};

/** The record's own time, as the webhook's `fields` return it: when it was last changed, else created. */
function stampOf(body: Uint8Array): number | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return undefined; // normalise refuses it
  }
  const data = isObject(value) && isObject(value.data) ? value.data : undefined;
  return data && (timeOf(data.updated_at) ?? timeOf(data.created_at));
}

/** The models Clio sends webhooks for, and their names in event types. */
const MODELS: Readonly<Record<string, string>> = {
  matter: 'matter',
  activity: 'activity',
  bill: 'bill',
  calendar_entry: 'calendar_entry',
  communication: 'communication',
  contact: 'contact',
  task: 'task',
  document: 'document',
  folder: 'folder',
  clio_payments_payment: 'payment',
};

/** Clio's events, as the `{what}` of an event type: `matter_closed` is `matter.closed`. */
const EVENTS: Readonly<Record<string, string>> = {
  created: 'created',
  updated: 'updated',
  deleted: 'deleted',
  matter_opened: 'opened',
  matter_pended: 'pended',
  matter_closed: 'closed',
};

/**
 * One event a delivery: the record in `data` (its `id`), the event and model as the body says them (`meta.event`,
 * `meta.model`, or `event` and `model` at the top), else as the delivery URL does (`?model=matter&event=created`, one
 * URL per webhook), else a matter updated. A body naming another model than its URL is refused. Its upstream id is the model, record, event and the record's time (or the
 * body's digest), so Clio's retry of one change is stored once.
 */
export function normaliseClio(body: unknown, delivery: InboundDelivery): NormalisedDelivery {
  if (!isObject(body) || !isObject(body.data)) throw new Error('the body has no data object');
  const meta = isObject(body.meta) ? body.meta : {};
  const said = (name: string): string | undefined => {
    const value = meta[name] ?? body[name] ?? delivery.query[name];
    return typeof value === 'string' ? value : undefined;
  };
  const modelName = said('model') ?? 'matter';
  // the webhook's URL names its model, and its secret is that model's: the body may not say it is another's
  const urlModel = delivery.query.model;
  if (urlModel !== undefined && urlModel !== modelName) {
    throw new Error(`the delivery is of model '${modelName.slice(0, 64)}', its webhook's of '${urlModel.slice(0, 64)}'`);
  }
  const eventName = said('event') ?? 'updated';
  const model = MODELS[modelName];
  const event = EVENTS[eventName];
  if (!Object.hasOwn(MODELS, modelName) || !model) throw new Error(`unknown model '${modelName.slice(0, 64)}'`);
  if (!Object.hasOwn(EVENTS, eventName) || !event) throw new Error(`unknown event '${eventName.slice(0, 64)}'`);
  const recordId = idOf(body.data.id);
  if (!recordId) throw new Error('the data names no record (id)');
  const at = timeOf(body.data.updated_at) ?? timeOf(body.data.created_at);
  const distinct = at !== undefined ? String(at) : createHash('sha256').update(delivery.body).digest('base64url').slice(0, 22);
  return {
    events: [
      {
        type: `${model}.${event}`,
        upstreamId: `${modelName}:${recordId}:${eventName}:${distinct}`,
        recordId,
        ...(at === undefined ? {} : { occurredAt: new Date(at).toISOString() }),
        payload: body,
      },
    ],
  };
}

/**
 * The webhooks Portico registers for a workspace, one per model (a Clio webhook is one model): every event of each,
 * and the fields each delivery carries, which are also those whose change sends an `updated` (Clio watches them):
 * the record's id, what it is, and `updated_at`, the time the gateway holds it to. Left out: `document` and `folder`
 * (the busiest models, every upload, new version, rename and move a delivery, behind the Documents scope) and
 * `clio_payments_payment` (only for firms using Clio Payments, behind a scope of its own; a payment applied to a bill
 * changes the bill's balance and state, which its webhook sends). An operator makes those by hand (docs/events.md).
 */
export const SUBSCRIBED_MODELS: Readonly<Record<string, { events: readonly string[]; fields: string }>> = {
  matter: {
    events: ['created', 'updated', 'deleted', 'matter_opened', 'matter_pended', 'matter_closed'],
    fields: 'id,etag,display_number,description,status,created_at,updated_at',
  },
  contact: { events: ['created', 'updated', 'deleted'], fields: 'id,etag,name,type,is_client,created_at,updated_at' },
  bill: {
    events: ['created', 'updated', 'deleted'],
    fields: 'id,etag,number,state,total,balance,due_at,paid,paid_at,created_at,updated_at',
  },
  activity: { events: ['created', 'updated', 'deleted'], fields: 'id,etag,type,date,quantity,total,billed,created_at,updated_at' },
  task: { events: ['created', 'updated', 'deleted'], fields: 'id,etag,name,status,priority,due_at,completed_at,created_at,updated_at' },
  calendar_entry: { events: ['created', 'updated', 'deleted'], fields: 'id,etag,summary,start_at,end_at,all_day,created_at,updated_at' },
  // not the body or subject: a communication's content is privileged and stays in Clio
  communication: { events: ['created', 'updated', 'deleted'], fields: 'id,etag,type,date,received_at,created_at,updated_at' },
};
/** How long a webhook is asked to live: Clio allows 31 days at most (3 when none is asked); a day less leaves room for clocks. */
export const WEBHOOK_LIFETIME_DAYS = 30;

const expiryFrom = (now: Date) => new Date(now.getTime() + WEBHOOK_LIFETIME_DAYS * 86_400_000).toISOString();

/** The webhook in Clio's answer (`data`): its id, secret and expiry. */
function webhookOf(body: unknown): WebhookSubscription {
  const data = isObject(body) && isObject(body.data) ? body.data : {};
  const id = idOf(data.id);
  if (!id) throw new Error('Clio answered no webhook id');
  return {
    id,
    ...(typeof data.shared_secret === 'string' ? { secret: data.shared_secret } : {}),
    ...(typeof data.expires_at === 'string' ? { expiresAt: data.expires_at } : {}),
  };
}

const webhookPath = (id: string) => `/webhooks/${encodeURIComponent(id)}.json`;

/**
 * The workspace's Clio webhooks, one per model of `SUBSCRIBED_MODELS`, registered by the gateway
 * (`POST /webhooks.json`), renewed by extending `expires_at` (`PATCH /webhooks/{id}.json`) and deleted on disconnect.
 * Each URL names its model (`?model=contact`: Clio's deliveries do not) and carries a one-time setup token for Clio's
 * handshake; the `shared_secret` of each answer signs that webhook's deliveries.
 */
export const clioSubscriptions: PluginWebhookSubscriptions = {
  topics: Object.keys(SUBSCRIBED_MODELS),
  topicParameter: 'model',
  renewBeforeSeconds: 7 * 86_400,
  async subscribe(client: SubscriptionClient, { topic, callbackUrl, now }) {
    const model = Object.hasOwn(SUBSCRIBED_MODELS, topic) ? SUBSCRIBED_MODELS[topic] : undefined;
    if (!model) throw new Error(`Portico registers no Clio webhook for '${topic.slice(0, 64)}'`);
    const data = { url: callbackUrl, model: topic, events: model.events, fields: model.fields, expires_at: expiryFrom(now) };
    const query = { fields: 'id,shared_secret,status,expires_at' };
    return webhookOf((await client.send({ method: 'POST', path: '/webhooks.json', query, body: { data } })).body);
  },
  async renew(client: SubscriptionClient, { id, now }) {
    const body = { data: { expires_at: expiryFrom(now) } };
    return webhookOf((await client.send({ method: 'PATCH', path: webhookPath(id), query: { fields: 'id,expires_at' }, body })).body);
  },
  async unsubscribe(client: SubscriptionClient, { id }) {
    await client.send({ method: 'DELETE', path: webhookPath(id) });
  },
};

export const clioEvents: PluginEvents = {
  // the time checked is the record's own (updated_at), which Clio's retries keep
  toleranceSeconds: 24 * 60 * 60,
  secretHint: "the webhook's secret: Clio sends it in its first request, which Portico saves when armed (?setup=)",
  verify: verifyClio,
  handshake: handshakeClio,
  normalise: normaliseClio,
  subscriptions: clioSubscriptions,
};
