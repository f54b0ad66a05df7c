import { createHmac } from 'node:crypto';
import {
  type EmulatorReply,
  type EmulatorRequest,
  emitReply,
  emitSpec,
  jsonReply,
  type WebhookSender,
} from '@portico/core/testing/emulator';
import { type Db, etagOf, lookup, type Row } from './model.js';
import { parseFields, render } from './query.js';

/** The secret of the sandbox's webhooks: the one to save in the gateway (sandbox mode saves it itself). */
export const SANDBOX_WEBHOOK_SECRET = 'sandbox-clio-webhook-secret';

/** Clio's webhook signature: `X-Hook-Signature`, the hex HMAC-SHA256 of the raw body with the webhook's secret. */
export function clioSignatureHeaders(secret: string, body: string): Record<string, string> {
  return { 'x-hook-signature': createHmac('sha256', secret).update(body).digest('hex') };
}

/** The models the sandbox sends webhooks for, and their collections. */
const MODELS: Readonly<Record<string, string>> = {
  matter: '/matters',
  activity: '/activities',
  contact: '/contacts',
  task: '/tasks',
  calendar_entry: '/calendar_entries',
  bill: '/bills',
  communication: '/communications',
};
const EVENTS = ['created', 'updated', 'deleted', 'matter_opened', 'matter_pended', 'matter_closed'];
/** The fields a webhook asks for: enough to say what changed, and when (the gateway checks that time). */
const FIELDS = parseFields('id,etag,display_number,description,status,name,type,date,quantity,note,created_at,updated_at');

/** A webhook body as Clio sends it: the record with the webhook's fields, and what happened. */
export function webhookBody(db: Db, model: string, event: string, row: Row, at?: number): string {
  const data = render(db, row, FIELDS);
  if (at !== undefined) data.updated_at = new Date(at).toISOString();
  return JSON.stringify({ data, meta: { event, model } });
}

/** Where a webhook goes: the target, with the model named as an operator names it for one webhook per model. */
const withModel = (target: string | undefined, model: string) => target && `${target}${target.includes('?') ? '&' : '?'}model=${model}`;

/**
 * `POST /__sandbox/emit`: Clio tells the app a record changed. `model` (default `matter`; also `activity`, `contact`,
 * `task`, `calendar_entry`, `bill`, `communication`) and `id` (default the model's newest record) name it, `event`
 * (default `updated`) what happened, `at` when (the record's `updated_at` as sent; default its own). `url` overrides
 * where it goes and `secret` the webhook secret (to try a forged delivery). The answer holds the delivery and what the
 * receiver said.
 */
export async function emit(request: EmulatorRequest, db: Db, sender: WebhookSender): Promise<EmulatorReply> {
  const asked = emitSpec(request, undefined);
  if ('reply' in asked) return asked.reply;
  const { spec, at } = asked;
  const model = spec.model ?? 'matter';
  if (typeof model !== 'string' || !Object.hasOwn(MODELS, model)) {
    return jsonReply(400, { error: `model must be one of ${Object.keys(MODELS).join(', ')}` });
  }
  const event = spec.event ?? 'updated';
  if (typeof event !== 'string' || !EVENTS.includes(event)) return jsonReply(400, { error: `event must be one of ${EVENTS.join(', ')}` });
  const template = MODELS[model] as string;
  const list = db.records.get(template) ?? [];
  const stored = typeof spec.id === 'number' ? lookup(db, template, spec.id) : list[list.length - 1];
  if (!stored) return jsonReply(404, { error: { type: 'RecordNotFound', message: 'The requested resource was not found' } });
  const body = webhookBody(db, model, event, stored.row, at ?? Date.now());
  const secret = typeof spec.secret === 'string' ? spec.secret : sender.secret;
  return emitReply(sender, withModel(sender.urlFor(spec.url), model), clioSignatureHeaders(secret, body), body);
}

/**
 * A record created through the API. A matter, activity, contact, task… sends its `created` webhook to the gateway, in
 * the background. A webhook (`POST /webhooks.json`) starts `pending` with the sandbox's secret as `shared_secret`, and
 * Clio's handshake goes to its URL: a request with `X-Hook-Secret`, which enables the webhook when the answer echoes it.
 */
export function createdInStory(db: Db, template: string, row: Row, sender: WebhookSender): void {
  if (template === '/webhooks') {
    handshake(db, row, sender.secret);
    return;
  }
  const model = Object.keys(MODELS).find((m) => MODELS[m] === template);
  const target = withModel(sender.urlFor(undefined), model ?? '');
  if (!model || !target) return;
  const body = webhookBody(db, model, 'created', row, Date.now());
  // the story does not wait for its webhook
  sender.send(target, clioSignatureHeaders(sender.secret, body), body).catch(() => {});
}

/** How long the sandbox waits for the answer to a handshake. */
const HANDSHAKE_TIMEOUT_MS = 5000;

function handshake(db: Db, row: Row, secret: string): void {
  row.status = 'pending';
  row.shared_secret = secret;
  const url = typeof row.url === 'string' && /^https?:\/\//.test(row.url) ? row.url : undefined;
  if (!url) return;
  const headers = { 'content-type': 'application/json', 'x-hook-secret': secret };
  fetch(url, { method: 'POST', headers, body: '{}', signal: AbortSignal.timeout(HANDSHAKE_TIMEOUT_MS) })
    .then(async (response) => {
      await response.arrayBuffer();
      const stored = lookup(db, '/webhooks', row.id);
      if (!response.ok || response.headers.get('x-hook-secret') !== secret || !stored) return;
      stored.row.status = 'enabled';
      stored.version += 1;
      stored.row.etag = etagOf(stored);
    })
    .catch(() => {}); // not enabled: it stays pending, as on Clio
}
