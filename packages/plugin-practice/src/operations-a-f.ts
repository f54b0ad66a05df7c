import { defineOperation, type OperationDefinition, Params, type TObject, type TSchema, Type } from '@portico/core';
import { COLLECTIONS_A_F } from './collections-a-f.js';
import { COLLECTIONS_A_F_2 } from './collections-a-f-2.js';
import { COLLECTIONS_A_F_3 } from './collections-a-f-3.js';
import { downloadDocument, downloadDocumentArchive, downloadDocumentTemplate } from './downloads.js';
import { collectionOperations, fieldsNote } from './factory.js';
import { BodyMoment, List, Obj, PathId, Ref, Str } from './schemas.js';

// The operations of Clio's collections tagged A–F (collections-a-f.ts, -2.ts, -3.ts), and the few of those
// collections that do not follow the convention (a bill's HTML preview, copying a document, a matter's client, the
// billing settings, the notification counters).

/**
 * Common list filters some of Clio's lists do not take (its document leaves them out), and path tokens that need a
 * better description than the factory's: the table's operations, adjusted by name.
 */
const ADJUST: Record<string, { omit?: readonly string[]; describe?: Record<string, string> }> = {
  list_billable_clients: { omit: ['created_since', 'updated_since', 'ids[]'] },
  list_billable_matters: { omit: ['created_since', 'updated_since', 'ids[]'] },
  list_billable_matter_ids: { omit: ['created_since', 'updated_since', 'ids[]'] },
  list_clio_payments_payments: { omit: ['created_since', 'updated_since'] },
  list_comments: { omit: ['ids[]'] },
  list_expense_categories: { omit: ['ids[]'] },
  list_lauk_expense_categories: { omit: ['created_since', 'updated_since', 'ids[]'] },
  list_civil_certificated_rates: { omit: ['created_since', 'updated_since', 'ids[]'] },
  list_civil_controlled_rates: { omit: ['created_since', 'updated_since', 'ids[]'] },
  list_criminal_controlled_rates: { omit: ['created_since', 'updated_since', 'ids[]'] },
  list_document_versions: {
    omit: ['created_since', 'updated_since', 'ids[]'],
    describe: { id: 'Id of the document whose versions to list (from list_documents).' },
  },
};

function adjusted(operation: OperationDefinition): OperationDefinition {
  const adjust = ADJUST[operation.name];
  if (!adjust) return operation;
  const schema = operation.params as TObject;
  const properties: Record<string, TSchema> = { ...schema.properties };
  for (const name of adjust.omit ?? []) {
    if (!(name in properties)) throw new Error(`operations-a-f: ${operation.name} has no ${name} to leave out`);
    delete properties[name];
  }
  for (const [name, description] of Object.entries(adjust.describe ?? {})) {
    properties[name] = { ...(properties[name] as TSchema), description };
  }
  return { ...operation, params: { ...schema, properties } as TObject };
}

const ID_PATTERN = { pattern: '^[0-9]+$', 'x-portico-expects': 'a Clio id (digits)' };
const fieldsParam = (example: string) =>
  Type.String({
    description: `Fields to return, comma-separated, nested records in braces (e.g. ${example}). Without it Clio returns only id and etag.`,
  });
const withFields = (fields: unknown) => (typeof fields === 'string' ? { query: { fields } } : {});

export const previewBill = defineOperation({
  name: 'preview_bill',
  method: 'GET',
  path: '/bills/:id/preview',
  summary: 'Preview a bill as HTML',
  description:
    'Returns the bill rendered as Clio prints it, as an HTML document (a string), for showing or checking a bill before it is sent; the id comes from list_bills.',
  params: Params({ id: Type.String({ ...ID_PATTERN, description: 'Id of the bill (from list_bills).' }) }),
  upstream: (p) => ({ method: 'GET', path: `/bills/${encodeURIComponent(p.id)}/preview.json` }),
});

const COPY_FIELDS = 'id,name,parent{id,type},latest_document_version{id}';
const copyBody = {
  parent: Obj('The folder or matter the copy goes into, as { "id": <id>, "type": "Folder" | "Matter" }.'),
  name: Str('Name of the copy (default: the original’s).'),
  filename: Str('File name of the copy.'),
  document_category: Ref('document category', 'ids from list_document_categories'),
  communication_id: Type.Integer({ description: 'Communication the copy belongs to.' }),
  received_at: BodyMoment('When the document was received'),
  external_properties: List('External properties of the copy, as [{ "name": "…", "value": "…" }].'),
};

export const copyDocument = defineOperation({
  name: 'copy_document',
  method: 'POST',
  path: '/documents/:id/copy',
  summary: 'Copy a document',
  description:
    'Copies a document (id from list_documents) with its latest version into a folder or matter: parent ({"id", "type": "Folder" | "Matter"}) is required. Answers with the new document as data (only id and etag unless fields, sent in the query string, names more, e.g. fields=' +
    `${COPY_FIELDS}).`,
  params: Params({
    id: PathId('Id of the document to copy (from list_documents).'),
    parent: copyBody.parent,
    ...Object.fromEntries(
      Object.entries(copyBody)
        .filter(([name]) => name !== 'parent')
        .map(([name, schema]) => [name, Type.Optional(schema)]),
    ),
    fields: Type.Optional(fieldsParam(COPY_FIELDS)),
  }),
  locations: { fields: 'query' },
  upstream: (p) => {
    const values = p as Record<string, unknown>;
    const data = Object.fromEntries(
      Object.keys(copyBody)
        .filter((name) => values[name] !== undefined)
        .map((name) => [name, values[name]]),
    );
    return {
      method: 'POST',
      path: `/documents/${encodeURIComponent(String(values.id))}/copy.json`,
      ...withFields(values.fields),
      body: { data },
    };
  },
});

const CLIENT_FIELDS = 'id,name,type,primary_email_address,primary_phone_number';
export const getMatterClient = defineOperation({
  name: 'get_matter_client',
  method: 'GET',
  path: '/matters/:matter_id/client',
  summary: 'Get the client of a matter',
  description: `Returns the client contact of one matter (matter_id from the matters operations). ${fieldsNote({ fields: CLIENT_FIELDS })}`,
  params: Params({ matter_id: PathId('Id of the matter.'), fields: Type.Optional(fieldsParam(CLIENT_FIELDS)) }),
  upstream: (p) => ({ method: 'GET', path: `/matters/${encodeURIComponent(p.matter_id)}/client.json`, ...withFields(p.fields) }),
});

const BILLING_FIELDS = 'id,rounding,rounded_duration,tax_rate,secondary_tax_rate,use_utbms_codes,currency';
export const getBillingSettings = defineOperation({
  name: 'get_billing_settings',
  method: 'GET',
  path: '/settings/billing',
  summary: 'Get the billing settings',
  description:
    'Returns the firm’s billing settings (time rounding, taxes, currency, UTBMS use); with duration, rounded_duration says how a time entry of that length is rounded. ' +
    fieldsNote({ fields: BILLING_FIELDS }),
  params: Params({
    duration: Type.Optional(Type.String({ description: 'A duration such as 3h or 2:15: the answer then says how it is rounded.' })),
    fields: Type.Optional(fieldsParam(BILLING_FIELDS)),
  }),
  upstream: (p) => {
    const query = Object.fromEntries(Object.entries(p).filter(([, value]) => value !== undefined)) as Record<string, string>;
    return { method: 'GET', path: '/settings/billing.json', ...(Object.keys(query).length > 0 ? { query } : {}) };
  },
});

const METRIC_FIELDS = 'unread_web_events,unread_mobile_events,unread_secure_messages';
export const listEventMetrics = defineOperation({
  name: 'list_event_metrics',
  method: 'GET',
  path: '/internal_notifications/event_metrics',
  summary: 'Count unread notifications',
  description:
    `Returns the counts of the user’s unread in-app notification events. ${fieldsNote({ fields: METRIC_FIELDS })} ` +
    'The answer is one record, not paged: there is no meta.paging.next and no page_token.',
  params: Params({ fields: Type.Optional(fieldsParam(METRIC_FIELDS)) }),
  upstream: (p) => ({ method: 'GET', path: '/internal_notifications/event_metrics.json', ...withFields(p.fields) }),
});

/** The operations of the A–F collections, in table order, then the special ones. */
export function aToFOperations(): OperationDefinition[] {
  const table = [...COLLECTIONS_A_F, ...COLLECTIONS_A_F_2, ...COLLECTIONS_A_F_3].flatMap((row) => collectionOperations(row).map(adjusted));
  return [
    ...table,
    previewBill,
    copyDocument,
    downloadDocument,
    downloadDocumentArchive,
    downloadDocumentTemplate,
    getMatterClient,
    getBillingSettings,
    listEventMetrics,
  ];
}
