import { defineOperation, type OperationDefinition, Params, StringEnum, type TObject, Type } from '@portico/core';
import { COLLECTIONS_G_Z } from './collections-g-z.js';
import { downloadReport } from './downloads.js';
import { collectionOperations } from './factory.js';
import { BodyMoment, PathId, Ref, Str } from './schemas.js';

// The operations of the G–Z group that do not fit a row of the table: singletons without an id (the timer, the
// connected user), actions on a record (download a report, generate a report from a preset, copy a task template list)
// and the webhook writes, whose body has its own `fields` (the fields Clio sends to the webhook URL).

const ONLY_ID = 'Clio returns only id and etag unless fields names the fields to return';
const fieldsParam = (example: string) =>
  Type.Optional(
    Type.String({
      description: `Fields to return, comma-separated, nested records in braces (e.g. ${example}). Without it Clio returns only id and etag.`,
    }),
  );
const withFields = (query: { fields?: unknown }) => (typeof query.fields === 'string' ? { query: { fields: query.fields } } : {});

export const getCurrentUser = defineOperation({
  name: 'get_current_user',
  method: 'GET',
  path: '/users/who_am_i',
  summary: 'Get the connected user',
  description: `Returns the Clio user the connection acts as (who_am_i): its id is the user_id of the caller’s own records. ${ONLY_ID}, e.g. fields=id,name,email,roles.`,
  params: Params({ fields: fieldsParam('id,name,email,roles') }),
  upstream: (p) => ({ method: 'GET', path: '/users/who_am_i.json', ...withFields(p) }),
});

export const getTimer = defineOperation({
  name: 'get_timer',
  method: 'GET',
  path: '/timer',
  summary: 'Get the running timer',
  description: `Returns the connected user’s running timer and the time entry it counts for (Clio answers 404 when no timer runs). ${ONLY_ID}, e.g. fields=id,start_time,elapsed_time,activity{id,note}.`,
  params: Params({ fields: fieldsParam('id,start_time,elapsed_time,activity{id,note}') }),
  upstream: (p) => ({ method: 'GET', path: '/timer.json', ...withFields(p) }),
});

export const startTimer = defineOperation({
  name: 'start_timer',
  method: 'POST',
  path: '/timer',
  summary: 'Start a timer',
  description: `Starts the connected user’s timer on a time entry: activity ({"id": <activity id>} from list_activities or create_activity) is required; a running timer stops. Answers with the timer as data (${ONLY_ID}, sent in the query string, e.g. fields=id,start_time).`,
  params: Params({ activity: Ref('time entry to time', 'ids from list_activities'), fields: fieldsParam('id,start_time') }),
  locations: { fields: 'query' },
  upstream: (p) => ({ method: 'POST', path: '/timer.json', ...withFields(p), body: { data: { activity: p.activity } } }),
});

export const stopTimer = defineOperation({
  name: 'stop_timer',
  method: 'DELETE',
  path: '/timer',
  summary: 'Stop the running timer',
  description: 'Stops the connected user’s running timer; the time counted stays on its time entry. Answers 204 with no body.',
  params: Params({}),
  upstream: () => ({ method: 'DELETE', path: '/timer.json' }),
});

export const generateReportFromPreset = defineOperation({
  name: 'generate_report_from_preset',
  method: 'POST',
  path: '/report_presets/:id/generate_report',
  summary: 'Generate a report from a preset',
  description:
    'Starts generating a report with the saved settings of a report preset (id from list_report_presets). Answers with the new report; follow it with get_report until its state is completed, then download_report.',
  params: Params({ id: PathId('Id of the report preset (from list_report_presets).') }),
  upstream: (p) => ({ method: 'POST', path: `/report_presets/${p.id}/generate_report.json` }),
});

export const copyTaskTemplateList = defineOperation({
  name: 'copy_task_template_list',
  method: 'POST',
  path: '/task_template_lists/:id/copy',
  summary: 'Copy a task template list',
  description: `Copies a task template list (id from list_task_template_lists) with its task templates; name, description and practice_area of the copy are optional. Answers with the copy as data (${ONLY_ID}, sent in the query string, e.g. fields=id,name).`,
  params: Params({
    id: PathId('Id of the task template list to copy (from list_task_template_lists).'),
    name: Type.Optional(Str('Name of the copy.')),
    description: Type.Optional(Str('Description of the copy.')),
    practice_area: Type.Optional(Ref('practice area of the copy', 'ids from list_practice_areas')),
    fields: fieldsParam('id,name,description'),
  }),
  locations: { fields: 'query' },
  upstream: (p) => {
    const data: Record<string, unknown> = {};
    for (const name of ['name', 'description', 'practice_area'] as const) if (p[name] !== undefined) data[name] = p[name];
    return { method: 'POST', path: `/task_template_lists/${p.id}/copy.json`, ...withFields(p), body: { data } };
  },
});

const WEBHOOK_MODELS = [
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
  url: Str('The https URL Clio posts to (only https is accepted).'),
  model: StringEnum(WEBHOOK_MODELS, { description: 'Records whose changes are sent.' }),
  fields: Str('Fields of the record Clio includes in each call, as in fields elsewhere (e.g. id,display_number,status).'),
  events: Type.Array(StringEnum(WEBHOOK_EVENTS), { description: 'Events to send (default: all of the model’s).' }),
  expires_at: BodyMoment('When the webhook expires (at most 31 days ahead)'),
};
const WEBHOOK_ANSWER =
  'Clio returns only id and etag unless fields names more, and here fields is the body field (what each call carries), so the answer is the webhook’s id and etag: get_webhook with fields=id,status,shared_secret,expires_at gives the shared secret that signs the calls.';

export const createWebhook = defineOperation({
  name: 'create_webhook',
  method: 'POST',
  path: '/webhooks',
  summary: 'Create a webhook',
  description: `Subscribes an https url to changes of a model: url, model and fields (the record fields sent in each call) are required, events narrows which changes. Clio first sends a handshake the receiver must confirm. ${WEBHOOK_ANSWER}`,
  params: Params({
    url: webhookBody.url,
    model: webhookBody.model,
    fields: webhookBody.fields,
    events: Type.Optional(webhookBody.events),
    expires_at: Type.Optional(webhookBody.expires_at),
  }),
  upstream: (p) => ({ method: 'POST', path: '/webhooks.json', body: { data: definedOf(p, Object.keys(webhookBody)) } }),
});

export const updateWebhook = defineOperation({
  name: 'update_webhook',
  method: 'PATCH',
  path: '/webhooks/:id',
  summary: 'Update a webhook',
  description: `Changes a webhook (id from list_webhooks): its url, model, fields, events, or expires_at to extend it. Only the fields given change. ${WEBHOOK_ANSWER}`,
  params: Params({
    id: PathId('Id of the webhook (from list_webhooks or create_webhook).'),
    ...Object.fromEntries(Object.entries(webhookBody).map(([name, schema]) => [name, Type.Optional(schema)])),
  }),
  upstream: (p) => ({ method: 'PATCH', path: `/webhooks/${p.id}.json`, body: { data: definedOf(p, Object.keys(webhookBody)) } }),
});

function definedOf(params: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const name of names) if (params[name] !== undefined) data[name] = params[name];
  return data;
}

/** Where each special operation goes: after the operations of the row with this key (or at the end). */
const SPECIAL_AFTER: Record<string, OperationDefinition[]> = {
  users: [getCurrentUser],
  webhooks: [createWebhook, updateWebhook],
  reports: [downloadReport],
  report_presets: [generateReportFromPreset],
  task_template_lists: [copyTaskTemplateList],
};

/**
 * Lists whose Clio operation takes none of the common filters created_since, updated_since and ids[] (Clio's document
 * has only fields, limit, page_token and order for them): the factory's list without those three.
 */
const WITHOUT_COMMON = new Set([
  'list_matter_contacts',
  'list_matter_related_contacts',
  'list_my_events',
  'list_outstanding_client_balances',
]);
const NOT_TAKEN = new Set(['created_since', 'updated_since', 'ids[]']);

function withoutCommon(operation: OperationDefinition): OperationDefinition {
  if (!WITHOUT_COMMON.has(operation.name)) return operation;
  const { properties } = operation.params as TObject;
  return { ...operation, params: Params(Object.fromEntries(Object.entries(properties).filter(([name]) => !NOT_TAKEN.has(name)))) };
}

/** The G–Z group's operations: its table rows, each followed by the special operations of its collection, then the timer. */
export function operationsGZ(): OperationDefinition[] {
  const out: OperationDefinition[] = [];
  for (const row of COLLECTIONS_G_Z) out.push(...collectionOperations(row).map(withoutCommon), ...(SPECIAL_AFTER[row.key] ?? []));
  out.push(getTimer, startTimer, stopTimer);
  return out;
}
