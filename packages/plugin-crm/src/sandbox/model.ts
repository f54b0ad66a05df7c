/**
 * The shapes the Lawmatics sandbox works with: stored records, the collection table's entries, and Lawmatics'
 * JSON:API error answer (`{ "errors": [{ "title", "detail", "status" }] }`).
 */
import { sandboxNow, toZoned, zonedTimestamp } from '@portico/core/testing/emulator';

/** A JSON:API resource identifier as Lawmatics writes it: both strings. */
export interface Ref {
  id: string;
  type: string;
}

/** A stored relationship: to-one (a ref or null), to-many (refs) or Lawmatics' string-valued ones (`owned_by`). */
export type RelValue = Ref | Ref[] | string | null;

export interface StoredRecord {
  /** Numeric text for every collection but forms (a UUID). */
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, RelValue>;
  /** Links that are not rendered (a prospect's contact, a nested record's parent). */
  internal: Record<string, string>;
}

export type Scalar = string | number | boolean | null;

/** All records by collection key, plus the next id of each collection. */
export interface Db {
  records: Record<string, StoredRecord[]>;
  nextId: Record<string, number>;
}

export type Verb = 'list' | 'get' | 'create' | 'update' | 'delete';

/**
 * How a relationship is stored and written. `one` with a `type` is a plain to-one (`practice_area_id` in a body);
 * `one` without a type is polymorphic (`notable_type` + `notable_id`); `many` is written as `<from>` (`user_ids`);
 * `string` relationships (`owned_by`, `client`, `company`) carry a string or null.
 */
export type RelSpec = { kind: 'one'; type?: string; from?: string } | { kind: 'many'; type: string; from?: string } | { kind: 'string' };

export type Body = Record<string, unknown>;

export interface CollectionDef {
  /** Key in the table and in {@link Db.records}. */
  key: string;
  /** The URL segment: `/v1/<path>`, or `/v1/<parent>/{id}/<path>` for nested collections. */
  path: string;
  /** The record `type`. */
  type: string;
  verbs: readonly Verb[];
  /** HTTP statuses of the writes as the document shows them (default create 201, update 200, delete 200). */
  status?: Partial<Record<'create' | 'update' | 'delete', number>>;
  /** Every attribute (`fields=all`), in the order they are rendered. */
  attributes: readonly string[];
  relationships?: Record<string, RelSpec>;
  /** To-many relationships computed from other collections (a prospect's notes, a stage's prospects). */
  reverse?: Record<string, (record: StoredRecord, db: Db) => Ref[]>;
  /** Attributes and relationships rendered without `fields`. */
  defaults: readonly string[];
  /** What the finders render without `fields` (default: {@link defaults}). */
  finderFields?: readonly string[];
  /** Names of the body fields a create lacks (empty when it is complete). */
  required?: (body: Body) => string[];
  /** Fills computed attributes after a create or an update (a user's name, an address's full text). */
  derive?: (attributes: Record<string, unknown>) => void;
  /** Filter fields beyond attributes and `<relationship>_id` (the tags of a matter, an activity's event). */
  filters?: Record<string, (record: StoredRecord, db: Db) => Scalar | Scalar[]>;
  /** The list answers `{ data }` only (custom fields, forms). */
  dataOnly?: boolean;
  /** Records carry no `relationships` key unless one is selected (practice areas, tags, custom fields). */
  bare?: boolean;
  /** `/v1/{path}/find_by_phone|email|name/{value}`. */
  finders?: boolean;
  /** Nested under another collection: `/v1/<parent path>/{id}/<path>`, linked by `internal[<link>]`. */
  parent?: { key: string; link: string };
  /** Attributes a write copies into another name (Lawmatics mirrors `email` into `email_address`). */
  mirror?: Record<string, string>;
}

/** An answer in Lawmatics' error format. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** More details under the same title (one error object each). */
    readonly more: readonly string[] = [],
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  body(): { errors: Array<{ title: string; detail: string; status: number }> } {
    return { errors: [this.detail, ...this.more].map((detail) => ({ title: this.title, detail, status: this.status })) };
  }
}

export const notFound = (detail = 'The requested resource was not found.') => new ApiError(404, 'Not found', detail);

export const recordNotFound = (def: Pick<CollectionDef, 'type'>, id: string) =>
  notFound(`${humanize(def.type)} with id ${id} was not found.`);

export const invalidParameter = (title: string, detail: string) => new ApiError(422, title, detail);

/** `first_name` → `First name`; `prospect_sub_status` → `Prospect sub status`. */
export function humanize(name: string): string {
  const text = name.replace(/_id$/, '').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lawmatics' record types for the polymorphic `*_type` body values (`Matter` and `Prospect` are the same). */
export function refType(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const type = value
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase();
  return type === 'matter' ? 'prospect' : type;
}

export const ref = (type: string, id: string | number): Ref => ({ id: String(id), type });

export const isRef = (value: unknown): value is Ref =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Ref).id === 'string';

/** Now, on the sandbox's clock, as Lawmatics prints it. */
export const now = (): string => toZoned(sandboxNow(), { millis: true });

/** `2024-03-05 09:14` (firm time) → `2024-03-05T09:14:00.000-08:00`. */
export function at(local: string): string {
  const [date, time] = local.split(' ') as [string, string];
  return zonedTimestamp(date, time, { millis: true });
}

export function record(
  id: string | number,
  attributes: Record<string, unknown>,
  relationships: StoredRecord['relationships'] = {},
  internal: Record<string, string> = {},
): StoredRecord {
  return { id: String(id), attributes, relationships, internal };
}
