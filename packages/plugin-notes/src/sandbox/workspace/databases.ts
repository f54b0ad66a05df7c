// The databases family: databases, their schemas (columns), and queries over their rows.
import { archivedError, bodyInvalid, show, validationError } from '../errors.js';
import { isObject, type Json } from '../json.js';
import { type PropertySchema, toPropertySchema } from '../properties.js';
import { compileFilter, compileSorts, findProperty } from '../query.js';
import { toRichText } from '../rich-text.js';
import { emptyValue, propertyValue } from '../values.js';
import {
  childrenOf,
  type DatabaseRecord,
  findDatabase,
  findPage,
  listOf,
  notionUrl,
  optionalBoolean,
  type PageRecord,
  type Paging,
  paginate,
  requireId,
  type Stamp,
  type Store,
  toCover,
  toIcon,
  trashFlag,
  user,
} from './store.js';

export function getDatabase(ws: Store, rawId: string): Json {
  return structuredClone(findDatabase(ws, requireId(rawId, 'path.database_id')));
}

export function createDatabase(ws: Store, body: Json, stamp: Stamp = {}): Json {
  const parent = body.parent;
  if (!isObject(parent) || parent.page_id === undefined)
    throw bodyInvalid('body.parent.page_id', 'should be defined, instead was `undefined`');
  const parentId = requireId(parent.page_id, 'body.parent.page_id');
  if (findPage(ws, parentId).archived) throw archivedError();
  if (!isObject(body.properties)) throw bodyInvalid('body.properties', `should be an object, instead was \`${show(body.properties)}\``);
  const properties: Record<string, PropertySchema> = {};
  for (const [name, input] of Object.entries(body.properties)) {
    const schema = toPropertySchema(name, input, `body.properties.${name}`, ws.values);
    properties[schema.name] = schema;
  }
  if (Object.values(properties).filter((p) => p.type === 'title').length !== 1) {
    throw validationError('A database must have exactly one title property.');
  }
  const title = body.title === undefined ? [] : toRichText(body.title, 'body.title', ws.values.label);
  const isInline = optionalBoolean(body, 'is_inline') ?? false;
  const time = stamp.time ?? ws.clock.tick();
  const author = user(stamp.by ?? ws.botId);
  const id = stamp.id ?? ws.newId('database');
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
  ws.databases.set(id, database);
  childrenOf(ws, parentId).push(id);
  return structuredClone(database);
}

function rowsOf(ws: Store, databaseId: string): PageRecord[] {
  return [...ws.pages.values()].filter((page) => page.parent.database_id === databaseId);
}

export function updateDatabase(ws: Store, rawId: string, body: Json): Json {
  const database = findDatabase(ws, requireId(rawId, 'path.database_id'));
  const trash = trashFlag(body);
  if (database.archived && trash !== false) throw archivedError();
  const title = body.title === undefined ? undefined : toRichText(body.title, 'body.title', ws.values.label);
  const description = body.description === undefined ? undefined : toRichText(body.description, 'body.description', ws.values.label);
  const icon = body.icon === undefined ? undefined : toIcon(body.icon, 'body.icon');
  const cover = body.cover === undefined ? undefined : toCover(body.cover, 'body.cover');
  if (body.properties !== undefined) {
    if (!isObject(body.properties)) throw bodyInvalid('body.properties', `should be an object, instead was \`${show(body.properties)}\``);
    changeSchema(ws, database, body.properties);
  }
  if (title) database.title = title;
  if (description) database.description = description;
  if (icon !== undefined) database.icon = icon;
  if (cover !== undefined) database.cover = cover;
  if (trash !== undefined) {
    database.archived = trash;
    database.in_trash = trash;
  }
  database.last_edited_time = ws.clock.tick();
  database.last_edited_by = user(ws.botId);
  return structuredClone(database);
}

/** Schema changes are computed on a copy and committed (with the rows they affect) only when all are valid. */
function changeSchema(ws: Store, database: DatabaseRecord, changes: Json): void {
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
    const schema = toPropertySchema(existing?.name ?? key, input, path, ws.values, existing);
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
  for (const row of rowsOf(ws, database.id)) for (const edit of rowEdits) edit(row);
}

export function queryDatabase(ws: Store, rawId: string, body: Json, paging: Paging): Json {
  const database = findDatabase(ws, requireId(rawId, 'path.database_id'));
  const filter = body.filter === undefined ? () => true : compileFilter(body.filter, database.properties);
  const sort = body.sorts === undefined ? () => 0 : compileSorts(body.sorts, database.properties);
  const rows = rowsOf(ws, database.id)
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
