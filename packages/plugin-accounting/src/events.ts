import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeliveryCheck, InboundDelivery, NormalisedDelivery, NormalisedEvent, PluginEvents } from '@portico/core/plugin';

/**
 * QuickBooks Online webhooks (https://developer.intuit.com/app/developer/qbo/docs/develop/webhooks), signed with the
 * app's verifier token: `intuit-signature` is the base64 HMAC-SHA256 of the raw body. Intuit signs no time, so the
 * window checks the newest time in the signed body (an entity's `lastUpdated`, a CloudEvent's `time`); the signature
 * is the replay key. Both payload formats are read: `eventNotifications` (entities changed, per realm) and the
 * CloudEvents array.
 */
export function verifyQuickBooks(delivery: InboundDelivery, secret: string): DeliveryCheck {
  const signature = delivery.headers['intuit-signature'];
  if (!signature) return { outcome: 'forged', message: 'The intuit-signature header is required' };
  if (!/^[A-Za-z0-9+/]{43}=$/.test(signature)) return { outcome: 'forged', message: 'The intuit-signature header is malformed' };
  const expected = createHmac('sha256', secret).update(delivery.body).digest('base64');
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return { outcome: 'forged', message: 'The Intuit signature does not match the verifier token' };
  }
  const signedAt = newestTime(delivery.body);
  return { outcome: 'signed', ...(signedAt === undefined ? {} : { signedAt }), replayKey: signature };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const when = (value: unknown): number | undefined => {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
};

/** The entity changes a body tells, in either format: realm, entity name, id, operation, time, and the source part. */
interface Change {
  realm?: string;
  entity: string;
  id: string;
  operation: string;
  at?: number;
  upstreamId: string;
  payload: unknown;
}

function changes(body: unknown): Change[] {
  if (isObject(body) && Array.isArray(body.eventNotifications)) {
    return body.eventNotifications.flatMap((notification) => {
      if (!isObject(notification)) return [];
      const realm = text(notification.realmId);
      const entities = isObject(notification.dataChangeEvent) ? list(notification.dataChangeEvent.entities) : [];
      return entities.flatMap((entity): Change[] => {
        if (!isObject(entity) || !text(entity.name) || !text(entity.id) || !text(entity.operation)) return [];
        const [name, id, operation] = [entity.name as string, entity.id as string, entity.operation as string];
        const at = when(entity.lastUpdated);
        const upstreamId = `${realm ?? ''}:${name}:${id}:${operation}:${text(entity.lastUpdated) ?? ''}`;
        return [
          {
            ...(realm ? { realm } : {}),
            entity: name,
            id,
            operation,
            ...(at ? { at } : {}),
            upstreamId,
            payload: { realmId: realm, ...entity },
          },
        ];
      });
    });
  }
  // CloudEvents: type `qbo.{entity}.{operation}.v{n}`
  return list(body).flatMap((event): Change[] => {
    if (!isObject(event)) return [];
    const type = /^qbo\.([a-z0-9]+)\.([a-z]+)\.v\d+$/i.exec(text(event.type) ?? '');
    const id = text(event.intuitentityid);
    const eventId = text(event.id);
    if (!type || !id || !eventId) return [];
    const at = when(event.time);
    const realm = text(event.intuitaccountid);
    return [
      {
        ...(realm ? { realm } : {}),
        entity: type[1] as string,
        id,
        operation: type[2] as string,
        ...(at ? { at } : {}),
        upstreamId: eventId,
        payload: event,
      },
    ];
  });
}

function newestTime(body: Uint8Array): number | undefined {
  try {
    const times = changes(JSON.parse(Buffer.from(body).toString('utf8'))).flatMap((c) => (c.at === undefined ? [] : [c.at]));
    return times.length > 0 ? Math.max(...times) : undefined;
  } catch {
    return undefined; // normalise refuses it
  }
}

/** Intuit's operations as past tenses: `Create` → `created`; Void, Merge and Emailed likewise. */
const DONE: Readonly<Record<string, string>> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  merge: 'merged',
  void: 'voided',
  emailed: 'emailed',
};

/** An entity change as an event type: `invoice.updated`; a bill payment made is `bill.paid`, a payment received `payment.received`. */
function typeOf(entity: string, operation: string): string {
  const name = entity.toLowerCase();
  const done = DONE[operation.toLowerCase()] ?? operation.toLowerCase();
  if (name === 'billpayment' && done === 'created') return 'bill.paid';
  if (name === 'payment' && done === 'created') return 'payment.received';
  return `${name}.${done}`;
}

/** One event per entity change; the record is the entity's id (`Invoice` 130), the payload the change as Intuit told it. */
export function normaliseQuickBooks(body: unknown): NormalisedDelivery {
  if (!(isObject(body) && Array.isArray(body.eventNotifications)) && !Array.isArray(body)) {
    throw new Error('neither eventNotifications nor a CloudEvents array');
  }
  const events = changes(body).map(
    (c): NormalisedEvent => ({
      type: typeOf(c.entity, c.operation),
      upstreamId: c.upstreamId,
      recordId: c.id,
      ...(c.at === undefined ? {} : { occurredAt: new Date(c.at).toISOString() }),
      payload: c.payload,
    }),
  );
  return { events };
}

export const quickBooksEvents: PluginEvents = {
  // Intuit retries a delivery it got no 200 for over several hours; the body's time is when the entity changed
  toleranceSeconds: 24 * 60 * 60,
  secretHint: "the app's webhook verifier token, under Development (or Production) › Webhooks on developer.intuit.com",
  verify: verifyQuickBooks,
  normalise: normaliseQuickBooks,
};
