import { createHmac, randomUUID } from 'node:crypto';
import {
  type EmulatorReply,
  type EmulatorRequest,
  emitReply,
  emitSpec,
  jsonReply,
  type WebhookSender,
} from '@portico/core/testing/emulator';
import type { Workspace } from './workspace/index.js';

/** The verification token of the sandbox's subscription: the one to save in the gateway (sandbox mode saves it). */
export const SANDBOX_VERIFICATION_TOKEN = 'secret_sandbox-notion-verification-token';

/** Notion's webhook signature: `X-Notion-Signature: sha256=` and the hex HMAC-SHA256 of the raw body. */
export function notionSignatureHeaders(token: string, body: string): Record<string, string> {
  return { 'x-notion-signature': `sha256=${createHmac('sha256', token).update(body).digest('hex')}` };
}

const TYPES = ['page.created', 'page.content_updated', 'page.properties_updated', 'page.moved', 'page.deleted', 'page.undeleted'];

/**
 * `POST /__sandbox/emit`: Notion tells the integration a page changed. `type` (default `page.content_updated`; also
 * `page.created`, `page.properties_updated`, `page.moved`, `page.deleted`, `page.undeleted`) and `page_id` (default the
 * workspace's first page) say what, `at` when (the event's `timestamp`; default now). `url` overrides where it goes
 * and `token` the verification token (to try a forged delivery). The answer holds the delivery and what the receiver
 * said.
 */
export async function emit(request: EmulatorRequest, ws: Workspace, sender: WebhookSender): Promise<EmulatorReply> {
  const asked = emitSpec(request, Date.now());
  if ('reply' in asked) return asked.reply;
  const { spec, at } = asked;
  const type = spec.type ?? 'page.content_updated';
  if (typeof type !== 'string' || !TYPES.includes(type)) return jsonReply(400, { error: `type must be one of ${TYPES.join(', ')}` });
  const pageId = typeof spec.page_id === 'string' ? spec.page_id : [...ws.pages.keys()][0];
  if (pageId === undefined || !ws.pages.has(pageId)) return jsonReply(404, { error: 'Could not find page' });
  const body = eventBody(ws, type, pageId, at);
  const token = typeof spec.token === 'string' ? spec.token : sender.secret;
  return emitReply(sender, spec.url, notionSignatureHeaders(token, body), body);
}

/** A Notion event as Notion posts it: what happened to which page, when, by whom. */
function eventBody(ws: Workspace, type: string, pageId: string, at: number): string {
  return JSON.stringify({
    id: randomUUID(),
    timestamp: new Date(at).toISOString(),
    workspace_id: 'sandbox-workspace',
    subscription_id: 'sandbox-subscription',
    integration_id: 'sandbox-integration',
    type,
    authors: [{ id: ws.botId || 'sandbox-bot', type: 'bot' }],
    attempt_number: 1,
    entity: { id: pageId, type: 'page' },
    data: {},
  });
}

/** A page created through the API: its `page.created` event, sent in the background when the gateway is the target. */
export function pageCreatedInStory(ws: Workspace, pageId: string, sender: WebhookSender): void {
  const body = eventBody(ws, 'page.created', pageId, Date.now());
  sender.sendInBackground(notionSignatureHeaders(sender.secret, body), body);
}
