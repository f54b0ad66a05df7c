import { ENTITY_NAMES, type EntityName, type Json } from './company.js';
import { qboTime, queryParseFault, queryValidationFault } from './errors.js';
import { type Condition, type ParsedQuery, parseQuery, QueryParseError, type QueryValue } from './query-parser.js';
import type { Company } from './seed.js';

// Runs a parsed query statement over the seeded company, with QuickBooks' answers: the page of entities under the
// entity's name with startPosition and maxResults (the count returned), nothing but `{}` when no entity matches,
// `totalCount` for COUNT(*), and ValidationFaults for what QuickBooks refuses.

/** QuickBooks' page size when MAXRESULTS is not given, and the most it returns at once. */
export const DEFAULT_MAX_RESULTS = 100;
export const MAX_RESULTS_LIMIT = 1000;

export function entityName(name: string): EntityName | undefined {
  const lower = name.toLowerCase();
  return ENTITY_NAMES.find((entity) => entity.toLowerCase() === lower);
}

/** The value at a dotted path, field names matched case-insensitively; `found` tells a missing field from a null one. */
function lookup(record: unknown, path: string): { found: boolean; value: unknown } {
  let current: unknown = record;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return { found: false, value: undefined };
    const key = Object.keys(current).find((k) => k.toLowerCase() === segment.toLowerCase());
    if (key === undefined) return { found: false, value: undefined };
    current = (current as Json)[key];
  }
  return { found: true, value: current };
}

/** The canonical spelling of a field (as the entity writes it), or a ValidationFault when no record has it. */
function checkField(records: Json[], entity: string, field: string): string {
  for (const record of records) {
    if (!lookup(record, field).found) continue;
    let current: unknown = record;
    return field
      .split('.')
      .map((segment) => {
        const key = Object.keys(current as Json).find((k) => k.toLowerCase() === segment.toLowerCase()) as string;
        current = (current as Json)[key];
        return key;
      })
      .join('.');
  }
  throw queryValidationFault(`property '${field}' is not queryable for ${entity}`);
}

/** A reference (`CustomerRef`) compares by its id, as QuickBooks does. */
function scalar(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && 'value' in value) return (value as { value: unknown }).value;
  return value;
}

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;
const NUMERIC = /^-?\d+(\.\d+)?$/;

/** Orders a field's value against a query value: negative, zero, positive, or undefined when they cannot compare. */
function compare(raw: unknown, expected: QueryValue): number | undefined {
  const actual = scalar(raw);
  if (actual === undefined || actual === null) return undefined;
  if (typeof actual === 'boolean') {
    const wanted = typeof expected === 'boolean' ? expected : String(expected).toLowerCase() === 'true';
    return actual === wanted ? 0 : 1;
  }
  if (typeof actual === 'number') {
    const wanted = Number(expected);
    return Number.isNaN(wanted) ? undefined : actual - wanted;
  }
  const text = String(actual);
  const wanted = String(expected);
  if (NUMERIC.test(text) && NUMERIC.test(wanted)) return Number(text) - Number(wanted);
  if (DATE_LIKE.test(text) && DATE_LIKE.test(wanted) && (text.includes('T') || wanted.includes('T'))) {
    return Date.parse(text) - Date.parse(wanted);
  }
  const a = text.toLowerCase();
  const b = wanted.toLowerCase();
  return a === b ? 0 : a < b ? -1 : 1;
}

function likePattern(pattern: string): RegExp {
  const body = pattern
    .split('%')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'is');
}

function matches(record: Json, condition: Condition, field: string): boolean {
  const { value } = lookup(record, field);
  switch (condition.op) {
    case 'LIKE': {
      const actual = scalar(value);
      return actual !== undefined && actual !== null && likePattern(condition.value).test(String(actual));
    }
    case 'IN':
      return condition.values.some((v) => compare(value, v) === 0);
    default: {
      const order = compare(value, condition.value);
      if (order === undefined) return false;
      if (condition.op === '=') return order === 0;
      if (condition.op === '<') return order < 0;
      if (condition.op === '>') return order > 0;
      if (condition.op === '<=') return order <= 0;
      return order >= 0;
    }
  }
}

/** Sorts by the ORDERBY keys (missing values last), then by Id. */
function sortRecords(records: Json[], keys: Array<{ field: string; descending: boolean }>): Json[] {
  const byId = (a: Json, b: Json) => Number(a.Id) - Number(b.Id) || String(a.Id).localeCompare(String(b.Id));
  return [...records].sort((a, b) => {
    for (const key of keys) {
      const x = scalar(lookup(a, key.field).value);
      const y = scalar(lookup(b, key.field).value);
      if (x === y) continue;
      if (x === undefined || x === null) return 1;
      if (y === undefined || y === null) return -1;
      const order = compare(x, y as QueryValue) ?? 0;
      if (order !== 0) return key.descending ? -order : order;
    }
    return byId(a, b);
  });
}

/** Parses a statement; a parse error becomes QuickBooks' 400 ValidationFault (code 4000). */
export function parseStatement(statement: string | null): ParsedQuery {
  if (statement === null || statement.trim() === '') throw queryParseFault('QueryParserError: Encountered <EOF> at line 1, column 1.');
  try {
    return parseQuery(statement);
  } catch (error) {
    if (error instanceof QueryParseError) throw queryParseFault(error.message);
    throw error;
  }
}

/** The answer to `GET /v3/company/{realmId}/query?query=…`. */
export function runQuery(company: Company, statement: string | null): Json {
  const query = parseStatement(statement);
  const entity = entityName(query.entity);
  if (!entity) throw queryParseFault(`QueryParserError: Invalid context declaration : ${query.entity}`);
  const records = company.entities[entity];
  const conditions = query.where.map((condition) => ({ condition, field: checkField(records, entity, condition.field) }));
  const orderBy = query.orderBy.map((key) => ({ field: checkField(records, entity, key.field), descending: key.descending }));
  const fields = query.fields.map((field) => checkField(records, entity, field).split('.')[0] as string);
  if (query.maxResults !== undefined && query.maxResults > MAX_RESULTS_LIMIT) {
    throw queryValidationFault(`value ${query.maxResults} for MAXRESULTS is too large: max allowed value is ${MAX_RESULTS_LIMIT}`);
  }

  const matching = records.filter((record) => conditions.every(({ condition, field }) => matches(record, condition, field)));
  if (query.count) return { QueryResponse: { totalCount: matching.length }, time: qboTime() };

  const start = Math.max(1, query.startPosition ?? 1);
  const size = query.maxResults ?? DEFAULT_MAX_RESULTS;
  const page = sortRecords(matching, orderBy).slice(start - 1, start - 1 + size);
  if (page.length === 0) return { QueryResponse: {}, time: qboTime() };
  const shaped = fields.length === 0 ? page : page.map((record) => project(record, fields));
  return { QueryResponse: { [entity]: structuredClone(shaped), startPosition: start, maxResults: page.length }, time: qboTime() };
}

/** `SELECT Id, DisplayName FROM Customer`: those fields, plus what QuickBooks always sends, marked sparse. */
function project(record: Json, fields: string[]): Json {
  const picked: Json = { domain: record.domain, sparse: true, Id: record.Id };
  for (const field of fields) picked[field] = record[field];
  if (record.SyncToken !== undefined) picked.SyncToken = record.SyncToken;
  return picked;
}
