import { sandboxToday } from '@portico/core/testing/emulator';
import { badRequest, type Row } from './model.js';

// Clio list filters that do not compare a record's field of the same name (query.ts compares those): bounds on a date
// or time field, and filters whose values are not the field's. Each from the filter's description in Clio's document
// (upstream-specs/practice): "Filter Bill records to those that have a `due_date` after the one provided", …

/** Another collection's record by id (a task's matter), for filters that read through an association. */
export type Related = (template: string, id: unknown) => Row | undefined;

/**
 * A filter's test of one record, given the filter's value (and all its values, for a repeated `name[]` filter) and a
 * way to read the records it refers to.
 */
export type RowTest = (
  row: Row,
  value: string,
  values: readonly string[],
  related: Related,
  query: URLSearchParams,
  /** All the records of another collection (the activities of a matter …). */
  records: (template: string) => readonly Row[],
) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Compares a date or time field with a bound: dates as dates, times as instants. */
function compare(field: unknown, bound: string): number | undefined {
  if (typeof field !== 'string' || field === '') return undefined;
  if (field.length === 10 || bound.length === 10)
    return field.slice(0, 10) < bound.slice(0, 10) ? -1 : field.slice(0, 10) > bound.slice(0, 10) ? 1 : 0;
  return Date.parse(field) - Date.parse(bound);
}

const bound =
  (field: string, keep: (order: number) => boolean): RowTest =>
  (row, value) => {
    // Clio refuses a bound that is no date or time, as it does any malformed parameter.
    if (Number.isNaN(Date.parse(value))) throw badRequest(`must be an ISO-8601 date or timestamp, got "${value}"`);
    const order = compare(row[field], value);
    return order !== undefined && keep(order);
  };

/** Bounds, by filter name: the field they bound and which side they keep. */
const BOUNDS: Record<string, RowTest> = {
  due_after: bound('due_at', (o) => o > 0),
  due_before: bound('due_at', (o) => o < 0),
  issued_after: bound('issued_at', (o) => o > 0),
  issued_before: bound('issued_at', (o) => o < 0),
  last_sent_start_date: bound('last_sent_at', (o) => o >= 0),
  last_sent_end_date: bound('last_sent_at', (o) => o <= 0),
  // Calendar entries "that end on or after" from and "that begin on or before" to.
  from: bound('end_at', (o) => o >= 0),
  to: bound('start_at', (o) => o <= 0),
  due_at_from: bound('due_at', (o) => o >= 0),
  due_at_to: bound('due_at', (o) => o <= 0),
  received_since: bound('received_at', (o) => o >= 0),
  received_before: bound('received_at', (o) => o <= 0),
  created_before: bound('created_at', (o) => o <= 0),
  submitted_after: bound('submitted_at', (o) => o > 0),
  submitted_before: bound('submitted_at', (o) => o < 0),
  last_paid_start_date: bound('last_payment_date', (o) => o >= 0),
  last_paid_end_date: bound('last_payment_date', (o) => o <= 0),
  newest_bill_due_start_date: bound('newest_issued_bill_due_date', (o) => o >= 0),
  newest_bill_due_end_date: bound('newest_issued_bill_due_date', (o) => o <= 0),
};

/** A bill still to be paid whose due date has passed. */
const overdue = (row: Row) =>
  row.state === 'awaiting_payment' && typeof row.due_at === 'string' && row.due_at.slice(0, 10) < sandboxToday();
const idsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]).map((v) => (isObject(v) ? v.id : v));

/** `open_date[]=>=2024-01-01`: each value an operator and a date; a record passes when its date satisfies every one. */
const dated =
  (field: string): RowTest =>
  (row, _, values) =>
    values.every((condition) => {
      const match = /^(>=|<=|=|>|<)(\d{4}-\d{2}-\d{2})$/.exec(condition);
      const order = match ? compare(row[field], match[2] as string) : undefined;
      if (!match || order === undefined) return false;
      return { '>=': order >= 0, '<=': order <= 0, '=': order === 0, '>': order > 0, '<': order < 0 }[match[1] as string] ?? false;
    });

/** A person's last name, or a company's name. */
const surname = (row: Row) => String((row.type === 'Person' ? row.last_name : row.name) ?? row.name ?? '');

/** The matters a record belongs to: its `matter`, or a bill's `matters`. */
const mattersOf = (row: Row, related: Related): Row[] =>
  idsOf(row.matters ?? row.matter)
    .map((id) => related('/matters', id))
    .filter((m): m is Row => m !== undefined);
/** A filter on the record's matter's `<field>` (its client, its responsible attorney …). */
const throughMatter =
  (field: string): RowTest =>
  (row, value, _, related) =>
    mattersOf(row, related).some((m) => isObject(m[field]) && String((m[field] as Record<string, unknown>).id) === value);

/** A boolean filter: `true` keeps the records that pass the test, `false` those that do not. */
const flag =
  (test: (row: Row, related: Related) => boolean): RowTest =>
  (row, value, _, related) => {
    if (value !== 'true' && value !== 'false') throw badRequest(`must be true or false, got "${value}"`);
    return test(row, related) === (value === 'true');
  };

/** The calendar an entry is on. */
const calendarOf = (row: Row, related: Related) => related('/calendars', idsOf(row.calendar_owner)[0]);

/** `external_property_name` alone: records with a property of that name; with `external_property_value`: of that value. */
const EXTERNAL: Record<string, RowTest> = {
  external_property_name: (row, value) => externals(row).some((p) => p.name === value),
  external_property_value: (row, value, _, __, query) => {
    const name = query.get('external_property_name');
    if (name === null) throw badRequest('external_property_value requires external_property_name');
    return externals(row).some((p) => p.name === name && String(p.value) === value);
  },
};
const externals = (row: Row) =>
  (Array.isArray(row.external_properties) ? row.external_properties : []).filter(isObject) as Array<Record<string, unknown>>;

/** The senders and receivers of a communication. */
const participants = (row: Row) =>
  [row.senders, row.receivers].flatMap((list) => (Array.isArray(list) ? list.filter(isObject) : [])) as Array<Record<string, unknown>>;

/**
 * An activity's billing status: billed (on an issued bill), draft (on a draft bill), unbilled (billable and on no
 * bill), non_billable, billable (not non-billable) or written_off.
 */
function activityStatus(row: Row, value: string): boolean {
  const onBill = isObject(row.bill);
  switch (value) {
    case 'billed':
      return row.billed === true;
    case 'draft':
      return row.billed !== true && onBill;
    case 'unbilled':
      return row.billed !== true && row.non_billable !== true && !onBill;
    case 'non_billable':
      return row.non_billable === true;
    case 'billable':
      return row.non_billable !== true;
    case 'written_off':
      return row.written_off === true;
    default:
      throw badRequest(`status must be one of billed, draft, unbilled, non_billable, billable, written_off, got "${value}"`);
  }
}

/**
 * Billable matters (their id is the matter's) and billable clients (with the matters they are billable on): the
 * attorney filters read those matters.
 */
const billableMatters = (row: Row, related: Related): Row[] =>
  (Array.isArray(row.billable_matters) ? idsOf(row.billable_matters) : [row.id])
    .map((id) => related('/matters', id))
    .filter((m): m is Row => m !== undefined);
const billableThrough =
  (field: string): RowTest =>
  (row, value, _, related) =>
    billableMatters(row, related).some((m) => isObject(m[field]) && String(m[field].id) === value);
const BILLABLE: Record<string, RowTest> = {
  originating_attorney_id: billableThrough('originating_attorney'),
  responsible_attorney_id: billableThrough('responsible_attorney'),
  // the report's own period: applied when the activities are summed (reports.ts)
  start_date: () => true,
  end_date: () => true,
};

/** Documents and folders: those with an external property, those in a document category, of a contact. */
const DOCUMENTS: Record<string, RowTest> = {
  ...EXTERNAL,
  // the records in that folder, or (scope=descendants) anywhere below it
  parent_id: (row, value, _, related, query) => {
    if (query.get('scope') !== 'descendants') return value === 'null' ? !isObject(row.parent) : String(idsOf(row.parent)[0]) === value;
    for (let folder = idsOf(row.parent)[0], depth = 0; folder !== undefined && depth < 50; depth += 1) {
      if (String(folder) === value) return true;
      folder = idsOf(related('/folders', folder)?.parent)[0];
    }
    return false;
  },
  // read with parent_id
  scope: (_, value) => {
    if (value !== 'children' && value !== 'descendants') throw badRequest(`scope must be children or descendants, got "${value}"`);
    return true;
  },
  // applied before the filters (hiddenByDefault)
  include_deleted: () => true,
  show_uncompleted: () => true,
};

/**
 * Records a list leaves out unless a filter asks for them: trashed documents and folders (include_deleted), documents
 * still being uploaded (show_uncompleted), co-counsel users (include_co_counsel).
 */
const HIDDEN: Record<string, (row: Row, related: Related) => boolean> = {
  include_deleted: (row) => typeof row.deleted_at === 'string' && row.deleted_at !== '',
  show_uncompleted: (row) => isObject(row.latest_document_version) && row.latest_document_version.fully_uploaded === false,
  include_co_counsel: (row) => row.co_counsel === true,
  // Entries on calendars the current user cannot see (not among the calendars the user's list answers): another user's
  // entries on a matter, which owner_entries_across_all_users=true (with matter_id) asks for.
  owner_entries_across_all_users: (row, related) => isObject(row.calendar_owner) && !calendarOf(row, related),
};
export function hiddenByDefault(filters: readonly string[], query: URLSearchParams, related: Related): (row: Row) => boolean {
  const active = filters.filter((f) => HIDDEN[f] && query.get(f) !== 'true').map((f) => HIDDEN[f] as (typeof HIDDEN)[string]);
  return (row) => active.some((hidden) => hidden(row, related));
}

/** A matter a user subscribes to (its notification event subscribers). */
const subscribedBy: RowTest = (row, value) => idsOf(row.notification_event_subscribers).some((id) => String(id) === value);

const snake = (text: string) => text.replace(/[a-z][A-Z]/g, (m) => `${m[0]}_${m[1]}`).toLowerCase();

/** Filters of one collection whose values are not its field's. */
const OWN: Record<string, Record<string, RowTest>> = {
  // The filter says OperatingAccount / TrustAccount; the record's type is Operating / Trust.
  '/bank_accounts': {
    type: (row, value) => `${String(row.type)}Account` === value,
    // false leaves out the accounts with a zero balance
    show_empty_accounts: (row, value) => value !== 'false' || Number(row.balance ?? 0) !== 0,
  },
  '/bills': {
    status: (row, value) => value === 'all' || (value === 'overdue' && overdue(row)),
    overdue_only: (row, value) => value !== 'true' || overdue(row),
    // revenue or trust bills: the record's kind (revenue_kind, trust_kind).
    type: (row, value) => row.kind === `${value}_kind`,
    // A bill names its matters (several for a client bill).
    matter_id: (row, value) => idsOf(row.matters).some((id) => String(id) === value),
    originating_attorney_id: throughMatter('originating_attorney'),
    responsible_attorney_id: throughMatter('responsible_attorney'),
  },
  // Comma-separated statuses (`open,pending`), compared with the record's capitalised status.
  '/matters': {
    status: (row, value) => value.toLowerCase().split(',').includes(String(row.status).toLowerCase()),
    'open_date[]': dated('open_date'),
    'close_date[]': dated('close_date'),
    'pending_date[]': dated('pending_date'),
    notification_event_subscriber_user_id: subscribedBy,
    subscriber_user_id: subscribedBy,
  },
  '/contacts': {
    // "Those where the last name or company name start with the given initial."
    initial: (row, value) => surname(row).toUpperCase().startsWith(value.toUpperCase()),
    client_only: (row, value) => value !== 'true' || row.is_client === true,
    // Clio Connect users: contacts given access to shared matters, documents or calendars
    clio_connect_only: (row, value) => value !== 'true' || row.is_clio_for_client_user === true,
    email_only: (row, value) => value !== 'true' || (typeof row.primary_email_address === 'string' && row.primary_email_address !== ''),
  },
  '/tasks': {
    'statuses[]': (row, _, values) => values.includes(String(row.status)),
    // "Those which are complete or not": a task is complete when its status is.
    complete: (row, value) => (row.status === 'complete') === (value === 'true'),
    client_id: throughMatter('client'),
    responsible_attorney_id: throughMatter('responsible_attorney'),
    assignee_type: (row, value) => isObject(row.assignee) && String(row.assignee.type).toLowerCase() === value,
    due_at_present: flag((row) => typeof row.due_at === 'string' && row.due_at !== ''),
    time_entries_present: flag((row) => Number(row.time_entries_count ?? 0) > 0),
  },
  // An entry belongs to the calendar it is on (its calendar_owner, a Calendar); its source and visibility are that
  // calendar's.
  '/calendar_entries': {
    calendar_id: (row, value) => isObject(row.calendar_owner) && String(row.calendar_owner.id) === value,
    has_court_rule: flag((row) => row.court_rule === true),
    is_all_day: flag((row) => row.all_day === true),
    source: (row, value, _, related) => calendarOf(row, related)?.source === value,
    visible: flag((row, related) => calendarOf(row, related)?.visible === true),
    ...EXTERNAL,
    // "Returns CalendarEntry records for all users related to a matter. Requires matter id.": true shows the entries on
    // calendars the user cannot see (hiddenByDefault) for the matter matter_id names.
    owner_entries_across_all_users: (_, value, __, ___, query) => {
      if (value !== 'true' && value !== 'false') throw badRequest(`must be true or false, got "${value}"`);
      if (value === 'true' && !query.has('matter_id')) throw badRequest('owner_entries_across_all_users requires matter_id');
      return true;
    },
    // applied before the filters (recurrence.ts), so that from and to see each occurrence
    expanded: () => true,
  },
  // "Exclude Legal Aid UK Practice Areas when activities exist on the matter": Clio's document marks a practice area
  // as legal aid only by its category (`legal_aid`); a matter without activities leaves every practice area listed.
  '/practice_areas': {
    matter_id: (row, value, _, __, ___, records) => {
      if (!/^[0-9]+$/.test(value)) throw badRequest(`matter_id must be a matter id, got "${value}"`);
      const active = records('/activities').some((a) => String(idsOf(a.matter)[0]) === value);
      return !active || row.category !== 'legal_aid';
    },
  },
  '/activity_descriptions': {
    // UTBMS descriptions carry a UTBMS task or activity code; Clio's own do not.
    type: (row, value) => (isObject(row.utbms_task) || isObject(row.utbms_activity) ? 'utbms' : 'clio') === value,
    flat_rate: flag((row) => isObject(row.rate) && row.rate.type === 'Flat'),
    // the descriptions available to the user: those kept for groups the user is in, and those kept for no group
    user_id: (row, value, _, related) =>
      !Array.isArray(row.groups) ||
      row.groups.length === 0 ||
      idsOf(row.groups).some((group) => idsOf(related('/groups', group)?.users).some((user) => String(user) === value)),
  },
  '/activities': {
    status: (row, value) => activityStatus(row, value),
    flat_rate: flag((row) => row.flat_rate === true),
  },
  // Trust money is held for clients (a liability of the firm); operating money is the firm's own (an asset).
  '/bank_transactions': {
    type: (row, value, _, related) => {
      const account = related('/bank_accounts', row.bank_account_id);
      return account !== undefined && (account.type === 'Trust' ? 'liability' : 'asset') === value;
    },
  },
  ...Object.fromEntries(['/billable_matters', '/billable_matters/ids', '/billable_clients'].map((t) => [t, BILLABLE])),
  // A client's balance comes from bills on its matters: the attorney filters read those matters.
  '/outstanding_client_balances': {
    originating_attorney_id: (row, value, _, related) =>
      idsOf(row.associated_matter_ids).some((id) => String(idsOf(related('/matters', id)?.originating_attorney)[0]) === value),
    responsible_attorney_id: (row, value, _, related) =>
      idsOf(row.associated_matter_ids).some((id) => String(idsOf(related('/matters', id)?.responsible_attorney)[0]) === value),
  },
  '/calendars': {
    // "Those that the user owns": the calendars whose permission is owner.
    owner: (row, value) => (row.permission === 'owner') === (value === 'true'),
    // Owners and editors write to a calendar; viewers do not.
    writeable: flag((row) => row.permission === 'owner' || row.permission === 'editor'),
    // true leaves out the user calendars of users whose seat is disabled.
    filter_inactive_users: (row, value, _, related) =>
      value !== 'true' || row.type !== 'UserCalendar' || related('/users', idsOf(row.creator)[0])?.enabled !== false,
  },
  '/clio_payments/links': {
    // "whether or not they have expired"
    active: flag((row) => typeof row.expires_at === 'string' && row.expires_at.slice(0, 10) >= sandboxToday()),
  },
  '/clio_payments/payments': { bill_id: (row, value) => idsOf(row.bills).some((id) => String(id) === value) },
  '/communications': {
    // A contact takes part as a sender or a receiver.
    contact_id: (row, value) => participants(row).some((p) => p.type === 'Contact' && String(p.id) === value),
    // "whose `date` is on or after / on or before the date provided"
    received_since: bound('date', (o) => o >= 0),
    received_before: bound('date', (o) => o <= 0),
    // "those that occur on the specified date": the day of the time given
    received_at: (row, value) => {
      if (Number.isNaN(Date.parse(value))) throw badRequest(`received_at must be an ISO-8601 time, got "${value}"`);
      const day = (time: string) => new Date(time).toISOString().slice(0, 10);
      return typeof row.received_at === 'string' && day(row.received_at) === day(value);
    },
    having_time_entries: flag((row) => Number(row.time_entries_count ?? 0) > 0),
    query: (row, value) => [row.subject, row.body].some((t) => typeof t === 'string' && t.toLowerCase().includes(value.toLowerCase())),
    ...EXTERNAL,
  },
  // treatments that started on or after, ended on or before the time given
  '/medical_records_details': {
    treatment_start_date: bound('treatment_start_date', (o) => o >= 0),
    treatment_end_date: bound('treatment_end_date', (o) => o <= 0),
  },
  // Clio wants the document's id in the query as well as in the path: the path already chose the document.
  '/documents/{id}/versions': { id: () => true },
  '/custom_fields': { visible_and_required: flag((row) => row.displayed === true && row.required === true) },
  '/documents': DOCUMENTS,
  '/folders': DOCUMENTS,
  '/folders/list': DOCUMENTS,
  '/lauk_expense_categories': {
    // The region chooses the rate each category answers (reports.ts), not which categories are listed.
    region: () => true,
    // A category serves civil, criminal and certificated work, or some of them.
    practice_area: (row, value) => row[value.toLowerCase()] === true,
  },
  '/notes': {
    has_time_entries: flag((row) => Number(row.time_entries_count ?? 0) > 0),
    query: (row, value) => [row.subject, row.detail].some((t) => typeof t === 'string' && t.toLowerCase().includes(value.toLowerCase())),
  },
  '/conversations': {
    date: (row, value) => String(row.created_at).slice(0, 10) === value,
    read_status: flag((row) => row.read === true),
    time_entries: flag((row) => Number(row.time_entries_count ?? 0) > 0),
    // a contact among its members
    contact_id: (row, value) =>
      (Array.isArray(row.memberships) ? row.memberships : []).some(
        (m) => isObject(m) && isObject(m.member) && m.member.type === 'Contact' && String(m.member.id) === value,
      ),
    // true: every conversation of the user's groups; false: those the user is a member of.
    for_user: (row, value) => value === 'true' || row.current_user_is_member === true,
  },
  '/allocations': {
    // the parent's kind: a Payment or a CreditMemo
    parent_type: (row, value) => isObject(row.parent) && String(row.parent.type).toLowerCase() === value.toLowerCase(),
  },
  '/users': {
    // Co-counsel are left out unless asked for.
    include_co_counsel: () => true,
    role: (row, value) => Array.isArray(row.roles) && row.roles.includes(value),
  },
  '/groups': { user_id: (row, value) => idsOf(row.users).some((id) => String(id) === value) },
  '/task_template_lists': {
    // empty=true: lists without task templates; false: lists with some.
    empty: flag((row) => Number(row.templates_count ?? 0) === 0),
  },
  '/task_templates': { priority: (row, value) => String(row.priority).toLowerCase() === value.toLowerCase() },
  '/task_types': { enabled: flag((row) => row.deleted_at === null || row.deleted_at === undefined) },
  '/court_rules/jurisdictions': { for_current_account: flag((row) => row.valid_subscription === true) },
  '/court_rules/matter_dockets': {
    matter_status: (row, value, _, related) => String(related('/matters', idsOf(row.matter)[0])?.status ?? '').toLowerCase() === value,
    status: (row, value) => row.status === value.replace(/,$/, ''),
    query: (row, value) =>
      String(row.name ?? '')
        .toLowerCase()
        .includes(value.toLowerCase()),
  },
  '/line_items': {
    // true: only the items shown on the bill (a summary hides the items it sums)
    display: (row, value) => value !== 'true' || row.display !== false,
  },
  '/report_presets': {
    has_schedule: flag((row) => isObject(row.report_schedule)),
    output_format: (row, value) => row.format === value,
    schedule_frequency: (row, value) => isObject(row.report_schedule) && row.report_schedule.frequency === value,
  },
  '/reports': { output_format: (row, value) => row.format === value },
  '/reminders': {
    subject_id: (row, value) => isObject(row.subject) && String(row.subject.id) === value,
    subject_type: (row, value) => isObject(row.subject) && snake(String(row.subject.type)) === value,
  },
};

/** The test of a filter that query.ts's field comparison would get wrong, or undefined. */
export function derivedFilter(template: string, filter: string): RowTest | undefined {
  return OWN[template]?.[filter] ?? BOUNDS[filter];
}
