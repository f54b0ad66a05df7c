import type { FilterCase, FilterRecord, SandboxHarness } from '@portico/core/testing';
import { pickValue } from '@portico/core/testing';

// The Clio filters whose value is derived from a record rather than read from its field of the same name (flags such
// as has_court_rule, states such as an activity's billing status, filters through a related record, and filters that
// show records a list leaves out by default): each case from the filter's description in Clio's document.

type Call = SandboxHarness['call'];
type Params = Record<string, unknown>;
type Collect = (call: Call, operation: string, params: Params) => Promise<FilterRecord[]>;

const object = (value: unknown): FilterRecord | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as FilterRecord) : undefined;
const list = (value: unknown): FilterRecord[] => (Array.isArray(value) ? value.map(object).filter((v) => v !== undefined) : []);

/** A flag: `filter=true` keeps the records that pass `test` (or `false` those that do not, when all pass). */
function byFlag(operation: string, filter: string, fields: string, test: (r: FilterRecord) => boolean, base: Params = {}): FilterCase {
  return {
    operation,
    filters: [filter],
    base: { fields: `id,${fields}`, ...base },
    pick: (records) => {
      const some = records.filter(test).length;
      if (some === 0 || some === records.length) return undefined;
      return { params: { [filter]: true }, matches: test, label: `${filter}=true` };
    },
  };
}

/** A filter whose value is read from the record some other way: the most common value that leaves records out. */
function byRead(operation: string, filter: string, fields: string, read: (r: FilterRecord) => unknown, base: Params = {}): FilterCase {
  return {
    operation,
    filters: [filter],
    base: { fields: `id,${fields}`, ...base },
    pick: (records) => {
      const picked = pickValue(records, read);
      return picked && { params: { [filter]: picked.value }, matches: picked.matches, label: `${filter}=${String(picked.value)}` };
    },
  };
}

/**
 * A list that hides some records unless asked (`include_deleted`, `show_uncompleted`, `include_co_counsel`): the
 * unfiltered set asks for them, the filter set to false leaves them out again.
 */
function byShown(operation: string, filter: string, fields: string, hidden: (r: FilterRecord) => boolean, base: Params = {}): FilterCase {
  return {
    operation,
    filters: [filter],
    base: { fields: `id,${fields}`, ...base, [filter]: true },
    pick: (records) =>
      records.some(hidden) ? { params: { [filter]: false }, matches: (r) => !hidden(r), label: `${filter}=false` } : undefined,
  };
}

/** A bound on a date (`YYYY-MM-DD`, or the day's midnight as a time): the lower median for "after", the upper for "before". */
function byDay(operation: string, filter: string, field: string, keep: (order: number) => boolean, asTime = false): FilterCase {
  // the pivot that leaves records on both sides: the upper of two days for "on or after", the lower for "after" …
  const upper = keep(1) === keep(0);
  return {
    operation,
    filters: [filter],
    base: { fields: `id,${field}` },
    pick: (records) => {
      const days = [...new Set(records.map((r) => String(r[field] ?? '').slice(0, 10)).filter(Boolean))].sort();
      if (days.length < 2) return undefined;
      const pivot = days[upper ? Math.ceil((days.length - 1) / 2) : Math.floor((days.length - 1) / 2)] as string;
      return {
        // as a time: the start of the day for a lower bound, its end for an upper one
        params: { [filter]: asTime ? `${pivot}T${keep(1) ? '00:00:00' : '23:59:59'}Z` : pivot },
        matches: (r) => {
          const text = String(r[field] ?? '').slice(0, 10);
          return text !== '' && keep(text.localeCompare(pivot));
        },
        label: `${filter}=${pivot} (on ${field})`,
      };
    },
  };
}

/** `external_property_name`, and its value with the name. */
function byExternal(operation: string, base: Params = {}): FilterCase[] {
  const props = (r: FilterRecord) => list(r.external_properties);
  return [
    byRead(operation, 'external_property_name', 'external_properties', (r) => props(r).map((p) => p.name), base),
    {
      operation,
      filters: ['external_property_value'],
      base: { fields: 'id,external_properties', ...base },
      pick: (records) => {
        const named = pickValue(records, (r) => props(r).map((p) => p.name));
        if (!named) return undefined;
        const name = named.value;
        const picked = pickValue(records, (r) =>
          props(r)
            .filter((p) => p.name === name)
            .map((p) => p.value),
        );
        return (
          picked && {
            params: { external_property_name: name, external_property_value: picked.value },
            matches: picked.matches,
            label: `${String(name)}=${String(picked.value)}`,
          }
        );
      },
    },
  ];
}

const after = (o: number) => o > 0;
const before = (o: number) => o < 0;
const from = (o: number) => o >= 0;
const until = (o: number) => o <= 0;
const timeLogged = (r: FilterRecord) => Number(r.time_entries_count ?? 0) > 0;
const snake = (text: string) => text.replace(/[a-z][A-Z]/g, (m) => `${m[0]}_${m[1]}`).toLowerCase();
const deleted = (r: FilterRecord) => typeof r.deleted_at === 'string' && r.deleted_at !== '';
const uploading = (r: FilterRecord) => object(r.latest_document_version)?.fully_uploaded === false;
const ids = (value: unknown) => list(value).map((v) => v.id);
const DESCENDANTS = { scope: 'descendants' };

/** The documents and folder lists: what they have in common. */
function documentCases(operation: string, base: Params): FilterCase[] {
  return [
    byShown(operation, 'include_deleted', 'deleted_at', deleted, base),
    ...byExternal(operation, base),
    {
      // children of a folder with sub-folders, against all its descendants
      operation,
      filters: ['scope'],
      base: { fields: 'id,parent{id}', parent_id: 9001, scope: 'descendants' },
      pick: () => ({
        params: { scope: 'children' },
        matches: (r) => object(r.parent)?.id === 9001,
        label: 'scope=children of 9001',
      }),
    },
  ];
}

/** The outstanding balances with the attorneys of the matters each one's bills are on. */
async function balancesWithAttorneys(call: Call, collect: Collect): Promise<FilterRecord[]> {
  const matters = await collect(call, 'list_matters', { fields: 'id,originating_attorney{id},responsible_attorney{id}' });
  const balances = await collect(call, 'list_outstanding_client_balances', { fields: 'id,associated_matter_ids' });
  return balances.map((b) => {
    const of = matters.filter((m) => (b.associated_matter_ids as unknown[]).includes(m.id));
    return {
      ...b,
      originating: of.map((m) => object(m.originating_attorney)?.id),
      responsible: of.map((m) => object(m.responsible_attorney)?.id),
    };
  });
}

/** Billable matters or clients with the attorneys of their matters and the dates of the unbilled work on them. */
async function billableWithMatters(call: Call, collect: Collect, operation: string): Promise<FilterRecord[]> {
  const matters = await collect(call, 'list_matters', { fields: 'id,originating_attorney{id},responsible_attorney{id}' });
  const activities = await collect(call, 'list_activities', { status: 'unbilled', fields: 'id,date,matter{id}' });
  const records = await collect(call, operation, { fields: 'id,billable_matters' });
  return records.map((r) => {
    const mine = Array.isArray(r.billable_matters) ? ids(r.billable_matters) : [r.id];
    const of = matters.filter((m) => mine.includes(m.id));
    return {
      ...r,
      originating: of.map((m) => object(m.originating_attorney)?.id),
      responsible: of.map((m) => object(m.responsible_attorney)?.id),
      dates: activities.filter((a) => mine.includes(object(a.matter)?.id)).map((a) => String(a.date)),
    };
  });
}

function billableCases(collect: Collect, operation: string): FilterCase[] {
  const attorney = (filter: string, field: 'originating' | 'responsible'): FilterCase => ({
    operation,
    filters: [filter],
    base: { fields: 'id' },
    all: (call) => billableWithMatters(call, collect, operation),
    pick: (records) => {
      const picked = pickValue(records, (r) => r[field]);
      return picked && { params: { [filter]: picked.value }, matches: picked.matches, label: `${filter}=${String(picked.value)}` };
    },
  });
  // "those that have matters with unbilled activities on or after / on or before this date"
  const period = (filter: string, keep: (day: string, pivot: string) => boolean, upper: boolean): FilterCase => ({
    operation,
    filters: [filter],
    base: { fields: 'id' },
    all: (call) => billableWithMatters(call, collect, operation),
    pick: (records) => {
      const days = [...new Set(records.flatMap((r) => r.dates as string[]))].sort();
      const pivot = days[upper ? days.length - 1 : 0];
      return pivot === undefined
        ? undefined
        : { params: { [filter]: pivot }, matches: (r) => (r.dates as string[]).some((d) => keep(d, pivot)), label: `${filter}=${pivot}` };
    },
  });
  const clients = operation === 'list_billable_clients';
  return [
    attorney('originating_attorney_id', 'originating'),
    attorney('responsible_attorney_id', 'responsible'),
    period('start_date', (d, p) => d >= p, true),
    period('end_date', (d, p) => d <= p, false),
    byRead(operation, 'matter_id', clients ? 'matter_id' : 'id', (r) => (clients ? r.matter_id : r.id)),
    ...(clients ? [byRead(operation, 'client_id', 'id', (r) => r.id)] : []),
  ];
}

/** The activity descriptions, each with the users it is available to (its groups' users; everyone without groups). */
async function descriptionsWithUsers(call: Call, collect: Collect): Promise<FilterRecord[]> {
  const users = (await collect(call, 'list_users', { fields: 'id' })).map((u) => u.id);
  const groups = await collect(call, 'list_groups', { fields: 'id,users' });
  const descriptions = await collect(call, 'list_activity_descriptions', { fields: 'id,groups' });
  return descriptions.map((d) => {
    const mine = ids(d.groups);
    const available = mine.length === 0 ? users : groups.filter((g) => mine.includes(g.id)).flatMap((g) => ids(g.users));
    return { ...d, available };
  });
}

export function derivedCases(collect: Collect): FilterCase[] {
  const balances = (filter: string, field: 'originating' | 'responsible'): FilterCase => ({
    operation: 'list_outstanding_client_balances',
    filters: [filter],
    base: { fields: 'id' },
    all: (call) => balancesWithAttorneys(call, collect),
    pick: (records) => {
      const picked = pickValue(records, (r) => r[field]);
      return picked && { params: { [filter]: picked.value }, matches: picked.matches, label: `${filter}=${String(picked.value)}` };
    },
  });
  return [
    ...['list_billable_matters', 'list_billable_matter_ids', 'list_billable_clients'].flatMap((o) => billableCases(collect, o)),
    byRead('list_bank_transactions', 'type', 'bank_account{id,type}', (r) =>
      object(r.bank_account)?.type === 'Trust' ? 'liability' : 'asset',
    ),
    byRead('list_clio_payments_payments', 'bill_id', 'bills', (r) => ids(r.bills)),
    byRead(
      'list_lauk_expense_categories',
      'practice_area',
      'civil,criminal,certificated',
      (r) => ['civil', 'criminal', 'certificated'].filter((area) => r[area] === true),
      { region: 'London' },
    ),
    byFlag('list_activities', 'flat_rate', 'flat_rate', (r) => r.flat_rate === true),
    {
      ...byFlag('list_activities', 'status', 'billed,non_billable,bill{id}', () => true),
      pick: () => ({
        params: { status: 'unbilled' },
        matches: (r) => r.billed !== true && r.non_billable !== true && object(r.bill) === undefined,
        label: 'status=unbilled',
      }),
    },
    {
      operation: 'list_activity_descriptions',
      filters: ['user_id'],
      base: { fields: 'id' },
      all: (call) => descriptionsWithUsers(call, collect),
      pick: (records) => {
        const picked = pickValue(records, (r) => r.available);
        return picked && { params: { user_id: picked.value }, matches: picked.matches, label: `user_id=${String(picked.value)}` };
      },
    },
    byFlag('list_activity_descriptions', 'flat_rate', 'rate', (r) => object(r.rate)?.type === 'Flat'),
    byRead('list_activity_descriptions', 'type', 'utbms_task{id},utbms_activity{id}', (r) =>
      object(r.utbms_task) || object(r.utbms_activity) ? 'utbms' : 'clio',
    ),
    byRead('list_activity_rates', 'contact_id', 'contact_id', (r) => r.contact_id),
    byRead('list_activity_rates', 'co_counsel_contact_id', 'co_counsel_contact_id', (r) => r.co_counsel_contact_id),
    byRead('list_allocations', 'parent_type', 'parent', (r) => object(r.parent)?.type),
    {
      ...byFlag('list_bank_accounts', 'show_empty_accounts', 'balance', () => true),
      pick: (records) =>
        records.some((r) => r.balance === 0)
          ? { params: { show_empty_accounts: false }, matches: (r) => r.balance !== 0, label: 'show_empty_accounts=false' }
          : undefined,
    },
    byDay('list_bills', 'last_sent_start_date', 'last_sent_at', from),
    byDay('list_bills', 'last_sent_end_date', 'last_sent_at', until),
    byRead('list_bills', 'type', 'kind', (r) => String(r.kind).replace(/_kind$/, '')),
    ...byExternal('list_calendar_entries'),
    byFlag('list_calendar_entries', 'has_court_rule', 'court_rule', (r) => r.court_rule === true),
    byFlag('list_calendar_entries', 'is_all_day', 'all_day', (r) => r.all_day === true),
    byRead('list_calendar_entries', 'source', 'calendar_owner{id,source}', (r) => object(r.calendar_owner)?.source),
    byFlag('list_calendar_entries', 'visible', 'calendar_owner{id,visible}', (r) => object(r.calendar_owner)?.visible === true),
    // With a matter, true adds the entries on calendars the user cannot see (their calendar answers no permission).
    byShown(
      'list_calendar_entries',
      'owner_entries_across_all_users',
      'calendar_owner{id,permission}',
      (r) => (object(r.calendar_owner)?.permission ?? null) === null,
      { matter_id: 3001 },
    ),
    // true answers each later occurrence of a recurring entry as a record of its own (naming its series); false the series once.
    byShown(
      'list_calendar_entries',
      'expanded',
      'start_at,recurrence_rule,parent_calendar_entry_id',
      (r) => r.parent_calendar_entry_id != null,
    ),
    byFlag('list_calendars', 'writeable', 'permission', (r) => r.permission === 'owner' || r.permission === 'editor'),
    byFlag(
      'list_calendars',
      'filter_inactive_users',
      'type,creator{id,enabled}',
      (r) => r.type !== 'UserCalendar' || object(r.creator)?.enabled !== false,
    ),
    byDay('list_clio_file_submissions', 'submitted_after', 'submitted_at', after),
    byDay('list_clio_file_submissions', 'submitted_before', 'submitted_at', before),
    byRead('list_conversations', 'contact_id', 'memberships', (r) =>
      list(r.memberships)
        .map((m) => object(m.member))
        .filter((m) => m?.type === 'Contact')
        .map((m) => m?.id),
    ),
    byRead('list_conversations', 'date', 'created_at', (r) => String(r.created_at).slice(0, 10)),
    {
      ...byFlag('list_conversations', 'for_user', 'current_user_is_member', () => true),
      pick: () => ({ params: { for_user: false }, matches: (r) => r.current_user_is_member === true, label: 'for_user=false' }),
    },
    byFlag('list_conversations', 'read_status', 'read', (r) => r.read === true),
    byFlag('list_conversations', 'time_entries', 'time_entries_count', timeLogged),
    byFlag('list_jurisdictions', 'for_current_account', 'valid_subscription', (r) => r.valid_subscription === true),
    byRead('list_matter_dockets', 'matter_status', 'matter{id,status}', (r) => String(object(r.matter)?.status ?? '').toLowerCase()),
    byRead('list_custom_fields', 'parent_type', 'parent_type', (r) => String(r.parent_type).toLowerCase()),
    byFlag('list_custom_fields', 'visible_and_required', 'displayed,required', (r) => r.displayed === true && r.required === true),
    byRead('list_matters', 'notification_event_subscriber_user_id', 'notification_event_subscribers', (r) =>
      ids(r.notification_event_subscribers),
    ),
    byRead('list_matters', 'subscriber_user_id', 'notification_event_subscribers', (r) => ids(r.notification_event_subscribers)),
    byRead('list_tasks', 'assignee_type', 'assignee', (r) => String(object(r.assignee)?.type ?? '').toLowerCase()),
    byFlag('list_tasks', 'due_at_present', 'due_at', (r) => typeof r.due_at === 'string' && r.due_at !== ''),
    byFlag('list_tasks', 'time_entries_present', 'time_entries_count', timeLogged),
    byRead('list_notes', 'contact_id', 'contact{id}', (r) => object(r.contact)?.id, { type: 'Contact' }),
    byFlag('list_notes', 'has_time_entries', 'time_entries_count', timeLogged, { type: 'Matter' }),
    byShown('list_users', 'include_co_counsel', 'co_counsel', (r) => r.co_counsel === true),
    byFlag('list_users', 'pending_setup', 'pending_setup', (r) => r.pending_setup === true, { include_co_counsel: true }),
    byRead('list_users', 'role', 'roles', (r) => r.roles),
    byRead('list_reminders', 'subject_type', 'subject', (r) => snake(String(object(r.subject)?.type ?? ''))),
    byRead('list_groups', 'user_id', 'users', (r) => ids(r.users)),
    byRead('list_matter_stages', 'practice_area_id', 'practice_area_id', (r) => r.practice_area_id),
    // A matter with activities (the story's 3006, with its time entries) leaves out the legal aid practice areas.
    {
      operation: 'list_practice_areas',
      filters: ['matter_id'],
      base: { fields: 'id,category' },
      pick: (records) =>
        records.some((r) => r.category === 'legal_aid')
          ? { params: { matter_id: 3006 }, matches: (r) => r.category !== 'legal_aid', label: 'matter_id=3006' }
          : undefined,
    },
    byRead('list_utbms_codes', 'utbms_set_id', 'utbms_set_id', (r) => r.utbms_set_id),
    byDay('list_medical_records_details', 'treatment_start_date', 'treatment_start_date', from, true),
    byDay('list_medical_records_details', 'treatment_end_date', 'treatment_end_date', until, true),
    byDay('list_outstanding_client_balances', 'last_paid_start_date', 'last_payment_date', from),
    byDay('list_outstanding_client_balances', 'last_paid_end_date', 'last_payment_date', until),
    byDay('list_outstanding_client_balances', 'newest_bill_due_start_date', 'newest_issued_bill_due_date', from),
    byDay('list_outstanding_client_balances', 'newest_bill_due_end_date', 'newest_issued_bill_due_date', until),
    balances('originating_attorney_id', 'originating'),
    balances('responsible_attorney_id', 'responsible'),
    byFlag('list_report_presets', 'has_schedule', 'report_schedule', (r) => object(r.report_schedule) !== undefined),
    byRead('list_report_presets', 'output_format', 'format', (r) => r.format),
    byRead('list_report_presets', 'schedule_frequency', 'report_schedule', (r) => object(r.report_schedule)?.frequency),
    byDay('list_reports', 'created_before', 'created_at', until, true),
    byRead('list_reports', 'output_format', 'format', (r) => r.format),
    byFlag('list_task_template_lists', 'empty', 'templates_count', (r) => Number(r.templates_count ?? 0) === 0),
    byRead('list_task_templates', 'priority', 'priority', (r) => String(r.priority).toLowerCase()),
    byFlag('list_task_types', 'enabled', 'deleted_at', (r) => !deleted(r)),
    byFlag('list_contacts', 'clio_connect_only', 'is_clio_for_client_user', (r) => r.is_clio_for_client_user === true),
    byFlag(
      'list_contacts',
      'email_only',
      'primary_email_address',
      (r) => typeof r.primary_email_address === 'string' && r.primary_email_address !== '',
    ),
    byRead('list_communications', 'contact_id', 'senders,receivers', (r) =>
      [...list(r.senders), ...list(r.receivers)].filter((p) => p.type === 'Contact').map((p) => p.id),
    ),
    byDay('list_communications', 'received_since', 'date', from, true),
    byDay('list_communications', 'received_before', 'date', until, true),
    byFlag('list_communications', 'having_time_entries', 'time_entries_count', timeLogged),
    ...byExternal('list_communications'),
    ...documentCases('list_documents', {}),
    byShown('list_documents', 'show_uncompleted', 'latest_document_version', uploading),
    ...documentCases('list_folders', {}),
    ...documentCases('list_folder_contents', DESCENDANTS),
    byShown('list_folder_contents', 'show_uncompleted', 'latest_document_version', uploading, DESCENDANTS),
    byRead('list_folder_contents', 'contact_id', 'contact{id}', (r) => object(r.contact)?.id, DESCENDANTS),
    byRead('list_folder_contents', 'document_category_id', 'document_category{id}', (r) => object(r.document_category)?.id, DESCENDANTS),
    byRead('list_folder_contents', 'matter_id', 'matter{id}', (r) => object(r.matter)?.id, DESCENDANTS),
    {
      operation: 'list_folder_contents',
      filters: ['parent_id'],
      base: { fields: 'id,parent{id}', ...DESCENDANTS },
      pick: (records) => {
        const picked = pickValue(records, (r) => object(r.parent)?.id);
        return (
          picked && {
            params: { parent_id: picked.value, scope: 'children' },
            matches: picked.matches,
            label: `parent_id=${String(picked.value)}`,
          }
        );
      },
    },
  ];
}
