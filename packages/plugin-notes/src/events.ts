import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeliveryCheck, Handshake, InboundDelivery, NormalisedDelivery, PluginEvents } from '@portico/core/plugin';

/**
 * Notion's webhooks (https://developers.notion.com/reference/webhooks). A subscription is made in the integration's
 * settings; Notion then posts a one-time `{ "verification_token": "…" }` to the URL, unsigned, which the operator
 * pastes back into Notion to verify the subscription. Every event after that is signed with the token:
 * `X-Notion-Signature` is `sha256=` and the hex HMAC-SHA256 of the raw body.
 */
export function handshakeNotion(delivery: InboundDelivery): Handshake | undefined {
  if (delivery.headers['x-notion-signature'] !== undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(delivery.body).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(body) || typeof body.verification_token !== 'string' || Object.keys(body).length !== 1) return undefined;
  return { secret: body.verification_token, reply: { body: { ok: true } } };
}

export function verifyNotion(delivery: InboundDelivery, secret: string): DeliveryCheck {
  const header = delivery.headers['x-notion-signature'];
  if (!header) return { outcome: 'forged', message: 'The X-Notion-Signature header is required' };
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(header)?.[1];
  if (!hex) return { outcome: 'forged', message: 'The X-Notion-Signature header is malformed' };
  const expected = createHmac('sha256', secret).update(delivery.body).digest();
  if (!timingSafeEqual(expected, Buffer.from(hex, 'hex'))) {
    return { outcome: 'forged', message: 'The Notion signature does not match the verification token' };
  }
  const signedAt = stampOf(delivery.body);
  return { outcome: 'signed', ...(signedAt === undefined ? {} : { signedAt }), replayKey: hex.toLowerCase() };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The event's `timestamp`: Notion signs no time of its own into the request. */
function stampOf(body: Uint8Array): number | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
    const at = isObject(value) && typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : Number.NaN;
    return Number.isFinite(at) ? at : undefined;
  } catch {
    return undefined; // normalise refuses it
  }
}

/** Notion's event types are already `{record}.{what}` (`page.created`, `page.content_updated`, `comment.created`). */
const NOTION_TYPE = /^[a-z][a-z_]*(\.[a-z_]+)+$/;

/**
 * One event a delivery, by Notion's own type; its upstream id is Notion's event `id`, the same on each of Notion's
 * retries (which are signed anew), so a retried event is stored once. The record is the event's `entity`.
 */
export function normaliseNotion(body: unknown): NormalisedDelivery {
  if (!isObject(body)) throw new Error('the body is not a JSON object');
  if (typeof body.type !== 'string' || !NOTION_TYPE.test(body.type)) throw new Error('the body has no Notion event type');
  if (typeof body.id !== 'string' || body.id === '') throw new Error('the event has no id');
  const entity = isObject(body.entity) && typeof body.entity.id === 'string' ? body.entity.id : undefined;
  const at = typeof body.timestamp === 'string' ? Date.parse(body.timestamp) : Number.NaN;
  return {
    events: [
      {
        type: body.type,
        upstreamId: body.id,
        ...(entity ? { recordId: entity } : {}),
        ...(Number.isFinite(at) ? { occurredAt: new Date(at).toISOString() } : {}),
        payload: body,
      },
    ],
  };
}

export const notionEvents: PluginEvents = {
  // Notion retries a delivery it got no 200 for, with the event's own timestamp, for some hours
  toleranceSeconds: 24 * 60 * 60,
  secretHint: 'the verification token Notion posts when the subscription is made, which Portico saves when armed (?setup=)',
  verify: verifyNotion,
  handshake: handshakeNotion,
  normalise: normaliseNotion,
};
