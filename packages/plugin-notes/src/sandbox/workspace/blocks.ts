// The blocks family: the content of pages, and child pages and databases seen as blocks.
import { archivedError, bodyInvalid, notFound, show, validationError } from '../errors.js';
import { isObject, type Json } from '../json.js';
import { plainText, toRichText } from '../rich-text.js';
import {
  type BlockRecord,
  childrenOf,
  type DatabaseRecord,
  listOf,
  type PageRecord,
  type Paging,
  pageTitle,
  paginate,
  requireId,
  type Stamp,
  type Store,
  toIcon,
  touchPage,
  trashFlag,
  user,
} from './store.js';

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

function hasChildren(ws: Store, id: string): boolean {
  return (ws.children.get(id) ?? []).some((child) => isLive(ws, child));
}

function isLive(ws: Store, id: string): boolean {
  const record = ws.blocks.get(id) ?? ws.pages.get(id) ?? ws.databases.get(id);
  return record !== undefined && !record.archived;
}

/** Any block id: a content block, or a child page or database seen as a block. */
function renderBlock(ws: Store, id: string): Json | undefined {
  const block = ws.blocks.get(id);
  if (block) return { ...structuredClone(block), has_children: hasChildren(ws, id) };
  const page = ws.pages.get(id);
  if (page) return asBlock(ws, page, 'child_page', pageTitle(page));
  const database = ws.databases.get(id);
  if (database) return asBlock(ws, database, 'child_database', plainText(database.title));
  return undefined;
}

function asBlock(ws: Store, record: PageRecord | DatabaseRecord, type: string, title: string): Json {
  return {
    object: 'block',
    id: record.id,
    parent: structuredClone(record.parent),
    created_time: record.created_time,
    last_edited_time: record.last_edited_time,
    created_by: structuredClone(record.created_by),
    last_edited_by: structuredClone(record.last_edited_by),
    has_children: type === 'child_page' && hasChildren(ws, record.id),
    archived: record.archived,
    in_trash: record.in_trash,
    type,
    [type]: { title },
  };
}

export function getBlock(ws: Store, rawId: string): Json {
  const id = requireId(rawId, 'path.block_id');
  const block = renderBlock(ws, id);
  if (!block) throw notFound('block', id);
  return block;
}

export function prepareBlocks(ws: Store, input: unknown, path: string, depth: number, stamp: Stamp): PreparedBlock[] {
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
      children = prepareBlocks(ws, nested, `${where}.${type}.children`, depth + 1, stamp);
    }
    const prepared: PreparedBlock = { type, content: blockContent(ws, type, given, `${where}.${type}`), children };
    if (stamp.seed && typeof item.id === 'string') prepared.id = item.id;
    return prepared;
  });
}

function blockContent(ws: Store, type: string, input: Json, path: string): Json {
  if (TEXT_BLOCKS.has(type)) {
    if (input.rich_text === undefined) throw bodyInvalid(`${path}.rich_text`, 'should be defined, instead was `undefined`');
    const content: Json = { rich_text: toRichText(input.rich_text, `${path}.rich_text`, ws.values.label) };
    if (type !== 'code') content.color = typeof input.color === 'string' ? input.color : 'default';
    if (type === 'to_do') {
      if (input.checked !== undefined && typeof input.checked !== 'boolean') throw bodyInvalid(`${path}.checked`, 'should be a boolean');
      content.checked = input.checked ?? false;
    }
    if (type.startsWith('heading_')) content.is_toggleable = input.is_toggleable === true;
    if (type === 'code') {
      content.language = typeof input.language === 'string' ? input.language : 'plain text';
      content.caption = input.caption === undefined ? [] : toRichText(input.caption, `${path}.caption`, ws.values.label);
    }
    if (type === 'callout') content.icon = input.icon === undefined ? { type: 'emoji', emoji: '💡' } : toIcon(input.icon, `${path}.icon`);
    return content;
  }
  if (type === 'bookmark') {
    if (typeof input.url !== 'string') throw bodyInvalid(`${path}.url`, 'should be a string');
    return {
      url: input.url,
      caption: input.caption === undefined ? [] : toRichText(input.caption, `${path}.caption`, ws.values.label),
    };
  }
  if (type === 'equation') {
    if (typeof input.expression !== 'string') throw bodyInvalid(`${path}.expression`, 'should be a string');
    return { expression: input.expression };
  }
  return {};
}

export function insertBlocks(
  ws: Store,
  containerId: string,
  prepared: PreparedBlock[],
  afterId: string | undefined,
  time: string,
  author: Json,
): string[] {
  const list = childrenOf(ws, containerId);
  let position = afterId === undefined ? list.length : list.indexOf(afterId) + 1;
  const parent = ws.pages.has(containerId) ? { type: 'page_id', page_id: containerId } : { type: 'block_id', block_id: containerId };
  return prepared.map((spec) => {
    const id = spec.id ?? ws.newId('block');
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
    ws.blocks.set(id, block);
    list.splice(position++, 0, id);
    insertBlocks(ws, id, spec.children, undefined, time, author);
    return id;
  });
}

/** A page or block whose content can be listed or extended. */
function findContainer(ws: Store, rawId: string): { id: string; archived: boolean; type: string } {
  const id = requireId(rawId, 'path.block_id');
  const page = ws.pages.get(id);
  if (page) return { id, archived: page.archived, type: 'child_page' };
  const block = ws.blocks.get(id);
  if (block) return { id, archived: block.archived, type: block.type };
  throw notFound('block', id);
}

export function listChildren(ws: Store, rawId: string, paging: Paging): Json {
  const { id } = findContainer(ws, rawId);
  const ids = (ws.children.get(id) ?? []).filter((child) => isLive(ws, child));
  return listOf(
    'block',
    paginate(
      ids.map((child) => renderBlock(ws, child) as Json),
      ids,
      paging,
    ),
  );
}

export function appendChildren(ws: Store, rawId: string, body: Json, stamp: Stamp = {}): Json {
  const container = findContainer(ws, rawId);
  if (container.archived) throw archivedError();
  if (container.type !== 'child_page' && !PARENT_BLOCKS.has(container.type)) {
    throw validationError(`Block type ${container.type} does not support children.`);
  }
  if (body.children === undefined) throw bodyInvalid('body.children', 'should be defined, instead was `undefined`');
  let after: string | undefined;
  if (body.after !== undefined) {
    after = requireId(body.after, 'body.after');
    if (!childrenOf(ws, container.id).includes(after)) throw validationError(`Block ${after} is not a child of ${container.id}.`);
  }
  const prepared = prepareBlocks(ws, body.children, 'body.children', 0, stamp);
  const time = stamp.time ?? ws.clock.tick();
  const author = user(stamp.by ?? ws.botId);
  const ids = insertBlocks(ws, container.id, prepared, after, time, author);
  touchContainer(ws, container.id, time, author);
  const results = ids.map((id) => renderBlock(ws, id) as Json);
  return listOf('block', { results, next_cursor: null, has_more: false });
}

function touchContainer(ws: Store, id: string, time: string, author: Json): void {
  const page = ws.pages.get(id);
  if (page) touchPage(ws, page, time, author);
  const block = ws.blocks.get(id);
  if (block) {
    block.last_edited_time = time;
    block.last_edited_by = author;
  }
}

export function updateBlock(ws: Store, rawId: string, body: Json): Json {
  const id = requireId(rawId, 'path.block_id');
  const trash = trashFlag(body);
  const contentKeys = Object.keys(body).filter((key) => key !== 'archived' && key !== 'in_trash' && key !== 'type');
  const block = ws.blocks.get(id);
  if (!block) {
    // Child pages and databases are blocks too; through this endpoint only their trash state changes.
    const record = ws.pages.get(id) ?? ws.databases.get(id);
    if (!record) throw notFound('block', id);
    if (contentKeys.length > 0) throw validationError('Use update_page or update_database to change a page or database.');
    if (record.archived && trash !== false) throw archivedError();
    if (trash !== undefined) {
      record.archived = trash;
      record.in_trash = trash;
      record.last_edited_time = ws.clock.tick();
    }
    return renderBlock(ws, id) as Json;
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
    block[block.type] = blockContent(ws, block.type, { ...(block[block.type] as Json), ...changes }, `body.${block.type}`);
  }
  if (trash !== undefined) {
    block.archived = trash;
    block.in_trash = trash;
  }
  block.last_edited_time = ws.clock.tick();
  block.last_edited_by = user(ws.botId);
  return renderBlock(ws, id) as Json;
}

export function deleteBlock(ws: Store, rawId: string): Json {
  const id = requireId(rawId, 'path.block_id');
  const record = ws.blocks.get(id) ?? ws.pages.get(id) ?? ws.databases.get(id);
  if (!record) throw notFound('block', id);
  if (record.archived) throw archivedError();
  record.archived = true;
  record.in_trash = true;
  record.last_edited_time = ws.clock.tick();
  record.last_edited_by = user(ws.botId);
  return renderBlock(ws, id) as Json;
}
