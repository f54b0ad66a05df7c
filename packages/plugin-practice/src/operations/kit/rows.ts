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
} from '@portico/core/plugin';
import { ClioId, Fields, Ids, Moment, type Schemas } from '../../schemas.js';

// Turns a row of the collection table (one per Clio collection, declared in its family's file) into operations that
// follow Clio's convention:
//   list    GET    <path>        → GET    <clio>.json        common list filters + the collection's own
//   get     GET    <path>/:id    → GET    <clio>/{id}.json   fields
//   create  POST   <path>        → POST   <clio>.json        body fields (required ones required), fields in the query
//   update  PATCH  <path>/:id    → PATCH  <clio>/{id}.json   body fields, all optional, fields in the query
//   delete  DELETE <path>/:id    → DELETE <clio>/{id}.json
// Bodies travel as { "data": { … } }, query parameters keep Clio's names (`ids[]`, `rate_for[user_id]`).

export type Verb = 'list' | 'get' | 'create' | 'update' | 'delete';

/** The common list filters some of Clio's lists do not take (its document leaves them out). */
export type CommonFilter = 'created_since' | 'updated_since' | 'ids[]';

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
  /**
   * The summary of each verb, written for the row (no template): imperative, in a law firm's words, distinct from its
   * neighbours' (`List time entries and expenses (activities) on matters`). See the style guide in docs/plugins.md.
   */
  summaries: Partial<Record<Verb, string>>;
  /** What the record is, one sentence for the plugin's prose (summaries use the record name). */
  about: string;
  /** Fields worth asking for (`fields=` example): Clio returns only id and etag without them. */
  fields: string;
  /** A `fields=` example of one operation where it differs from `fields` (what that operation's answer carries). */
  fieldsBy?: Partial<Record<Verb, string>>;
  /**
   * The default `order` (`id(asc)`); `null` when Clio's list takes no `order` at all (then it is not offered);
   * absent when Clio takes one without a stated default.
   */
  order?: string | null;
  /** Bounds of `limit` when they are not the common 1–200, default 200. */
  limit?: { maximum: number; default: string };
  /** Collection-specific list filters, in Clio's names. */
  filters?: Schemas;
  /** Common list filters Clio's list does not take (its document has only fields, limit, page_token and order). */
  without?: readonly CommonFilter[];
  /** Cross-field rules among the list filters (`external_property_value` requires `external_property_name`). */
  listRules?: readonly ParamRule[];
  /** List filters Clio requires (`conversation_id` of list_conversation_messages). */
  listRequired?: readonly string[];
  /** Descriptions of path tokens that say more than "Id of the <token>." (`/documents/:id/versions`). */
  tokens?: Record<string, string>;
  /** Extra query parameters of the get operation (get_bill's navigation ids). */
  getParams?: Schemas;
  /** Body fields inside `data` (create, and update unless `updateBody` says otherwise). */
  body?: Schemas;
  /** The body fields of update, where Clio's update takes other fields than its create (every one optional). */
  updateBody?: Schemas;
  /** The body fields required on create (on update every field is optional). */
  required?: readonly string[];
  /** Maps a list's query to Clio's values where the gateway's differ (list_activities' `non-billable`). */
  clioQuery?: (query: Record<string, QueryValue>, values: Record<string, unknown>) => Record<string, QueryValue>;
  /** Per-operation text: what it returns or does, where the ids come from. The factory adds fields and paging notes. */
  text: Partial<Record<Verb, string>>;
}

/** Clio's answers name only `id` and `etag` without `fields`. */
export const ONLY_ID = 'Clio returns only id and etag unless fields names the fields to return';

/** The note that ends every list and get description: what to ask for in `fields`, with an example. */
export function fieldsNote(row: Pick<CollectionRow, 'fields'>): string {
  return `${ONLY_ID}, for example fields=${row.fields} (nested records in braces, passed to Clio as written).`;
}

const PAGING_NOTE =
  'Paging: up to limit records per page; when the answer has meta.paging.next (the URL of the next page), call again with ' +
  'its page_token value as page_token and the same filters; no meta.paging.next means this was the last page.';

/** The `fields` of a write travels in the query string (Clio's), not in the body. */
export const withFields = (fields: unknown) => (typeof fields === 'string' ? { query: { fields } } : {});

/** The common list filters, with the collection's order default and limit bounds, less those Clio's list does not take. */
function commonListFilters(row: CollectionRow, fields: string): Schemas {
  const limit = row.limit ?? { maximum: 200, default: '200' };
  const [singular, plural] = row.record;
  const common: Schemas = {
    created_since: Moment(`Only ${plural} created after this time`),
    updated_since: Moment(`Only ${plural} updated after this time`),
    fields: Fields(fields),
    'ids[]': Ids(`Only the ${plural} with these ids (repeat ids[] in a query string).`),
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
  for (const name of row.without ?? []) delete common[name];
  return common;
}

/** The named fields of a body, in the order named (an update that takes some of create's fields). */
export const pick = (schemas: Schemas, ...names: string[]): Schemas =>
  Object.fromEntries(
    names.map((name) => {
      const schema = schemas[name];
      if (!schema) throw new Error(`collections: no body field ${name} to pick`);
      return [name, schema];
    }),
  );

/** A body without the named fields (an update that takes all but some of create's fields). */
export const omit = (schemas: Schemas, ...names: string[]): Schemas =>
  Object.fromEntries(Object.entries(schemas).filter(([name]) => !names.includes(name)));

/** Every schema of `schemas` made optional (filters, query parameters). */
export const optional = (schemas: Schemas = {}): Schemas =>
  Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, Type.Optional(schema)]));

function pathParams(row: CollectionRow): Schemas {
  return Object.fromEntries(
    pathTokens(row.path).map((name) => [name, ClioId(row.tokens?.[name] ?? `Id of the ${name.replace(/_id$/, '').replace(/_/g, ' ')}.`)]),
  );
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

/** The body fields of `params` that were given, as Clio's `data`. */
export function dataOf(params: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const name of names) if (params[name] !== undefined) data[name] = params[name];
  return data;
}

function bodyRequest(
  method: 'POST' | 'PATCH',
  path: string,
  params: Readonly<Record<string, unknown>>,
  bodyNames: readonly string[],
): UpstreamRequest {
  return { method, path, ...withFields(params.fields), body: { data: dataOf(params, bodyNames) } };
}

function nameOf(row: CollectionRow, verb: Verb): string {
  return row.names?.[verb] ?? `${verb}_${verb === 'list' ? row.record[1] : row.record[0]}`;
}

function summaryOf(row: CollectionRow, verb: Verb): string {
  const own = row.summaries[verb];
  if (!own) throw new Error(`collections: ${row.key} has no summary for ${verb}`);
  return own;
}

/** The operations of one row of the table, in the order of its verbs. */
export function collectionOperations(row: CollectionRow): OperationDefinition[] {
  const plural = row.record[1];
  const parents = pathParams(row);
  const parentNames = new Set(Object.keys(parents));
  const itemPath = `${row.path}/:id`;
  const itemClio = `${row.clio}/:id`;
  const id = { id: ClioId(`Id of the ${row.record[0]} (from list_${plural} or the answer that created it).`) };
  const fieldsOf = (verb: Verb) => row.fieldsBy?.[verb] ?? row.fields;
  const text = (verb: Verb) => {
    const own = row.text[verb];
    if (!own) throw new Error(`collections: ${row.key} has no text for ${verb}`);
    return own;
  };
  const out: OperationDefinition[] = [];
  for (const verb of row.verbs) {
    const name = nameOf(row, verb);
    const summary = summaryOf(row, verb);
    const fields = fieldsOf(verb);
    if (verb === 'list') {
      const params = Params(
        {
          ...parents,
          ...optional(omit(row.filters ?? {}, ...(row.listRequired ?? []))),
          ...pick(row.filters ?? {}, ...(row.listRequired ?? [])),
          ...optional(commonListFilters(row, fields)),
        },
        row.listRules ? { rules: row.listRules } : {},
      );
      out.push(
        defineOperation({
          name,
          method: 'GET',
          path: row.path,
          summary,
          description: `${text('list')} ${fieldsNote({ fields })} ${PAGING_NOTE}`,
          params,
          upstream: (p) => {
            const values = p as Record<string, unknown>;
            const query = queryOf(values, parentNames);
            return { method: 'GET', path: clioPath(row.clio, values), query: row.clioQuery ? row.clioQuery(query, values) : query };
          },
        }),
      );
    } else if (verb === 'get') {
      const params = Params({ ...parents, ...id, ...optional({ fields: Fields(fields), ...row.getParams }) });
      const exclude = new Set([...parentNames, 'id']);
      out.push(
        defineOperation({
          name,
          method: 'GET',
          path: itemPath,
          summary,
          description: `${text('get')} ${fieldsNote({ fields })}`,
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
      const body = (create ? row.body : (row.updateBody ?? row.body)) ?? {};
      const bodyNames = Object.keys(body);
      const required = new Set(create ? (row.required ?? []) : []);
      const bodyParams: Record<string, TSchema> = {};
      for (const [field, schema] of Object.entries(body)) bodyParams[field] = required.has(field) ? schema : Type.Optional(schema);
      const params = Params({ ...parents, ...(create ? {} : id), ...bodyParams, fields: Type.Optional(Fields(fields)) });
      out.push(
        defineOperation({
          name,
          method: create ? 'POST' : 'PATCH',
          path: create ? row.path : itemPath,
          summary,
          description: `${text(verb)} ${create ? 'Answers with the new record' : 'Only the fields given change; answers with the record'} as data (only id and etag unless fields, sent in the query string, names more, for example fields=${fields}).`,
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
          summary,
          description: text('delete'),
          params: Params({ ...parents, ...id }),
          upstream: (p) => ({ method: 'DELETE', path: clioPath(itemClio, p as Record<string, unknown>) }),
        }),
      );
    }
  }
  return out;
}

/** The rows and the operations of one family: each row's operations, then the family's special ones. */
export interface Family {
  rows: readonly CollectionRow[];
  operations: readonly OperationDefinition[];
}

export function family(rows: readonly CollectionRow[], ...special: OperationDefinition[]): Family {
  return { rows, operations: [...rows.flatMap(collectionOperations), ...special] };
}
