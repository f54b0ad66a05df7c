import {
  ALL,
  addressText,
  billable,
  blank,
  companyAddress,
  info,
  linked,
  list,
  many,
  named,
  need,
  needCustomField,
  needOwner,
  one,
  owned,
  READ,
  taggedBy,
  text,
} from './collection-kit.js';
import type { CollectionDef } from './model.js';

/**
 * The table the emulator is driven by: one entry per Lawmatics collection, with the verbs the document gives it,
 * its record type, its attributes and relationships, its default field set and what a create needs. Routes,
 * lists (filter, sort, page, fields), gets, writes and deletes are generic over it (see `records.ts`, `query.ts`).
 */

const PERSON = list(`first_name last_name email email_address phone phone_number birthdate name_prefix middle_name name_suffix
  informal_name employer occupation citizenship bio title hobbies social_security age driver_license gender marital_status timezone
  date_of_last_contact days_since_last_contact photo_url custom_fields`);

const prospect: CollectionDef = {
  key: 'prospects',
  path: 'prospects',
  type: 'prospect',
  verbs: ALL,
  finders: true,
  attributes: [
    ...list('first_name last_name case_title case_blurb status sub_status'),
    ...PERSON.slice(2),
    ...list('address referring_url estimated_value_cents actual_value_cents lead_cost_cents created_at updated_at'),
  ],
  relationships: {
    source: one('source'),
    stage: one('stage'),
    campaign: one('campaign'),
    practice_area: one('practice_area'),
    created_by: one('user'),
    owned_by: text,
    tags: many('tag', 'tag_ids'),
  },
  reverse: {
    events: linked('events', 'eventable', 'prospect', 'event'),
    documents: linked('files', 'documentable', 'prospect', 'file'),
    notes: linked('notes', 'notable', 'prospect', 'note'),
    tasks: linked('tasks', 'taskable', 'prospect', 'task'),
    invoices: linked('invoices', 'prospect', 'prospect', 'invoice'),
    emails: linked('email_addresses', 'informationable', 'prospect', 'email_address'),
    phone_numbers: linked('phone_numbers', 'informationable', 'prospect', 'phone_number'),
    addresses: linked('addresses', 'addressable', 'prospect', 'address'),
    relationships: linked('relationships', 'prospect', 'prospect', 'relationship'),
  },
  // Lists show a prospect's practice area as well as its name (what list_prospects documents).
  defaults: list('first_name last_name email created_at updated_at practice_area'),
  finderFields: list('first_name last_name email phone created_at updated_at'),
  required: (body) => (blank(body.contact_id) && blank(body.company_id) && blank(body.company_name) ? need('first_name')(body) : []),
  mirror: { email: 'email_address', phone: 'phone_number' },
  filters: { contact_id: (r) => r.internal.contact_id ?? null },
};

const contact: CollectionDef = {
  key: 'contacts',
  path: 'contacts',
  type: 'contact',
  verbs: ALL,
  finders: true,
  attributes: [...PERSON, ...list('tracking_source_id contact_type created_at updated_at')],
  relationships: { created_by: one('user'), client: text, company: text, tags: many('tag', 'tag_ids') },
  reverse: {
    prospects: (record, db) =>
      (db.records.prospects ?? []).filter((p) => p.internal.contact_id === record.id).map((p) => ({ id: p.id, type: 'prospect' })),
    notes: linked('notes', 'notable', 'contact', 'note'),
  },
  defaults: list('first_name last_name email created_at updated_at'),
  finderFields: list('first_name last_name email phone created_at updated_at'),
  required: need('first_name'),
  mirror: { email: 'email_address', phone: 'phone_number' },
};

const company: CollectionDef = {
  key: 'companies',
  path: 'companies',
  type: 'company',
  verbs: ALL,
  status: { create: 200 },
  finders: true,
  attributes: list(
    'name email phone_number address addresses street street2 city state zipcode country custom_fields created_at updated_at',
  ),
  relationships: { created_by: one('user'), tags: many('tag', 'tag_ids') },
  reverse: {
    addresses: linked('addresses', 'addressable', 'company', 'address'),
    emails: linked('email_addresses', 'informationable', 'company', 'email_address'),
  },
  defaults: list('address addresses city country created_at email name phone_number state updated_at zipcode addresses created_by emails'),
  required: need('name'),
  mirror: { phone: 'phone_number' },
  derive: companyAddress,
};

const ADDRESS = list(
  'label street street2 city state zipcode country full_address full_street city_state_zip second_half created_at updated_at',
);

const address: CollectionDef = {
  key: 'addresses',
  path: 'addresses',
  type: 'address',
  verbs: ALL,
  attributes: ADDRESS,
  relationships: { addressable: one() },
  reverse: { locations: linked('locations', 'address', 'address', 'location') },
  defaults: list(
    'city city_state_zip country created_at full_address full_street label second_half state street street2 updated_at zipcode addressable locations',
  ),
  required: needOwner('addressable', 'label', 'street'),
  derive: addressText,
};

export const COLLECTIONS: readonly CollectionDef[] = [
  prospect,
  contact,
  company,
  address,
  info('email_addresses', 'email_address'),
  info('phone_numbers', 'phone_number'),
  named('custom_contact_types', 'custom_contact_type', ALL),
  {
    key: 'custom_fields',
    path: 'custom_fields',
    type: 'custom_field',
    verbs: ALL,
    dataOnly: true,
    bare: true,
    attributes: list('name type field_type visibility list_options practice_area lookup_type created_at updated_at'),
    defaults: list('created_at field_type name type updated_at visibility'),
    required: needCustomField,
  },
  { ...named('custom_emails', 'custom_email', READ, 'subject body'), defaults: list('created_at name subject updated_at') },
  {
    key: 'forms',
    path: 'forms',
    type: 'custom_form',
    verbs: READ,
    dataOnly: true,
    bare: true,
    attributes: list('name type rows created_at updated_at'),
    defaults: list('created_at name rows type updated_at'),
  },
  {
    key: 'form_entries',
    path: 'entries',
    type: 'custom_form_entry',
    verbs: ['list'],
    parent: { key: 'forms', link: 'form_id' },
    attributes: list('body created_at updated_at'),
    relationships: { contactable: one(), custom_form: one('custom_form') },
    defaults: list('body created_at updated_at contactable custom_form'),
  },
  {
    ...named('email_campaigns', 'email_campaign', READ, 'subject status sent_at recipients_count'),
    defaults: list('created_at name sent_at status subject updated_at'),
  },
  {
    key: 'events',
    path: 'events',
    type: 'event',
    verbs: ALL,
    attributes: list(`name description start_date end_date all_day time_zone event_type_id location location_name location_address
      attendee_name attendee_email attendee_phone reminder_type reminder_delay_length reminder_sent send_invites no_show created_at updated_at`),
    relationships: { event_type: one('event_type'), eventable: one(), users: many('user', 'user_ids'), address: one('address') },
    defaults: list(`all_day description end_date event_type_id location name reminder_delay_length reminder_sent reminder_type send_invites
      start_date time_zone event_type eventable`),
    required: need('name', 'start_date', 'end_date'),
    derive: (a) => {
      if (typeof a.event_type_id === 'string' && /^\d+$/.test(a.event_type_id)) a.event_type_id = Number(a.event_type_id);
    },
  },
  {
    ...named('locations', 'location', ['list'], 'address'),
    relationships: { address: one('address') },
    defaults: list('address created_at name updated_at address'),
  },
  {
    ...named('event_types', 'event_type', ALL, 'duration'),
    defaults: list('created_at duration name updated_at'),
    required: need('name', 'duration'),
  },
  {
    ...named('tags', 'tag', ALL, 'description color'),
    status: { create: 201, update: 201, delete: 201 },
    bare: true,
    defaults: list('color created_at description name updated_at'),
    filters: {
      prospect_id: taggedBy('prospects'),
      matter_id: taggedBy('prospects'),
      contact_id: taggedBy('contacts'),
      company_id: taggedBy('companies'),
      task_id: taggedBy('tasks'),
    },
  },
  {
    key: 'invoices',
    path: 'invoices',
    type: 'invoice',
    verbs: READ,
    attributes: list(`number status amount_cents amount_paid_cents outstanding_amount_cents contactable_name contactable_address invoiced_at
      due_at payment_terms note enable_online_payment include_balance_forward include_statement_of_accounts pdf_url target_account_type
      voided_at created_at updated_at`),
    relationships: { prospect: one('prospect'), created_by: one('user') },
    reverse: {
      time_entries: linked('time_entries', 'invoice', 'invoice', 'time_entry'),
      expenses: linked('expenses', 'invoice', 'invoice', 'expense'),
      transactions: linked('transactions', 'invoice', 'invoice', 'transaction'),
    },
    defaults: list(`amount_cents amount_paid_cents contactable_address contactable_name created_at due_at enable_online_payment
      include_balance_forward include_statement_of_accounts invoiced_at note number outstanding_amount_cents payment_terms pdf_url status
      target_account_type updated_at voided_at created_by expenses prospect time_entries transactions`),
  },
  billable('expenses', 'expense'),
  billable('time_entries', 'time_entry'),
  {
    key: 'transactions',
    path: 'transactions',
    type: 'transaction',
    verbs: ['list', 'get', 'create'],
    status: { create: 200 },
    attributes: list(`amount_cents amount_currency transaction_type bank_account_type payment_method note invoice_number external_id
      executed_at created_at updated_at`),
    relationships: { account: one(undefined, 'transactable'), invoice: one('invoice'), prospect: one('prospect'), created_by: one('user') },
    defaults: list(`amount_cents amount_currency bank_account_type created_at external_id note payment_method transaction_type updated_at
      account invoice prospect`),
    required: needOwner('transactable', 'transaction_type', 'bank_account_type', 'payment_method', 'amount_cents'),
  },
  {
    key: 'activities',
    path: 'activities',
    type: 'timeline_activity',
    verbs: READ,
    attributes: list('key type detail_keys parent_id created_at updated_at'),
    relationships: { owner: one(), recipient: one(), tracked: one() },
    defaults: list('created_at detail_keys key type updated_at owner recipient tracked'),
    filters: { event: (r) => (r.attributes.key as string) ?? null },
  },
  {
    key: 'users',
    path: 'users',
    type: 'user',
    verbs: ALL,
    status: { create: 200 },
    attributes: list('name first_name last_name email role profile_pic_url sign_in_count created_at updated_at'),
    defaults: list('created_at email name updated_at'),
    required: need('email', 'first_name', 'last_name'),
    derive: (a) => {
      a.name = [a.first_name, a.last_name].filter(Boolean).join(' ') || a.name || null;
    },
  },
  {
    key: 'notes',
    path: 'notes',
    type: 'note',
    verbs: ALL,
    attributes: list('name body created_at updated_at'),
    relationships: { notable: one(), created_by: one('user') },
    defaults: list('body created_at name updated_at notable'),
    required: needOwner('notable', 'body'),
  },
  {
    key: 'tasks',
    path: 'tasks',
    type: 'task',
    verbs: ALL,
    status: { create: 201, update: 201, delete: 201 },
    attributes: list('name description due_date priority done status tags assigned_by_id recurrence_rule created_at updated_at'),
    relationships: { taskable: one(), users: many('user', 'user_ids'), tags: many('tag', 'tag_ids') },
    reverse: {
      subtasks: owned('subtasks', 'task_id', 'subtask'),
      comments: owned('comments', 'task_id', 'comment'),
      documents: linked('files', 'documentable', 'task', 'file'),
    },
    defaults: list('created_at description done due_date name priority tags updated_at taskable users'),
    required: need('name', 'due_date'),
  },
  {
    key: 'subtasks',
    path: 'subtasks',
    type: 'subtask',
    verbs: ALL,
    status: { create: 200 },
    parent: { key: 'tasks', link: 'task_id' },
    attributes: list('body done created_at updated_at'),
    defaults: list('body created_at done updated_at'),
    required: need('body'),
  },
  {
    key: 'comments',
    path: 'comments',
    type: 'comment',
    verbs: ALL,
    status: { create: 200 },
    parent: { key: 'tasks', link: 'task_id' },
    attributes: list('body mentioned_user_ids created_at updated_at'),
    relationships: { user: one('user') },
    defaults: list('body created_at mentioned_user_ids updated_at user'),
    required: need('body'),
  },
  { ...named('task_statuses', 'task_status', ALL, 'color'), status: { create: 200 }, defaults: list('color created_at name updated_at') },
  {
    key: 'files',
    path: 'files',
    type: 'file',
    verbs: ALL,
    attributes: list('name file_name file_size file_type file_url created_at updated_at'),
    relationships: { documentable: one(), folder: one('folder') },
    defaults: list('created_at file_name file_size file_type file_url name updated_at documentable'),
    required: needOwner('documentable', 'file_name'),
  },
  {
    key: 'folders',
    path: 'folders',
    type: 'folder',
    verbs: ALL,
    attributes: list('name folder_id created_at updated_at'),
    relationships: { documentable: one() },
    reverse: { files: linked('files', 'folder', 'folder', 'file') },
    defaults: list('created_at name updated_at documentable'),
    required: needOwner('documentable', 'name'),
  },
  {
    key: 'interactions',
    path: 'interactions',
    type: 'interaction',
    verbs: ALL,
    attributes: list('interaction_type body happened_at created_at updated_at'),
    relationships: { interactable: one('prospect', 'prospect'), created_by: one('user') },
    defaults: list('body created_at happened_at interaction_type updated_at created_by interactable'),
    required: need('happened_at', 'prospect_id', 'body', 'interaction_type'),
  },
  { ...named('campaigns', 'campaign', READ), relationships: { source: one('source') } },
  named('sources', 'source', READ),
  {
    ...named('pipelines', 'pipeline', READ, 'description pipeline_type statuses estimated_value matter_count'),
    relationships: { created_by: one('user') },
    reverse: { stages: linked('stages', 'pipeline', 'pipeline', 'stage') },
    defaults: list('created_at description estimated_value matter_count name pipeline_type statuses updated_at created_by stages'),
  },
  {
    ...named('stages', 'stage', READ, 'color order'),
    relationships: { pipeline: one('pipeline') },
    reverse: { prospects: linked('prospects', 'stage', 'stage', 'prospect') },
    defaults: list('color created_at name order updated_at pipeline prospects'),
  },
  {
    ...named('practice_areas', 'practice_area', ALL, 'color statute_of_limitations_enabled matter_count'),
    status: { create: 201, update: 201, delete: 201 },
    bare: true,
    defaults: list('color created_at name updated_at'),
    required: need('name', 'color'),
  },
  {
    key: 'relationships',
    path: 'relationships',
    type: 'relationship',
    verbs: ALL,
    status: { create: 201, update: 201, delete: 204 },
    bare: true,
    attributes: list('name contact_id prospect_id relationship_type_id has_portal_access? created_at updated_at'),
    relationships: { relationship_type: one('relationship_type'), prospect: one('prospect'), custom_field: one('custom_field') },
    defaults: list('contact_id created_at name prospect_id relationship_type_id updated_at'),
    required: need('prospect_id', 'contact_id', 'relationship_type_id'),
  },
  {
    ...named('relationship_types', 'relationship_type', ['list', 'get', 'create', 'update'], 'is_repeatable'),
    relationships: { created_by: one('user') },
    defaults: list('is_repeatable name created_by'),
  },
  {
    ...named('sub_statuses', 'prospect_sub_status', ALL, 'status'),
    relationships: { created_by: one('user') },
    reverse: {
      prospects: (r, db) =>
        (db.records.prospects ?? [])
          .filter((p) => p.attributes.sub_status === r.attributes.name)
          .map((p) => ({ id: p.id, type: 'prospect' })),
    },
    defaults: list('created_at name status updated_at'),
    required: (body) => [
      ...need('name')(body),
      ...(blank(body.status) || ['hired', 'pnc', 'lost'].includes(String(body.status)) ? [] : ['status']),
    ],
  },
];

export const COLLECTION_BY_KEY: ReadonlyMap<string, CollectionDef> = new Map(COLLECTIONS.map((def) => [def.key, def]));

/** Top-level collections by URL segment (nested ones are reached through their parent). */
export const TOP_LEVEL: ReadonlyMap<string, CollectionDef> = new Map(
  COLLECTIONS.filter((def) => !def.parent).map((def) => [def.path, def]),
);

export function collection(key: string): CollectionDef {
  const def = COLLECTION_BY_KEY.get(key);
  if (!def) throw new Error(`unknown collection ${key}`);
  return def;
}
