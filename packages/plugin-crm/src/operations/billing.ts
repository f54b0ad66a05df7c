import { atLeastOne, defineOperation, Params, StringEnum, Type, together } from '@portico/core/plugin';
import { BodyId, GenericRecord, One, OptionalId, Paged, RecordId, Text } from '../schemas.js';
import { asMultipart } from '../upstream.js';
import { getOperation, listOperation } from './kit.js';

// Invoices, expenses, time entries and transactions (payments) of Lawmatics' billing.

export const listInvoices = listOperation({
  name: 'list_invoices',
  path: '/invoices',
  upstreamPath: '/invoices',
  summary: 'List invoices sent to clients from Lawmatics',
  description:
    'Lists the invoices Lawmatics sent to clients and potential clients, with amounts in cents (amount_cents, ' +
    'amount_paid_cents), due date, status and who they are addressed to. Filter by matter_id or contact_id for one ' +
    'record, or by due_at (filter_with <) for what is overdue.',
  response: Paged(GenericRecord('An invoice'), 'A page of invoices'),
  example: { filter_by: 'matter_id', filter_on: '5111' },
});

export const getInvoice = getOperation({
  name: 'get_invoice',
  path: '/invoices/:id',
  upstreamPath: '/invoices/:id',
  summary: 'Get a client invoice with its line items and amount paid',
  description: 'Returns one invoice with every field: number, amounts in cents, amount paid, due date, status, line items and payer.',
  id: { what: 'Invoice', from: 'list_invoices', example: '3' },
  response: One(GenericRecord('An invoice'), 'The invoice'),
});

export const listExpenses = listOperation({
  name: 'list_expenses',
  path: '/expenses',
  upstreamPath: '/expenses',
  summary: 'List expenses recorded on matters and contacts',
  description:
    'Lists the costs recorded against matters and contacts (description, amount or rate, billable, dates), such as ' +
    'filing fees to bill on. Filter by matter_id or contact_id for one record.',
  response: Paged(GenericRecord('An expense'), 'A page of expenses'),
  example: { filter_by: 'matter_id', filter_on: '5101' },
});

export const getExpense = getOperation({
  name: 'get_expense',
  path: '/expenses/:id',
  upstreamPath: '/expenses/:id',
  summary: 'Get a recorded expense and what it is billed to',
  description: 'Returns one expense (cost) with every field: description, amount, billable, dates and the record it is billed to.',
  id: { what: 'Expense', from: 'list_expenses', example: '52' },
  response: One(GenericRecord('An expense'), 'The expense'),
});

export const listTimeEntries = listOperation({
  name: 'list_time_entries',
  path: '/time-entries',
  upstreamPath: '/time_entries',
  summary: 'List time entries (billable hours) on matters',
  description:
    'Lists time entries, the hours worked on matters and contacts, with description, duration, rate, billable, ' +
    'start and completion times and the record they are logged against. Filter by matter_id, contact_id or user_id.',
  response: Paged(GenericRecord('A time entry'), 'A page of time entries'),
  example: { filter_by: 'user_id', filter_on: '12', sort_by: 'created_at' },
});

export const getTimeEntry = getOperation({
  name: 'get_time_entry',
  path: '/time-entries/:id',
  upstreamPath: '/time_entries/:id',
  summary: "Get a time entry's duration, rate and matter",
  description: 'Returns one time entry (hours worked) with every field: description, duration, rate, billable, times, user and record.',
  id: { what: 'Time entry', from: 'list_time_entries', example: '36' },
  response: One(GenericRecord('A time entry'), 'The time entry'),
});

export const listTransactions = listOperation({
  name: 'list_transactions',
  path: '/transactions',
  upstreamPath: '/transactions',
  summary: 'List payments and other transactions on invoices',
  description:
    'Lists transactions: payments received and other money movements, with amount in cents, credit or debit, ' +
    'operating or trust account, payment method, and the invoice and record they belong to. Filter by invoice_id ' +
    'or matter_id.',
  response: Paged(GenericRecord('A transaction'), 'A page of transactions'),
  example: { filter_by: 'invoice_id', filter_on: '1' },
});

export const getTransaction = getOperation({
  name: 'get_transaction',
  path: '/transactions/:id',
  upstreamPath: '/transactions/:id',
  summary: 'Get a payment or transaction by id',
  description: 'Returns one transaction (payment) with every field: amount, type, account, payment method, invoice, dates and payer.',
  id: { what: 'Transaction', from: 'list_transactions', example: '1' },
  response: One(GenericRecord('A transaction'), 'The transaction'),
});

// ---- writes (beyond the catalog's table) ---------------------------------------------------------------------------

const CONTACTABLE_TYPES = ['Prospect', 'Matter', 'Contact'] as const;

const Duration = (description: string) =>
  Type.Number({ exclusiveMinimum: 0, description: `${description} Lawmatics records it as a decimal number.`, examples: [1.5] });

export const createTimeEntry = defineOperation({
  name: 'create_time_entry',
  method: 'POST',
  path: '/time-entries',
  summary: 'Record billable time spent on a matter or contact',
  description:
    'Records time worked, to bill it: the hours or minutes of a phone call with a client, a consultation or ' +
    'research, against a prospect (matter) or contact. Give the duration and the record; optionally who did it ' +
    '(user_id), the rate in cents, whether it is billable, and when it started and ended (Unix timestamps).',
  params: Params(
    {
      duration: Duration('Time spent.'),
      contactable_type: StringEnum(CONTACTABLE_TYPES, { description: 'Kind of record the time is recorded against' }),
      contactable_id: BodyId('Id of that record', '5103'),
      description: Text('What was done', 'Call with the clients about funding the trust'),
      user_id: OptionalId('User (list_users) who did the work', '11'),
      created_by_id: OptionalId('User recorded as creator of the entry'),
      billable: Type.Optional(Type.Boolean({ description: 'Billable time' })),
      rate_cents: Type.Optional(Type.Integer({ minimum: 0, description: 'Hourly rate in cents', examples: [55000] })),
      billing_activity_type_id: OptionalId('Billing activity type id'),
      invoice_id: OptionalId('Invoice (list_invoices) the time is billed on'),
      started_at: Type.Optional(Type.Integer({ minimum: 0, description: 'Start, as a Unix timestamp in seconds', examples: [1719583200] })),
      completed_at: Type.Optional(Type.Integer({ minimum: 0, description: 'End, as a Unix timestamp in seconds', examples: [1719588600] })),
    },
    { rules: [together('started_at', 'completed_at')] },
  ),
  check: (params) =>
    params.started_at !== undefined && params.completed_at !== undefined && params.started_at > params.completed_at
      ? 'started_at must not be after completed_at'
      : undefined,
  response: One(GenericRecord('A time entry'), 'The new time entry'),
  upstream: asMultipart({ method: 'POST', path: '/time_entries/' }),
  example: {
    duration: 0.5,
    contactable_type: 'Prospect',
    contactable_id: '5103',
    description: 'Call with the clients about funding the trust',
    user_id: '11',
    billable: true,
    rate_cents: 55000,
  },
});

export const updateTimeEntry = defineOperation({
  name: 'update_time_entry',
  method: 'PATCH',
  path: '/time-entries/:id',
  summary: "Change a time entry's description or duration",
  description:
    "Corrects a time entry's description or duration (the fields Lawmatics' update takes) and leaves the rest. " +
    'Lawmatics takes this as a PUT.',
  params: Params(
    {
      id: RecordId('Time entry', 'list_time_entries', '39'),
      description: Text('What was done', 'Mediation brief and exhibit list'),
      duration: Type.Optional(Duration('Time spent.')),
    },
    { rules: [atLeastOne('description', 'duration')] },
  ),
  response: One(GenericRecord('A time entry'), 'The updated time entry'),
  upstream: asMultipart({ method: 'PUT', path: '/time_entries/:id' }),
  example: { id: '39', duration: 5.5 },
});
