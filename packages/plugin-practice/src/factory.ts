import {
  defineOperation,
  fillPath,
  IntegerString,
  type OperationDefinition,
  type ParamRule,
  Params,
  pathTokens,
  type QueryValue,
  type TSchema,
  Type,
  type UpstreamRequest,
} from '@portico/core';
import { Moment, PathId, type Schemas } from './schemas.js';

// Turns a row of the collection table (collections.ts) into operations that follow Clio's convention:
//   list    GET    <path>        → GET    <clio>.json        common list filters + the collection's own
//   get     GET    <path>/:id    → GET    <clio>/{id}.json   fields
//   create  POST   <path>        → POST   <clio>.json        body fields (required ones required), fields in the query
//   update  PATCH  <path>/:id    → PATCH  <clio>/{id}.json   body fields, all optional, fields in the query
//   delete  DELETE <path>/:id    → DELETE <clio>/{id}.json
// Bodies travel as { "data": { … } }, query parameters keep Clio's names (`ids[]`, `rate_for[user_id]`).

export type Verb = 'list' | 'get' | 'create' | 'update' | 'delete';

export interface CollectionRow {
  /** The collection, as Clio names it (`activities`). */
  key: string;
  /** Gateway path of the collection (`/activities`); `:tokens` are required path parameters of every operation. */
  path: string;
  /** Clio's path below /api/v4, without `.json`, with the same `:tokens` (`/activities`). */
  clio: string;
  /** Record name, singular and plural: `get_<singular>`, `list_<plural>` (`['activity', 'activities']`). */
  record: readonly [singular: string, plural: string];
  /** The operations this collection has. */
  verbs: readonly Verb[];
  /** Operation names that do not follow `<verb>_<record>` (`list_clio_file_submissions`). */
  names?: Partial<Record<Verb, string>>;
  /** What the record is, one sentence for the plugin's prose (summaries use the record name). */
  about: string;
  /** Fields worth asking for (`fields=` example): Clio returns only id and etag without them. */
  fields: string;
  /**
   * The default `order` (`id(asc)`); `null` when Clio's list takes no `order` at all (then it is not offered);
   * absent when Clio takes one without a stated default.
   */
  order?: string | null;
  /** Bounds of `limit` when they are not the common 1–200, default 200. */
  limit?: { maximum: number; default: string };
  /** Collection-specific list filters, in Clio's names. */
  filters?: Schemas;
  /** Cross-field rules among the list filters (`external_property_value` requires `external_property_name`). */
  listRules?: readonly ParamRule[];
  /** Extra query parameters of the get operation (get_bill's navigation ids). */
  getParams?: Schemas;
  /** Body fields inside `data` (create and update). */
  body?: Schemas;
  /** The body fields required on create (on update every field is optional). */
  required?: readonly string[];
  /** Maps a list's query to Clio's values where the gateway's differ (list_activities' `non-billable`). */
  clioQuery?: (query: Record<string, QueryValue>) => Record<string, QueryValue>;
  /** Per-operation text: what it returns or does, where the ids come from. The factory adds fields and paging notes. */
  text: Partial<Record<Verb, string>>;
}

/** Clio's answers name only `id` and `etag` unless `fields` lists what to return. */
export function fieldsNote(row: Pick<CollectionRow, 'fields'>): string {
  return (
    `Clio returns only id and etag unless fields names the fields to return, e.g. fields=${row.fields} ` +
    '(nested records in braces, passed to Clio as written).'
  );
}

export const PAGING_NOTE =
  'Paging: up to limit records per page; when the answer has meta.paging.next (the URL of the next page), call again with ' +
  'its page_token value as page_token and the same filters; no meta.paging.next means this was the last page.';

const FIELDS = (row: CollectionRow) =>
  Type.String({
    description: `Fields to return, comma-separated, nested records in braces (e.g. ${row.fields}). Without it Clio returns only id and etag.`,
  });

/** The common list filters, with the collection's order default and limit bounds. */
function commonListFilters(row: CollectionRow): Schemas {
  const limit = row.limit ?? { maximum: 200, default: '200' };
  const [singular, plural] = row.record;
  const common: Schemas = {
    created_since: Moment(`Only ${plural} created after this time`),
    updated_since: Moment(`Only ${plural} updated after this time`),
    fields: FIELDS(row),
    'ids[]': Type.Array(Type.String({ pattern: '^[0-9]+$' }), {
      description: `Only the ${plural} with these ids (repeat ids[] in a query string).`,
    }),
    limit: IntegerString({
      minimum: 1,
      maximum: limit.maximum,
      default: limit.default,
      description: `Most ${plural} per page.`,
    }),
    page_token: Type.String({ description: 'The page to return: the page_token of the previous answer’s meta.paging.next.' }),
  };
  if (row.order !== null) {
    common.order = Type.String({
      pattern: '^[a-z_.]+\\((asc|desc)\\)$',
      'x-portico-expects': 'a field name followed by (asc) or (desc)',
      description: `Sort order, <field>(asc|desc)${row.order ? `; default ${row.order}` : ''} (the ${singular} fields Clio sorts by).`,
      ...(row.order ? { default: row.order } : {}),
    });
  }
  return common;
}

/** Every schema of `schemas` made optional (filters, query parameters). */
const optional = (schemas: Schemas = {}): Schemas =>
  Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, Type.Optional(schema)]));

function pathParams(path: string): Schemas {
  return Object.fromEntries(pathTokens(path).map((name) => [name, PathId(`Id of the ${name.replace(/_id$/, '').replace(/_/g, ' ')}.`)]));
}

const clioPath = (template: string, params: Readonly<Record<string, unknown>>) => `${fillPath(template, params)}.json`;

/** The query values of `params` without the path tokens and the body fields, Clio's names kept. */
function queryOf(params: Readonly<Record<string, unknown>>, exclude: ReadonlySet<string>): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || exclude.has(name)) continue;
    query[name] = value as QueryValue;
  }
  return query;
}

function bodyRequest(
  method: 'POST' | 'PATCH',
  path: string,
  params: Readonly<Record<string, unknown>>,
  bodyNames: readonly string[],
): UpstreamRequest {
  const data: Record<string, unknown> = {};
  for (const name of bodyNames) if (params[name] !== undefined) data[name] = params[name];
  return {
    method,
    path,
    ...(typeof params.fields === 'string' ? { query: { fields: params.fields } } : {}),
    body: { data },
  };
}

export function nameOf(row: CollectionRow, verb: Verb): string {
  return row.names?.[verb] ?? `${verb}_${verb === 'list' ? row.record[1] : row.record[0]}`;
}

/** The operations of one row of the table. */
export function collectionOperations(row: CollectionRow): OperationDefinition[] {
  const [singular, plural] = row.record;
  const parents = pathParams(row.path);
  const parentNames = new Set(Object.keys(parents));
  const itemPath = `${row.path}/:id`;
  const itemClio = `${row.clio}/:id`;
  const id = { id: PathId(`Id of the ${singular} (from list_${plural} or the answer that created it).`) };
  const body = row.body ?? {};
  const bodyNames = Object.keys(body);
  const text = (verb: Verb) => {
    const own = row.text[verb];
    if (!own) throw new Error(`collections: ${row.key} has no text for ${verb}`);
    return own;
  };
  const out: OperationDefinition[] = [];
  for (const verb of row.verbs) {
    const name = nameOf(row, verb);
    if (verb === 'list') {
      const params = Params(
        { ...parents, ...optional(row.filters), ...optional(commonListFilters(row)) },
        row.listRules ? { rules: row.listRules } : {},
      );
      out.push(
        defineOperation({
          name,
          method: 'GET',
          path: row.path,
          summary: `List ${plural.replace(/_/g, ' ')}`,
          description: `${text('list')} ${fieldsNote(row)} ${PAGING_NOTE}`,
          params,
          upstream: (p) => {
            const values = p as Record<string, unknown>;
            const query = queryOf(values, parentNames);
            return { method: 'GET', path: clioPath(row.clio, values), query: row.clioQuery ? row.clioQuery(query) : query };
          },
        }),
      );
    } else if (verb === 'get') {
      const params = Params({ ...parents, ...id, ...optional({ fields: FIELDS(row), ...row.getParams }) });
      const exclude = new Set([...parentNames, 'id']);
      out.push(
        defineOperation({
          name,
          method: 'GET',
          path: itemPath,
          summary: `Get one ${singular.replace(/_/g, ' ')}`,
          description: `${text('get')} ${fieldsNote(row)}`,
          params,
          upstream: (p) => {
            const values = p as Record<string, unknown>;
            const query = queryOf(values, exclude);
            return { method: 'GET', path: clioPath(itemClio, values), ...(Object.keys(query).length > 0 ? { query } : {}) };
          },
        }),
      );
    } else if (verb === 'create' || verb === 'update') {
      const create = verb === 'create';
      const required = new Set(create ? (row.required ?? []) : []);
      const fields: Record<string, TSchema> = {};
      for (const [field, schema] of Object.entries(body)) fields[field] = required.has(field) ? schema : Type.Optional(schema);
      const params = Params({ ...parents, ...(create ? {} : id), ...fields, fields: Type.Optional(FIELDS(row)) });
      out.push(
        defineOperation({
          name,
          method: create ? 'POST' : 'PATCH',
          path: create ? row.path : itemPath,
          summary: `${create ? 'Create' : 'Update'} a ${singular.replace(/_/g, ' ')}`,
          description: `${text(verb)} ${create ? 'Answers with the new record' : 'Only the fields given change; answers with the record'} as data (only id and etag unless fields, sent in the query string, names more, e.g. fields=${row.fields}).`,
          params,
          locations: { fields: 'query' },
          upstream: (p) => {
            const values = p as Record<string, unknown>;
            return bodyRequest(create ? 'POST' : 'PATCH', clioPath(create ? row.clio : itemClio, values), values, bodyNames);
          },
        }),
      );
    } else {
      out.push(
        defineOperation({
          name,
          method: 'DELETE',
          path: itemPath,
          summary: `Delete a ${singular.replace(/_/g, ' ')}`,
          description: text('delete'),
          params: Params({ ...parents, ...id }),
          upstream: (p) => ({ method: 'DELETE', path: clioPath(itemClio, p as Record<string, unknown>) }),
        }),
      );
    }
  }
  return out;
}
