import { createHmac } from 'node:crypto';
import {
  type EmulatorReply,
  type EmulatorRequest,
  emitReply,
  emitSpec,
  jsonReply,
  type WebhookSender,
} from '@portico/core/testing/emulator';
import { ENTITY_NAMES, type EntityName } from './company.js';
import type { Company } from './seed.js';

/** The verifier token of the sandbox's Intuit app: the one to save in the gateway (sandbox mode saves it itself). */
export const SANDBOX_VERIFIER_TOKEN = 'sandbox-quickbooks-verifier-token';

/** Intuit's webhook signature: the base64 HMAC-SHA256 of the raw body with the app's verifier token. */
export function intuitSignatureHeaders(token: string, body: string): Record<string, string> {
  return { 'intuit-signature': createHmac('sha256', token).update(body).digest('base64') };
}

const OPERATIONS = ['Create', 'Update', 'Delete', 'Merge', 'Void', 'Emailed'];

/**
 * `POST /__sandbox/emit`: Intuit tells the app an entity changed, in the `eventNotifications` format. `entity` (default
 * `Invoice`) and `id` (default invoice 1029's, Rosa Delgado's, half paid) name a record of the company, `operation`
 * (default `Update`) what happened to it, `at` when (default now). `url` overrides where it goes and `token` the
 * verifier token (to try a forged delivery). The answer holds the delivery and what the receiver said.
 */
export async function emit(request: EmulatorRequest, company: Company, sender: WebhookSender): Promise<EmulatorReply> {
  const asked = emitSpec(request, Date.now());
  if ('reply' in asked) return asked.reply;
  const { spec, at } = asked;
  const entity = spec.entity ?? 'Invoice';
  if (typeof entity !== 'string' || !(ENTITY_NAMES as readonly string[]).includes(entity))
    return jsonReply(400, { error: 'unknown entity' });
  const operation = spec.operation ?? 'Update';
  if (typeof operation !== 'string' || !OPERATIONS.includes(operation)) {
    return jsonReply(400, { error: `operation must be one of ${OPERATIONS.join(', ')}` });
  }
  const records = company.entities[entity as EntityName];
  const record =
    typeof spec.id === 'string' ? records.find((r) => r.Id === spec.id) : (records.find((r) => r.DocNumber === '1029') ?? records[0]);
  if (!record) return jsonReply(404, { error: 'Object Not Found' });
  const body = JSON.stringify({
    eventNotifications: [
      {
        realmId: company.realmId,
        dataChangeEvent: { entities: [{ name: entity, id: String(record.Id), operation, lastUpdated: new Date(at).toISOString() }] },
      },
    ],
  });
  const token = typeof spec.token === 'string' ? spec.token : sender.secret;
  return emitReply(sender, spec.url, intuitSignatureHeaders(token, body), body);
}
