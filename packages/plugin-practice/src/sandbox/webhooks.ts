import { createHmac, randomBytes } from 'node:crypto';
import {
  type EmulatorReply,
  type EmulatorRequest,
  emitReply,
  emitSpec,
  jsonReply,
  type WebhookSender,
} from '@portico/core/testing/emulator';
import { WEBHOOK_MODELS } from '../operations/webhooks.js';
import { type Db, etagOf, lookup, type Row, unprocessable } from './model.js';
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
 * (default `updated`) what happened, `at` when (the record's `updated_at` as sent; default its own). It goes to the
 * enabled, unexpired webhooks of the model that take the event, each signed with its own secret, else to the gateway
 * the sandbox is paired with, signed with the sandbox's secret. `url` sends it there instead (with the sandbox's
 * secret) and `secret` signs with another secret (to try a forged delivery). The answer holds the delivery and what the
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
  const [first, ...others] = spec.url === undefined ? subscribed(db, model, event) : [];
  if (first) {
    // to the webhooks registered for the model, each signed with its own secret (`secret` forges the first's)
    for (const hook of others) sender.send(hook.url, clioSignatureHeaders(hook.secret, body), body).catch(() => {});
    const secret = typeof spec.secret === 'string' ? spec.secret : first.secret;
    return emitReply(sender, first.url, clioSignatureHeaders(secret, body), body);
  }
  const secret = typeof spec.secret === 'string' ? spec.secret : sender.secret;
  return emitReply(sender, withModel(sender.urlFor(spec.url), model), clioSignatureHeaders(secret, body), body);
}

/** Clio's longest webhook life, and the one a webhook created without `expires_at` gets. */
const MAX_LIFETIME_MS = 31 * 86_400_000;
const DEFAULT_LIFETIME_MS = 3 * 86_400_000;

const webhooksOf = (db: Db): Row[] => (db.records.get('/webhooks') ?? []).map((stored) => stored.row);

/** The webhooks Clio calls for a change: of the model, enabled, not expired, taking the event (none named: all). */
function subscribed(db: Db, model: string, event: string, now = Date.now()): Array<{ url: string; secret: string }> {
  return webhooksOf(db).flatMap((row) => {
    const events = Array.isArray(row.events) && row.events.length > 0 ? row.events : undefined;
    const live = row.status === 'enabled' && typeof row.expires_at === 'string' && Date.parse(row.expires_at) > now;
    const takes = row.model === model && (!events || events.includes(event));
    return live && takes && typeof row.url === 'string' && typeof row.shared_secret === 'string'
      ? [{ url: row.url, secret: row.shared_secret }]
      : [];
  });
}

/**
 * Clio's rules for a webhook's writes: one of its models, an https URL (the sandbox also takes http on loopback, where the gateway
 * listens in sandbox mode), and an expiry at most 31 days ahead (one in the past leaves the webhook expired); a new
 * webhook without one expires in 3 days. Throws the 422 Clio answers.
 */
export function checkWebhook(data: Record<string, unknown>, creating: boolean, now = Date.now()): void {
  if (data.model !== undefined && !(typeof data.model === 'string' && (WEBHOOK_MODELS as readonly string[]).includes(data.model))) {
    throw unprocessable(`model must be one of ${WEBHOOK_MODELS.join(', ')}`);
  }
  if (typeof data.url === 'string') {
    let url: URL | undefined;
    try {
      url = new URL(data.url);
    } catch {
      url = undefined;
    }
    const loopback = url?.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (!url || !(url.protocol === 'https:' || loopback)) throw unprocessable('url must be an https URL');
  }
  if (data.expires_at === undefined || data.expires_at === null) {
    if (creating) data.expires_at = new Date(now + DEFAULT_LIFETIME_MS).toISOString();
    return;
  }
  const at = typeof data.expires_at === 'string' ? Date.parse(data.expires_at) : Number.NaN;
  if (!Number.isFinite(at)) throw unprocessable('expires_at must be an ISO-8601 timestamp');
  if (at > now + MAX_LIFETIME_MS) throw unprocessable('expires_at must be at most 31 days from now');
  data.expires_at = new Date(at).toISOString();
}

/**
 * A record created through the API. A matter, activity, contact, task… sends its `created` webhook to the gateway, in
 * the background, to the enabled, unexpired webhooks of its model, each signed with its own secret (with none, to the
 * gateway sandbox mode paired the sandbox with, signed with the sandbox's secret). A webhook
 * (`POST /webhooks.json`) starts `pending` with a `shared_secret` of its own, and Clio's handshake goes to its URL: a
 * request with `X-Hook-Secret`, which enables the webhook when the answer echoes it.
 */
export function createdInStory(db: Db, template: string, row: Row, sender: WebhookSender): void {
  if (template === '/webhooks') {
    handshake(db, row, `${randomBytes(24).toString('hex')}`);
    return;
  }
  const model = Object.keys(MODELS).find((m) => MODELS[m] === template);
  if (!model) return;
  const body = webhookBody(db, model, 'created', row, Date.now());
  // to the webhooks registered for the model; none: to the gateway sandbox mode paired the sandbox with
  const hooks = subscribed(db, model, 'created');
  const target = withModel(sender.urlFor(undefined), model);
  if (hooks.length === 0 && target) hooks.push({ url: target, secret: sender.secret });
  // the story does not wait for its webhooks
  for (const hook of hooks) sender.send(hook.url, clioSignatureHeaders(hook.secret, body), body).catch(() => {});
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
