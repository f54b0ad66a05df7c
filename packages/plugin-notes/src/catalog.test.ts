import { type CatalogDifferences, type CatalogOperation, type CatalogParam, compareWithCatalog } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { notionPlugin } from './index.js';

// The Integration Operation Catalog's "Notes-workspace integration" table, as the catalog types it. Paging parameters
// are start_cursor (string) and page_size (number, max 100); every parameter is optional unless marked (req), and
// path parameters are required strings.
const id: CatalogParam = { type: 'string', required: true };
const cursor: CatalogParam = { type: 'string' };
const pageSize: CatalogParam = { type: 'number' };
const object: CatalogParam = { type: 'object' };
const flag: CatalogParam = { type: 'boolean' };

const CATALOG: readonly CatalogOperation[] = [
  {
    name: 'search',
    method: 'POST',
    path: '/search',
    params: { query: { type: 'string' }, filter: object, sort: object, start_cursor: cursor, page_size: pageSize },
  },
  { name: 'get_page', method: 'GET', path: '/pages/:page_id', params: { page_id: id } },
  {
    name: 'create_page',
    method: 'POST',
    path: '/pages',
    params: { parent: object, properties: object, children: object, icon: object, cover: object },
  },
  {
    name: 'update_page',
    method: 'PATCH',
    path: '/pages/:page_id',
    params: { page_id: id, properties: object, icon: object, cover: object, archived: flag, in_trash: flag },
  },
  {
    name: 'get_page_property',
    method: 'GET',
    path: '/pages/:page_id/properties/:property_id',
    params: { page_id: id, property_id: id, start_cursor: cursor, page_size: pageSize },
  },
  { name: 'list_databases', method: 'GET', path: '/databases', params: { start_cursor: cursor, page_size: pageSize } },
  { name: 'get_database', method: 'GET', path: '/databases/:database_id', params: { database_id: id } },
  {
    name: 'query_database',
    method: 'POST',
    path: '/databases/:database_id/query',
    params: { database_id: id, filter: object, sorts: object, start_cursor: cursor, page_size: pageSize },
  },
  {
    name: 'create_database',
    method: 'POST',
    path: '/databases',
    params: { parent: object, title: object, properties: object, icon: object, cover: object, is_inline: flag },
  },
  {
    name: 'update_database',
    method: 'PATCH',
    path: '/databases/:database_id',
    params: {
      database_id: id,
      title: object,
      description: object,
      properties: object,
      icon: object,
      cover: object,
      archived: flag,
      in_trash: flag,
    },
  },
  { name: 'get_block', method: 'GET', path: '/blocks/:block_id', params: { block_id: id } },
  {
    name: 'update_block',
    method: 'PATCH',
    path: '/blocks/:block_id',
    params: { block_id: id, block_content: object, archived: flag, in_trash: flag },
  },
  { name: 'delete_block', method: 'DELETE', path: '/blocks/:block_id', params: { block_id: id } },
  {
    name: 'list_block_children',
    method: 'GET',
    path: '/blocks/:block_id/children',
    params: { block_id: id, start_cursor: cursor, page_size: pageSize },
  },
  {
    name: 'append_block_children',
    method: 'PATCH',
    path: '/blocks/:block_id/children',
    params: { block_id: id, children: object, after: { type: 'string' } },
  },
  { name: 'list_users', method: 'GET', path: '/users', params: { start_cursor: cursor, page_size: pageSize } },
  { name: 'get_user', method: 'GET', path: '/users/:user_id', params: { user_id: id } },
  { name: 'get_me', method: 'GET', path: '/users/me' },
  {
    name: 'list_comments',
    method: 'GET',
    path: '/comments',
    params: { block_id: { type: 'string' }, start_cursor: cursor, page_size: pageSize },
  },
  {
    name: 'create_comment',
    method: 'POST',
    path: '/comments',
    params: { parent: object, discussion_id: { type: 'string' }, rich_text: object },
  },
];

const arrayOf = (what: string, items: string) =>
  `the catalog writes "object (${what})"; Notion takes a JSON array of ${items} there and the value is passed on as given, so it is declared as an array`;
const removable = (what: string) =>
  `Notion removes the ${what} when given null, so the parameter is an object or null (the catalog names only the object)`;

/** Every intended difference from the catalog, with its reason. */
const DIFFERENCES: CatalogDifferences = {
  'create_page.children:type': arrayOf('array of blocks', 'block objects'),
  'query_database.sorts:type': arrayOf('array', 'sort objects'),
  'create_database.title:type': arrayOf('rich text array', 'rich text objects'),
  'update_database.title:type': arrayOf('rich text arrays', 'rich text objects'),
  'update_database.description:type': arrayOf('rich text arrays', 'rich text objects'),
  'append_block_children.children:type': arrayOf('array of blocks', 'block objects'),
  'create_comment.rich_text:type': arrayOf('array', 'rich text objects'),
  'update_page.icon:type': removable('page icon'),
  'update_page.cover:type': removable('page cover'),
  'update_database.icon:type': removable('database icon'),
  'update_database.cover:type': removable('database cover'),
};

describe('the notion plugin against the catalog', () => {
  it('declares exactly the operations the catalog shows', () => {
    expect(notionPlugin.operations.map((operation) => operation.name).sort()).toEqual(CATALOG.map((row) => row.name).sort());
  });

  it('differs from the catalog only where DIFFERENCES says so', () => {
    const found = compareWithCatalog(notionPlugin, CATALOG);
    expect(Object.keys(found).sort(), `found: ${JSON.stringify(found, null, 2)}`).toEqual(Object.keys(DIFFERENCES).sort());
  });

  it.each(Object.entries(DIFFERENCES))('%s gives its reason in a sentence', (_, reason) => {
    expect(reason.trim()).toBe(reason);
    expect(reason).toMatch(/^\S+(?: \S+){4,}$/);
  });
});
