import { defineOperation, Params, StringEnum, Type } from '@portico/core';
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
  summary: 'Get the running timer',
  description: `Returns the connected user’s running timer and the time entry it counts for (Clio answers 404 when no timer runs). ${ONLY_ID}, e.g. fields=id,start_time,elapsed_time,activity{id,note}.`,
  params: Params({ fields: Type.Optional(Fields('id,start_time,elapsed_time,activity{id,note}')) }),
  upstream: (p) => ({ method: 'GET', path: '/timer.json', ...withFields(p.fields) }),
});

export const startTimer = defineOperation({
  name: 'start_timer',
  method: 'POST',
  path: '/timer',
  summary: 'Start a timer',
  description: `Starts the connected user’s timer on a time entry: activity ({"id": <activity id>} from list_activities or create_activity) is required; a running timer stops. Answers with the timer as data (${ONLY_ID}, sent in the query string, e.g. fields=id,start_time).`,
  params: Params({ activity: Ref('time entry to time', 'ids from list_activities'), fields: Type.Optional(Fields('id,start_time')) }),
  locations: { fields: 'query' },
  upstream: (p) => ({ method: 'POST', path: '/timer.json', ...withFields(p.fields), body: { data: { activity: p.activity } } }),
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

export const activities = family(
  [
    {
      key: 'activities',
      path: '/activities',
      clio: '/activities',
      record: ['activity', 'activities'],
      words: ['activity (time entry or expense)', 'activities (time entries and expenses)'],
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
        list: 'Lists activities — time entries and expenses — narrowed by matter, user, dates, billing status or type.',
        get: 'Returns one activity (time entry or expense); the id comes from list_activities or create_activity.',
        create:
          'Records a time entry or an expense. date and type are required; link it with matter: {"id": <matter id>} and user: {"id": <user id>}; quantity of a time entry is in seconds.',
        update: 'Changes an activity (id from list_activities); billed activities can no longer be changed.',
        delete: 'Deletes an activity (id from list_activities); billed activities cannot be deleted. Answers 204 with no body.',
      },
    },
    {
      key: 'activity_rates',
      path: '/activity_rates',
      clio: '/activity_rates',
      record: ['activity_rate', 'activity_rates'],
      words: ['activity rate (hourly or flat billing rate)', 'activity rates (hourly and flat billing rates)'],
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
        list: 'Lists activity rates — the hourly or flat rates that apply to users, groups and co-counsel contacts.',
        get: 'Returns one activity rate; the id comes from list_activity_rates.',
        create: 'Creates an activity rate for a contact or co-counsel contact (contact ids from the contacts operations).',
        update: 'Changes an activity rate (id from list_activity_rates).',
        delete: 'Deletes an activity rate (id from list_activity_rates). Answers 204 with no body.',
      },
    },
    {
      key: 'activity_descriptions',
      path: '/activity_descriptions',
      clio: '/activity_descriptions',
      record: ['activity_description', 'activity_descriptions'],
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
        list: 'Lists activity descriptions (the firm’s own and UTBMS codes); rate_for[matter_id] and rate_for[user_id] make the answer’s rate the one that applies there.',
        get: 'Returns one activity description; the id comes from list_activity_descriptions.',
        create: 'Creates an activity description; name is required.',
        update: 'Changes an activity description (id from list_activity_descriptions).',
        delete: 'Deletes an activity description (id from list_activity_descriptions). Answers 204 with no body.',
      },
    },
    {
      key: 'expense_categories',
      path: '/expense_categories',
      clio: '/expense_categories',
      record: ['expense_category', 'expense_categories'],
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
        list: 'Lists expense categories (with their default rates); their ids go into create_activity’s expense_category.',
        get: 'Returns one expense category; the id comes from list_expense_categories.',
        create: 'Creates an expense category; name is required, rate and entry_type optional.',
        update: 'Changes an expense category (id from list_expense_categories).',
        delete: 'Deletes an expense category (id from list_expense_categories). Answers 204 with no body.',
      },
    },
    {
      key: 'utbms_codes',
      path: '/utbms/codes',
      clio: '/utbms/codes',
      record: ['utbms_code', 'utbms_codes'],
      words: ['UTBMS code', 'UTBMS codes'],
      verbs: ['list', 'get'],
      about: 'UTBMS codes (standard task, activity and expense codes).',
      fields: 'id,code,name,type,utbms_set{id,name}',
      order: 'id(asc)',
      filters: {
        type: StringEnum(['UtbmsTask', 'UtbmsActivity', 'UtbmsExpense'], { description: 'Only utbms codes with this type.' }),
        utbms_set_id: IdFilter('Only utbms codes of this utbms set.', nullable),
      },
      text: {
        list: 'Lists UTBMS codes by type (task, activity or expense) or set (utbms_set_id from list_utbms_sets).',
        get: 'Returns one UTBMS code; the id comes from list_utbms_codes.',
      },
    },
    {
      key: 'utbms_sets',
      path: '/utbms/sets',
      clio: '/utbms/sets',
      record: ['utbms_set', 'utbms_sets'],
      words: ['UTBMS set', 'UTBMS sets'],
      verbs: ['list'],
      about: 'UTBMS code sets (standard billing code sets).',
      fields: 'id,name',
      order: 'id(asc)',
      text: {
        list: 'Lists the UTBMS code sets (standard task and activity code sets) available to the account.',
      },
    },
  ],
  getTimer,
  startTimer,
  stopTimer,
);
