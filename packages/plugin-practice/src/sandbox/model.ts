import { createHash } from 'node:crypto';
import { sandboxNow, toZoned } from '@portico/core/testing/emulator';
import { bankAccounts } from '../operations/bank-accounts.js';
import { clioFile } from '../operations/clio-file.js';
import type { CollectionRow } from '../operations/kit/rows.js';
import { TABLE } from './table.js';

/** One collection of the emulator, read from the facts table: `/court_rules/jurisdictions/{jurisdiction_id}/triggers`. */
export interface Collection {
  /** Path template below `/api/v4`, without `.json`. */
  template: string;
  /** Names of the `{…}` parameters before the collection (its scope: `jurisdiction_id`). */
  params: string[];
  pattern: RegExp;
  verbs: Set<'L' | 'G' | 'C' | 'U' | 'D' | 'X' | 'P'>;
  /** The list takes `order`. */
  ordered: boolean;
  filters: string[];
  body: Set<string>;
  required: string[];
  /** Largest (and default) `limit`: 200, the trigger lists 1000. */
  maxLimit: number;
}

export type Row = Record<string, unknown> & { id: number; etag: string; created_at: string; updated_at: string };

/** A stored record: its JSON fields, and the values of its collection's path parameters. */
export interface Stored {
  row: Row;
  scope: Record<string, string>;
  version: number;
}

export interface Db {
  records: Map<string, Stored[]>;
  nextId: number;
  /** Seconds since the epoch of the clock used for new timestamps (advances with every write). */
  clock: number;
  /** The seed is done: writes are stamped at the sandbox's now. */
  live?: boolean;
}

/** A Clio error: `{ "error": { "type", "message" } }` with a status. */
export class ClioError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'The requested resource was not found') => new ClioError(404, 'RecordNotFound', what);
export const badRequest = (message: string) => new ClioError(400, 'InvalidParameter', message);
export const unprocessable = (message: string) => new ClioError(422, 'UnprocessableEntity', message);

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * The collections the plugin reads from Clio's newer document, which the saved one predates (the catalog was written
 * from the newer one): the Clio File submissions reports (list and get), `status` on the bank account list, `client`
 * and `matter` on bank accounts, and creating, updating and deleting bank transactions (their body fields are the
 * plugin's reading of the bank transaction record, see the plugin's README). For these the sandbox takes what the
 * plugin's rows declare beyond the document — the rows are where that reading is written — and nowhere else: every
 * other collection answers as the document says, so that a request Clio would refuse is refused here too.
 */
const NEWER_THAN_DOCUMENT: readonly CollectionRow[] = [...clioFile.rows, ...bankAccounts.rows].filter((row) =>
  ['clio_file_submissions', 'bank_accounts', 'bank_transactions'].includes(row.key),
);

type TableEntry = readonly [template: string, verbs: string, query: string, body: string, required: string];

const LETTER = { list: 'L', get: 'G', create: 'C', update: 'U', delete: 'D' } as const;
const words = (text: string) => text.split(' ').filter(Boolean);
const templateOf = (row: CollectionRow) => row.clio.replace(/:(\w+)/g, '{$1}');

/** A table entry with what the row declares beyond it; a new entry when the document has none. */
function withRow([template, verbs, query, body, required]: TableEntry, row: CollectionRow): TableEntry {
  const beyond = (have: string[], names: readonly string[]) => [...have, ...names.filter((name) => !have.includes(name))];
  const letters = row.verbs.map((verb) => LETTER[verb]).filter((letter) => !verbs.includes(letter));
  const filters = beyond(words(query.replace(/^\+/, '')), Object.keys(row.filters ?? {}));
  const fields = beyond(words(body), [...Object.keys(row.body ?? {}), ...Object.keys(row.updateBody ?? {})]);
  return [
    template,
    `${verbs}${letters.join('')}`,
    `${query.startsWith('+') ? '+' : ''}${filters.join(' ')}`,
    fields.join(' '),
    beyond(words(required), row.required ?? []).join(' '),
  ];
}

function tableWithNewer(): TableEntry[] {
  const entries: TableEntry[] = [...TABLE];
  for (const row of NEWER_THAN_DOCUMENT) {
    const at = entries.findIndex(([template]) => template === templateOf(row));
    if (at >= 0) entries[at] = withRow(entries[at] as TableEntry, row);
    else entries.push(withRow([templateOf(row), '', row.order === null ? '' : '+', '', ''], row));
  }
  return entries;
}

/** What the sandbox answers: Clio's collections as its document has them, and the newer ones the plugin reads. */
export const SANDBOX_COLLECTIONS: Collection[] = tableWithNewer().map(([template, verbs, query, body, required]) => {
  const params = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const source = template
    .split(/\{\w+\}/)
    .map(escapeRegExp)
    .join('([0-9]+)');
  return {
    template,
    params,
    pattern: new RegExp(`^${source}(?:/([0-9]+))?\\.json$`),
    verbs: new Set(verbs.split('') as Collection['verbs'] extends Set<infer V> ? V[] : never),
    ordered: query.startsWith('+'),
    filters: words(query.replace(/^\+/, '')),
    body: new Set(words(body)),
    required: words(required),
    maxLimit: template.endsWith('/triggers') ? 1000 : 200,
  };
});

export const BY_TEMPLATE = new Map(SANDBOX_COLLECTIONS.map((c) => [c.template, c]));

/** The collection a path below `/api/v4` belongs to, the scope values and the record id (when it names one). */
export function route(path: string): { collection: Collection; scope: Record<string, string>; id?: number } | undefined {
  // A longer template first: `/documents/{id}/versions` before `/documents`.
  for (const collection of SORTED) {
    const match = collection.pattern.exec(path);
    if (!match) continue;
    const scope = Object.fromEntries(collection.params.map((name, i) => [name, match[i + 1] as string]));
    const id = match[collection.params.length + 1];
    return { collection, scope, ...(id === undefined ? {} : { id: Number(id) }) };
  }
  return undefined;
}
const SORTED = [...SANDBOX_COLLECTIONS].sort((a, b) => b.template.length - a.template.length);

/** The collection of the record a path parameter names: `{jurisdiction_id}` of `/court_rules/jurisdictions/{…}/triggers`. */
export function parentOf(collection: Collection, param: string): Collection | undefined {
  const at = collection.template.indexOf(`/{${param}}`);
  return at < 0 ? undefined : BY_TEMPLATE.get(collection.template.slice(0, at));
}

/** A time as Clio writes it: the firm's local time with its offset (`2024-02-12T09:30:00-08:00`). */
export const iso = (seconds: number) => toZoned(seconds * 1000);

/**
 * The next timestamp of a write: while seeding, a minute after the last one; once the seed is done, now, and a second
 * after the last write when writes come faster than that, so that a record written now sorts after everything seeded
 * and a burst of writes (the gateway registering its webhooks) does not run the clock ahead of now.
 */
export function tick(db: Db): number {
  db.clock = db.live ? Math.max(db.clock + 1, Math.floor(sandboxNow() / 1000)) : db.clock + 60;
  return db.clock;
}

export function etagOf(stored: Stored): string {
  return `"${createHash('sha1')
    .update(`${stored.row.id}:${stored.version}:${JSON.stringify(stored.row)}`)
    .digest('hex')
    .slice(0, 32)}"`;
}

export function records(db: Db, collection: Collection): Stored[] {
  let list = db.records.get(collection.template);
  if (!list) {
    list = [];
    db.records.set(collection.template, list);
  }
  return list;
}

/** Adds a record (id from `fields.id` or the next free id); timestamps from the clock unless given. */
export function insert(db: Db, template: string, fields: Record<string, unknown>, scope: Record<string, string> = {}): Row {
  const collection = BY_TEMPLATE.get(template);
  if (!collection) throw new Error(`no collection ${template}`);
  const id = typeof fields.id === 'number' ? fields.id : db.nextId++;
  const stamp = iso(tick(db));
  const row = { created_at: stamp, updated_at: stamp, ...fields, id, etag: '' } as Row;
  const stored: Stored = { row, scope, version: 1 };
  row.etag = etagOf(stored);
  records(db, collection).push(stored);
  return row;
}

/** The record of a collection with that id (inside the scope), or undefined. */
export function lookup(db: Db, template: string, id: number, scope?: Record<string, string>): Stored | undefined {
  return db.records.get(template)?.find((s) => s.row.id === id && (!scope || Object.entries(scope).every(([k, v]) => s.scope[k] === v)));
}
