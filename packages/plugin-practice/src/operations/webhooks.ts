import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { ClioId, Moment, Text } from '../schemas.js';
import { dataOf, family, optional } from './kit/rows.js';

// Webhooks: Clio calls an https URL when records of a model change. The writes are not the row's: their body has its
// own `fields` (the record fields Clio sends to the URL), so the answer's fields cannot be asked for.

/** The models Clio makes webhooks for. */
export const WEBHOOK_MODELS = [
  'activity',
  'bill',
  'calendar_entry',
  'clio_payments_payment',
  'communication',
  'contact',
  'document',
  'folder',
  'matter',
  'task',
] as const;
const WEBHOOK_EVENTS = ['created', 'updated', 'deleted', 'matter_opened', 'matter_pended', 'matter_closed'] as const;
const webhookBody = {
  url: Type.String({ description: 'The https URL Clio posts to (only https is accepted).', examples: ['https://hooks.example.com/clio'] }),
  model: StringEnum(WEBHOOK_MODELS, { description: 'Records whose changes are sent.' }),
  fields: Text('Fields of the record Clio includes in each call, as in fields elsewhere (e.g. id,display_number,status).'),
  events: Type.Array(StringEnum(WEBHOOK_EVENTS), { description: 'Events to send (default: all of the model’s).' }),
  expires_at: Moment('When the webhook expires (at most 31 days ahead)'),
};
const WEBHOOK_ANSWER =
  'Clio returns only id and etag unless fields names more, and here fields is the body field (what each call carries), so the answer is the webhook’s id and etag: get_webhook with fields=id,status,shared_secret,expires_at gives the shared secret that signs the calls.';

export const createWebhook = defineOperation({
  name: 'create_webhook',
  method: 'POST',
  path: '/webhooks',
  summary: 'Register a webhook so Clio calls a URL when records change',
  description: `Subscribes a URL (https only) to changes of a model such as matters, contacts or bills: url, model and fields (the record fields sent in each call) are required, events narrows which changes. Clio first sends a handshake the receiver must confirm. ${WEBHOOK_ANSWER}`,
  params: Params({
    url: webhookBody.url,
    model: webhookBody.model,
    fields: webhookBody.fields,
    events: Type.Optional(webhookBody.events),
    expires_at: Type.Optional(webhookBody.expires_at),
  }),
  upstream: (p) => ({ method: 'POST', path: '/webhooks.json', body: { data: dataOf(p, Object.keys(webhookBody)) } }),
});

export const updateWebhook = defineOperation({
  name: 'update_webhook',
  method: 'PATCH',
  path: '/webhooks/:id',
  summary: 'Change a webhook’s URL, events or expiry',
  description: `Changes a webhook (id from list_webhooks): its url, model, fields, events, or expires_at to extend it. Only the fields given change. ${WEBHOOK_ANSWER}`,
  params: Params({
    id: ClioId('Id of the webhook (from list_webhooks or create_webhook).'),
    ...optional(webhookBody),
  }),
  upstream: (p) => ({ method: 'PATCH', path: `/webhooks/${p.id}.json`, body: { data: dataOf(p, Object.keys(webhookBody)) } }),
});

export const webhooks = family(
  [
    {
      key: 'webhooks',
      path: '/webhooks',
      clio: '/webhooks',
      record: ['webhook', 'webhooks'],
      summaries: {
        list: 'List the webhooks (change notifications to other apps) registered with Clio',
        get: 'Get a webhook registered with Clio',
        delete: 'Delete a webhook (stop Clio’s calls to its URL)',
      },
      verbs: ['list', 'get', 'delete'],
      about: 'Webhooks: Clio calls a URL when records of a model change.',
      fields: 'id,url,model,events,status,expires_at,shared_secret',
      order: 'id(asc)',
      text: {
        list: 'Lists the webhooks this application registered, the URLs Clio calls when records change, with their status and expiry when asked for. To register one, use create_webhook.',
        get: 'Returns one webhook with its URL, model, events, status and expiry; the id comes from list_webhooks or create_webhook.',
        delete: 'Deletes a webhook (id from list_webhooks); Clio stops calling its URL. Answers 204 with no body.',
      },
    },
  ],
  createWebhook,
  updateWebhook,
);
