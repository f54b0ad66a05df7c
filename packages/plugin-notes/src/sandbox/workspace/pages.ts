// The pages family: pages and their property values, under a page or as rows of a database.

import { archivedError, bodyInvalid, notFound, show, validationError } from '../errors.js';
import { decodeOnce } from '../ids.js';
import { isObject, type Json } from '../json.js';
import type { PropertySchema } from '../properties.js';
import { findProperty } from '../query.js';
import { emptyValue, propertyValue, toPropertyValue } from '../values.js';
import { insertBlocks, prepareBlocks } from './blocks.js';
import {
  childrenOf,
  findPage,
  listOf,
  notionUrl,
  type PageRecord,
  type Paging,
  pageTitle,
  paginate,
  requireId,
  type Stamp,
  type Store,
  schemaOf,
  TITLE_ONLY,
  toCover,
  toIcon,
  touchPage,
  trashFlag,
  user,
} from './store.js';

const PAGED_PROPERTY_TYPES = new Set(['title', 'rich_text', 'people', 'relation']);

export function getPage(ws: Store, rawId: string): Json {
  return structuredClone(findPage(ws, requireId(rawId, 'path.page_id')));
}

export function createPage(ws: Store, body: Json, stamp: Stamp = {}): Json {
  const parent = body.parent;
  if (!isObject(parent)) throw bodyInvalid('body.parent', `should be an object, instead was \`${show(parent)}\``);
  let parentRef: Json;
  let schema: Record<string, PropertySchema>;
  if (parent.database_id !== undefined) {
    const databaseId = requireId(parent.database_id, 'body.parent.database_id');
    const database = ws.databases.get(databaseId);
    if (!database) throw notFound('database', databaseId);
    if (database.archived) throw archivedError();
    parentRef = { type: 'database_id', database_id: databaseId };
    schema = database.properties;
  } else if (parent.page_id !== undefined) {
    const parentId = requireId(parent.page_id, 'body.parent.page_id');
    if (findPage(ws, parentId).archived) throw archivedError();
    parentRef = { type: 'page_id', page_id: parentId };
    schema = TITLE_ONLY;
  } else if (parent.workspace === true && stamp.seed) {
    parentRef = { type: 'workspace', workspace: true };
    schema = TITLE_ONLY;
  } else {
    throw bodyInvalid('body.parent', 'should have `page_id` or `database_id`');
  }
  if (!isObject(body.properties)) throw bodyInvalid('body.properties', `should be an object, instead was \`${show(body.properties)}\``);
  const prepared = body.children === undefined ? [] : prepareBlocks(ws, body.children, 'body.children', 0, stamp);
  const time = stamp.time ?? ws.clock.tick();
  const author = user(stamp.by ?? ws.botId);
  const id = stamp.id ?? ws.newId('page');
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
  applyProperties(ws, page, schema, body.properties);
  page.url = notionUrl(pageTitle(page), id);
  ws.pages.set(id, page);
  if (parentRef.type === 'page_id') childrenOf(ws, String(parentRef.page_id)).push(id);
  insertBlocks(ws, id, prepared, undefined, time, author);
  return structuredClone(page);
}

/** Validates every value before changing any, so that a rejected update leaves the page as it was. */
function applyProperties(ws: Store, page: PageRecord, schema: Record<string, PropertySchema>, input: Json): void {
  const changes: Array<[PropertySchema, unknown]> = Object.entries(input).map(([key, value]) => {
    const property = findProperty(schema, key);
    if (!property) throw validationError(`${key} is not a property that exists.`);
    return [property, toPropertyValue(property, value, `body.properties.${key}`, ws.values)];
  });
  for (const [property, value] of changes) page.properties[property.name] = propertyValue(property, value);
}

export function updatePage(ws: Store, rawId: string, body: Json): Json {
  const page = findPage(ws, requireId(rawId, 'path.page_id'));
  const trash = trashFlag(body);
  if (page.archived && trash !== false) throw archivedError();
  const icon = body.icon === undefined ? undefined : toIcon(body.icon, 'body.icon');
  const cover = body.cover === undefined ? undefined : toCover(body.cover, 'body.cover');
  if (body.properties !== undefined) {
    if (!isObject(body.properties)) throw bodyInvalid('body.properties', `should be an object, instead was \`${show(body.properties)}\``);
    applyProperties(ws, page, schemaOf(ws, page), body.properties);
  }
  if (icon !== undefined) page.icon = icon;
  if (cover !== undefined) page.cover = cover;
  if (trash !== undefined) {
    page.archived = trash;
    page.in_trash = trash;
  }
  page.url = notionUrl(pageTitle(page), page.id);
  touchPage(ws, page, ws.clock.tick());
  return structuredClone(page);
}

export function getPageProperty(ws: Store, rawPageId: string, rawPropertyId: string, paging: Paging): Json {
  const page = findPage(ws, requireId(rawPageId, 'path.page_id'));
  const property = Object.values(schemaOf(ws, page)).find((p) => decodeOnce(p.id) === decodeOnce(rawPropertyId));
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
    ? `${ws.baseUrl}/pages/${page.id}/properties/${property.id}?start_cursor=${result.next_cursor}&page_size=${paging.pageSize}`
    : null;
  return {
    ...listOf('property_item', result),
    property_item: { id: property.id, next_url: nextUrl, type: property.type, [property.type]: {} },
  };
}
