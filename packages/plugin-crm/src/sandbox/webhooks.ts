import { createHmac, randomUUID } from 'node:crypto';
import {
  type EmulatorReply,
  type EmulatorRequest,
  emitReply,
  emitSpec,
  jsonReply,
  type WebhookSender,
} from '@portico/core/testing/emulator';
import type { Db } from './model.js';

/** The signing secret of the sandbox's webhook: the one to save in the gateway (sandbox mode saves it itself). */
export const SANDBOX_SIGNING_SECRET = 'sandbox-lawmatics-signing-secret';

/** Lawmatics' headers as Portico reads them: the hex HMAC-SHA256 of `{timestamp}.{body}` and the Unix timestamp. */
export function lawmaticsSignatureHeaders(secret: string, timestamp: string, body: string): Record<string, string> {
  return {
    'x-lawmatics-timestamp': timestamp,
    'x-lawmatics-signature': createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'),
  };
}

/**
 * `POST /__sandbox/emit`: Lawmatics tells the firm a prospect was converted to a matter (`matter.converted`, the event
 * its outbound webhooks offer). `id` (default the newest prospect) names the matter, `at` the signing time (default
 * now). `url` overrides where it goes and `secret` the signing secret (to try a forged delivery). The answer holds the
 * delivery and what the receiver said.
 */
export async function emit(request: EmulatorRequest, db: Db, sender: WebhookSender): Promise<EmulatorReply> {
  const asked = emitSpec(request, Date.now());
  if ('reply' in asked) return asked.reply;
  const { spec, at } = asked;
  const prospects = db.records.prospects ?? [];
  const record = typeof spec.id === 'string' ? prospects.find((p) => p.id === spec.id) : prospects[prospects.length - 1];
  if (!record) return jsonReply(404, { errors: [{ status: 404, title: 'Not Found' }] });
  const body = JSON.stringify({
    event_id: randomUUID(),
    event: 'matter.converted',
    timestamp: new Date(at).toISOString(),
    data: { id: record.id, type: 'matter', attributes: record.attributes },
  });
  const secret = typeof spec.secret === 'string' ? spec.secret : sender.secret;
  const headers = lawmaticsSignatureHeaders(secret, String(Math.floor(at / 1000)), body);
  return emitReply(sender, spec.url, headers, body);
}
