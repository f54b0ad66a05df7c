import { COLLECTIONS } from './collections.js';
import { type CollectionDef, type Db, invalidParameter, isRef, type Scalar, type StoredRecord } from './model.js';

/**
 * Lawmatics' list conventions ("Param Guide"): `fields`, `page` (fixed page size), `sort_by`/`sort_order` and one
 * filter per request, `filter_by|filter_field`, `filter_on|filter_value`, `filter_with|filter_operator`.
 */

/** Lawmatics' page size, reported in `meta.limit_per_page`; it cannot be changed by a request. */
export const PAGE_SIZE = 25;

export const OPERATORS = ['=', '!=', '<=', '<', '>=', '>', 'like', 'ilike', 'null', 'not_null'] as const;
export type Operator = (typeof OPERATORS)[number];

/** The presence operators' documented aliases. */
const OPERATOR_ALIASES: Record<string, Operator> = { empty: 'null', blank: 'null', present: 'not_null' };

/** Record types a polymorphic `<type>_id` filter may name (`matter_id` is a prospect's). */
const KNOWN_TYPES = new Set([...COLLECTIONS.map((def) => def.type), 'client', 'firm', 'matter']);

type Value = Scalar | Scalar[];
type Reader = (record: StoredRecord) => Value | undefined;

const isScalar = (value: unknown): value is Scalar =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+)?(Z|[+-]\d{2}:?\d{2})?$/;
const NUMERIC = /^-?\d+(\.\d+)?$/;

/** The first query parameter present among the names (a parameter and its alias). */
export function param(query: URLSearchParams, ...names: string[]): string | null {
  for (const name of names) {
    const value = query.get(name);
    if (value !== null) return value;
  }
  return null;
}

/**
 * How to read a filter or sort field from a record: `id`, a scalar attribute, a collection's own filter, or
 * `<relationship>_id` / `<type>_id` (polymorphic and to-many relationships). Undefined for a field Lawmatics does
 * not offer.
 */
export function fieldReader(def: CollectionDef, name: string, db: Db, records: readonly StoredRecord[]): Reader | undefined {
  if (name === 'id') return (r) => r.id;
  const own = def.filters?.[name];
  if (own) return (r) => own(r, db);
  if (def.attributes.includes(name)) {
    if (records.some((r) => !isScalar(r.attributes[name] ?? null))) return undefined;
    return (r) => (r.attributes[name] ?? null) as Scalar;
  }
  if (!name.endsWith('_id')) return undefined;
  const base = name.slice(0, -3);
  const rels = def.relationships ?? {};
  const spec = rels[base];
  if (spec?.kind === 'one') return (r) => refId(r.relationships[base]);
  const type = base === 'matter' ? 'prospect' : base;
  if (!KNOWN_TYPES.has(base)) return undefined;
  const names = Object.entries(rels)
    .filter(([, s]) => (s.kind === 'one' && (s.type === undefined || s.type === type)) || (s.kind === 'many' && s.type === type))
    .map(([relName]) => relName);
  if (names.length === 0) return undefined;
  return (r) =>
    names.flatMap((relName) => {
      const value = r.relationships[relName];
      const refs = Array.isArray(value) ? value : isRef(value) ? [value] : [];
      return refs.filter((ref) => ref.type === type).map((ref) => ref.id);
    });
}

function refId(value: unknown): Scalar {
  return isRef(value) ? value.id : null;
}

// ---- filtering ------------------------------------------------------------------------------------------------------

const NO_FILTER_BY = "When applying filters, a valid 'filter_by' parameter is required.";

/** The records that pass the request's one filter; a bad filter is Lawmatics' 422. */
export function filterRecords(def: CollectionDef, records: StoredRecord[], query: URLSearchParams, db: Db): StoredRecord[] {
  const by = param(query, 'filter_by', 'filter_field');
  const on = param(query, 'filter_on', 'filter_value');
  const rawOperator = param(query, 'filter_with', 'filter_operator');
  if (by === null && on === null && rawOperator === null) return records;
  const field = by?.trim() ?? '';
  const reader = field === '' ? undefined : fieldReader(def, field, db, records);
  if (!reader) throw invalidParameter('Filter By Parameter Not Available', NO_FILTER_BY);
  const operator = rawOperator === null ? defaultOperator(records, reader) : parseOperator(rawOperator);
  const presence = operator === 'null' || operator === 'not_null';
  if (!presence && on === null) {
    throw invalidParameter('Filter On Parameter Not Available', "When applying filters, a 'filter_on' parameter is required.");
  }
  const target = on ?? '';
  return records.filter((record) => {
    const value = reader(record);
    if (Array.isArray(value)) {
      if (presence) return (value.length === 0) === (operator === 'null');
      return operator === '!=' ? value.every((v) => test(v, operator, target, field)) : value.some((v) => test(v, operator, target, field));
    }
    return test(value ?? null, operator, target, field);
  });
}

function parseOperator(raw: string): Operator {
  const text = raw.trim().toLowerCase();
  const operator = OPERATOR_ALIASES[text] ?? (OPERATORS as readonly string[]).find((o) => o === text);
  if (!operator) {
    throw invalidParameter(
      'Filter Operator Not Available',
      `'${raw}' is not a valid filter operator. Valid operators are: ${OPERATORS.join(', ')} (and empty, blank, present).`,
    );
  }
  return operator as Operator;
}

/** `ilike` for text fields (the documented convenience), `=` for numbers, booleans, times and ids. */
function defaultOperator(records: readonly StoredRecord[], reader: Reader): Operator {
  for (const record of records) {
    const value = reader(record);
    const sample = Array.isArray(value) ? value[0] : value;
    if (sample === null || sample === undefined) continue;
    return typeof sample === 'string' && !ISO_DATE.test(sample) && !NUMERIC.test(sample) ? 'ilike' : '=';
  }
  return 'ilike';
}

function test(value: Scalar, operator: Operator, target: string, field: string): boolean {
  const empty = value === null || value === '';
  if (operator === 'null') return empty;
  if (operator === 'not_null') return !empty;
  if (value === null) return false; // SQL: NULL is neither equal nor unequal to anything
  if (operator === 'like' || operator === 'ilike') return likePattern(target, operator === 'ilike').test(String(value));
  const order = compare(value, target, field);
  switch (operator) {
    case '=':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    default:
      return order >= 0;
  }
}

/** SQL LIKE: `%` any run, `_` one character, the rest literal; anchored at both ends. */
function likePattern(pattern: string, caseInsensitive: boolean): RegExp {
  const source = [...pattern].map((ch) => (ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, caseInsensitive ? 'is' : 's');
}

/** Compares a stored value with a filter value the way the column type would (a number, a time, a boolean, text). */
function compare(value: Exclude<Scalar, null>, target: string, field: string): number {
  if (typeof value === 'number') {
    const number = Number(target);
    if (target.trim() === '' || !Number.isFinite(number)) {
      throw invalidParameter('Filter On Parameter Not Available', `'${target}' is not a valid value for ${field}.`);
    }
    return value - number;
  }
  if (typeof value === 'boolean') {
    const truth = ['true', 't', '1', 'yes'].includes(target.trim().toLowerCase());
    return Number(value) - Number(truth);
  }
  if (NUMERIC.test(value) && NUMERIC.test(target.trim())) return Number(value) - Number(target);
  if (ISO_DATE.test(value) && ISO_DATE.test(target.trim())) return Date.parse(value) - Date.parse(target.trim());
  return value < target ? -1 : value > target ? 1 : 0;
}

// ---- sorting --------------------------------------------------------------------------------------------------------

/** `sort_by` (default `id`) and `sort_order` (default `desc`); unknown columns are refused with 422. */
export function sortRecords(def: CollectionDef, records: StoredRecord[], query: URLSearchParams, db: Db): StoredRecord[] {
  const rawOrder = query.get('sort_order');
  const order = rawOrder === null || rawOrder.trim() === '' ? 'desc' : rawOrder.trim().toLowerCase();
  if (order !== 'asc' && order !== 'desc') {
    throw invalidParameter('Sort Order Parameter Not Available', `'${rawOrder}' is not a valid sort_order. Use asc or desc.`);
  }
  const field = query.get('sort_by')?.trim() || 'id';
  const reader = fieldReader(def, field, db, records);
  if (!reader) throw invalidParameter('Sort By Parameter Not Available', `'${field}' is not an available sort_by column.`);
  const sign = order === 'asc' ? 1 : -1;
  const key = (r: StoredRecord): Scalar => {
    const value = reader(r);
    return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
  };
  return [...records].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const order = sortOrder(x, y);
    return (order === 0 ? sortOrder(a.id, b.id) : order) * sign;
  });
}

/** Postgres order: nulls after every value (so first when descending), numbers and times by value, text by collation. */
function sortOrder(x: Scalar, y: Scalar): number {
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const a = String(x);
  const b = String(y);
  if (NUMERIC.test(a) && NUMERIC.test(b)) return Number(a) - Number(b);
  if (ISO_DATE.test(a) && ISO_DATE.test(b)) return Date.parse(a) - Date.parse(b);
  return a.localeCompare(b, 'en');
}

// ---- paging and fields ----------------------------------------------------------------------------------------------

/** `page`, 1-based; anything else than a positive whole number is page 1 (as Rails paginators read it). */
export function pageNumber(query: URLSearchParams): number {
  const page = Number.parseInt(query.get('page') ?? '1', 10);
  return Number.isFinite(page) && page >= 1 ? page : 1;
}

export type Selection = 'all' | readonly string[];

/** `fields=all`, a comma list (in the order given), or the fallback (the collection's default set). */
export function selection(query: URLSearchParams, fallback: readonly string[]): Selection {
  const raw = query.get('fields');
  if (raw === null || raw.trim() === '') return fallback;
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.includes('all') ? 'all' : names;
}

export interface ListPage<T> {
  data: T[];
  meta: { total_pages: number; limit_per_page: number; total_entries: number };
  links: { self: string; next?: string; prev?: string };
}

/** One page with Lawmatics' `meta` and `links` (absolute URLs on the sandbox, the request's other parameters kept). */
export function paged<T>(items: readonly T[], query: URLSearchParams, url: URL, origin: string): ListPage<T> {
  const page = pageNumber(query);
  const totalPages = Math.ceil(items.length / PAGE_SIZE);
  const link = (n: number) => {
    const params = new URLSearchParams(query);
    params.set('page', String(n));
    return `${origin}${url.pathname}?${params.toString()}`;
  };
  const links: ListPage<T>['links'] = { self: link(page) };
  if (page < totalPages) links.next = link(page + 1);
  if (page > 1) links.prev = link(Math.min(page - 1, Math.max(totalPages, 1)));
  return {
    data: items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    meta: { total_pages: totalPages, limit_per_page: PAGE_SIZE, total_entries: items.length },
    links,
  };
}
