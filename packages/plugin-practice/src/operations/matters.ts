import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { Bool, ClioId, Day, Fields, Flag, IdFilter, Ids, Int, List, Num, notNull, nullable, Obj, Ref, Text } from '../schemas.js';
import { family, fieldsNote, omit, withFields } from './kit/rows.js';

// Matters: the cases and files a firm works on, each with a client; the contacts tied to a matter (its client, its
// related contacts and their relationships) and the damages claimed on it.

/** A matter date filter: an operator and a date (`>=2026-01-01`), repeated for a range. */
const dateCompared = (which: string) =>
  Type.Array(
    Type.String({
      pattern: '^(>|>=|=|<=|<)[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      'x-portico-expects': 'an operator (>, >=, =, <=, <) and a date, e.g. >=2026-01-01',
    }),
    { description: `Only matters whose ${which} date compares so (operator and YYYY-MM-DD); repeat ${which}_date[] for a range.` },
  );

const customFieldIds = () =>
  Ids('Custom fields whose values to return (ids from list_custom_fields; repeat custom_field_ids[] in a query string).');

const damageBody = {
  matter_id: Int('Matter the damage is claimed on.'),
  amount: Num('Amount.'),
  damage_type: StringEnum(['special', 'general', 'other'], { description: 'Special, general or other damages.' }),
  description: Text('What the damage is.'),
};

const CLIENT_FIELDS = 'id,name,type,primary_email_address,primary_phone_number';
export const getMatterClient = defineOperation({
  name: 'get_matter_client',
  method: 'GET',
  path: '/matters/:matter_id/client',
  summary: 'Get the client contact of a matter (case)',
  description: `Returns the client of one matter, the person or company the firm acts for, with their email and phone when asked for (matter_id from list_matters). ${fieldsNote({ fields: CLIENT_FIELDS })}`,
  params: Params({ matter_id: ClioId('Id of the matter.'), fields: Type.Optional(Fields(CLIENT_FIELDS)) }),
  upstream: (p) => ({ method: 'GET', path: `/matters/${encodeURIComponent(p.matter_id)}/client.json`, ...withFields(p.fields) }),
});

export const matters = family(
  [
    {
      key: 'matters',
      path: '/matters',
      clio: '/matters',
      record: ['matter', 'matters'],
      summaries: {
        list: 'List matters (cases), such as a client’s open matters',
        get: 'Get a matter (case) with its client, status and attorney',
        create: 'Open a new matter (case) for a client',
        update: 'Change or close a matter (case)',
        delete: 'Delete a matter (case)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Matters: the cases and files a firm works on, each with a client.',
      fields: 'id,display_number,description,status,open_date,client{id,name},practice_area{id,name},responsible_attorney{id,name}',
      order: 'id(asc)',
      filters: {
        billable: Flag('Only billable (true) or non-billable (false) matters.'),
        client_id: IdFilter('Only matters of this client (a contact).', notNull),
        'close_date[]': dateCompared('close'),
        currency_id: IdFilter('Only matters in this currency (ids from list_currencies).', notNull),
        'custom_field_ids[]': customFieldIds(),
        grant_id: IdFilter('Only matters funded by this grant (ids from list_grants).', nullable),
        group_id: IdFilter('Only matters of this group (ids from list_groups).', notNull),
        notification_event_subscriber_user_id: IdFilter('Only matters this user gets notifications of.', nullable),
        'open_date[]': dateCompared('open'),
        originating_attorney_id: IdFilter('Only matters with this originating attorney (a user).', nullable),
        'pending_date[]': dateCompared('pending'),
        practice_area_id: IdFilter('Only matters in this practice area (ids from list_practice_areas).', notNull),
        query: Text('Wildcard search in display_number or number or description or first_name or last_name or name.'),
        responsible_attorney_id: IdFilter('Only matters with this responsible attorney (a user).', nullable),
        responsible_staff_id: IdFilter('Only matters with this responsible staff member (a user).', nullable),
        status: StringEnum(['open', 'closed', 'pending'], { description: 'Only open, pending or closed matters.' }),
        subscriber_user_id: IdFilter('Only matters this user subscribes to.', nullable),
      },
      getParams: {
        'custom_field_ids[]': customFieldIds(),
      },
      body: {
        billable: Bool('Whether work on the matter is billed.'),
        client: Ref('client'),
        client_reference: Text('The client’s own reference for the matter.'),
        close_date: Day('Day the matter was closed'),
        currency: Obj('Currency of the matter, as { "id": <currency id> } (ids from list_currencies).'),
        custom_field_set_associations: List(
          'Custom field set associations, as [{ "display_order": <integer>, "custom_field_set": { … } }].',
        ),
        custom_field_values: List(
          'Custom field values, as [{ "custom_field": { "id": <custom field id> }, "value": … }] (ids from list_custom_fields).',
        ),
        custom_rate: Obj('Custom rate, as { "type": "FlatRate" | "HourlyRate" | "ContingencyFee", "rates": […] }.'),
        description: Text('What the matter is about; required on create.'),
        display_number: Text('Matter number; Clio numbers the matter itself unless given.'),
        evergreen_retainer: Obj('Evergreen retainer, as { "minimum_threshold": <number>, "recipients": […] }.'),
        group: Ref('group'),
        location: Text('Where the matter is (court, county …).'),
        matter_budget: Obj(
          'Matter budget, as { "_destroy": <boolean>, "budget": <number>, "include_expenses": <boolean>, "notification_threshold": <integer>, "notify_users": <boolean> }.',
        ),
        matter_stage: Ref('matter stage'),
        open_date: Day('Day the matter was opened'),
        originating_attorney: Ref('originating attorney'),
        pending_date: Day('Day the matter became pending'),
        practice_area: Ref('practice area'),
        relationships: List('Related contacts, as [{ "contact": { "id": <contact id> }, "description": "<role>" }].'),
        reset_matter_number: Bool('Renumber the matter with the firm’s numbering scheme.'),
        responsible_attorney: Ref('responsible attorney'),
        responsible_staff: Ref('responsible staff'),
        split_invoice_payers: List(
          'Split invoice payers, as [{ "contact_id": <integer>, "send_to_bill_recipients": <boolean>, "split_portion": <number> }].',
        ),
        status: StringEnum(['open', 'closed', 'pending'], { description: 'open, pending or closed.' }),
        statute_of_limitations: Obj(
          'Statute of limitations, as { "status": "pending" | "in_progress" | "in_review" | …, "due_at": <date>, "reminders": […] }.',
        ),
        task_template_list_instances: List(
          'Task template list instances, as [{ "task_template_list": { … }, "assignee_id": <integer>, "notify_assignees": <boolean>, "due_at": <date> }].',
        ),
      },
      required: ['client', 'description'],
      text: {
        list: 'Lists matters, the cases and files the firm works on, each with its client, status (open, pending, closed), practice area and attorneys. Filter by client_id, status, responsible_attorney_id, originating_attorney_id, practice_area_id, open_date[]/close_date[] (an operator and a date, such as >=2026-01-01, repeatable) or query (display number and description).',
        get: 'Returns one matter (case) with its client, status, practice area, responsible attorney and dates; the id comes from list_matters or create_matter. custom_field_ids[] limits the custom field values returned.',
        create:
          'Opens a new matter (case file) for a client: client ({"id": <contact id>} from list_contacts or create_contact) and description are required. practice_area, responsible_attorney ({"id": <user id>}) and status (open, pending, closed) are the usual extras.',
        update:
          'Changes a matter (id from list_matters): its status (close it with status closed and close_date), attorneys, practice area, stage or description.',
        delete:
          'Deletes a matter (id from list_matters) with what hangs on it; to keep its history, close it with update_matter instead. Answers 204 with no body.',
      },
    },
    {
      key: 'matter_contacts',
      path: '/matters/:matter_id/contacts',
      clio: '/matters/:matter_id/contacts',
      record: ['matter_contact', 'matter_contacts'],
      summaries: {
        list: 'List everyone on a matter: its client and related contacts',
      },
      verbs: ['list'],
      about: 'The contacts of a matter: its client and related contacts.',
      fields: 'id,name,type,is_client,relationship{id,description}',
      order: 'is_client(asc)',
      filters: {
        'custom_field_ids[]': customFieldIds(),
      },
      without: ['created_since', 'updated_since', 'ids[]'],
      text: {
        list: 'Lists the contacts of one matter (matter_id from list_matters): the client and the related contacts together. custom_field_ids[] picks the custom field values to return.',
      },
    },
    {
      key: 'matter_related_contacts',
      path: '/matters/:matter_id/related_contacts',
      clio: '/matters/:matter_id/related_contacts',
      record: ['matter_related_contact', 'matter_related_contacts'],
      summaries: {
        list: 'List the related contacts of a matter, such as opposing counsel',
      },
      verbs: ['list'],
      about: 'Contacts related to a matter through its relationships.',
      fields: 'id,name,relationship{id,description}',
      order: 'id(asc)',
      without: ['created_since', 'updated_since', 'ids[]'],
      text: {
        list: 'Lists the contacts related to one matter (matter_id from list_matters) other than its client, such as opposing counsel or witnesses, with their relationship when asked for. To add one, use create_relationship.',
      },
    },
    {
      key: 'relationships',
      path: '/relationships',
      clio: '/relationships',
      record: ['relationship', 'relationships'],
      summaries: {
        list: 'List people involved in matters and their roles (relationships)',
        get: 'Get a contact’s role on a matter (relationship)',
        create: 'Add a contact to a matter in a role, such as opposing counsel',
        update: 'Change a contact’s role on a matter (relationship)',
        delete: 'Remove a contact from a matter (relationship)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Relationships: contacts tied to a matter in a role (opposing counsel, witness …).',
      fields: 'id,description,contact{id,name},matter{id,display_number}',
      order: null,
      filters: {
        contact_id: IdFilter('Only relationships of this contact.', notNull),
        matter_id: IdFilter('Only relationships of this matter.', notNull),
      },
      body: {
        contact: Ref('contact'),
        description: Text('The contact’s role on the matter (e.g. Opposing counsel).'),
        matter: Ref('matter'),
      },
      text: {
        list: 'Lists relationships, the contacts involved in matters in a role: opposing counsel, spouse, witness, expert, adjuster. Filter by matter_id or contact_id; the contact records themselves are list_contacts.',
        get: 'Returns one relationship, a contact’s role on a matter with the contact and matter; the id comes from list_relationships.',
        create:
          'Relates a contact to a matter in a role: contact ({"id": <contact id>}), matter ({"id": <matter id>}) and a description of the role such as Opposing counsel. The contact must exist first (create_contact).',
        update: 'Changes a relationship’s role description, contact or matter (id from list_relationships).',
        delete:
          'Removes a contact from a matter by deleting the relationship (id from list_relationships); the contact stays. Answers 204 with no body.',
      },
    },
    {
      key: 'damages',
      path: '/damages',
      clio: '/damages',
      record: ['damage', 'damages'],
      summaries: {
        list: 'List damages claimed on matters (personal injury)',
        get: 'Get a damage amount claimed on a matter',
        create: 'Record a damage amount claimed on a matter',
        update: 'Change a damage amount claimed on a matter',
        delete: 'Delete a damage amount from a matter',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Damages claimed on a matter (personal injury and similar).',
      fields: 'id,amount,damage_type,description,created_at',
      fieldsBy: { update: 'id,amount,damage_type,description' },
      order: null,
      body: damageBody,
      // A damage stays on the matter it was claimed on.
      updateBody: omit(damageBody, 'matter_id'),
      required: ['matter_id', 'amount', 'damage_type', 'description'],
      text: {
        list: 'Lists damages, the amounts claimed on matters by type (special, general, other), such as medical expenses or lost wages in a personal injury case. Medical bills from providers are tracked under medical records (list_medical_records_details).',
        get: 'Returns one damage, an amount claimed on a matter with its type and description; the id comes from list_damages.',
        create:
          'Records a damage claimed on a matter: matter_id, amount, damage_type (special, general, other) and description are required.',
        update: 'Changes a damage’s amount, type or description (id from list_damages); it stays on its matter.',
        delete: 'Deletes a damage claimed on a matter (id from list_damages). Answers 204 with no body.',
      },
    },
  ],
  getMatterClient,
);
