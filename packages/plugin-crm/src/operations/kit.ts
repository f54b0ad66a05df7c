import { defineOperation, Params, type TSchema, Type } from '@portico/core/plugin';
import { filterNeedsValue, ListParams, RecordId } from '../schemas.js';
import { getList, getPlain, getRecord } from '../upstream.js';

/**
 * Factories for the three read shapes that make up most of the catalog: a list with the shared list parameters, a
 * record by id, and a fuzzy find by one path value. Each gives a complete operation declaration (params, rules,
 * upstream, response, example); the operation files only add the words. Below them, the two helpers that turn a
 * create's body fields into an update's.
 */

interface Words {
  name: string;
  /** Gateway path (catalog style, hyphens). */
  path: string;
  /** Lawmatics path below /v1 (underscores), with the same `:tokens` as the gateway path. */
  upstreamPath: string;
  summary: string;
  description: string;
  response?: TSchema;
}

// The paging sentence every list ends with (it may repeat within the plugin: docs/plugins.md).
const LIST_HELP =
  ' Pages with page (from 1; meta.total_pages says how many) and sorts with sort_by and sort_order (newest first by ' +
  'default); one filter per request (filter_by the field, filter_on the value, filter_with the operator: =, !=, <, <=, >, ' +
  '>=, like, ilike, null, not_null), and fields names the attributes to return, which keeps a large answer small.';

export function listOperation(
  words: Words & { filterBy?: readonly string[]; pathParams?: Record<string, TSchema>; example?: Record<string, unknown> },
) {
  return defineOperation({
    name: words.name,
    method: 'GET',
    path: words.path,
    summary: words.summary,
    description: `${words.description}${LIST_HELP}`,
    params: ListParams(words.filterBy, words.pathParams),
    check: filterNeedsValue,
    ...(words.response ? { response: words.response } : {}),
    upstream: getList(words.upstreamPath),
    example: (words.example ?? { sort_by: 'created_at', sort_order: 'desc', page: '1' }) as never,
  });
}

export function getOperation(
  words: Words & {
    /** What the id names and where it comes from. */
    id: { what: string; from: string; example?: string };
    /** Send `fields=all` (records in Lawmatics' JSON:API shape). Default true. */
    allFields?: boolean;
  },
) {
  return defineOperation({
    name: words.name,
    method: 'GET',
    path: words.path,
    summary: words.summary,
    description: `${words.description} The id comes from ${words.id.from}.`,
    params: Params({ id: RecordId(words.id.what, words.id.from, words.id.example) }),
    ...(words.response ? { response: words.response } : {}),
    upstream: words.allFields === false ? getPlain(words.upstreamPath) : getRecord(words.upstreamPath),
    example: { id: words.id.example ?? '1042' },
  });
}

export type FindKey = 'phone_number' | 'email_address' | 'name';

const FIND_PARAM: Record<FindKey, string> = {
  phone_number: 'Phone number to look for, as written anywhere in it (digits, with or without punctuation).',
  email_address: 'Email address to look for.',
  name: 'Name to look for: "first last" or just the first name; case does not matter.',
};

/** A find by one path value; `example` is the value its ready-to-use example looks for. */
export function findOperation(words: Words & { key: FindKey; example: string }) {
  return defineOperation({
    name: words.name,
    method: 'GET',
    path: words.path,
    summary: words.summary,
    description: words.description,
    params: Params({ [words.key]: Type.String({ minLength: 1, description: FIND_PARAM[words.key], examples: [words.example] }) }),
    ...(words.response ? { response: words.response } : {}),
    upstream: getPlain(words.upstreamPath),
    example: { [words.key]: words.example },
  });
}

/** The same properties, each optional (the fields a create requires become optional on update). */
export function optionalAll<T extends Record<string, TSchema>>(properties: T): { [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>> } {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, Type.Optional(schema)])) as never;
}

/** The names of a properties object, for atLeastOne over every body field of an update. */
export const namesOf = (properties: Record<string, TSchema>) => Object.keys(properties);
