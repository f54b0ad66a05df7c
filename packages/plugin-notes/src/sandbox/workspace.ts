import { archivedError, bodyInvalid, notFound, show, validationError } from './errors.js';
import { Clock, canonicalId, decodeOnce, deterministicId, propertyId } from './ids.js';
import {
  compileFilter,
  compileSorts,
  emptyValue,
  findProperty,
  isObject,
  type Json,
  type PropertySchema,
  plainText,
  propertyValue,
  type Row,
  toPropertySchema,
  toPropertyValue,
  toRichText,
  type ValueContext,
} from './values.js';

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

interface PageRecord extends Row, Json {
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

interface DatabaseRecord extends Json {
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

interface BlockRecord extends Json {
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

interface PreparedBlock {
  id?: string;
  type: string;
  content: Json;
  children: PreparedBlock[];
}

const TEXT_BLOCKS = new Set([
  'paragraph',
  'heading_1',
  'heading_2',
  'heading_3',
  'bulleted_list_item',
  'numbered_list_item',
  'quote',
  'toggle',
  'to_do',
  'callout',
  'code',
]);
const BLOCK_TYPES = new Set([...TEXT_BLOCKS, 'divider', 'bookmark', 'equation']);
// Every text block but code can hold children.
const PARENT_BLOCKS = new Set([...TEXT_BLOCKS].filter((type) => type !== 'code'));
const PAGED_PROPERTY_TYPES = new Set(['title', 'rich_text', 'people', 'relation']);
const TITLE_ONLY: Record<string, PropertySchema> = { title: { id: 'title', name: 'title', type: 'title', title: {} } };
const user = (id: string): Json => ({ object: 'user', id });

/** Notion's URL for an object: a slug of the title, then the dashless id. */
function notionUrl(title: string, id: string): string {
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
function paginate<T>(items: T[], cursors: string[], paging: Paging) {
  let start = 0;
  if (paging.startCursor !== undefined) {
    const wanted = canonicalId(paging.startCursor) ?? paging.startCursor;
    start = cursors.indexOf(wanted);
    if (start === -1) throw validationError(`start_cursor provided is invalid: ${paging.startCursor}`);
  }
  const end = start + paging.pageSize;
  return { results: items.slice(start, end), next_cursor: cursors[end] ?? null, has_more: end < items.length };
}

function requireId(raw: unknown, path: string): string {
  const id = canonicalId(raw);
  if (!id) throw validationError(`${path.split('.')[0]} failed validation: ${path} should be a valid uuid, instead was \`${show(raw)}\`.`);
  return id;
}

function optionalBoolean(body: Json, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw bodyInvalid(`body.${key}`, `should be a boolean, instead was \`${show(value)}\``);
  return value;
}

/** archived and in_trash are two names for one state; in_trash wins when both are sent. */
function trashFlag(body: Json): boolean | undefined {
  const archived = optionalBoolean(body, 'archived');
  const inTrash = optionalBoolean(body, 'in_trash');
  return inTrash ?? archived;
}

function toIcon(input: unknown, path: string): Json | null {
  if (input === null) return null;
  if (isObject(input) && typeof input.emoji === 'string' && (input.type === undefined || input.type === 'emoji')) {
    return { type: 'emoji', emoji: input.emoji };
  }
  if (isObject(input) && (input.type === undefined || input.type === 'external')) return toCover(input, path);
  throw bodyInvalid(path, `should be an emoji or external file object, instead was \`${show(input)}\``);
}

function toCover(input: unknown, path: string): Json | null {
  if (input === null) return null;
  if (isObject(input) && isObject(input.external) && typeof input.external.url === 'string' && (input.type ?? 'external') === 'external') {
    return { type: 'external', external: { url: input.external.url } };
  }
  throw bodyInvalid(path, `should be an external file object, instead was \`${show(input)}\``);
}

/**
 * The sandbox's in-memory Notion workspace: users, pages, databases, blocks and comments, with Notion's rules for
 * creating, changing and archiving them. Objects are stored in the shape Notion returns them.
 */
export class Workspace {
  readonly users = new Map<string, Json>();
  botId = '';
  private readonly pages = new Map<string, PageRecord>();
  private readonly databases = new Map<string, DatabaseRecord>();
  private readonly blocks = new Map<string, BlockRecord>();
  /** Content of pages and blocks, in document order (child pages and databases included, by id). */
  private readonly children = new Map<string, string[]>();
  private readonly comments: Json[] = [];
  private readonly clock = new Clock('2024-07-01T09:00:00.000Z');
  private sequence = 0;
  private readonly values: ValueContext = {
    newPropertyId: (name) => propertyId(`property:${++this.sequence}:${name}`),
    newOptionId: (name) => deterministicId(`option:${++this.sequence}:${name}`),
    user: (id) => this.users.get(id),
    label: (mention) => this.mentionLabel(mention),
  };

  constructor(private readonly baseUrl: string) {}

  private newId(kind: string): string {
    return deterministicId(`${kind}:${++this.sequence}`);
  }

  private mentionLabel(mention: Json): string {
    const target = (key: string) => (isObject(mention[key]) ? canonicalId((mention[key] as Json).id) : undefined);
    if (mention.type === 'user') return `@${String(this.users.get(target('user') ?? '')?.name ?? 'Unknown user')}`;
    if (mention.type === 'page') {
      const page = this.pages.get(target('page') ?? '');
      return page ? this.pageTitle(page) : 'Untitled';
    }
    if (mention.type === 'date' && isObject(mention.date)) return String(mention.date.start ?? '');
    return 'Untitled';
  }

  // ---- users ---------------------------------------------------------------------------------------------------

  addUser(record: Json): void {
    this.users.set(String(record.id), record);
    if (record.type === 'bot') this.botId = String(record.id);
  }

  listUsers(paging: Paging): Json {
    const all = [...this.users.values()];
    return listOf(
      'user',
      paginate(
        all.map((u) => structuredClone(u)),
        all.map((u) => String(u.id)),
        paging,
      ),
    );
  }

  getUser(rawId: string): Json {
    const id = requireId(rawId, 'path.user_id');
    const found = this.users.get(id);
    if (!found) throw notFound('user', id);
    return structuredClone(found);
  }

  me(): Json {
    return structuredClone(this.users.get(this.botId) ?? {});
  }

  // ---- pages ---------------------------------------------------------------------------------------------------

  private page(id: string, kind = 'page'): PageRecord {
    const found = this.pages.get(id);
    if (!found) throw notFound(kind, id);
    return found;
  }

  private schemaOf(page: PageRecord): Record<string, PropertySchema> {
    const databaseId = page.parent.database_id;
    return typeof databaseId === 'string' ? (this.databases.get(databaseId)?.properties ?? {}) : TITLE_ONLY;
  }

  private pageTitle(page: PageRecord): string {
    const title = Object.values(page.properties).find((p) => p.type === 'title');
    return title ? plainText(title.title) : '';
  }

  getPage(rawId: string): Json {
    return structuredClone(this.page(requireId(rawId, 'path.page_id')));
  }

  createPage(body: Json, stamp: Stamp = {}): Json {
    const parent = body.parent;
    if (!isObject(parent)) throw bodyInvalid('body.parent', `should be an object, instead was \`${show(parent)}\``);
    let parentRef: Json;
    let schema: Record<string, PropertySchema>;
    if (parent.database_id !== undefined) {
      const databaseId = requireId(parent.database_id, 'body.parent.database_id');
      const database = this.databases.get(databaseId);
      if (!database) throw notFound('database', databaseId);
      if (database.archived) throw archivedError();
      parentRef = { type: 'database_id', database_id: databaseId };
      schema = database.properties;
    } else if (parent.page_id !== undefined) {
      const parentId = requireId(parent.page_id, 'body.parent.page_id');
      if (this.page(parentId).archived) throw archivedError();
      parentRef = { type: 'page_id', page_id: parentId };
      schema = TITLE_ONLY;
    } else if (parent.workspace === true && stamp.seed) {
      parentRef = { type: 'workspace', workspace: true };
      schema = TITLE_ONLY;
    } else {
      throw bodyInvalid('body.parent', 'should have `page_id` or `database_id`');
    }
    if (!isObject(body.properties)) throw bodyInvalid('body.properties', `should be an object, instead was \`${show(body.properties)}\``);
    const prepared = body.children === undefined ? [] : this.prepareBlocks(body.children, 'body.children', 0, stamp);
    const time = stamp.time ?? this.clock.tick();
    const author = user(stamp.by ?? this.botId);
    const id = stamp.id ?? this.newId('page');
    const page: PageRecord = {
      object: 'page',
      id,
      created_time: time,
      last_edited_time: time,
      created_by: author,
      last_edited_by: author,
      cover: body.cover === undefined ? null : toCover(body.cover, 'body.cover'),
      icon: body.icon === undefined ? null : toIcon(body.icon, 'body.icon'),
      parent: parentRef,
      archived: false,
      in_trash: false,
      properties: {},
      url: '',
      public_url: null,
    };
    for (const property of Object.values(schema)) page.properties[property.name] = propertyValue(property, emptyValue(property, page));
    this.applyProperties(page, schema, body.properties);
    page.url = notionUrl(this.pageTitle(page), id);
    this.pages.set(id, page);
    if (parentRef.type === 'page_id') this.childrenOf(String(parentRef.page_id)).push(id);
    this.insertBlocks(id, prepared, undefined, time, author);
    return structuredClone(page);
  }

  /** Validates every value before changing any, so that a rejected update leaves the page as it was. */
  private applyProperties(page: PageRecord, schema: Record<string, PropertySchema>, input: Json): void {
    const changes: Array<[PropertySchema, unknown]> = Object.entries(input).map(([key, value]) => {
      const property = findProperty(schema, key);
      if (!property) throw validationError(`${key} is not a property that exists.`);
      return [property, toPropertyValue(property, value, `body.properties.${key}`, this.values)];
    });
    for (const [property, value] of changes) page.properties[property.name] = propertyValue(property, value);
  }

  private touchPage(page: PageRecord, time: string, author: Json = user(this.botId)): void {
    page.last_edited_time = time;
    page.last_edited_by = author;
    for (const property of Object.values(this.schemaOf(page))) {
      if (property.type === 'last_edited_time') page.properties[property.name] = propertyValue(property, time);
      if (property.type === 'last_edited_by') page.properties[property.name] = propertyValue(property, page.last_edited_by);
    }
  }

  updatePage(rawId: string, body: Json): Json {
    const page = this.page(requireId(rawId, 'path.page_id'));
    const trash = trashFlag(body);
    if (page.archived && trash !== false) throw archivedError();
    const icon = body.icon === undefined ? undefined : toIcon(body.icon, 'body.icon');
    const cover = body.cover === undefined ? undefined : toCover(body.cover, 'body.cover');
    if (body.properties !== undefined) {
      if (!isObject(body.properties)) throw bodyInvalid('body.properties', `should be an object, instead was \`${show(body.properties)}\``);
      this.applyProperties(page, this.schemaOf(page), body.properties);
    }
    if (icon !== undefined) page.icon = icon;
    if (cover !== undefined) page.cover = cover;
    if (trash !== undefined) {
      page.archived = trash;
      page.in_trash = trash;
    }
    page.url = notionUrl(this.pageTitle(page), page.id);
    this.touchPage(page, this.clock.tick());
    return structuredClone(page);
  }

  getPageProperty(rawPageId: string, rawPropertyId: string, paging: Paging): Json {
    const page = this.page(requireId(rawPageId, 'path.page_id'));
    const property = Object.values(this.schemaOf(page)).find((p) => decodeOnce(p.id) === decodeOnce(rawPropertyId));
    if (!property) throw notFound('property', rawPropertyId);
    const value = page.properties[property.name]?.[property.type];
    if (!PAGED_PROPERTY_TYPES.has(property.type)) {
      return { object: 'property_item', id: property.id, type: property.type, [property.type]: structuredClone(value) };
    }
    const elements = Array.isArray(value) ? value : [];
    const items = elements.map((element) => ({
      object: 'property_item',
      id: property.id,
      type: property.type,
      [property.type]: structuredClone(element),
    }));
    const cursors = items.map((_, i) => Buffer.from(`${page.id}:${property.id}:${i}`).toString('base64url'));
    const result = paginate(items, cursors, paging);
    const nextUrl = result.next_cursor
      ? `${this.baseUrl}/pages/${page.id}/properties/${property.id}?start_cursor=${result.next_cursor}&page_size=${paging.pageSize}`
      : null;
    return {
      ...listOf('property_item', result),
      property_item: { id: property.id, next_url: nextUrl, type: property.type, [property.type]: {} },
    };
  }

  // ---- databases -----------------------------------------------------------------------------------------------

  private database(id: string): DatabaseRecord {
    const found = this.databases.get(id);
    if (!found) throw notFound('database', id);
    return found;
  }

  getDatabase(rawId: string): Json {
    return structuredClone(this.database(requireId(rawId, 'path.database_id')));
  }

  createDatabase(body: Json, stamp: Stamp = {}): Json {
    const parent = body.parent;
    if (!isObject(parent) || parent.page_id === undefined)
      throw bodyInvalid('body.parent.page_id', 'should be defined, instead was `undefined`');
    const parentId = requireId(parent.page_id, 'body.parent.page_id');
    if (this.page(parentId).archived) throw archivedError();
    if (!isObject(body.properties)) throw bodyInvalid('body.properties', `should be an object, instead was \`${show(body.properties)}\``);
    const properties: Record<string, PropertySchema> = {};
    for (const [name, input] of Object.entries(body.properties)) {
      const schema = toPropertySchema(name, input, `body.properties.${name}`, this.values);
      properties[schema.name] = schema;
    }
    if (Object.values(properties).filter((p) => p.type === 'title').length !== 1) {
      throw validationError('A database must have exactly one title property.');
    }
    const title = body.title === undefined ? [] : toRichText(body.title, 'body.title', this.values.label);
    const isInline = optionalBoolean(body, 'is_inline') ?? false;
    const time = stamp.time ?? this.clock.tick();
    const author = user(stamp.by ?? this.botId);
    const id = stamp.id ?? this.newId('database');
    const database: DatabaseRecord = {
      object: 'database',
      id,
      cover: body.cover === undefined ? null : toCover(body.cover, 'body.cover'),
      icon: body.icon === undefined ? null : toIcon(body.icon, 'body.icon'),
      created_time: time,
      created_by: author,
      last_edited_by: author,
      last_edited_time: time,
      title,
      description: [],
      is_inline: isInline,
      properties,
      parent: { type: 'page_id', page_id: parentId },
      url: notionUrl('', id),
      public_url: null,
      archived: false,
      in_trash: false,
    };
    this.databases.set(id, database);
    this.childrenOf(parentId).push(id);
    return structuredClone(database);
  }

  private rows(databaseId: string): PageRecord[] {
    return [...this.pages.values()].filter((page) => page.parent.database_id === databaseId);
  }

  updateDatabase(rawId: string, body: Json): Json {
    const database = this.database(requireId(rawId, 'path.database_id'));
    const trash = trashFlag(body);
    if (database.archived && trash !== false) throw archivedError();
    const title = body.title === undefined ? undefined : toRichText(body.title, 'body.title', this.values.label);
    const description = body.description === undefined ? undefined : toRichText(body.description, 'body.description', this.values.label);
    const icon = body.icon === undefined ? undefined : toIcon(body.icon, 'body.icon');
    const cover = body.cover === undefined ? undefined : toCover(body.cover, 'body.cover');
    if (body.properties !== undefined) {
      if (!isObject(body.properties)) throw bodyInvalid('body.properties', `should be an object, instead was \`${show(body.properties)}\``);
      this.changeSchema(database, body.properties);
    }
    if (title) database.title = title;
    if (description) database.description = description;
    if (icon !== undefined) database.icon = icon;
    if (cover !== undefined) database.cover = cover;
    if (trash !== undefined) {
      database.archived = trash;
      database.in_trash = trash;
    }
    database.last_edited_time = this.clock.tick();
    database.last_edited_by = user(this.botId);
    return structuredClone(database);
  }

  /** Schema changes are computed on a copy and committed (with the rows they affect) only when all are valid. */
  private changeSchema(database: DatabaseRecord, changes: Json): void {
    const next: Record<string, PropertySchema> = { ...database.properties };
    const rowEdits: Array<(row: PageRecord) => void> = [];
    for (const [key, input] of Object.entries(changes)) {
      const path = `body.properties.${key}`;
      const existing = findProperty(next, key);
      if (input === null) {
        if (!existing) throw validationError(`${key} is not a property that exists.`);
        if (existing.type === 'title') throw validationError('Cannot delete the title property.');
        delete next[existing.name];
        rowEdits.push((row) => delete row.properties[existing.name]);
        continue;
      }
      const schema = toPropertySchema(existing?.name ?? key, input, path, this.values, existing);
      if (schema.type === 'title' && existing?.type !== 'title') throw validationError('A database can have only one title property.');
      if (existing?.type === 'title' && schema.type !== 'title') throw validationError('The title property cannot change type.');
      if (existing && schema.name !== existing.name && next[schema.name]) {
        throw validationError(`A property named ${schema.name} already exists.`);
      }
      if (existing) delete next[existing.name];
      next[schema.name] = schema;
      rowEdits.push((row) => {
        const previous = existing ? row.properties[existing.name] : undefined;
        if (existing) delete row.properties[existing.name];
        const keep = previous && existing?.type === schema.type;
        row.properties[schema.name] = keep ? previous : propertyValue(schema, emptyValue(schema, row));
      });
    }
    database.properties = next;
    for (const row of this.rows(database.id)) for (const edit of rowEdits) edit(row);
  }

  queryDatabase(rawId: string, body: Json, paging: Paging): Json {
    const database = this.database(requireId(rawId, 'path.database_id'));
    const filter = body.filter === undefined ? () => true : compileFilter(body.filter, database.properties);
    const sort = body.sorts === undefined ? () => 0 : compileSorts(body.sorts, database.properties);
    const rows = this.rows(database.id)
      .filter((row) => !row.archived && filter(row))
      // Without sorts Notion returns the newest rows first.
      .sort((a, b) => sort(a, b) || b.created_time.localeCompare(a.created_time) || a.id.localeCompare(b.id));
    return listOf(
      'page_or_database',
      paginate(
        rows.map((r) => structuredClone(r)),
        rows.map((r) => r.id),
        paging,
      ),
    );
  }

  // ---- search --------------------------------------------------------------------------------------------------

  search(body: Json, paging: Paging): Json {
    const query = body.query ?? '';
    if (typeof query !== 'string') throw bodyInvalid('body.query', `should be a string, instead was \`${show(query)}\``);
    let kind: string | undefined;
    if (body.filter !== undefined) {
      const filter = body.filter;
      if (!isObject(filter)) throw bodyInvalid('body.filter', `should be an object, instead was \`${show(filter)}\``);
      if (filter.property !== 'object')
        throw bodyInvalid('body.filter.property', `should be \`"object"\`, instead was \`${show(filter.property)}\``);
      if (filter.value !== 'page' && filter.value !== 'database') {
        throw bodyInvalid('body.filter.value', `should be \`"page"\` or \`"database"\`, instead was \`${show(filter.value)}\``);
      }
      kind = filter.value;
    }
    let direction = -1;
    if (body.sort !== undefined) {
      const sort = body.sort;
      if (!isObject(sort)) throw bodyInvalid('body.sort', `should be an object, instead was \`${show(sort)}\``);
      if (sort.timestamp !== 'last_edited_time') {
        throw bodyInvalid('body.sort.timestamp', `should be \`"last_edited_time"\`, instead was \`${show(sort.timestamp)}\``);
      }
      if (sort.direction !== 'ascending' && sort.direction !== 'descending') {
        throw bodyInvalid('body.sort.direction', `should be \`"ascending"\` or \`"descending"\`, instead was \`${show(sort.direction)}\``);
      }
      direction = sort.direction === 'ascending' ? 1 : -1;
    }
    const needle = query.trim().toLowerCase();
    const found: Array<{ title: string; record: PageRecord | DatabaseRecord }> = [];
    if (kind !== 'database')
      for (const page of this.pages.values()) if (!page.archived) found.push({ title: this.pageTitle(page), record: page });
    if (kind !== 'page') for (const db of this.databases.values()) if (!db.archived) found.push({ title: plainText(db.title), record: db });
    const results = found
      .filter(({ title }) => title.toLowerCase().includes(needle))
      .map(({ record }) => record)
      .sort((a, b) => direction * a.last_edited_time.localeCompare(b.last_edited_time) || a.id.localeCompare(b.id));
    return listOf(
      'page_or_database',
      paginate(
        results.map((r) => structuredClone(r)),
        results.map((r) => r.id),
        paging,
      ),
    );
  }

  // ---- blocks --------------------------------------------------------------------------------------------------

  private childrenOf(id: string): string[] {
    let list = this.children.get(id);
    if (!list) {
      list = [];
      this.children.set(id, list);
    }
    return list;
  }

  private hasChildren(id: string): boolean {
    return (this.children.get(id) ?? []).some((child) => this.isLive(child));
  }

  private isLive(id: string): boolean {
    const record = this.blocks.get(id) ?? this.pages.get(id) ?? this.databases.get(id);
    return record !== undefined && !record.archived;
  }

  /** Any block id: a content block, or a child page or database seen as a block. */
  private renderBlock(id: string): Json | undefined {
    const block = this.blocks.get(id);
    if (block) return { ...structuredClone(block), has_children: this.hasChildren(id) };
    const page = this.pages.get(id);
    if (page) return this.asBlock(page, 'child_page', this.pageTitle(page));
    const database = this.databases.get(id);
    if (database) return this.asBlock(database, 'child_database', plainText(database.title));
    return undefined;
  }

  private asBlock(record: PageRecord | DatabaseRecord, type: string, title: string): Json {
    return {
      object: 'block',
      id: record.id,
      parent: structuredClone(record.parent),
      created_time: record.created_time,
      last_edited_time: record.last_edited_time,
      created_by: structuredClone(record.created_by),
      last_edited_by: structuredClone(record.last_edited_by),
      has_children: type === 'child_page' && this.hasChildren(record.id),
      archived: record.archived,
      in_trash: record.in_trash,
      type,
      [type]: { title },
    };
  }

  getBlock(rawId: string): Json {
    const id = requireId(rawId, 'path.block_id');
    const block = this.renderBlock(id);
    if (!block) throw notFound('block', id);
    return block;
  }

  private prepareBlocks(input: unknown, path: string, depth: number, stamp: Stamp): PreparedBlock[] {
    if (!Array.isArray(input)) throw bodyInvalid(path, `should be an array, instead was \`${show(input)}\``);
    if (input.length > 100) throw bodyInvalid(`${path}.length`, `should be ≤ \`100\`, instead was \`${input.length}\``);
    return input.map((item, i) => {
      const where = `${path}[${i}]`;
      if (!isObject(item)) throw bodyInvalid(where, `should be an object, instead was \`${show(item)}\``);
      const type = typeof item.type === 'string' ? item.type : Object.keys(item).find((key) => BLOCK_TYPES.has(key));
      if (!type || !BLOCK_TYPES.has(type)) {
        throw bodyInvalid(where, 'should be a block object of a supported type, e.g. `{ "paragraph": { "rich_text": [...] } }`');
      }
      const given = item[type];
      if (!isObject(given)) throw bodyInvalid(`${where}.${type}`, `should be an object, instead was \`${show(given)}\``);
      const nested = given.children;
      let children: PreparedBlock[] = [];
      if (nested !== undefined) {
        if (!PARENT_BLOCKS.has(type))
          throw bodyInvalid(`${where}.${type}.children`, 'should not be present: this block type has no children');
        // Notion accepts two levels of nesting in one request.
        if (depth >= 1) throw bodyInvalid(`${where}.${type}.children`, 'should not be present: at most two levels of blocks per request');
        children = this.prepareBlocks(nested, `${where}.${type}.children`, depth + 1, stamp);
      }
      const prepared: PreparedBlock = { type, content: this.blockContent(type, given, `${where}.${type}`), children };
      if (stamp.seed && typeof item.id === 'string') prepared.id = item.id;
      return prepared;
    });
  }

  private blockContent(type: string, input: Json, path: string): Json {
    if (TEXT_BLOCKS.has(type)) {
      if (input.rich_text === undefined) throw bodyInvalid(`${path}.rich_text`, 'should be defined, instead was `undefined`');
      const content: Json = { rich_text: toRichText(input.rich_text, `${path}.rich_text`, this.values.label) };
      if (type !== 'code') content.color = typeof input.color === 'string' ? input.color : 'default';
      if (type === 'to_do') {
        if (input.checked !== undefined && typeof input.checked !== 'boolean') throw bodyInvalid(`${path}.checked`, 'should be a boolean');
        content.checked = input.checked ?? false;
      }
      if (type.startsWith('heading_')) content.is_toggleable = input.is_toggleable === true;
      if (type === 'code') {
        content.language = typeof input.language === 'string' ? input.language : 'plain text';
        content.caption = input.caption === undefined ? [] : toRichText(input.caption, `${path}.caption`, this.values.label);
      }
      if (type === 'callout') content.icon = input.icon === undefined ? { type: 'emoji', emoji: '💡' } : toIcon(input.icon, `${path}.icon`);
      return content;
    }
    if (type === 'bookmark') {
      if (typeof input.url !== 'string') throw bodyInvalid(`${path}.url`, 'should be a string');
      return {
        url: input.url,
        caption: input.caption === undefined ? [] : toRichText(input.caption, `${path}.caption`, this.values.label),
      };
    }
    if (type === 'equation') {
      if (typeof input.expression !== 'string') throw bodyInvalid(`${path}.expression`, 'should be a string');
      return { expression: input.expression };
    }
    return {};
  }

  private insertBlocks(containerId: string, prepared: PreparedBlock[], afterId: string | undefined, time: string, author: Json): string[] {
    const list = this.childrenOf(containerId);
    let position = afterId === undefined ? list.length : list.indexOf(afterId) + 1;
    const parent = this.pages.has(containerId) ? { type: 'page_id', page_id: containerId } : { type: 'block_id', block_id: containerId };
    return prepared.map((spec) => {
      const id = spec.id ?? this.newId('block');
      const block: BlockRecord = {
        object: 'block',
        id,
        parent,
        created_time: time,
        last_edited_time: time,
        created_by: author,
        last_edited_by: author,
        has_children: false,
        archived: false,
        in_trash: false,
        type: spec.type,
        [spec.type]: spec.content,
      };
      this.blocks.set(id, block);
      list.splice(position++, 0, id);
      this.insertBlocks(id, spec.children, undefined, time, author);
      return id;
    });
  }

  /** A page or block whose content can be listed or extended. */
  private container(rawId: string): { id: string; archived: boolean; type: string } {
    const id = requireId(rawId, 'path.block_id');
    const page = this.pages.get(id);
    if (page) return { id, archived: page.archived, type: 'child_page' };
    const block = this.blocks.get(id);
    if (block) return { id, archived: block.archived, type: block.type };
    throw notFound('block', id);
  }

  listChildren(rawId: string, paging: Paging): Json {
    const { id } = this.container(rawId);
    const ids = (this.children.get(id) ?? []).filter((child) => this.isLive(child));
    return listOf(
      'block',
      paginate(
        ids.map((child) => this.renderBlock(child) as Json),
        ids,
        paging,
      ),
    );
  }

  appendChildren(rawId: string, body: Json, stamp: Stamp = {}): Json {
    const container = this.container(rawId);
    if (container.archived) throw archivedError();
    if (container.type !== 'child_page' && !PARENT_BLOCKS.has(container.type)) {
      throw validationError(`Block type ${container.type} does not support children.`);
    }
    if (body.children === undefined) throw bodyInvalid('body.children', 'should be defined, instead was `undefined`');
    let after: string | undefined;
    if (body.after !== undefined) {
      after = requireId(body.after, 'body.after');
      if (!this.childrenOf(container.id).includes(after)) throw validationError(`Block ${after} is not a child of ${container.id}.`);
    }
    const prepared = this.prepareBlocks(body.children, 'body.children', 0, stamp);
    const time = stamp.time ?? this.clock.tick();
    const author = user(stamp.by ?? this.botId);
    const ids = this.insertBlocks(container.id, prepared, after, time, author);
    this.touchContainer(container.id, time, author);
    const results = ids.map((id) => this.renderBlock(id) as Json);
    return listOf('block', { results, next_cursor: null, has_more: false });
  }

  private touchContainer(id: string, time: string, author: Json): void {
    const page = this.pages.get(id);
    if (page) this.touchPage(page, time, author);
    const block = this.blocks.get(id);
    if (block) {
      block.last_edited_time = time;
      block.last_edited_by = author;
    }
  }

  updateBlock(rawId: string, body: Json): Json {
    const id = requireId(rawId, 'path.block_id');
    const trash = trashFlag(body);
    const contentKeys = Object.keys(body).filter((key) => key !== 'archived' && key !== 'in_trash' && key !== 'type');
    const block = this.blocks.get(id);
    if (!block) {
      // Child pages and databases are blocks too; through this endpoint only their trash state changes.
      const record = this.pages.get(id) ?? this.databases.get(id);
      if (!record) throw notFound('block', id);
      if (contentKeys.length > 0) throw validationError('Use update_page or update_database to change a page or database.');
      if (record.archived && trash !== false) throw archivedError();
      if (trash !== undefined) {
        record.archived = trash;
        record.in_trash = trash;
        record.last_edited_time = this.clock.tick();
      }
      return this.renderBlock(id) as Json;
    }
    if (body.type !== undefined && body.type !== block.type) {
      throw validationError(`Block type ${String(body.type)} does not match the existing block type ${block.type}.`);
    }
    for (const key of contentKeys) {
      if (key !== block.type) {
        throw BLOCK_TYPES.has(key)
          ? validationError(`Block type ${key} does not match the existing block type ${block.type}.`)
          : bodyInvalid(`body.${key}`, 'should be not present');
      }
    }
    if (block.archived && trash !== false) throw archivedError();
    const given = body[block.type];
    if (given !== undefined) {
      if (!isObject(given)) throw bodyInvalid(`body.${block.type}`, `should be an object, instead was \`${show(given)}\``);
      const { children: _ignored, ...changes } = given;
      block[block.type] = this.blockContent(block.type, { ...(block[block.type] as Json), ...changes }, `body.${block.type}`);
    }
    if (trash !== undefined) {
      block.archived = trash;
      block.in_trash = trash;
    }
    block.last_edited_time = this.clock.tick();
    block.last_edited_by = user(this.botId);
    return this.renderBlock(id) as Json;
  }

  deleteBlock(rawId: string): Json {
    const id = requireId(rawId, 'path.block_id');
    const record = this.blocks.get(id) ?? this.pages.get(id) ?? this.databases.get(id);
    if (!record) throw notFound('block', id);
    if (record.archived) throw archivedError();
    record.archived = true;
    record.in_trash = true;
    record.last_edited_time = this.clock.tick();
    record.last_edited_by = user(this.botId);
    return this.renderBlock(id) as Json;
  }

  // ---- comments ------------------------------------------------------------------------------------------------

  listComments(rawBlockId: string | undefined, paging: Paging): Json {
    if (rawBlockId === undefined)
      throw validationError('query failed validation: query.block_id should be defined, instead was `undefined`.');
    const id = requireId(rawBlockId, 'query.block_id');
    if (!this.pages.has(id) && !this.blocks.has(id)) throw notFound('block', id);
    const found = this.comments.filter((c) => {
      const parent = c.parent as Json;
      return parent.page_id === id || parent.block_id === id;
    });
    return listOf(
      'comment',
      paginate(
        found.map((c) => structuredClone(c)),
        found.map((c) => String(c.id)),
        paging,
      ),
    );
  }

  createComment(body: Json, stamp: Stamp = {}): Json {
    if (body.parent !== undefined && body.discussion_id !== undefined) {
      throw validationError('body failed validation: provide either body.parent or body.discussion_id, not both.');
    }
    let parent: Json;
    let discussionId: string;
    if (body.discussion_id !== undefined) {
      discussionId = requireId(body.discussion_id, 'body.discussion_id');
      const thread = this.comments.find((c) => c.discussion_id === discussionId);
      if (!thread) throw notFound('discussion', discussionId);
      parent = structuredClone(thread.parent as Json);
    } else if (isObject(body.parent)) {
      if (stamp.seed && body.parent.block_id !== undefined) {
        parent = { type: 'block_id', block_id: requireId(body.parent.block_id, 'body.parent.block_id') };
      } else {
        const pageId = requireId(body.parent.page_id, 'body.parent.page_id');
        if (this.page(pageId).archived) throw archivedError();
        parent = { type: 'page_id', page_id: pageId };
      }
      discussionId = stamp.discussion ?? this.newId('discussion');
    } else {
      throw bodyInvalid('body.parent', 'should be defined, instead was `undefined`');
    }
    if (body.rich_text === undefined) throw bodyInvalid('body.rich_text', 'should be defined, instead was `undefined`');
    const richText = toRichText(body.rich_text, 'body.rich_text', this.values.label);
    if (richText.length === 0) throw bodyInvalid('body.rich_text', 'should not be empty');
    const time = stamp.time ?? this.clock.tick();
    const comment: Json = {
      object: 'comment',
      id: stamp.id ?? this.newId('comment'),
      parent,
      discussion_id: discussionId,
      created_time: time,
      last_edited_time: time,
      created_by: user(stamp.by ?? this.botId),
      rich_text: richText,
    };
    this.comments.push(comment);
    return structuredClone(comment);
  }
}
