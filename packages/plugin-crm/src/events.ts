import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeliveryCheck, InboundDelivery, NormalisedDelivery, PluginEvents } from '@portico/core/plugin';

/**
 * Lawmatics' outbound webhooks (help.lawmatics.com, "Outbound Webhooks"): made under Settings › Webhooks, one event
 * type each (`matter.converted`), with a signing secret shown once. Every delivery carries `X-Lawmatics-Timestamp` and
 * `X-Lawmatics-Signature`; Portico reads the signature as the hex HMAC-SHA256 of `{timestamp}.{raw body}` with the
 * secret (optionally prefixed `sha256=`), the timestamp as Unix seconds (or milliseconds, or ISO 8601).
 */
export function verifyLawmatics(delivery: InboundDelivery, secret: string): DeliveryCheck {
  const header = delivery.headers['x-lawmatics-signature'];
  const stamp = delivery.headers['x-lawmatics-timestamp'];
  if (!header || !stamp) return { outcome: 'forged', message: 'The X-Lawmatics-Signature and X-Lawmatics-Timestamp headers are required' };
  const hex = /^(?:sha256=)?([0-9a-f]{64})$/i.exec(header)?.[1];
  const signedAt = timeOf(stamp);
  if (!hex || signedAt === undefined) return { outcome: 'forged', message: 'The Lawmatics signature headers are malformed' };
  const expected = createHmac('sha256', secret).update(`${stamp}.`).update(delivery.body).digest();
  if (!timingSafeEqual(expected, Buffer.from(hex, 'hex'))) {
    return { outcome: 'forged', message: 'The Lawmatics signature does not match the signing secret' };
  }
  return { outcome: 'signed', signedAt, replayKey: hex.toLowerCase() };
}

function timeOf(stamp: string): number | undefined {
  if (/^\d{10}$/.test(stamp)) return Number(stamp) * 1000;
  if (/^\d{13}$/.test(stamp)) return Number(stamp);
  const at = stamp.length <= 40 ? Date.parse(stamp) : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
const EVENT_TYPE = /^[a-z][a-z_]*\.[a-z_]+$/;

/**
 * One event a delivery: its type as the body says it (`event`, `type` or `event_type`: `matter.converted`), else as
 * the delivery URL does (`?event=`); the record is `data.id` (or the body's `id`). Its upstream id is the body's event
 * id when it has one, else the type, record and signed time: a retry signed anew with the same event id is stored once.
 */
export function normaliseLawmatics(body: unknown, delivery: InboundDelivery): NormalisedDelivery {
  if (!isObject(body)) throw new Error('the body is not a JSON object');
  const data = isObject(body.data) ? body.data : body;
  const named = [body.event, body.type, body.event_type, delivery.query.event].find((v): v is string => typeof v === 'string');
  if (!named || !EVENT_TYPE.test(named)) throw new Error('the delivery names no event type ({record}.{what})');
  const recordId = idOf(data.id) ?? idOf(body.id);
  if (!recordId) throw new Error('the delivery names no record (data.id)');
  const eventId = idOf(body.event_id) ?? (isObject(body.data) ? idOf(body.id) : undefined);
  const at = [body.timestamp, body.created_at, data.updated_at]
    .map((v) => (typeof v === 'string' ? Date.parse(v) : Number.NaN))
    .find(Number.isFinite);
  return {
    events: [
      {
        type: named,
        upstreamId: eventId ?? `${named}:${recordId}:${delivery.headers['x-lawmatics-timestamp'] ?? ''}`,
        recordId,
        ...(at === undefined ? {} : { occurredAt: new Date(at).toISOString() }),
        payload: body,
      },
    ],
  };
}

export const lawmaticsEvents: PluginEvents = {
  // the timestamp is signed with the body, at sending
  toleranceSeconds: 5 * 60,
  secretHint: "the webhook's signing secret, shown once under Settings › Webhooks in Lawmatics",
  verify: verifyLawmatics,
  normalise: normaliseLawmatics,
};
