import { queryValues } from '@portico/core/testing/emulator';
import { derivedFilter, hiddenByDefault } from './filters.js';
import { badRequest, type Collection, type Db, lookup, type Row, type Stored } from './model.js';
import { expandRecurring, seriesOrder } from './recurrence.js';

// Clio's list and record conventions: `fields` selection, list filters, `order` and `page_token` paging.

/** A parsed `fields` value: `id,date,matter{id,display_number}` → name → sub-selection (undefined for a plain field). */
export type Selection = Map<string, Selection | undefined>;

const DEFAULT_FIELDS = 'id,etag';

export function parseFields(text: string | null): Selection {
  const source = text === null || text.trim() === '' ? DEFAULT_FIELDS : text;
  let at = 0;
  const level = (depth: number): Selection => {
    const selection: Selection = new Map();
    while (at < source.length) {
      const name = /^[A-Za-z0-9_]*/.exec(source.slice(at))?.[0] ?? '';
      at += name.length;
      let sub: Selection | undefined;
      if (source[at] === '{') {
        at += 1;
        sub = level(depth + 1);
        if (source[at] !== '}') throw badRequest(`fields: missing "}" in "${source}"`);
        at += 1;
      }
      if (name === '') throw badRequest(`fields: a field name is missing in "${source}"`);
      selection.set(name, sub);
      if (source[at] === ',') at += 1;
      else if (source[at] === '}' && depth > 0) return selection;
      else if (at < source.length) throw badRequest(`fields: unexpected "${source[at]}" in "${source}"`);
    }
    return selection;
  };
  return level(0);
}

/** Where a related record lives, for nested selections (`matter{…}`); others are tried as `<name>s`. */
const RELATED: Record<string, string> = {
  client: '/contacts',
  contact: '/contacts',
  user: '/users',
  assigner: '/users',
  responsible_attorney: '/users',
  originating_attorney: '/users',
  calendar_owner: '/calendars',
  jurisdiction: '/court_rules/jurisdictions',
  service_type: '/court_rules/service_types',
  trigger: '/court_rules/jurisdictions/{jurisdiction_id}/triggers',
  parent: '/folders',
};

function related(db: Db, name: string, value: Record<string, unknown>): Row | undefined {
  if (typeof value.id !== 'number') return undefined;
  const type = typeof value.type === 'string' ? value.type : '';
  const plural = name.endsWith('y') ? `${name.slice(0, -1)}ies` : `${name.replace(/s$/, '')}s`;
  const byType = type ? `/${type.replace(/[a-z][A-Z]/g, (m) => `${m[0]}_${m[1]}`).toLowerCase()}s` : '';
  for (const template of [byType, RELATED[name], `/${plural}`]) {
    if (!template) continue;
    const found = db.records.get(template)?.find((s) => s.row.id === value.id);
    if (found) return found.row;
  }
  return undefined;
}

/** A record with the selected fields; a field the record does not have is null, as Clio answers. */
export function render(db: Db, row: Record<string, unknown>, selection: Selection): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, sub] of selection) {
    const value = row[name];
    if (sub === undefined || value === null || value === undefined) {
      out[name] = value ?? null;
    } else if (Array.isArray(value)) {
      out[name] = value.map((item) => (isObject(item) ? render(db, related(db, name, item) ?? item, sub) : item));
    } else if (isObject(value)) {
      out[name] = render(db, { ...value, ...related(db, name, value) }, sub);
    } else {
      out[name] = value;
    }
  }
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const ID = /^[0-9]+$/;

/** The id a record holds for a filter `<name>_id`: its `<name>.id`, else its `<name>_id`. */
function associated(row: Row, filter: string): unknown {
  const base = filter.slice(0, -3);
  const value = row[base];
  if (isObject(value)) return value.id;
  if (Array.isArray(value)) return value.map((v) => (isObject(v) ? v.id : v));
  return row[filter] ?? value;
}

function timestamp(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw badRequest(`${name} must be an ISO-8601 timestamp, got "${text}"`);
  return time;
}

/** The records a list answers before paging: common filters, the collection's own filters, then `order`. */
export function select(collection: Collection, stored: Stored[], query: URLSearchParams, db: Db): Row[] {
  const related = (template: string, id: unknown) => lookup(db, template, Number(id))?.row;
  const records = (template: string) => (db.records.get(template) ?? []).map((s) => s.row);
  const hidden = hiddenByDefault(collection.filters, query, related);
  let rows = stored.map((s) => s.row).filter((r) => !hidden(r));
  // a recurring calendar entry is one record, or one per occurrence (expanded=true) that the filters then see
  if (collection.filters.includes('expanded')) rows = expandRecurring(rows, query);
  const ids = queryValues(query, 'ids');
  if (ids.some((id) => !ID.test(id))) throw badRequest('ids[] must be record ids');
  if (ids.length > 0) rows = rows.filter((r) => ids.includes(String(r.id)));
  const created = timestamp(query, 'created_since');
  const updated = timestamp(query, 'updated_since');
  if (created !== undefined) rows = rows.filter((r) => Date.parse(r.created_at) >= created);
  if (updated !== undefined) rows = rows.filter((r) => Date.parse(r.updated_at) >= updated);
  for (const filter of collection.filters) {
    const values = filter.endsWith('[]') ? query.getAll(filter) : query.has(filter) ? [query.get(filter) as string] : [];
    if (values.length === 0) continue;
    const value = values[0] as string;
    const derived = derivedFilter(collection.template, filter);
    if (derived) {
      rows = rows.filter((r) => derived(r, value, values, related, query, records));
    } else if (filter === 'query') {
      const needle = value.toLowerCase();
      rows = rows.filter((r) => Object.values(r).some((v) => typeof v === 'string' && v.toLowerCase().includes(needle)));
    } else if (filter === 'exclude_ids[]') {
      rows = rows.filter((r) => !values.includes(String(r.id)));
    } else if (/^\w+_id$/.test(filter)) {
      if (value !== 'null' && !ID.test(value)) throw badRequest(`${filter} must be a record id or null, got "${value}"`);
      rows = rows.filter((r) => {
        const held = associated(r, filter);
        if (value === 'null') return held === null || held === undefined || (Array.isArray(held) && held.length === 0);
        return Array.isArray(held) ? held.includes(Number(value)) : String(held) === value;
      });
    } else if ((filter === 'start_date' || filter === 'end_date') && rows.some((r) => typeof r.date === 'string')) {
      // Activities from start_date to end_date, both included, on their date.
      rows = rows.filter((r) => (filter === 'start_date' ? String(r.date) >= value : String(r.date) <= value));
    } else if (/^\w+$/.test(filter)) {
      // Other filters apply where the records carry the field (status, type, name …); booleans are true/false.
      if (!rows.some((r) => r[filter] !== undefined)) continue;
      rows = rows.filter((r) => String(r[filter]).toLowerCase() === value.toLowerCase());
    }
  }
  return sort(collection, rows, query.get('order'));
}

function sort(collection: Collection, rows: Row[], order: string | null): Row[] {
  if (order === null || !collection.ordered) return [...rows].sort(seriesOrder);
  const match = /^(\w+)\((asc|desc)\)$/.exec(order);
  if (!match) throw badRequest(`order must be <field>(asc|desc), got "${order}"`);
  const [, field, direction] = match as unknown as [string, string, string];
  const sign = direction === 'asc' ? 1 : -1;
  const key = (row: Row): string | number => {
    const value = row[field];
    if (isObject(value)) return Number(value.id ?? 0);
    return typeof value === 'number' ? value : String(value ?? '');
  };
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : seriesOrder(a, b)) * sign;
  });
}

/** One page: `limit` (1–max, default max) from the offset in `page_token`, and the next page's URL when there is one. */
export function page(collection: Collection, rows: Row[], query: URLSearchParams, url: URL, origin: string) {
  const limitText = query.get('limit');
  const limit = limitText === null ? collection.maxLimit : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > collection.maxLimit) {
    throw badRequest(`limit must be an integer from 1 to ${collection.maxLimit}, got "${limitText}"`);
  }
  const token = query.get('page_token');
  let offset = 0;
  if (token !== null) {
    const decoded = /^o(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (!decoded) throw badRequest('page_token is not valid');
    offset = Number(decoded[1]);
  }
  const data = rows.slice(offset, offset + limit);
  const paging: { next?: string } = {};
  if (offset + limit < rows.length) {
    const next = new URL(`${origin}${url.pathname}${url.search}`);
    next.searchParams.set('page_token', Buffer.from(`o${offset + limit}`).toString('base64url'));
    paging.next = next.toString();
  }
  return { data, meta: { paging, records: rows.length } };
}
