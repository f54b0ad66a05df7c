import { ORDERS } from '../schemas.js';
import { type DateWindow, localDate, namedRange, retentionStart, today } from './clock.js';
import type { SandboxData } from './records.js';
import type { Origin } from './views.js';

/** An answer in CallRail's error style: the status and `{ "error": "..." }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = () => new HttpError(404, 'Not Found');
export const badRequest = (message: string) => new HttpError(400, message);

export interface RequestContext {
  data: SandboxData;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  origin: Origin;
}

export function intParam(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw badRequest(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

export function numberParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) throw badRequest(`${name} must be a number`);
  return value;
}

export function boolParam(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw badRequest(`${name} must be true or false`);
}

export function enumParam<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw badRequest(`Invalid ${name}: ${raw}. Valid values: ${allowed.join(', ')}`);
  return raw as T;
}

/** Rails-style arrays (`tags[]=1&tags[]=2`); a plain comma-separated value is accepted as well. */
export function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const values = [...query.getAll(`${name}[]`), ...query.getAll(name).flatMap((v) => v.split(','))].map((v) => v.trim()).filter(Boolean);
  return values.length > 0 ? values : undefined;
}

export function fieldsParam(query: URLSearchParams): string[] {
  return listParam(query, 'fields') ?? [];
}

export interface Paging {
  page: number;
  perPage: number;
}

export function paging(query: URLSearchParams, max = 250, fallback = 100): Paging {
  return { page: intParam(query, 'page', 1, 1_000_000, 1), perPage: intParam(query, 'per_page', 1, max, fallback) };
}

/** CallRail's paged wrapper around one page of `items`. */
export function paged<T>(key: string, items: readonly T[], { page, perPage }: Paging, view: (item: T) => unknown): Record<string, unknown> {
  const start = (page - 1) * perPage;
  return {
    page,
    per_page: perPage,
    total_pages: Math.ceil(items.length / perPage),
    total_records: items.length,
    [key]: items.slice(start, start + perPage).map(view),
  };
}

const DATE = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The date filter of a request: date_range, or start_date + end_date (which win when both are sent). Undefined when
 * there is none. Dates before CallRail's retention window are refused as CallRail does.
 */
export function dateWindow(query: URLSearchParams): DateWindow | undefined {
  const start = query.get('start_date');
  const end = query.get('end_date');
  if (start !== null || end !== null) {
    if (start === null || end === null) throw badRequest('start_date and end_date must be sent together');
    const from = DATE.exec(start)?.[1];
    const to = DATE.exec(end)?.[1];
    if (from === undefined) throw badRequest('start_date must be an ISO 8601 date');
    if (to === undefined) throw badRequest('end_date must be an ISO 8601 date');
    if (from > to) throw badRequest('start_date must be on or before end_date');
    if (from < retentionStart()) {
      throw badRequest(
        `The requested dates reach beyond the 25-month data retention window (earliest date: ${retentionStart()}); revise the date range`,
      );
    }
    return { from, to };
  }
  const name = query.get('date_range');
  if (name === null) return undefined;
  const window = namedRange(name);
  if (!window) throw badRequest(`Invalid date_range: ${name}`);
  return window;
}

export function inWindow(timestamp: string, window: DateWindow | undefined): boolean {
  if (!window) return true;
  const day = localDate(timestamp);
  return day >= window.from && day <= window.to;
}

/** Case-insensitive substring match; phone numbers also match on digits alone. */
export function matches(needle: string, ...haystack: Array<string | null | undefined>): boolean {
  const text = needle.toLowerCase();
  const digits = needle.replace(/\D/g, '');
  return haystack.some((value) => {
    if (!value) return false;
    if (value.toLowerCase().includes(text)) return true;
    return digits.length >= 3 && value.replace(/\D/g, '').includes(digits);
  });
}

export type SortKey<T> = (item: T) => string | number | boolean | null;

/**
 * CallRail sorting: `sort` names the field, `order` the direction (order without sort is refused). Text sorts
 * ascending and times descending unless told otherwise.
 */
export function sortItems<T>(
  items: T[],
  query: URLSearchParams,
  keys: Record<string, SortKey<T>>,
  fallback: { key: string; order: 'asc' | 'desc' },
): T[] {
  const sort = query.get('sort');
  const order = enumParam(query, 'order', ORDERS);
  if (order && sort === null) throw badRequest('order requires sort');
  const name = sort ?? fallback.key;
  const key = keys[name];
  if (!key) throw badRequest(`Invalid sort: ${name}. Valid values: ${Object.keys(keys).join(', ')}`);
  const direction = order ?? (sort === null ? fallback.order : /(_at|_time|date)$/.test(name) ? 'desc' : 'asc');
  const sign = direction === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * sign;
  });
}

/** First day of the earliest record, or today when there are none (reports without a date filter). */
export function earliestDay(timestamps: readonly string[]): string {
  const days = timestamps.map(localDate).sort();
  return days[0] ?? today();
}
