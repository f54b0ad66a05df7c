import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeliveryCheck, InboundDelivery, NormalisedDelivery, NormalisedEvent, PluginEvents } from '@portico/core/plugin';

/**
 * Slack's Events API deliveries (https://api.slack.com/apis/events-api), signed with the app's signing secret
 * (https://api.slack.com/authentication/verifying-requests-from-slack): `X-Slack-Signature` is `v0=` and the hex
 * HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{body}`; Slack asks that a timestamp more than five minutes away be
 * refused. A retry (`X-Slack-Retry-Num`) is signed anew and carries the same `event_id`, so it is stored once.
 */
export function verifySlack(delivery: InboundDelivery, secret: string): DeliveryCheck {
  const signature = delivery.headers['x-slack-signature'];
  const timestamp = delivery.headers['x-slack-request-timestamp'];
  if (!signature || !timestamp) return { outcome: 'forged', message: 'X-Slack-Signature and X-Slack-Request-Timestamp are required' };
  if (!/^\d{1,12}$/.test(timestamp) || !/^v0=[0-9a-f]{64}$/.test(signature)) {
    return { outcome: 'forged', message: 'X-Slack-Signature or X-Slack-Request-Timestamp is malformed' };
  }
  const mac = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(delivery.body).digest('hex');
  if (!timingSafeEqual(Buffer.from(`v0=${mac}`), Buffer.from(signature))) {
    return { outcome: 'forged', message: 'The Slack signature does not match the signing secret' };
  }
  return { outcome: 'signed', signedAt: Number(timestamp) * 1000, replayKey: signature };
}

/** Slack's event types as Portico names them; a message's subtype says whether it was posted, edited or deleted. */
const TYPES: Readonly<Record<string, string>> = {
  message: 'message.posted',
  'message:message_changed': 'message.edited',
  'message:message_deleted': 'message.deleted',
  app_mention: 'message.mentioned',
  reaction_added: 'reaction.added',
  reaction_removed: 'reaction.removed',
  pin_added: 'pin.added',
  pin_removed: 'pin.removed',
  channel_created: 'channel.created',
  channel_archive: 'channel.archived',
  channel_rename: 'channel.renamed',
  member_joined_channel: 'channel.member_joined',
  member_left_channel: 'channel.member_left',
  file_shared: 'file.shared',
  team_join: 'user.joined',
};

/** Subtypes of a message that are still a message posted (a bot's, a thread reply sent to the channel too, a file…). */
const POSTED_SUBTYPES = new Set(['bot_message', 'thread_broadcast', 'file_share', 'me_message']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function eventType(event: Record<string, unknown>): string {
  const type = str(event.type) ?? 'unknown';
  const subtype = str(event.subtype);
  if (type === 'message' && subtype && !POSTED_SUBTYPES.has(subtype)) {
    return TYPES[`message:${subtype}`] ?? `message.${subtype.replace(/[^a-z0-9_]/g, '_')}`;
  }
  return TYPES[type] ?? `slack.${type.replace(/[^a-z0-9_]/g, '_')}`;
}

/** The record an event is about: a message is `{channel}/{ts}` (how Slack's methods address it), else its item's id. */
function recordOf(event: Record<string, unknown>): string | undefined {
  const item = isObject(event.item) ? event.item : undefined;
  const message = isObject(event.message) ? event.message : undefined;
  const channel = str(event.channel) ?? str(item?.channel) ?? (isObject(event.channel) ? str(event.channel.id) : undefined);
  const ts = str(message?.ts) ?? str(event.deleted_ts) ?? str(item?.ts) ?? str(event.ts);
  if (channel && ts && (str(event.type) === 'message' || str(event.type) === 'app_mention' || item)) return `${channel}/${ts}`;
  return channel ?? str(event.user) ?? str(event.file_id);
}

/**
 * Reads an Events API body: `url_verification` is answered with its challenge, `event_callback` becomes one event.
 * The payload kept is the envelope without its deprecated verification `token`.
 */
export function normaliseSlack(body: unknown): NormalisedDelivery {
  if (!isObject(body)) throw new Error('the body is not a JSON object');
  if (body.type === 'url_verification') {
    const challenge = str(body.challenge);
    if (!challenge || challenge.length > 512) throw new Error('url_verification without a challenge');
    return { answer: { challenge } };
  }
  if (body.type !== 'event_callback') return { events: [] };
  const event = body.event;
  const eventId = str(body.event_id);
  if (!isObject(event) || !eventId) throw new Error('event_callback without event or event_id');
  const { token: _token, ...payload } = body;
  const time = typeof body.event_time === 'number' ? body.event_time : undefined;
  const recordId = recordOf(event);
  const normalised: NormalisedEvent = {
    type: eventType(event),
    upstreamId: eventId,
    ...(recordId ? { recordId } : {}),
    ...(time !== undefined && Number.isFinite(time) ? { occurredAt: new Date(time * 1000).toISOString() } : {}),
    payload,
  };
  return { events: [normalised] };
}

export const slackEvents: PluginEvents = {
  toleranceSeconds: 5 * 60,
  secretHint: "the Slack app's Signing Secret, under Basic Information › App Credentials",
  verify: verifySlack,
  normalise: normaliseSlack,
};
