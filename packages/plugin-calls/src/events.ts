import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { DeliveryCheck, InboundDelivery, NormalisedDelivery, PluginEvents } from '@portico/core/plugin';

/**
 * CallRail's webhooks (https://apidocs.callrail.com/#webhooks), signed with the company's webhook signing key: the
 * `Signature` header is the base64 HMAC-SHA1 of the raw body. The signature covers the whole body, so the body's own
 * time stamp is what the window checks (the first of `timestamp`, `updated_at`, `created_at`, `start_time`), and the
 * signature is the replay key. CallRail does not resend a webhook.
 */
export function verifyCallRail(delivery: InboundDelivery, secret: string): DeliveryCheck {
  const signature = delivery.headers.signature;
  if (!signature) return { outcome: 'forged', message: 'The Signature header is required' };
  if (!/^[A-Za-z0-9+/]{27}=$/.test(signature)) return { outcome: 'forged', message: 'The Signature header is malformed' };
  const expected = createHmac('sha1', secret).update(delivery.body).digest('base64');
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return { outcome: 'forged', message: 'The CallRail signature does not match the signing key' };
  }
  const signedAt = stampOf(delivery.body);
  return { outcome: 'signed', ...(signedAt === undefined ? {} : { signedAt }), replayKey: signature };
}

/** The delivery's time: the body's own stamp, in CallRail's ISO 8601 with offset. */
function stampOf(body: Uint8Array): number | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return undefined; // normalise refuses it
  }
  if (!isObject(value)) return undefined;
  for (const field of ['timestamp', 'updated_at', 'created_at', 'start_time']) {
    const at = typeof value[field] === 'string' ? Date.parse(value[field] as string) : Number.NaN;
    if (Number.isFinite(at)) return at;
  }
  return undefined;
}

/**
 * CallRail's webhooks, by the name the delivery URL gives (`?webhook=post_call`): CallRail sends each kind to the URL
 * configured for it, and the body alone does not always say which kind it is.
 */
const WEBHOOKS: Readonly<Record<string, { type: string; once: boolean }>> = {
  pre_call: { type: 'call.started', once: true },
  call_routing_complete: { type: 'call.routed', once: true },
  post_call: { type: 'call.completed', once: true },
  outbound_post_call: { type: 'call.completed', once: true },
  call_modified: { type: 'call.updated', once: false },
  text_message_received: { type: 'text.received', once: true },
  text_message_sent: { type: 'text.sent', once: true },
  form_submission: { type: 'form.submitted', once: true },
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/** Without `?webhook=`: a text message has `content`, a form `form_data`; anything else is read as a completed call. */
function kindOf(body: Record<string, unknown>, named: string | undefined): string {
  if (named !== undefined) {
    if (!Object.hasOwn(WEBHOOKS, named)) throw new Error(`unknown webhook '${named}' (one of ${Object.keys(WEBHOOKS).join(', ')})`);
    return named;
  }
  if ('content' in body) return body.direction === 'outgoing' ? 'text_message_sent' : 'text_message_received';
  if ('form_data' in body) return 'form_submission';
  return 'post_call';
}

/**
 * One event a delivery. Its upstream id is the webhook and record (`post_call:CAL…`): each happens once for a call; a
 * call changed several times gives one `call.updated` per distinct body.
 */
export function normaliseCallRail(body: unknown, delivery: InboundDelivery): NormalisedDelivery {
  if (!isObject(body)) throw new Error('the body is not a JSON object');
  const kind = kindOf(body, delivery.query.webhook);
  const webhook = WEBHOOKS[kind] as { type: string; once: boolean };
  const recordId = idOf(body.resource_id) ?? idOf(body.id);
  if (!recordId) throw new Error('the body names no record (resource_id or id)');
  const distinct = webhook.once ? '' : `:${createHash('sha256').update(delivery.body).digest('base64url').slice(0, 22)}`;
  const at = [body.start_time, body.created_at].find((v): v is string => typeof v === 'string' && Number.isFinite(Date.parse(v)));
  return {
    events: [
      {
        type: webhook.type,
        upstreamId: `${kind}:${recordId}${distinct}`,
        recordId,
        ...(at ? { occurredAt: new Date(Date.parse(at)).toISOString() } : {}),
        payload: body,
      },
    ],
  };
}

export const callRailEvents: PluginEvents = {
  // the body's stamp is when the call started or the record changed: a post-call webhook comes after the call ends
  toleranceSeconds: 24 * 60 * 60,
  secretHint: "the company's webhook signing key, under Settings › Integrations › Webhooks in CallRail",
  verify: verifyCallRail,
  normalise: normaliseCallRail,
};
