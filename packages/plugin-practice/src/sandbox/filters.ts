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
export type RowTest = (row: Row, value: string, values: readonly string[], related: Related) => boolean;

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

/** Filters of one collection whose values are not its field's. */
const OWN: Record<string, Record<string, RowTest>> = {
  // The filter says OperatingAccount / TrustAccount; the record's type is Operating / Trust.
  '/bank_accounts': { type: (row, value) => `${String(row.type)}Account` === value },
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
  // "Those that the user owns": the calendars whose permission is owner.
  '/calendars': { owner: (row, value) => (row.permission === 'owner') === (value === 'true') },
  // Comma-separated statuses (`open,pending`), compared with the record's capitalised status.
  '/matters': {
    status: (row, value) => value.toLowerCase().split(',').includes(String(row.status).toLowerCase()),
    'open_date[]': dated('open_date'),
    'close_date[]': dated('close_date'),
    'pending_date[]': dated('pending_date'),
  },
  '/contacts': {
    // "Those where the last name or company name start with the given initial."
    initial: (row, value) => surname(row).toUpperCase().startsWith(value.toUpperCase()),
    client_only: (row, value) => value !== 'true' || row.is_client === true,
    email_only: (row, value) => value !== 'true' || (typeof row.primary_email_address === 'string' && row.primary_email_address !== ''),
  },
  '/tasks': {
    'statuses[]': (row, _, values) => values.includes(String(row.status)),
    // "Those which are complete or not": a task is complete when its status is.
    complete: (row, value) => (row.status === 'complete') === (value === 'true'),
    client_id: throughMatter('client'),
    responsible_attorney_id: throughMatter('responsible_attorney'),
  },
  // An entry belongs to the calendar it is on (its calendar_owner, a Calendar).
  '/calendar_entries': { calendar_id: (row, value) => isObject(row.calendar_owner) && String(row.calendar_owner.id) === value },
};

/** The test of a filter that query.ts's field comparison would get wrong, or undefined. */
export function derivedFilter(template: string, filter: string): RowTest | undefined {
  return OWN[template]?.[filter] ?? BOUNDS[filter];
}
