import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { Bool, Day, Fields, Flag, IdFilter, Int, List, Num, notNull, nullable, Obj, Ref, Text } from '../schemas.js';
import { family, ONLY_ID, withFields } from './kit/rows.js';

// Activities: the time entries and expenses recorded against matters (the billable work), with what prices and
// describes them — activity rates, activity descriptions, expense categories, the UTBMS codes — and the timer that
// counts time for an entry.

const ACTIVITY_TYPES = ['TimeEntry', 'ExpenseEntry', 'HardCostEntry', 'SoftCostEntry'] as const;
const ENTRY_TYPES = ['hard_cost', 'soft_cost', 'unassociated'] as const;

const expenseCategoryBody = {
  name: Text('Name of the expense category.'),
  rate: Num('Default rate of expenses in the category.'),
  entry_type: StringEnum(ENTRY_TYPES, { description: 'Hard cost, soft cost or unassociated (the default).' }),
  currency: Obj('Currency of the rate, as { "id": <currency id> } (ids from list_currencies).'),
  utbms_code: Ref('UTBMS expense code'),
  groups: List('Groups that may use it, as [{ "id": <group id> }] (add "_deleted": true to remove one).'),
};

// ---- the timer: one per user, without an id ------------------------------------------------------------------------

export const getTimer = defineOperation({
  name: 'get_timer',
  method: 'GET',
  path: '/timer',
  summary: 'Get my running timer and the time entry it counts',
  description: `Returns the connected user’s running stopwatch timer and the time entry (activity) it counts for; Clio answers 404 when no timer runs. ${ONLY_ID}, for example fields=id,start_time,elapsed_time,activity{id,note}.`,
  params: Params({ fields: Type.Optional(Fields('id,start_time,elapsed_time,activity{id,note}')) }),
  upstream: (p) => ({ method: 'GET', path: '/timer.json', ...withFields(p.fields) }),
});

export const startTimer = defineOperation({
  name: 'start_timer',
  method: 'POST',
  path: '/timer',
  summary: 'Start the timer on a time entry',
  description: `Starts the connected user’s stopwatch timer counting time on a time entry; activity ({"id": <activity id>} from list_activities or create_activity) is required; a running timer stops. Answers with the timer as data (${ONLY_ID}, sent in the query string, for example fields=id,start_time).`,
  params: Params({ activity: Ref('time entry to time', 'ids from list_activities'), fields: Type.Optional(Fields('id,start_time')) }),
  locations: { fields: 'query' },
  upstream: (p) => ({ method: 'POST', path: '/timer.json', ...withFields(p.fields), body: { data: { activity: p.activity } } }),
});

export const stopTimer = defineOperation({
  name: 'stop_timer',
  method: 'DELETE',
  path: '/timer',
  summary: 'Stop my running timer',
  description:
    'Stops the connected user’s running stopwatch timer; the time counted stays on its time entry (see get_activity). Answers 204 with no body.',
  params: Params({}),
  upstream: () => ({ method: 'DELETE', path: '/timer.json' }),
});

export const activities = family(
  [
    {
      key: 'activities',
      path: '/activities',
      clio: '/activities',
      record: ['activity', 'activities'],
      summaries: {
        list: 'List time entries and expenses (activities) logged on matters',
        get: 'Get a time entry or expense (activity) by its id',
        create: 'Log a time entry (hours worked) or an expense on a matter (activity)',
        update: 'Change a time entry or expense (activity)',
        delete: 'Delete a time entry or expense (activity)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Time entries and expenses recorded against matters (billable work).',
      fields: 'id,date,type,quantity,price,total,note,matter{id,display_number},user{id,name}',
      order: 'id(asc)',
      filters: {
        activity_description_id: IdFilter('Only activities with this activity description.', nullable),
        calendar_entry_id: IdFilter('Only activities of this calendar entry.', nullable),
        communication_id: IdFilter('Only activities of this communication.', nullable),
        contact_note_id: IdFilter('Only activities of this contact note.', nullable),
        expense_category_id: IdFilter('Only expenses in this expense category.', nullable),
        grant_id: IdFilter('Only activities funded by this grant.', nullable),
        matter_id: IdFilter('Only activities on this matter.', nullable),
        matter_note_id: IdFilter('Only activities of this matter note.', nullable),
        task_id: IdFilter('Only activities of this task.', nullable),
        user_id: IdFilter('Only activities of this user.', nullable),
        start_date: Day('Only activities dated on or after this date'),
        end_date: Day('Only activities dated on or before this date'),
        flat_rate: Flag('Only time entries with (true) or without (false) a flat rate.'),
        only_unaccounted_for: Flag('Only activities not yet accounted for.'),
        query: Text('Wildcard search in the note.'),
        status: StringEnum(['draft', 'billed', 'unbilled', 'non-billable'], { description: 'Billing status of the activities.' }),
        type: StringEnum(ACTIVITY_TYPES, { description: 'Kind of activity.' }),
      },
      // The catalog writes the status non-billable; Clio's value is non_billable.
      clioQuery: (query) => (query.status === 'non-billable' ? { ...query, status: 'non_billable' } : query),
      body: {
        date: Day('Day the work was done or the expense incurred'),
        type: StringEnum(ACTIVITY_TYPES, {
          description: 'TimeEntry for time, ExpenseEntry (or HardCostEntry, SoftCostEntry) for expenses.',
        }),
        activity_description: Ref('activity description', 'utbms_task_id and utbms_activity_id may be added'),
        calendar_entry: Ref('calendar entry'),
        client_portal: Ref('client portal'),
        communication: Ref('communication'),
        contact_note: Ref('contact note'),
        expense_category: Ref('expense category'),
        matter: Ref('matter'),
        matter_note: Ref('matter note'),
        task: Ref('task'),
        tax_setting: StringEnum(['no_tax', 'tax_1_only', 'tax_2_only', 'tax_1_and_tax_2'], { description: 'Which taxes apply.' }),
        text_message_conversation: Ref('text message conversation'),
        user: Ref('user who did the work'),
        utbms_expense: Ref('UTBMS expense code'),
        vendor: Ref('vendor contact'),
        no_charge: Bool('Show the non-billable activity on the bill as no charge.'),
        non_billable: Bool('Keep the activity off bills.'),
        start_timer: Bool('Start a timer for this time entry.'),
        note: Text('Description of the work.'),
        reference: Text('Reference (receipt or invoice number of an expense).'),
        price: Num('Rate (time) or amount (expense).'),
        quantity: Num('Quantity: seconds for time entries (API 4.0.4 and later), units for expenses.'),
      },
      required: ['date', 'type'],
      text: {
        list: 'Lists activities — the time entries (hours worked) and expense entries (disbursements, costs) logged on matters — with date, quantity, rate, total, note and billing status. Filter by matter_id, user_id, start_date and end_date, status (unbilled, billed, draft, non-billable), type (TimeEntry, ExpenseEntry) or query; for billing rates use list_activity_rates, for the reusable descriptions list_activity_descriptions.',
        get: 'Returns one activity: a single time entry or expense entry with its date, hours (quantity, in seconds), rate, total, note, matter and user. The id comes from list_activities or create_activity.',
        create:
          'Records time worked or an expense (disbursement, cost) on a matter as an activity; date and type (TimeEntry or ExpenseEntry) are required. Link it with matter: {"id": <matter id>} and user: {"id": <user id>}; quantity of a time entry is in seconds, and start_timer: true starts the timer on it.',
        update:
          'Changes a time entry or expense entry (id from list_activities): its date, hours, rate, note, matter or whether it is billable. Billed activities can no longer be changed.',
        delete:
          'Deletes a time entry or expense entry (id from list_activities), for example one logged twice by mistake; billed activities cannot be deleted. Answers 204 with no body.',
      },
    },
    {
      key: 'activity_rates',
      path: '/activity_rates',
      clio: '/activity_rates',
      record: ['activity_rate', 'activity_rates'],
      summaries: {
        list: 'List the hourly and flat rates charged for lawyers and co-counsel (activity rates)',
        get: 'Get an hourly or flat billing rate (activity rate)',
        create: 'Set a billing rate (activity rate) for a contact or co-counsel',
        update: 'Change an hourly or flat billing rate (activity rate)',
        delete: 'Remove a billing rate (activity rate)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Billing rates for a user, group or co-counsel contact.',
      fields: 'id,rate,flat_rate,contact{id,name},co_counsel_contact{id,name}',
      filters: {
        co_counsel_contact_id: IdFilter('Only rates of this co-counsel contact.', notNull),
        contact_id: IdFilter('Only rates of this contact.', notNull),
      },
      body: {
        co_counsel_contact_id: Int('Co-counsel contact the rate is for.'),
        contact_id: Int('Contact the rate is for.'),
        rate: Num('Hourly rate, or the flat amount when flat_rate is true.'),
        flat_rate: Bool('Whether the rate is a flat amount rather than hourly.'),
      },
      text: {
        list: 'Lists activity rates: the hourly or flat billing rates charged for a lawyer, group or co-counsel contact. Filter by contact_id or co_counsel_contact_id; to see what a time entry was priced at, read the entry with get_activity instead.',
        get: 'Returns one activity rate (hourly or flat rate) and who it applies to; the id comes from list_activity_rates.',
        create:
          'Creates an activity rate, the hourly (or, with flat_rate, fixed) amount billed for a contact or co-counsel contact; contact ids come from list_contacts.',
        update: 'Changes the amount of an activity rate or whether it is flat (id from list_activity_rates).',
        delete:
          'Deletes an activity rate (id from list_activity_rates); to change its amount instead, use update_activity_rate. Answers 204 with no body.',
      },
    },
    {
      key: 'activity_descriptions',
      path: '/activity_descriptions',
      clio: '/activity_descriptions',
      record: ['activity_description', 'activity_descriptions'],
      summaries: {
        list: 'List activity categories (activity descriptions): standard time entry wordings and rates',
        get: 'Get an activity category (activity description) with its rate',
        create: 'Add an activity category (a standard activity description) for time entries',
        update: 'Change an activity category (activity description) or its rate',
        delete: 'Delete an activity category (activity description)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Reusable descriptions (with rates) for time entries and expenses, including UTBMS codes.',
      fields: 'id,name,type,visible_to_co_counsel,rate{amount,type}',
      filters: {
        flat_rate: Flag('Only descriptions with (true) or without (false) a flat rate.'),
        'rate_for[matter_id]': IdFilter('Matter to calculate the rate for.', notNull),
        'rate_for[user_id]': IdFilter('User to calculate the rate for (default: the user of the connection).', notNull),
        type: StringEnum(['utbms', 'clio'], { description: 'UTBMS codes or the firm’s own descriptions.' }),
        user_id: IdFilter('Only descriptions available to this user.', notNull),
      },
      body: {
        name: Text('Name shown when choosing the description.'),
        currency: Obj('Currency of the rate, as { "id": <currency id> } (ids from list_currencies).'),
        rate: Obj('Rate, as { "type": "…", "amount": <number>, "non_billable_amount": <number> }.'),
        default: Bool('Use as the default description.'),
        visible_to_co_counsel: Bool('Let co-counsel use it.'),
        groups: List('Groups that may use it, as [{ "id": <group id> }].'),
      },
      required: ['name'],
      text: {
        list: 'Lists activity descriptions: the firm’s standard, reusable descriptions of work (“Phone call with client”) and UTBMS task codes chosen when recording a time entry, each with its rate. Filter by type (clio or utbms) or user_id; rate_for[matter_id] and rate_for[user_id] make each rate the one that applies on that matter for that user.',
        get: 'Returns one activity description (a standard description of work for time entries) and its rate; the id comes from list_activity_descriptions.',
        create:
          'Creates an activity description, a standard wording with a rate that users pick when they record time entries; name is required.',
        update: 'Changes the wording, rate or visibility of an activity description (id from list_activity_descriptions).',
        delete:
          'Deletes an activity description (id from list_activity_descriptions), one of the standard wordings offered when recording time entries. Answers 204 with no body.',
      },
    },
    {
      key: 'expense_categories',
      path: '/expense_categories',
      clio: '/expense_categories',
      record: ['expense_category', 'expense_categories'],
      summaries: {
        list: 'List expense categories (kinds of costs and disbursements)',
        get: 'Get an expense category and its default rate',
        create: 'Create an expense category for costs and disbursements',
        update: 'Change an expense category or its default rate',
        delete: 'Delete an expense category',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Categories (with default rates) for expenses.',
      fields: 'id,name,rate,entry_type,currency,tax_setting',
      order: 'id(asc)',
      filters: {
        entry_type: StringEnum(ENTRY_TYPES, { description: 'Only categories of this kind.' }),
        query: Text('Search in the name.'),
      },
      body: expenseCategoryBody,
      required: ['name'],
      without: ['ids[]'],
      text: {
        list: 'Lists expense categories, the kinds of costs and disbursements (filing fees, mileage, copies) with their default rates. Their ids go into create_activity’s expense_category; filter by entry_type or query.',
        get: 'Returns one expense category with its default rate and entry type (hard cost or soft cost); the id comes from list_expense_categories.',
        create: 'Creates an expense category for recording costs; name is required, rate and entry_type (hard_cost, soft_cost) optional.',
        update: 'Changes the name, default rate or entry type of an expense category (id from list_expense_categories).',
        delete:
          'Deletes an expense category (id from list_expense_categories), one of the kinds of cost offered when recording expense entries. Answers 204 with no body.',
      },
    },
    {
      key: 'utbms_codes',
      path: '/utbms/codes',
      clio: '/utbms/codes',
      record: ['utbms_code', 'utbms_codes'],
      summaries: {
        list: 'List UTBMS task, activity and expense codes for LEDES billing',
        get: 'Get a UTBMS code',
      },
      verbs: ['list', 'get'],
      about: 'UTBMS codes (standard task, activity and expense codes).',
      fields: 'id,code,name,type,utbms_set{id,name}',
      order: 'id(asc)',
      filters: {
        type: StringEnum(['UtbmsTask', 'UtbmsActivity', 'UtbmsExpense'], { description: 'Only utbms codes with this type.' }),
        utbms_set_id: IdFilter('Only utbms codes of this utbms set.', nullable),
      },
      text: {
        list: 'Lists UTBMS codes, the standard task, activity and expense codes used on LEDES (e-billing) invoices. Filter by type (UtbmsTask, UtbmsActivity, UtbmsExpense) or utbms_set_id from list_utbms_sets.',
        get: 'Returns one UTBMS code (its code, name, type and set); the id comes from list_utbms_codes.',
      },
    },
    {
      key: 'utbms_sets',
      path: '/utbms/sets',
      clio: '/utbms/sets',
      record: ['utbms_set', 'utbms_sets'],
      summaries: {
        list: 'List the UTBMS code sets enabled for the firm',
      },
      verbs: ['list'],
      about: 'UTBMS code sets (standard billing code sets).',
      fields: 'id,name',
      order: 'id(asc)',
      text: {
        list: 'Lists the UTBMS code sets (such as the litigation code set) enabled for the account. Pass a set’s id as utbms_set_id to list_utbms_codes to see its codes.',
      },
    },
  ],
  getTimer,
  startTimer,
  stopTimer,
);
