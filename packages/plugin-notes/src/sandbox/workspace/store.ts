// The sandbox's store: the records of a Notion workspace, the rules every family shares (ids, paging, parents,
// icons) and the lookups they all make.
import { bodyInvalid, notFound, show, validationError } from '../errors.js';
import { Clock, canonicalId, deterministicId, propertyId } from '../ids.js';
import { isObject, type Json } from '../json.js';
import type { PropertySchema } from '../properties.js';
import type { Row } from '../query.js';
import { plainText } from '../rich-text.js';
import { propertyValue, type ValueContext } from '../values.js';

export interface Paging {
  startCursor?: string;
  pageSize: number;
}

/** Overrides used when seeding: fixed ids and times, another author, and what the public API does not allow. */
export interface Stamp {
  id?: string;
  time?: string;
  by?: string;
  seed?: boolean;
  /** Discussion id of a seeded comment that starts a thread. */
  discussion?: string;
}

export interface PageRecord extends Row, Json {
  object: 'page';
  id: string;
  created_by: Json;
  last_edited_by: Json;
  cover: Json | null;
  icon: Json | null;
  parent: Json;
  archived: boolean;
  in_trash: boolean;
  url: string;
  public_url: string | null;
}

export interface DatabaseRecord extends Json {
  object: 'database';
  id: string;
  created_time: string;
  last_edited_time: string;
  created_by: Json;
  last_edited_by: Json;
  title: Json[];
  description: Json[];
  icon: Json | null;
  cover: Json | null;
  properties: Record<string, PropertySchema>;
  parent: Json;
  url: string;
  public_url: string | null;
  archived: boolean;
  in_trash: boolean;
  is_inline: boolean;
}

export interface BlockRecord extends Json {
  object: 'block';
  id: string;
  parent: Json;
  created_time: string;
  last_edited_time: string;
  created_by: Json;
  last_edited_by: Json;
  has_children: boolean;
  archived: boolean;
  in_trash: boolean;
  type: string;
}

export const TITLE_ONLY: Record<string, PropertySchema> = { title: { id: 'title', name: 'title', type: 'title', title: {} } };

export const user = (id: string): Json => ({ object: 'user', id });

/** Notion's URL for an object: a slug of the title, then the dashless id. */
export function notionUrl(title: string, id: string): string {
  const slug = title
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  const hex = id.replaceAll('-', '');
  return `https://www.notion.so/${slug ? `${slug}-` : ''}${hex}`;
}

export function listOf(type: string, page: { results: unknown[]; next_cursor: string | null; has_more: boolean }): Json {
  return { object: 'list', results: page.results, next_cursor: page.next_cursor, has_more: page.has_more, type, [type]: {} };
}

/** Cursor paging as Notion does it: a cursor names the first item of the next page. */
export function paginate<T>(items: T[], cursors: string[], paging: Paging) {
  let start = 0;
  if (paging.startCursor !== undefined) {
    const wanted = canonicalId(paging.startCursor) ?? paging.startCursor;
    start = cursors.indexOf(wanted);
    if (start === -1) throw validationError(`start_cursor provided is invalid: ${paging.startCursor}`);
  }
  const end = start + paging.pageSize;
  return { results: items.slice(start, end), next_cursor: cursors[end] ?? null, has_more: end < items.length };
}

export function requireId(raw: unknown, path: string): string {
  const id = canonicalId(raw);
  if (!id) throw validationError(`${path.split('.')[0]} failed validation: ${path} should be a valid uuid, instead was \`${show(raw)}\`.`);
  return id;
}

export function optionalBoolean(body: Json, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw bodyInvalid(`body.${key}`, `should be a boolean, instead was \`${show(value)}\``);
  return value;
}

/** archived and in_trash are two names for one state; in_trash wins when both are sent. */
export function trashFlag(body: Json): boolean | undefined {
  const archived = optionalBoolean(body, 'archived');
  const inTrash = optionalBoolean(body, 'in_trash');
  return inTrash ?? archived;
}

export function toIcon(input: unknown, path: string): Json | null {
  if (input === null) return null;
  if (isObject(input) && typeof input.emoji === 'string' && (input.type === undefined || input.type === 'emoji')) {
    return { type: 'emoji', emoji: input.emoji };
  }
  if (isObject(input) && (input.type === undefined || input.type === 'external')) return toCover(input, path);
  throw bodyInvalid(path, `should be an emoji or external file object, instead was \`${show(input)}\``);
}

export function toCover(input: unknown, path: string): Json | null {
  if (input === null) return null;
  if (isObject(input) && isObject(input.external) && typeof input.external.url === 'string' && (input.type ?? 'external') === 'external') {
    return { type: 'external', external: { url: input.external.url } };
  }
  throw bodyInvalid(path, `should be an external file object, instead was \`${show(input)}\``);
}

/** The state of one sandbox workspace; the family modules read and change it. */
export class Store {
  readonly users = new Map<string, Json>();
  botId = '';
  readonly pages = new Map<string, PageRecord>();
  readonly databases = new Map<string, DatabaseRecord>();
  readonly blocks = new Map<string, BlockRecord>();
  /** Content of pages and blocks, in document order (child pages and databases included, by id). */
  readonly children = new Map<string, string[]>();
  readonly comments: Json[] = [];
  readonly clock = new Clock('2024-07-01T09:00:00.000Z');
  sequence = 0;
  readonly values: ValueContext = {
    newPropertyId: (name) => propertyId(`property:${++this.sequence}:${name}`),
    newOptionId: (name) => deterministicId(`option:${++this.sequence}:${name}`),
    user: (id) => this.users.get(id),
    label: (mention) => this.mentionLabel(mention),
  };

  constructor(readonly baseUrl: string) {}

  newId(kind: string): string {
    return deterministicId(`${kind}:${++this.sequence}`);
  }

  private mentionLabel(mention: Json): string {
    const target = (key: string) => (isObject(mention[key]) ? canonicalId((mention[key] as Json).id) : undefined);
    if (mention.type === 'user') return `@${String(this.users.get(target('user') ?? '')?.name ?? 'Unknown user')}`;
    if (mention.type === 'page') {
      const page = this.pages.get(target('page') ?? '');
      return page ? pageTitle(page) : 'Untitled';
    }
    if (mention.type === 'date' && isObject(mention.date)) return String(mention.date.start ?? '');
    return 'Untitled';
  }
}

export function findPage(ws: Store, id: string, kind = 'page'): PageRecord {
  const found = ws.pages.get(id);
  if (!found) throw notFound(kind, id);
  return found;
}

export function schemaOf(ws: Store, page: PageRecord): Record<string, PropertySchema> {
  const databaseId = page.parent.database_id;
  return typeof databaseId === 'string' ? (ws.databases.get(databaseId)?.properties ?? {}) : TITLE_ONLY;
}

export function pageTitle(page: PageRecord): string {
  const title = Object.values(page.properties).find((p) => p.type === 'title');
  return title ? plainText(title.title) : '';
}

export function findDatabase(ws: Store, id: string): DatabaseRecord {
  const found = ws.databases.get(id);
  if (!found) throw notFound('database', id);
  return found;
}

export function childrenOf(ws: Store, id: string): string[] {
  let list = ws.children.get(id);
  if (!list) {
    list = [];
    ws.children.set(id, list);
  }
  return list;
}

export function touchPage(ws: Store, page: PageRecord, time: string, author: Json = user(ws.botId)): void {
  page.last_edited_time = time;
  page.last_edited_by = author;
  for (const property of Object.values(schemaOf(ws, page))) {
    if (property.type === 'last_edited_time') page.properties[property.name] = propertyValue(property, time);
    if (property.type === 'last_edited_by') page.properties[property.name] = propertyValue(property, page.last_edited_by);
  }
}
