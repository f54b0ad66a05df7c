import { StringEnum, Type } from '@portico/core';
import type { CollectionRow } from './factory.js';
import { REPORT_FORMATS, REPORT_KINDS } from './report-kinds.js';
import { BodyDay, BodyMoment, Bool, Day, Flag, IdFilter, List, Moment, Num, Str, Text } from './schemas.js';

// The collection table, continued from collections-g-z.ts.

const nullable = { nullable: true } as const;
const notNull = { nullable: false } as const;
const Id = Type.Integer;
const Int = Type.Integer;

export const COLLECTIONS_G_Z_3: readonly CollectionRow[] = [
  {
    key: 'log_entries',
    path: '/log_entries',
    clio: '/log_entries',
    record: ['log_entry', 'log_entries'],
    verbs: ['list'],
    about: 'The account’s activity log (who viewed or changed what).',
    fields: 'id,type,accessed_at,user{id,name},item{id,type}',
    order: 'id(asc)',
    text: {
      list: 'Lists log entries — the account’s audit trail of records viewed and changed, newest first when ordered by accessed_at(desc).',
    },
  },
  {
    key: 'matter_contacts',
    path: '/matters/:matter_id/contacts',
    clio: '/matters/:matter_id/contacts',
    record: ['matter_contact', 'matter_contacts'],
    verbs: ['list'],
    about: 'The contacts of a matter: its client and related contacts.',
    fields: 'id,name,type,is_client,relationship{id,description}',
    order: 'is_client(asc)',
    filters: {
      'custom_field_ids[]': Type.Array(Type.String({ pattern: '^[0-9]+$' }), {
        description: 'Custom fields whose values to return (ids from list_custom_fields; repeat custom_field_ids[] in a query string).',
      }),
    },
    text: {
      list: 'Lists the contacts of one matter (matter_id from list_matters) — the client and the related contacts; custom_field_ids[] picks the custom field values to return.',
    },
  },
  {
    key: 'matter_stages',
    path: '/matter_stages',
    clio: '/matter_stages',
    record: ['matter_stage', 'matter_stages'],
    verbs: ['list'],
    about: 'Stages a matter moves through within a practice area.',
    fields: 'id,name,order,practice_area{id,name}',
    order: null,
    filters: {
      practice_area_id: IdFilter('Only matter stages of this practice area.', notNull),
    },
    text: {
      list: 'Lists matter stages, optionally of one practice area (practice_area_id from list_practice_areas); their ids go into a matter’s matter_stage.',
    },
  },
  {
    key: 'medical_bills',
    path: '/medical_bills',
    clio: '/medical_bills',
    record: ['medical_bill', 'medical_bills'],
    verbs: ['update', 'delete'],
    about: 'Medical bills within a medical records request.',
    fields: 'id,name,amount,balance,bill_date',
    body: {
      adjustment: Num('Adjustment.'),
      amount: Num('Amount.'),
      balance: Num('Balance.'),
      bill_date: BodyDay('Bill date'),
      bill_received_date: BodyDay('Bill received date'),
      mark_balance_type_as: StringEnum(['lien', 'outstanding_balance', 'neither'], { description: 'Mark balance type as.' }),
      name: Str('Name.'),
      payers: List('Payers, as [{ "amount": <number>, "holder_id": <integer>, "mark_as_lien": <boolean> }].'),
    },
    text: {
      update:
        'Changes one medical bill of a request (id from get_medical_records_request with medical_bills in fields): amounts, dates, payers.',
      delete: 'Deletes one medical bill of a request (id from get_medical_records_request). Answers 204 with no body.',
    },
  },
  {
    key: 'medical_records',
    path: '/medical_records',
    clio: '/medical_records',
    record: ['medical_record', 'medical_records'],
    verbs: ['update', 'delete'],
    about: 'Medical records within a medical records request.',
    fields: 'id,start_date,end_date',
    body: {
      end_date: BodyMoment('End date'),
      start_date: BodyMoment('Start date'),
    },
    text: {
      update: 'Changes the dates of one medical record of a request (id from get_medical_records_request with medical_records in fields).',
      delete: 'Deletes one medical record of a request (id from get_medical_records_request). Answers 204 with no body.',
    },
  },
  {
    key: 'medical_records_details',
    path: '/medical_records_details',
    clio: '/medical_records_details',
    record: ['medical_records_request', 'medical_records_details'],
    verbs: ['list', 'get', 'create', 'delete'],
    about: 'Medical records requests: what a provider treated and the records and bills asked for (personal injury).',
    fields:
      'id,description,records_status,bills_status,in_treatment,treatment_start_date,medical_provider{id,name},matter{id,display_number}',
    order: null,
    filters: {
      treatment_end_date: Moment('Only medical records details with treatment date on or before this time'),
      treatment_start_date: Moment('Only medical records details with treatment date on or after this time'),
    },
    body: {
      bills_follow_up_date: BodyMoment('Bills follow up date'),
      bills_request_date: BodyMoment('Bills request date'),
      bills_status: StringEnum(['not_yet_requested', 'requested', 'received', 'incomplete', 'certified'], { description: 'Bills status.' }),
      description: Str('Description.'),
      in_treatment: Bool('Whether the client is still in treatment.'),
      matter_id: Id({ description: 'The matter (ids from list_matters).' }),
      medical_bills: List(
        'Medical bills, as [{ "adjustment": <number>, "amount": <number>, "balance": <number>, "bill_date": <date>, "bill_received_date": <date>, "document_id": <integer>, "name": <string>, "mark_balance_type_as": "lien" | "outstanding_balance" | "neither", "payers": […] }].',
      ),
      medical_provider_id: Id({ description: 'The medical provider (a contact).' }),
      medical_records: List('Medical records, as [{ "document_id": <integer>, "end_date": <date-time>, "start_date": <date-time> }].'),
      records_follow_up_date: BodyMoment('Records follow up date'),
      records_request_date: BodyMoment('Records request date'),
      records_status: StringEnum(['not_yet_requested', 'requested', 'received', 'incomplete', 'certified'], {
        description: 'Records status.',
      }),
      treatment_end_date: BodyMoment('Treatment end date'),
      treatment_start_date: BodyMoment('Treatment start date'),
    },
    required: ['bills_status', 'in_treatment', 'matter_id', 'medical_provider_id', 'records_status'],
    text: {
      list: 'Lists medical records requests (providers, treatment dates, records and bills status) for personal-injury matters, by treatment dates.',
      get: 'Returns one medical records request; the id comes from list_medical_records_details.',
      create:
        'Creates a medical records request for a matter: matter_id, medical_provider_id (a contact), in_treatment, records_status and bills_status are required.',
      delete: 'Deletes a medical records request (id from list_medical_records_details). Answers 204 with no body.',
    },
  },
  {
    key: 'medical_records_details_update',
    path: '/medical_records_details',
    clio: '/medical_records_details',
    record: ['medical_records_request', 'medical_records_details'],
    verbs: ['update'],
    about: 'Medical records requests: what a provider treated and the records and bills asked for (personal injury).',
    fields:
      'id,description,records_status,bills_status,in_treatment,treatment_start_date,medical_provider{id,name},matter{id,display_number}',
    body: {
      bills_follow_up_date: BodyMoment('Bills follow up date'),
      bills_request_date: BodyMoment('Bills request date'),
      bills_status: StringEnum(['not_yet_requested', 'requested', 'received', 'incomplete', 'certified'], { description: 'Bills status.' }),
      description: Str('Description.'),
      in_treatment: Bool('Whether the client is still in treatment.'),
      medical_bills: List(
        'Medical bills, as [{ "adjustment": <number>, "amount": <number>, "balance": <number>, "bill_date": <date>, "bill_received_date": <date>, "document_id": <integer>, "name": <string>, "mark_balance_type_as": "lien" | "outstanding_balance" | "neither", "payers": […] }].',
      ),
      medical_provider_id: Id({ description: 'The medical provider (a contact).' }),
      medical_records: List('Medical records, as [{ "document_id": <integer>, "end_date": <date-time>, "start_date": <date-time> }].'),
      records_follow_up_date: BodyMoment('Records follow up date'),
      records_request_date: BodyMoment('Records request date'),
      records_status: StringEnum(['not_yet_requested', 'requested', 'received', 'incomplete', 'certified'], {
        description: 'Records status.',
      }),
      treatment_end_date: BodyMoment('Treatment end date'),
      treatment_start_date: BodyMoment('Treatment start date'),
    },
    text: {
      update: 'Changes a medical records request (id from list_medical_records_details): statuses, follow-up dates, its records and bills.',
    },
  },
  {
    key: 'my_events',
    path: '/internal_notifications/my_events',
    clio: '/internal_notifications/my_events',
    record: ['my_event', 'my_events'],
    verbs: ['list', 'update', 'delete'],
    about: 'The connected user’s in-app notification events.',
    fields: 'id,title,subject,marked_as_read,created_at',
    order: null,
    body: {
      marked_as_read: Bool('Mark read (true) or unread (false).'),
    },
    text: {
      list: 'Lists the in-app notifications (events) of the connected user.',
      update: 'Marks one of the user’s notification events read or unread (id from list_my_events).',
      delete: 'Dismisses one of the user’s notification events (id from list_my_events). Answers 204 with no body.',
    },
  },
  {
    key: 'outstanding_client_balances',
    path: '/outstanding_client_balances',
    clio: '/outstanding_client_balances',
    record: ['outstanding_client_balance', 'outstanding_client_balances'],
    verbs: ['list'],
    about: 'What each client owes on issued bills.',
    fields: 'id,total_outstanding_balance,last_payment_date,contact{id,name}',
    order: null,
    filters: {
      contact_id: IdFilter('Only the balance of this client (a contact).', nullable),
      last_paid_end_date: Day('Only outstanding client balances with last paid date on or before this date'),
      last_paid_start_date: Day('Only outstanding client balances with last paid date on or after this date'),
      newest_bill_due_end_date: Day('Only outstanding client balances with newest bill due date on or before this date'),
      newest_bill_due_start_date: Day('Only outstanding client balances with newest bill due date on or after this date'),
      originating_attorney_id: IdFilter('Only outstanding client balances of this originating attorney.', notNull),
      responsible_attorney_id: IdFilter('Only outstanding client balances of this responsible attorney.', notNull),
    },
    text: {
      list: 'Lists the outstanding balances of clients (unpaid issued bills), by client, attorney, last payment date or newest bill due date.',
    },
  },
  {
    key: 'contact_phone_numbers',
    path: '/contacts/:contact_id/phone_numbers',
    clio: '/contacts/:contact_id/phone_numbers',
    record: ['contact_phone_number', 'contact_phone_numbers'],
    verbs: ['list'],
    about: 'Phone numbers of a contact.',
    fields: 'id,name,number,default_number',
    order: null,
    text: {
      list: 'Lists the phone numbers of one contact (contact_id from the contacts operations).',
    },
  },
  {
    key: 'matter_related_contacts',
    path: '/matters/:matter_id/related_contacts',
    clio: '/matters/:matter_id/related_contacts',
    record: ['matter_related_contact', 'matter_related_contacts'],
    verbs: ['list'],
    about: 'Contacts related to a matter through its relationships.',
    fields: 'id,name,relationship{id,description}',
    order: 'id(asc)',
    text: {
      list: 'Lists the contacts related to one matter (matter_id from list_matters), with their relationship when asked for.',
    },
  },
  {
    key: 'report_presets',
    path: '/report_presets',
    clio: '/report_presets',
    record: ['report_preset', 'report_presets'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Saved report settings that can be generated again or on a schedule.',
    fields: 'id,name,kind,format,category,options',
    order: 'id(asc)',
    filters: {
      category: StringEnum(
        ['billing', 'client', 'compliance', 'financial', 'matter', 'online_payments', 'productivity', 'revenue', 'task'],
        { description: 'Only report presets with this category.' },
      ),
      has_schedule: Flag('Only presets with (true) or without (false) a schedule.'),
      output_format: Text('Only report presets with this output format.'),
      query: Text('Wildcard search in the report presets.'),
      schedule_frequency: StringEnum(['daily', 'weekly', 'monthly'], { description: 'Only report presets with this schedule frequency.' }),
    },
    body: {
      format: StringEnum(REPORT_FORMATS, { description: 'File format of the generated report.' }),
      kind: StringEnum(REPORT_KINDS, { description: 'Kind of report (what it covers).' }),
      name: Str('Name.'),
      options: Str('The report’s settings, as a JSON string.'),
    },
    required: ['name', 'format', 'kind', 'options'],
    text: {
      list: 'Lists report presets (saved report settings) by category, schedule or output format; query searches the name.',
      get: 'Returns one report preset; the id comes from list_report_presets.',
      create: 'Saves a report preset: name, kind, format and options (the report’s settings as a JSON string) are required.',
      update: 'Changes a report preset (id from list_report_presets).',
      delete: 'Deletes a report preset (id from list_report_presets). Answers 204 with no body.',
    },
  },
  {
    key: 'report_schedules',
    path: '/report_schedules',
    clio: '/report_schedules',
    record: ['report_schedule', 'report_schedules'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Schedules that generate a report preset regularly.',
    fields: 'id,frequency,time_of_day,time_zone,next_generation_at,report_preset{id,name}',
    order: null,
    body: {
      day_of_month: Int({ description: 'Day of the month for monthly schedules.' }),
      days_of_week: Type.Array(Type.Integer(), { description: 'Days of week.' }),
      effective_from: BodyDay('Effective from'),
      every_no_of_months: Int({ description: 'Every how many months, for monthly schedules.' }),
      frequency: StringEnum(['daily', 'weekly', 'monthly'], { description: 'Frequency.' }),
      report_preset_id: Id({ description: 'The preset to generate (ids from list_report_presets).' }),
      time_of_day: BodyMoment('Time of day'),
      time_zone: Str('Time zone, one of Clio’s 598 values (e.g. Africa/Abidjan).'),
    },
    required: ['frequency', 'report_preset_id', 'time_of_day', 'time_zone'],
    text: {
      list: 'Lists report schedules (when presets are generated automatically).',
      get: 'Returns one report schedule; the id comes from list_report_schedules.',
      create: 'Schedules a report preset (report_preset_id from list_report_presets): frequency, time_of_day and time_zone are required.',
      update: 'Changes a report schedule (id from list_report_schedules).',
      delete: 'Deletes a report schedule (id from list_report_schedules). Answers 204 with no body.',
    },
  },
];
