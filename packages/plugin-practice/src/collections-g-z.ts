import { atLeastOne, StringEnum, Type } from '@portico/core';
import { COLLECTIONS_G_Z_2 } from './collections-g-z-2.js';
import { COLLECTIONS_G_Z_3 } from './collections-g-z-3.js';
import { COLLECTIONS_G_Z_4 } from './collections-g-z-4.js';
import type { CollectionRow } from './factory.js';
import { BodyDay, BodyMoment, Bool, Day, Flag, IdFilter, List, Obj, Ref, Str, Text } from './schemas.js';

// The collection table, operations whose Clio tag starts with G to Z (matters, tasks, notes, users …), in the same form as
// collections.ts; the rows continue in collections-g-z-2.ts and collections-g-z-3.ts and collections-g-z-4.ts. Parameter names, types, value sets and
// required fields are those of Clio's OpenAPI document; operations that do not fit a row are in operations-g-z.ts.

const nullable = { nullable: true } as const;
const notNull = { nullable: false } as const;
const Int = Type.Integer;

const ROWS: readonly CollectionRow[] = [
  {
    key: 'matters',
    path: '/matters',
    clio: '/matters',
    record: ['matter', 'matters'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Matters: the cases and files a firm works on, each with a client.',
    fields: 'id,display_number,description,status,open_date,client{id,name},practice_area{id,name},responsible_attorney{id,name}',
    order: 'id(asc)',
    filters: {
      billable: Flag('Only billable (true) or non-billable (false) matters.'),
      client_id: IdFilter('Only matters of this client (a contact).', notNull),
      'close_date[]': Type.Array(
        Type.String({
          pattern: '^(>|>=|=|<=|<)[0-9]{4}-[0-9]{2}-[0-9]{2}$',
          'x-portico-expects': 'an operator (>, >=, =, <=, <) and a date, e.g. >=2026-01-01',
        }),
        { description: 'Only matters whose close date compares so (operator and YYYY-MM-DD); repeat close_date[] for a range.' },
      ),
      currency_id: IdFilter('Only matters in this currency (ids from list_currencies).', notNull),
      'custom_field_ids[]': Type.Array(Type.String({ pattern: '^[0-9]+$' }), {
        description: 'Custom fields whose values to return (ids from list_custom_fields; repeat custom_field_ids[] in a query string).',
      }),
      grant_id: IdFilter('Only matters funded by this grant (ids from list_grants).', nullable),
      group_id: IdFilter('Only matters of this group (ids from list_groups).', notNull),
      notification_event_subscriber_user_id: IdFilter('Only matters this user gets notifications of.', nullable),
      'open_date[]': Type.Array(
        Type.String({
          pattern: '^(>|>=|=|<=|<)[0-9]{4}-[0-9]{2}-[0-9]{2}$',
          'x-portico-expects': 'an operator (>, >=, =, <=, <) and a date, e.g. >=2026-01-01',
        }),
        { description: 'Only matters whose open date compares so (operator and YYYY-MM-DD); repeat open_date[] for a range.' },
      ),
      originating_attorney_id: IdFilter('Only matters with this originating attorney (a user).', nullable),
      'pending_date[]': Type.Array(
        Type.String({
          pattern: '^(>|>=|=|<=|<)[0-9]{4}-[0-9]{2}-[0-9]{2}$',
          'x-portico-expects': 'an operator (>, >=, =, <=, <) and a date, e.g. >=2026-01-01',
        }),
        { description: 'Only matters whose pending date compares so (operator and YYYY-MM-DD); repeat pending_date[] for a range.' },
      ),
      practice_area_id: IdFilter('Only matters in this practice area (ids from list_practice_areas).', notNull),
      query: Text('Wildcard search in display_number or number or description or first_name or last_name or name.'),
      responsible_attorney_id: IdFilter('Only matters with this responsible attorney (a user).', nullable),
      responsible_staff_id: IdFilter('Only matters with this responsible staff member (a user).', nullable),
      status: StringEnum(['open', 'closed', 'pending'], { description: 'Only open, pending or closed matters.' }),
      subscriber_user_id: IdFilter('Only matters this user subscribes to.', nullable),
    },
    getParams: {
      'custom_field_ids[]': Type.Array(Type.String({ pattern: '^[0-9]+$' }), {
        description: 'Custom fields whose values to return (ids from list_custom_fields; repeat custom_field_ids[] in a query string).',
      }),
    },
    body: {
      billable: Bool('Whether work on the matter is billed.'),
      client: Ref('client'),
      client_reference: Str('The client’s own reference for the matter.'),
      close_date: BodyDay('Day the matter was closed'),
      currency: Obj('Currency of the matter, as { "id": <currency id> } (ids from list_currencies).'),
      custom_field_set_associations: List('Custom field set associations, as [{ "display_order": <integer>, "custom_field_set": { … } }].'),
      custom_field_values: List(
        'Custom field values, as [{ "custom_field": { "id": <custom field id> }, "value": … }] (ids from list_custom_fields).',
      ),
      custom_rate: Obj('Custom rate, as { "type": "FlatRate" | "HourlyRate" | "ContingencyFee", "rates": […] }.'),
      description: Str('What the matter is about; required on create.'),
      display_number: Str('Matter number; Clio numbers the matter itself unless given.'),
      evergreen_retainer: Obj('Evergreen retainer, as { "minimum_threshold": <number>, "recipients": […] }.'),
      group: Ref('group'),
      location: Str('Where the matter is (court, county …).'),
      matter_budget: Obj(
        'Matter budget, as { "_destroy": <boolean>, "budget": <number>, "include_expenses": <boolean>, "notification_threshold": <integer>, "notify_users": <boolean> }.',
      ),
      matter_stage: Ref('matter stage'),
      open_date: BodyDay('Day the matter was opened'),
      originating_attorney: Ref('originating attorney'),
      pending_date: BodyDay('Day the matter became pending'),
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
      list: 'Lists matters by client, status, attorney, practice area, group or open/close/pending dates; query matches the display number and description. close_date[], open_date[] and pending_date[] take an operator and a date (>=2026-01-01) and may be repeated.',
      get: 'Returns one matter — its client, status, practice area and responsible attorney; the id comes from list_matters or create_matter. custom_field_ids[] limits the custom field values returned.',
      create:
        'Opens a matter: client ({"id": <contact id>}) and description are required; practice_area, responsible_attorney ({"id": <user id>}) and status (open, pending, closed) are the usual extras.',
      update:
        'Changes a matter (id from list_matters): status (close it with status closed and close_date), attorneys, practice area, description.',
      delete: 'Deletes a matter (id from list_matters) with what hangs on it. Answers 204 with no body.',
    },
  },
  {
    key: 'tasks',
    path: '/tasks',
    clio: '/tasks',
    record: ['task', 'tasks'],
    verbs: ['list', 'get', 'create', 'delete'],
    about: 'Tasks: to-dos with a due date, assigned to users or contacts, usually on a matter.',
    fields: 'id,name,status,priority,due_at,completed_at,matter{id,display_number},assignee{id,name,type}',
    order: 'id(asc)',
    filters: {
      assignee_id: IdFilter('Only tasks assigned to this user or contact (say which with assignee_type).', nullable),
      assignee_type: StringEnum(['user', 'contact'], {
        description: 'Whether assignee_id is a user or a contact; needed with assignee_id.',
      }),
      assigner_id: IdFilter('Only tasks assigned by this user.', nullable),
      cascading_source_id: IdFilter('Only tasks whose due date cascades from this task.', notNull),
      client_id: IdFilter('Only tasks on matters of this client (a contact).', nullable),
      complete: Flag('Only complete (true) or incomplete (false) tasks.'),
      due_at_from: Day('Only tasks with due at on or after this date'),
      due_at_present: Flag('Only tasks with (true) or without (false) a due date.'),
      due_at_to: Day('Only tasks with due at on or before this date'),
      matter_id: IdFilter('Only tasks of this matter.', nullable),
      permission: StringEnum(['private', 'public'], { description: 'Only private or only public tasks.' }),
      priority: StringEnum(['high', 'normal', 'low'], { description: 'Only tasks with this priority.' }),
      query: Text('Wildcard search in name or description.'),
      responsible_attorney_id: IdFilter('Only tasks on matters with this responsible attorney (a user).', notNull),
      status: StringEnum(['pending', 'in_progress', 'in_review', 'complete'], {
        description: 'Only tasks in this status (without advanced tasks: pending or complete).',
      }),
      'statuses[]': Type.Array(StringEnum(['pending', 'in_progress', 'in_review', 'complete']), {
        description: 'Only tasks with one of these statuses values (repeat statuses[] in a query string).',
      }),
      statute_of_limitations: Flag('Only statute-of-limitations tasks (true) or the others (false).'),
      task_type_id: IdFilter('Only tasks of this task type (ids from list_task_types).', nullable),
      time_entries_present: Flag('Only tasks with (true) or without (false) time entries.'),
    },
    body: {
      assignee: Obj('Assignee, as { "id": <id>, "type": "User" | "Contact" }.'),
      cascading: Bool('Derive the due date from another task (cascading_source).'),
      cascading_offset: Int({ description: 'How far from the source task’s due date, in cascading_offset_polarity units.' }),
      cascading_offset_polarity: StringEnum(['CalendarDays', 'CalendarWeeks', 'CalendarMonths', 'CalendarYears', 'BusinessDays'], {
        description: 'Unit of cascading_offset (Clio’s document lists these values under this name).',
      }),
      cascading_offset_type: StringEnum(['Before', 'After'], {
        description: 'Before or after the source task’s due date (Clio’s document lists these values under this name).',
      }),
      cascading_source: Int({ description: 'Id of the task the due date derives from.' }),
      description: Str('What to do (rich text when description_text_type is rich_text).'),
      description_text_type: StringEnum(['plain_text', 'rich_text'], { description: 'Description text type.' }),
      due_at: BodyMoment('When the task is due'),
      matter: Ref('matter'),
      name: Str('Title of the task.'),
      notify_assignee: Bool('Notify the assignee when the task is created.'),
      notify_completion: Bool('Notify the assigner when the task is completed.'),
      permission: StringEnum(['private', 'public'], { description: 'public (default) or private to the assignee.' }),
      priority: StringEnum(['High', 'Normal', 'Low'], { description: 'High, Normal or Low (default Normal).' }),
      status: StringEnum(['pending', 'in_progress', 'in_review', 'complete'], {
        description: 'pending, in_progress, in_review or complete (without advanced tasks: pending or complete).',
      }),
      statute_of_limitations: Bool('Mark the task as a statute-of-limitations deadline.'),
      task_type: Ref('task type'),
      time_estimated: Int({ description: 'Estimated time, in seconds.' }),
    },
    required: ['name', 'description', 'assignee'],
    text: {
      list: 'Lists tasks by matter, assignee (assignee_id with assignee_type), status, priority, due dates (due_at_from, due_at_to) or task type; query searches name and description.',
      get: 'Returns one task; the id comes from list_tasks or create_task.',
      create:
        'Creates a task (a to-do) assigned to a user or contact: name, description and assignee ({"id": <user or contact id>, "type": "User" | "Contact"}) are required; matter ({"id": <matter id>}) and due_at put it on a matter’s schedule.',
      delete: 'Deletes a task (id from list_tasks). Answers 204 with no body.',
    },
  },
  {
    key: 'tasks_update',
    path: '/tasks',
    clio: '/tasks',
    record: ['task', 'tasks'],
    verbs: ['update'],
    about: 'Tasks: to-dos with a due date, assigned to users or contacts, usually on a matter.',
    fields: 'id,name,status,priority,due_at,completed_at,matter{id,display_number},assignee{id,name,type}',
    body: {
      assignee: Obj('Assignee, as { "id": <id>, "type": "User" | "Contact" }.'),
      cascading: Bool('Derive the due date from another task (cascading_source).'),
      cascading_offset: Int({ description: 'How far from the source task’s due date, in cascading_offset_polarity units.' }),
      cascading_offset_polarity: StringEnum(['CalendarDays', 'CalendarWeeks', 'CalendarMonths', 'CalendarYears', 'BusinessDays'], {
        description: 'Unit of cascading_offset (Clio’s document lists these values under this name).',
      }),
      cascading_offset_type: StringEnum(['Before', 'After'], {
        description: 'Before or after the source task’s due date (Clio’s document lists these values under this name).',
      }),
      cascading_source: Int({ description: 'Id of the task the due date derives from.' }),
      description: Str('What to do (rich text when description_text_type is rich_text).'),
      description_text_type: StringEnum(['plain_text', 'rich_text'], { description: 'Description text type.' }),
      due_at: BodyMoment('When the task is due'),
      matter: Ref('matter'),
      name: Str('Title of the task.'),
      notify_assignee: Bool('Notify the assignee when the task is created.'),
      notify_completion: Bool('Notify the assigner when the task is completed.'),
      permission: StringEnum(['private', 'public'], { description: 'public (default) or private to the assignee.' }),
      priority: StringEnum(['High', 'Normal', 'Low'], { description: 'High, Normal or Low (default Normal).' }),
      status: StringEnum(['pending', 'in_progress', 'in_review', 'complete'], {
        description: 'pending, in_progress, in_review or complete (without advanced tasks: pending or complete).',
      }),
      task_type: Ref('task type'),
      time_estimated: Int({ description: 'Estimated time, in seconds.' }),
    },
    text: {
      update: 'Changes a task (id from list_tasks): mark it done with status complete, move due_at, reassign it.',
    },
  },
  {
    key: 'notes',
    path: '/notes',
    clio: '/notes',
    record: ['note', 'notes'],
    verbs: ['list', 'get', 'create', 'delete'],
    about: 'Notes written on matters and contacts.',
    fields: 'id,subject,detail,date,type,matter{id,display_number},contact{id,name}',
    order: 'id(asc)',
    filters: {
      contact_id: IdFilter('Only notes of this contact.', notNull),
      has_time_entries: Flag('Only notes with (true) or without (false) time entries.'),
      matter_id: IdFilter('Only notes of this matter.', notNull),
      query: Text('Wildcard search in the notes.'),
      type: StringEnum(['Matter', 'Contact'], { description: 'Matter notes or contact notes; Clio requires it.' }),
    },
    listRules: [atLeastOne('type')],
    body: {
      contact: Ref('contact'),
      date: BodyDay('Date of the note'),
      detail: Str('Text of the note.'),
      detail_text_type: Str('plain_text or rich_text.'),
      matter: Ref('matter'),
      notification_event_subscribers: List('Notification event subscribers, as [{ "user_id": <string> }].'),
      subject: Str('Subject line of the note.'),
      type: StringEnum(['Matter', 'Contact'], { description: 'Matter or Contact: what the note is written on.' }),
    },
    required: ['contact', 'matter', 'type'],
    text: {
      list: 'Lists the notes of matters or of contacts: type (Matter or Contact) is required by Clio, with matter_id or contact_id for one record’s notes; query searches the notes.',
      get: 'Returns one note; the id comes from list_notes or create_note.',
      create:
        'Writes a note: type (Matter or Contact) is required, with matter ({"id": <matter id>}) or contact ({"id": <contact id>}) to match; subject and detail carry the text.',
      delete: 'Deletes a note (id from list_notes). Answers 204 with no body.',
    },
  },
];

/** Every row of the G–Z group. */
export const COLLECTIONS_G_Z: readonly CollectionRow[] = [...ROWS, ...COLLECTIONS_G_Z_2, ...COLLECTIONS_G_Z_3, ...COLLECTIONS_G_Z_4];
