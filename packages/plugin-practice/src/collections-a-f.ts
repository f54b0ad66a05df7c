import { requires, StringEnum, Type } from '@portico/core';
import type { CollectionRow } from './factory.js';
import { BodyDay, BodyMoment, Bool, Day, Flag, IdFilter, List, Moment, Obj, Ref, Str, Text } from './schemas.js';

// The collection table, continued: Clio's collections tagged A–F in its document that law firms use most — contacts,
// communications, documents and folders, comments, custom fields and custom field sets. Same rows, same factory as
// collections.ts; operations-a-f.ts wires them in (with the rows of collections-a-f-2.ts and -3.ts and the few special
// operations). Filters and body fields are the ones Clio's document declares for each operation; where create and
// update take different body fields the collection has two rows (one per body).

const nullable = { nullable: true } as const;
const notNull = { nullable: false } as const;
const Id = Type.Integer;

/** A list of Clio ids in the query (`exclude_ids[]`), repeated in a query string. */
export const IdList = (description: string) =>
  Type.Array(Type.String({ pattern: '^[0-9]+$' }), { description: `${description} (repeat the parameter in a query string).` });

const EXTERNAL_FILTERS = {
  external_property_name: Text('Only records with this external property set.'),
  external_property_value: Text('Only records whose external property has this value (requires external_property_name).'),
};
const EXTERNAL_RULES = [requires('external_property_value', 'external_property_name')];
const FIELD_TYPES = [
  'checkbox',
  'contact',
  'currency',
  'date',
  'time',
  'email',
  'matter',
  'numeric',
  'picklist',
  'text_area',
  'text_line',
  'url',
] as const;
const COMMUNICATION_TYPES = ['EmailCommunication', 'PhoneCommunication'] as const;
const INITIALS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('') as readonly string[];

/** Filters shared by list_documents, list_folders and list_folder_contents. */
const itemFilters = (what: string) => ({
  contact_id: IdFilter(`Only ${what} of this contact.`, nullable),
  document_category_id: IdFilter(`Only ${what} in this document category (ids from list_document_categories).`, nullable),
  matter_id: IdFilter(`Only ${what} of this matter.`, nullable),
  include_deleted: Flag(`Include ${what} in the trash.`),
  query: Text('Wildcard search in the name.'),
  scope: StringEnum(['children', 'descendants'], {
    description: 'With parent_id: only the direct children of the folder, or everything below it.',
  }),
  ...EXTERNAL_FILTERS,
});

const contactBody = {
  name: Str('Full name (a company’s name, or a person’s whole name).'),
  type: StringEnum(['Person', 'Company'], { description: 'Person or Company.' }),
  first_name: Str('First name (people).'),
  middle_name: Str('Middle name (people).'),
  last_name: Str('Last name (people).'),
  prefix: Str('Personal title (Mr., Dr.).'),
  title: Str('Professional title (people).'),
  company: Obj('The company the person works for, as { "id": <Company contact id> }.'),
  date_of_birth: BodyDay('Date of birth'),
  clio_connect_email: Str('Address that receives notifications when something is shared with the contact.'),
  ledes_client_id: Str('LEDES client id.'),
  sales_tax_number: Str('Sales tax number printed on bills.'),
  currency: Obj('Currency of the contact, as { "id": <currency id> } (ids from list_currencies).'),
  co_counsel_rate: Obj('Co-counsel rate, as { "rate": <number> }.'),
  avatar: Obj('Picture, as { "image": "<data URI>" } (or { "_destroy": true } to remove it).'),
  addresses: List(
    'Addresses, as [{ "name": "Work" | "Home" | …, "street", "city", "province", "postal_code", "country" }]; on update add "id" to change one, "_destroy": true to remove it.',
  ),
  email_addresses: List(
    'Email addresses, as [{ "name": "Work" | "Home" | …, "address", "default_email": true }]; on update add "id" or "_destroy".',
  ),
  phone_numbers: List(
    'Phone numbers, as [{ "name": "Work" | "Mobile" | …, "number", "default_number": true }]; on update add "id" or "_destroy".',
  ),
  web_sites: List('Web sites, as [{ "name", "address", "default_web_site" }]; on update add "id" or "_destroy".'),
  instant_messengers: List('Instant messenger handles, as [{ "name", "address" }]; on update add "id" or "_destroy".'),
  custom_field_values: List(
    'Custom field values, as [{ "custom_field": { "id": <custom field id> }, "value": … }]; on update add "id" or "_destroy".',
  ),
  custom_field_set_associations: List(
    'Custom field sets shown on the contact, as [{ "custom_field_set": { "id": <id> }, "display_order": <n> }].',
  ),
};

const communicationBody = {
  type: StringEnum(['PhoneCommunication', 'EmailCommunication'], { description: 'A phone call or an email.' }),
  subject: Str('Subject line (of the email, or a title for the call).'),
  body: Str('Text of the email, or notes of the call.'),
  received_at: BodyMoment('When it was sent or the call happened'),
  matter: Obj('The matter the communication is filed under, as { "id": <matter id> }.'),
  senders: List('Who it is from, as [{ "id": <id>, "type": "User" | "Contact" }].'),
  receivers: List('Who it went to, as [{ "id": <id>, "type": "User" | "Contact" }].'),
  external_properties: List('External properties, as [{ "name": "…", "value": "…" }].'),
  notification_event_subscribers: List('Users notified of changes, as [{ "user_id": <id> }].'),
};

const DOCUMENT_FIELDS =
  'id,name,filename,content_type,size,created_at,parent{id,type},matter{id,display_number},latest_document_version{id,fully_uploaded}';

const documentParent = (what: string) => Obj(`The folder or matter ${what} belongs in, as { "id": <id>, "type": "Folder" | "Matter" }.`);

const CUSTOM_FIELD_FIELDS = 'id,name,field_type,parent_type,required,displayed,display_order,picklist_options{id,option}';
const customFieldBody = {
  name: Str('Name of the custom field.'),
  displayed: Bool('Show the field by default.'),
  required: Bool('Require a value.'),
  display_order: Id({ description: 'Position among the custom fields.' }),
  picklist_options: List('Options of a picklist, as [{ "option": "…" }]; on update add "id", or "_deleted": true to retire one.'),
};

/** Body fields create_document and update_document share. */
const documentBody = {
  name: Str('Name of the document.'),
  parent: documentParent('the document'),
  document_category: Ref('document category', 'ids from list_document_categories'),
  communication_id: Id({ description: 'Communication the document came with (ids from list_communications).' }),
  received_at: BodyMoment('When the document was received'),
  external_properties: List('External properties, as [{ "name": "…", "value": "…" }]; on update add "id", or "_destroy": true.'),
  multiparts: List('Upload parts to request, as [{ "part_number": 1, "content_length": <bytes>, "content_md5": "…" }].'),
};

export const COLLECTIONS_A_F: readonly CollectionRow[] = [
  {
    key: 'contacts',
    path: '/contacts',
    clio: '/contacts',
    record: ['contact', 'contacts'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'People and companies: clients, opposing parties, co-counsel, vendors.',
    fields: 'id,name,type,primary_email_address,primary_phone_number,is_client,company{id,name}',
    order: 'id(asc)',
    filters: {
      client_only: Flag('Only contacts who are clients.'),
      clio_connect_only: Flag('Only contacts who are Clio Connect users.'),
      email_only: Flag('Only contacts with an email address.'),
      'custom_field_ids[]': IdList('Custom fields whose values to include in custom_field_values (ids from list_custom_fields)'),
      'exclude_ids[]': IdList('Contacts to leave out'),
      initial: StringEnum(INITIALS, { description: 'Only contacts whose last name or company name starts with this letter.' }),
      query: Text('Wildcard search in name, title, email address, address, phone number, web site, messenger handle and custom fields.'),
      shared_resource_id: IdFilter('Only contacts that currently have access to this shared resource.', notNull),
      type: StringEnum(['Company', 'Person'], { description: 'Only companies or only people.' }),
    },
    getParams: { 'custom_field_ids[]': IdList('Custom fields whose values to include in custom_field_values') },
    body: contactBody,
    required: ['name', 'type'],
    text: {
      list: 'Lists contacts (people and companies) — clients, opposing parties, vendors — by name search, initial, type or client status; the ids go into matters (client), bills and activities.',
      get: 'Returns one contact; the id comes from list_contacts. Ask for email_addresses{address},phone_numbers{number},addresses{street,city} in fields for the contact details.',
      create:
        'Creates a contact: name and type (Person or Company) are required; give email_addresses, phone_numbers and addresses as arrays, a person’s employer as company: {"id": <company contact id>}.',
      update:
        'Changes a contact (id from list_contacts); entries of email_addresses, phone_numbers and addresses with an id change that entry, "_destroy": true removes it.',
      delete:
        'Deletes a contact (id from list_contacts); contacts that are clients of matters or have bills cannot be deleted. Answers 204 with no body.',
    },
  },
  {
    key: 'email_addresses',
    path: '/contacts/:contact_id/email_addresses',
    clio: '/contacts/:contact_id/email_addresses',
    record: ['contact_email_address', 'contact_email_addresses'],
    verbs: ['list'],
    about: 'Email addresses of one contact.',
    fields: 'id,name,address,primary',
    order: null,
    text: {
      list: 'Lists the email addresses of one contact (contact_id from list_contacts), with their kind (Work, Home…) and which is primary.',
    },
  },
  {
    key: 'communications',
    path: '/communications',
    clio: '/communications',
    record: ['communication', 'communications'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Logged emails and phone calls, usually filed under a matter.',
    fields: 'id,type,subject,body,received_at,matter{id,display_number},senders{id,name},receivers{id,name}',
    order: 'date(asc)',
    filters: {
      contact_id: IdFilter('Only communications with this contact.', notNull),
      matter_id: IdFilter('Only communications filed under this matter.', nullable),
      user_id: IdFilter('Only communications of this user.', notNull),
      date: Day('Only communications on this date'),
      received_at: Moment('Only communications received at this time'),
      received_since: Moment('Only communications received on or after this time'),
      received_before: Moment('Only communications received on or before this time'),
      having_time_entries: Flag('Only communications with (true) or without (false) time entries.'),
      query: Text('Wildcard search in subject and body.'),
      type: StringEnum(COMMUNICATION_TYPES, { description: 'Only emails or only phone calls.' }),
      ...EXTERNAL_FILTERS,
    },
    listRules: EXTERNAL_RULES,
    body: communicationBody,
    required: ['type', 'subject', 'body', 'received_at'],
    text: {
      list: 'Lists logged communications (emails and phone calls) by matter, contact, user, date or type; query searches subject and body. Their ids go into activities (communication_id) for time spent.',
      get: 'Returns one communication (email or phone call); the id comes from list_communications.',
      create:
        'Logs a phone call or an email with a client or any other contact: type, subject, body and received_at are required; file it with matter: {"id": <matter id>}, and name senders and receivers as [{ "id", "type": "User" | "Contact" }].',
      update: 'Changes a logged communication (id from list_communications): subject, body, matter, senders or receivers.',
      delete: 'Deletes a logged communication (id from list_communications). Answers 204 with no body.',
    },
  },
  {
    key: 'documents',
    path: '/documents',
    clio: '/documents',
    record: ['document', 'documents'],
    verbs: ['list', 'get', 'create', 'delete'],
    about: 'Documents stored in Clio, in matter and contact folders.',
    fields: DOCUMENT_FIELDS,
    order: 'id(asc)',
    filters: {
      ...itemFilters('documents'),
      parent_id: IdFilter('Only documents in this folder (ids from list_folders).', nullable),
      locked: Flag('Only locked documents.'),
      show_uncompleted: Flag('Include documents whose upload has not finished.'),
    },
    listRules: EXTERNAL_RULES,
    body: {
      ...documentBody,
      filename: Str('Name of the file.'),
      content_type: Str('MIME type of the file (application/pdf).'),
    },
    required: ['name', 'parent'],
    text: {
      list: 'Lists documents by matter, contact, folder (parent_id, with scope children or descendants), category or name search; show_uncompleted and include_deleted add unfinished uploads and trashed documents.',
      get: 'Returns one document’s details (not its content); the id comes from list_documents or list_folder_contents.',
      create:
        'Creates a document and its first version: name and parent ({"id", "type": "Folder" | "Matter"}) are required. Ask for latest_document_version{uuid,put_url,put_headers} in fields, upload the file to put_url, then update_document with uuid and fully_uploaded=true.',
      delete: 'Moves a document to the trash (id from list_documents). Answers 204 with no body.',
    },
  },
  {
    key: 'documents',
    path: '/documents',
    clio: '/documents',
    record: ['document', 'documents'],
    verbs: ['update'],
    about: 'Documents stored in Clio, in matter and contact folders.',
    fields: DOCUMENT_FIELDS,
    body: {
      ...documentBody,
      uuid: Str('UUID of the uploaded version (from the create or update answer), given with fully_uploaded.'),
      fully_uploaded: Bool('Mark the upload of the version finished.'),
      copy_version: Bool('Start the new version from a copy of the latest one.'),
      restore: Bool('Restore the document from the trash.'),
    },
    text: {
      update:
        'Changes a document (id from list_documents): rename, move (parent), recategorize or restore it; with multiparts it starts a new version (upload to its put_url), finished by uuid and fully_uploaded=true.',
    },
  },
  {
    key: 'document_versions',
    path: '/documents/:id/versions',
    clio: '/documents/:id/versions',
    record: ['document_version', 'document_versions'],
    verbs: ['list'],
    about: 'The versions of one document.',
    fields: 'id,version_number,filename,size,content_type,fully_uploaded,created_at',
    order: null,
    filters: { fully_uploaded: Flag('Only versions whose upload finished (true) or not (false).') },
    text: {
      list: 'Lists the versions of one document (its id from list_documents), newest uploads included; fully_uploaded=true leaves out unfinished uploads.',
    },
  },
  {
    key: 'folders',
    path: '/folders',
    clio: '/folders',
    record: ['folder', 'folders'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Folders that hold documents, per matter or contact.',
    fields: 'id,name,parent{id,name},matter{id,display_number},created_at,root',
    order: 'id(asc)',
    filters: { ...itemFilters('folders'), parent_id: IdFilter('Only folders in this folder.', notNull) },
    listRules: EXTERNAL_RULES,
    body: {
      name: Str('Name of the folder.'),
      parent: documentParent('the folder'),
      document_category: Ref('document category', 'ids from list_document_categories'),
      external_properties: List('External properties, as [{ "name": "…", "value": "…" }].'),
      restore: Bool('Restore the folder from the trash.'),
    },
    required: ['name', 'parent'],
    text: {
      list: 'Lists folders by matter, contact, parent folder (parent_id, with scope children or descendants), category or name; list_folder_contents gives folders and documents together.',
      get: 'Returns one folder; the id comes from list_folders or list_folder_contents.',
      create: 'Creates a folder: name and parent ({"id", "type": "Folder" | "Matter"}) are required.',
      update: 'Renames, moves (parent), recategorizes or restores a folder (id from list_folders).',
      delete: 'Moves a folder and its contents to the trash (id from list_folders). Answers 204 with no body.',
    },
  },
  {
    key: 'folder_contents',
    path: '/folders/list',
    clio: '/folders/list',
    record: ['folder_content', 'folder_contents'],
    verbs: ['list'],
    about: 'The folders and documents inside a folder, together.',
    fields: 'id,name,type,created_at,updated_at,parent{id}',
    order: 'id(asc)',
    filters: {
      ...itemFilters('items'),
      parent_id: IdFilter('The folder whose contents to list (ids from list_folders); without it the root folder.', notNull),
      show_uncompleted: Flag('Include documents whose upload has not finished.'),
    },
    listRules: EXTERNAL_RULES,
    text: {
      list: 'Lists what is in a folder — its folders and documents in one list, each with its type — like a file browser; parent_id is the folder (from list_folders).',
    },
  },
  {
    key: 'comments',
    path: '/comments',
    clio: '/comments',
    record: ['comment', 'comments'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Comments on documents and folders.',
    fields: 'id,message,created_at,updated_at',
    order: null,
    filters: { item_id: IdFilter('Only comments on this document or folder (ids from list_documents or list_folders).', notNull) },
    body: {
      item: Obj('The document or folder commented on, as { "id": <id> } (ids from list_documents or list_folders).'),
      message: Str('Text of the comment.'),
    },
    required: ['item', 'message'],
    text: {
      list: 'Lists comments left on documents and folders; item_id narrows them to one document or folder.',
      get: 'Returns one comment; the id comes from list_comments.',
      create: 'Comments on a document or folder: item ({"id": <document or folder id>}) and message are required.',
      update: 'Changes the text of a comment (id from list_comments).',
      delete: 'Deletes a comment (id from list_comments). Answers 204 with no body.',
    },
  },
  {
    key: 'custom_fields',
    path: '/custom_fields',
    clio: '/custom_fields',
    record: ['custom_field', 'custom_fields'],
    verbs: ['get', 'create', 'delete'],
    about: 'Custom fields the firm defined for matters and contacts.',
    fields: CUSTOM_FIELD_FIELDS,
    body: {
      ...customFieldBody,
      field_type: StringEnum(FIELD_TYPES, { description: 'Kind of value (cannot change after creation).' }),
      parent_type: StringEnum(['Contact', 'Matter'], {
        description: 'Whether the field is on contacts or matters (cannot change after creation).',
      }),
    },
    required: ['name', 'field_type', 'parent_type'],
    text: {
      get: 'Returns one custom field; the id comes from list_custom_fields. Ask for picklist_options{id,option} to get a picklist’s choices.',
      create:
        'Defines a custom field for matters or contacts: name, field_type and parent_type are required; a picklist takes picklist_options.',
      delete: 'Deletes a custom field and its values (id from list_custom_fields). Answers 204 with no body.',
    },
  },
  {
    key: 'custom_fields',
    path: '/custom_fields',
    clio: '/custom_fields',
    record: ['custom_field', 'custom_fields'],
    verbs: ['update'],
    about: 'Custom fields the firm defined for matters and contacts.',
    fields: CUSTOM_FIELD_FIELDS,
    body: customFieldBody,
    text: {
      update:
        'Changes a custom field (id from list_custom_fields): name, display, required, order or picklist options; its type and parent type stay.',
    },
  },
  {
    key: 'custom_field_sets',
    path: '/custom_field_sets',
    clio: '/custom_field_sets',
    record: ['custom_field_set', 'custom_field_sets'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Named groups of custom fields shown together on matters or contacts.',
    fields: 'id,name,parent_type,displayed,custom_fields{id,name}',
    order: 'id(asc)',
    filters: {
      displayed: Flag('Only sets shown by default.'),
      parent_type: StringEnum(['Matter', 'Contact'], { description: 'Only sets of matters or of contacts.' }),
      query: Text('Wildcard search in the name.'),
    },
    body: {
      name: Str('Name of the set.'),
      parent_type: StringEnum(['Contact', 'Matter'], { description: 'Whether the set is for contacts or matters.' }),
      displayed: Bool('Show the set by default.'),
    },
    required: ['name'],
    text: {
      list: 'Lists custom field sets (groups of custom fields shown together on matters or contacts); ask for custom_fields{id,name} to see their members.',
      get: 'Returns one custom field set; the id comes from list_custom_field_sets.',
      create: 'Creates a custom field set; name is required, parent_type says whether it is for matters or contacts.',
      update: 'Renames a custom field set or changes whether it is shown (id from list_custom_field_sets).',
      delete: 'Deletes a custom field set (id from list_custom_field_sets); its custom fields stay. Answers 204 with no body.',
    },
  },
];
