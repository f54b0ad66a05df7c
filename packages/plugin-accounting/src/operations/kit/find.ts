import {
  BooleanString,
  defineOperation,
  EXPECTS,
  FreeObject,
  GatewayError,
  IntegerString,
  Params,
  type RunContext,
  type Static,
  Type,
} from '@portico/core/plugin';
import { companyGet, fetchAllBudgetMs, fetchAllMaxRows, PAGE_SIZE } from '../../upstream.js';
import { MAX_WHERE_LENGTH, parseWhere, SELECT_PATTERN, selectColumns, selectStatement, whereProblem } from './where.js';

/** One QuickBooks entity searchable through the query endpoint. */
export interface FindSpec {
  /** Operation name (`find_invoices`). */
  name: string;
  /** Gateway path (`/invoices`). */
  path: string;
  /** QuickBooks entity name as the query language writes it (`Invoice`). */
  entity: string;
  /** The summary: imperative, in the firm's words, distinct from its neighbours (docs/plugins.md). */
  summary: string;
  /**
   * One to three sentences: what the records are in the words people search with, the fields worth filtering on, and
   * which operation to use instead where a neighbour could be confused. The paging sentence is added.
   */
  about: string;
  /** An example filter that reads (shown by describe_method). */
  where: string;
  /** Another operation that does the same and is the one to use (see OperationDefinition.preferred). */
  preferred?: string;
  /** Example columns for `select` (default `Id,MetaData`… per entity: see SELECT_DEFAULTS). */
  select?: string;
}

function findParams(given: FindSpec) {
  const spec = {
    ...given,
    select: given.select ?? `Id,${given.entity === 'Invoice' ? 'DocNumber,CustomerRef,Balance,DueDate' : 'MetaData'}`,
  };
  return Params({
    where: Type.Optional(
      Type.String({
        maxLength: MAX_WHERE_LENGTH,
        description:
          "Filter in QuickBooks' query language: conditions field op value joined by AND (no OR), op one of =, <, >, <=, >=, LIKE " +
          "('%' wildcard), IN ('a', 'b'); values in single quotes (\\' for a quote), numbers, true/false; optionally ORDERBY field " +
          `[ASC|DESC] at the end. Dotted fields such as MetaData.LastUpdatedTime work. Example: ${spec.where}`,
        examples: [spec.where],
      }),
    ),
    select: Type.Optional(
      Type.String({
        pattern: SELECT_PATTERN,
        [EXPECTS]: 'QuickBooks field names separated by commas, e.g. Id,DocNumber,Balance',
        description:
          `Only these fields of each record (QuickBooks SELECT columns), comma-separated, e.g. ${spec.select}; without it every field. ` +
          'Field names are QuickBooks’ own, as the records show them; include Id to act on a record afterwards.',
        examples: [spec.select],
      }),
    ),
    limit: Type.Optional(
      IntegerString({
        minimum: 1,
        maximum: PAGE_SIZE,
        default: String(PAGE_SIZE),
        description: 'Most records to return (QuickBooks MAXRESULTS; default and maximum 1000).',
        examples: ['100'],
      }),
    ),
    offset: Type.Optional(
      IntegerString({
        minimum: 0,
        description:
          'Records to skip before the first one returned, counting from 0 (default 0). The next page starts at offset + limit. ' +
          'QuickBooks counts positions from 1: the gateway sends STARTPOSITION offset + 1.',
        examples: ['1000'],
      }),
    ),
    fetchAll: Type.Optional(
      BooleanString({
        description:
          '"true" reads every matching record, page after page (1000 at a time, one request after another), and returns them in ' +
          'one answer. A search matching more than the fetch_all_max_rows setting (default 10000) is refused: narrow it with where.',
        examples: ['true'],
      }),
    ),
  });
}

/** QuickBooks' query answer: `QueryResponse` holds the entity's array, `startPosition`, `maxResults` (and `totalCount`). */
const QueryAnswer = Type.Object(
  {
    QueryResponse: FreeObject({
      description: 'The records under the entity name (e.g. "Invoice": [...]), with startPosition and maxResults; {} when none match',
    }),
    time: Type.Optional(Type.String({ description: 'When QuickBooks answered' })),
  },
  { description: "QuickBooks' query answer, unchanged (fetchAll: every page's records in one QueryResponse)" },
);

type FindParams = Static<ReturnType<typeof findParams>>;

/** A find_* operation: GET, the four catalog parameters, the query endpoint, fetchAll paging. */
export function defineFind(spec: FindSpec) {
  return defineOperation({
    name: spec.name,
    ...(spec.preferred ? { preferred: spec.preferred } : {}),
    method: 'GET',
    path: spec.path,
    summary: spec.summary,
    description:
      `${spec.about} Filter with where on ${spec.entity} fields (comparisons joined by AND, LIKE, IN; ORDERBY sorts), pick ` +
      `columns with select, and page with limit (default 1000) and offset, or fetchAll "true" for every page: the records are ` +
      `QueryResponse.${spec.entity}, absent when none match.`,
    params: findParams(spec),
    // What a schema cannot say: the where filter must parse, and fetchAll reads in pages of 1000 whatever limit says.
    check: (params) => whereProblem(params.where) ?? fetchAllLimitProblem(params),
    response: QueryAnswer,
    run: (params, ctx) => runFind(spec.entity, params, ctx),
    example: { where: spec.where, limit: '100' },
  });
}

function fetchAllLimitProblem(params: FindParams): string | undefined {
  if (params.fetchAll !== 'true' || params.limit === undefined || params.limit === String(PAGE_SIZE)) return undefined;
  return `params.limit: cannot be combined with fetchAll "true", which reads every record in pages of ${PAGE_SIZE}; drop limit, or drop fetchAll to read one page`;
}

async function runFind(entity: string, params: FindParams, ctx: RunContext): Promise<unknown> {
  const clause = parseWhere(params.where ?? '');
  const start = Number(params.offset ?? '0') + 1;
  const columns = selectColumns(params.select);
  const page = (startPosition: number, maxResults: number) =>
    ctx.send(
      companyGet(ctx.connection, ctx.settings, '/query', { query: selectStatement(entity, clause, startPosition, maxResults, columns) }),
    );
  if (params.fetchAll !== 'true') return (await page(start, Number(params.limit ?? PAGE_SIZE))).body;
  return fetchAll(entity, start, fetchAllMaxRows(ctx.settings), page, { ms: fetchAllBudgetMs(ctx.settings) });
}

export type PageReader = (startPosition: number, maxResults: number) => Promise<{ body: unknown }>;

/** How long fetchAll may read pages; `now` is the clock (tests give their own). */
export interface FetchAllBudget {
  ms: number;
  now?: () => number;
}

/**
 * Reads every page, one request at a time, until a page holds fewer records than asked for. At most `ceiling` records:
 * when the pages reach it exactly, one more request for a single record tells whether there are more, and if there
 * are the call fails (400) rather than return a silently shortened list. Within `budget`: a search still paging when
 * it is spent fails (504 upstream_timeout) rather than answer with part of the records.
 */
export async function fetchAll(entity: string, start: number, ceiling: number, page: PageReader, budget: FetchAllBudget): Promise<unknown> {
  const now = budget.now ?? Date.now;
  const deadline = now() + budget.ms;
  const records: unknown[] = [];
  let first: Record<string, unknown> | undefined;
  let position = start;
  let pages = 0;
  for (;;) {
    if (pages > 0 && now() >= deadline) {
      throw new GatewayError(
        'upstream_timeout',
        `fetchAll read ${pages} pages (${records.length} ${entity} records) in its ${Math.round(budget.ms / 1000)}-second budget (the fetch_all_budget_seconds setting) without reaching the last page; narrow the search with where, or page with limit and offset`,
      );
    }
    const want = Math.min(PAGE_SIZE, ceiling - records.length);
    if (want === 0) {
      const probe = readPage(entity, (await page(position, 1)).body, pages + 1);
      if (probe.records.length > 0) {
        throw new GatewayError(
          'bad_request',
          `fetchAll found more than ${ceiling} ${entity} records (the fetch_all_max_rows ceiling); narrow the search with where ` +
            "(e.g. MetaData.LastUpdatedTime >= '2025-01-01' or TxnDate >= '2025-01-01'), or page with limit and offset",
        );
      }
      break;
    }
    const body = (await page(position, want)).body;
    pages++;
    const read = readPage(entity, body, pages);
    first ??= read.body;
    records.push(...read.records);
    if (read.records.length < want) break;
    position += read.records.length;
  }
  return combine(first as Record<string, unknown>, recordsKey(first, entity), records, start);
}

function readPage(entity: string, body: unknown, page: number): { body: Record<string, unknown>; records: unknown[] } {
  const b = body as Record<string, unknown> | undefined;
  const response = b?.QueryResponse as Record<string, unknown> | undefined;
  if (typeof response !== 'object' || response === null) {
    throw new GatewayError('upstream_error', `QuickBooks answered page ${page} of ${entity} records without a QueryResponse`);
  }
  const key = recordsKey(b, entity);
  const records = key ? (response[key] as unknown[]) : [];
  return { body: b as Record<string, unknown>, records };
}

/** The key of QueryResponse holding the records: the entity name, else the first array (QuickBooks' own spelling). */
function recordsKey(body: Record<string, unknown> | undefined, entity: string): string | undefined {
  const response = (body?.QueryResponse ?? {}) as Record<string, unknown>;
  if (Array.isArray(response[entity])) return entity;
  return Object.keys(response).find((key) => Array.isArray(response[key]));
}

/** One QuickBooks-shaped answer: the first page's envelope, every record, startPosition and maxResults of the whole. */
function combine(first: Record<string, unknown>, key: string | undefined, records: unknown[], start: number): unknown {
  if (!key || records.length === 0) return first;
  const response = { ...(first.QueryResponse as Record<string, unknown>) };
  delete response.startPosition;
  delete response.maxResults;
  return { ...first, QueryResponse: { ...response, [key]: records, startPosition: start, maxResults: records.length } };
}
