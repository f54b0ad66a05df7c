import { createHmac, randomBytes } from 'node:crypto';
import {
  type EmulatorReply,
  type EmulatorRequest,
  emitReply,
  isJsonObject,
  jsonReply,
  type WebhookSender,
} from '@portico/core/testing/emulator';
import { BOT_USER_ID, LAUNCH_ID, type SandboxState, TEAM_ID } from './data.js';
import { postMessage } from './methods/messages.js';
import { SlackError } from './web-api.js';

/** The signing secret of the sandbox's Slack app: the one to save in the gateway (sandbox mode saves it itself). */
export const SANDBOX_SIGNING_SECRET = 'sandbox-slack-signing-secret';
const APP_ID = 'A05PORTICO1';

/** Slack's request signature: `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{body}` with the app's signing secret. */
export function slackSignatureHeaders(secret: string, timestamp: number, body: string): Record<string, string> {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature };
}

/** The Events API envelope of one event, as Slack sends it to the app's request URL. */
export function eventCallback(event: Record<string, unknown>, eventTime: number): string {
  return JSON.stringify({
    token: 'sandbox-verification-token',
    team_id: TEAM_ID,
    api_app_id: APP_ID,
    event,
    type: 'event_callback',
    event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: eventTime,
    authorizations: [{ team_id: TEAM_ID, user_id: BOT_USER_ID, is_bot: true }],
  });
}

/** A message posted (by the API or by emit) as the `message` event of the channel. */
export function messageEvent(channel: string, message: Record<string, unknown>): Record<string, unknown> {
  const { ts } = message;
  return { ...message, channel, event_ts: ts, channel_type: channel.startsWith('D') ? 'im' : 'channel' };
}

/** The signing time of an emitted delivery: `at` (ISO 8601 or Unix seconds) to sign as another moment, else now. */
function signingTime(at: unknown): number | undefined {
  if (at === undefined) return Math.floor(Date.now() / 1000);
  const ms = typeof at === 'number' ? at * 1000 : typeof at === 'string' ? Date.parse(at) : Number.NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/**
 * `POST /__sandbox/emit`: Slack sends the app a webhook. `{ "event": "message" }` (the default) posts `text` in
 * `channel` (default #intake) as `user` (default the channel's creator) and sends its `message` event;
 * `{ "event": "url_verification" }` sends the handshake. `url` overrides where it goes, `at` the signing time and
 * `secret` the signing secret (to try a forged delivery). The answer holds the delivery and what the receiver said.
 */
export async function emit(request: EmulatorRequest, state: SandboxState, sender: WebhookSender): Promise<EmulatorReply> {
  let spec: unknown;
  try {
    spec = request.body.length === 0 ? {} : request.json();
  } catch {
    return jsonReply(400, { ok: false, error: 'emit takes a JSON object' });
  }
  if (!isJsonObject(spec)) return jsonReply(400, { ok: false, error: 'emit takes a JSON object' });
  const timestamp = signingTime(spec.at);
  if (timestamp === undefined) return jsonReply(400, { ok: false, error: '"at" must be an ISO 8601 time or Unix seconds' });
  const secret = typeof spec.secret === 'string' ? spec.secret : sender.secret;
  let body: string;
  if (spec.event === 'url_verification') {
    body = JSON.stringify({ token: 'sandbox-verification-token', challenge: randomBytes(16).toString('hex'), type: 'url_verification' });
  } else if (spec.event === undefined || spec.event === 'message') {
    const channelId = typeof spec.channel === 'string' ? spec.channel : LAUNCH_ID;
    const channel = state.channels.find((c) => c.id === channelId || c.name === channelId);
    if (!channel) return jsonReply(404, { ok: false, error: 'channel_not_found' });
    state.actor = typeof spec.user === 'string' ? spec.user : channel.creator;
    try {
      const text = typeof spec.text === 'string' ? spec.text : 'A new caller left a voicemail: please call them back today.';
      const posted = postMessage({ channel: channel.id, text }, { state, token: '', origin: request.origin });
      body = eventCallback(messageEvent(channel.id, posted.message as Record<string, unknown>), timestamp);
    } catch (error) {
      if (error instanceof SlackError) return jsonReply(400, { ok: false, error: error.code });
      throw error;
    }
  } else {
    return jsonReply(400, { ok: false, error: 'event must be "message" or "url_verification"' });
  }
  return emitReply(sender, spec.url, slackSignatureHeaders(secret, timestamp, body), body);
}
