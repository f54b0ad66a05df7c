import { atLeastOne, defineOperation, FreeObject, fillPath, Params, Type } from '@portico/core/plugin';
import {
  BlockArray,
  Cover,
  DatabaseParent,
  EXAMPLE_DATABASE_ID,
  EXAMPLE_PAGE_ID,
  Icon,
  Page,
  PageId,
  PageParent,
  PageSize,
  Removable,
  StartCursor,
} from '../schemas.js';

const PageProperties = FreeObject({
  description:
    'Property values keyed by property name (or id). Under a database parent the keys must be the database’s property names and each ' +
    'value is keyed by the property type, e.g. { "Name": { "title": [{ "text": { "content": "Fix login" } }] }, "Status": { "status": { "name": "In progress" } }, ' +
    '"Due": { "date": { "start": "2024-06-01" } }, "Blocked": { "checkbox": false } }. Under a page parent only "title" is allowed.',
  examples: [{ title: { title: [{ text: { content: 'Launch checklist' } }] } }],
});

export const getPage = defineOperation({
  name: 'get_page',
  method: 'GET',
  path: '/pages/:page_id',
  summary: "Get a page's title and properties (its metadata only)",
  description:
    "Returns one page's properties: its parent, icon, cover, archived state, URL and property values (the title, " +
    'and every column of a database row). It does not return the text on the page: read that with ' +
    'list_block_children using the page id (from search, query_database or a notion.so URL). Values with more than ' +
    '25 references (long relations, people) are truncated; get_page_property reads them whole.',
  params: Params({ page_id: PageId }),
  response: Page,
  // https://developers.notion.com/reference/retrieve-a-page
  upstream: { method: 'GET', path: '/pages/:page_id' },
  example: { page_id: EXAMPLE_PAGE_ID },
});

export const createPage = defineOperation({
  name: 'create_page',
  method: 'POST',
  path: '/pages',
  summary: 'Create a new wiki page, sub-page or database row (item)',
  description:
    'Creates a new page under a parent page (a sub-page; only the title property is allowed) or a new row under a ' +
    "database (properties must use the database's column names from get_database). Give parent and properties, " +
    'both required, and optionally children as the first content blocks (at most 100). To add a line or paragraph ' +
    'to an existing page use append_block_children instead; the answer is the created page.',
  params: Params({
    // Optional as the catalog lists it; Notion itself refuses a page without parent or properties (a 400).
    parent: Type.Optional(
      Type.Union([PageParent, DatabaseParent], {
        // Both forms are objects: saying so keeps the parameter an object, as the catalog types it.
        type: 'object',
        description:
          'Where to create the page: { "page_id": "…" } for a sub-page (page ids from search or a notion.so URL) or { "database_id": "…" } for a database row (database ids from list_databases). Needed by Notion.',
        examples: [{ database_id: EXAMPLE_DATABASE_ID }],
      }),
    ),
    properties: Type.Optional(PageProperties),
    children: Type.Optional(BlockArray),
    icon: Type.Optional(Icon),
    cover: Type.Optional(Cover),
  }),
  response: Page,
  // https://developers.notion.com/reference/post-page
  upstream: { method: 'POST', path: '/pages' },
  example: {
    parent: { database_id: EXAMPLE_DATABASE_ID },
    properties: {
      Name: { title: [{ text: { content: 'Prepare Q3 board deck' } }] },
      Status: { status: { name: 'Not started' } },
      Due: { date: { start: '2024-07-15' } },
    },
    icon: { type: 'emoji', emoji: '📊' },
  },
});

export const updatePage = defineOperation({
  name: 'update_page',
  method: 'PATCH',
  path: '/pages/:page_id',
  summary: 'Update a page or database row: set its status or properties, or delete (archive) it',
  description:
    'Changes the given property values of a page or database row (properties not named stay as they are), its icon ' +
    'or cover (null removes them), or moves it to the trash (archived or in_trash true) and back (false). It does ' +
    'not change the text on the page: use append_block_children, update_block or delete_block for that. An ' +
    'archived page must be restored before other changes; the answer is the updated page.',
  params: Params(
    {
      page_id: PageId,
      properties: Type.Optional(PageProperties),
      icon: Type.Optional(Removable(Icon, 'New icon (emoji or external file), or null to remove it.')),
      cover: Type.Optional(Removable(Cover, 'New cover (external file), or null to remove it.')),
      archived: Type.Optional(Type.Boolean({ description: 'true moves the page to the trash; false restores it.' })),
      in_trash: Type.Optional(Type.Boolean({ description: 'Same as archived, under the newer name.' })),
    },
    // An update with nothing to change would only read the page back.
    { rules: [atLeastOne('properties', 'icon', 'cover', 'archived', 'in_trash')] },
  ),
  response: Page,
  // https://developers.notion.com/reference/patch-page
  upstream: { method: 'PATCH', path: '/pages/:page_id' },
  example: { page_id: EXAMPLE_PAGE_ID, properties: { Status: { status: { name: 'Done' } } } },
});

export const getPageProperty = defineOperation({
  name: 'get_page_property',
  method: 'GET',
  path: '/pages/:page_id/properties/:property_id',
  summary: "Get a page property's complete value, page by page",
  description:
    'Returns the complete value of one page property, for when get_page truncated it (a title, rich text, relation ' +
    "or people with many items) or for a rollup. property_id is the property's id in get_page's properties " +
    '("title" or "%3AUPp", say). Title, rich_text, relation and people values come as a list of property_item ' +
    'objects: when has_more is true, call again with start_cursor set to next_cursor.',
  params: Params({
    page_id: PageId,
    property_id: Type.String({
      minLength: 1,
      description: 'The property id from the page’s properties (as returned, URL-encoded or not).',
      examples: ['title', '%3AUPp'],
    }),
    start_cursor: Type.Optional(StartCursor),
    page_size: Type.Optional(PageSize),
  }),
  // https://developers.notion.com/reference/retrieve-a-page-property
  upstream: ({ page_id, property_id, start_cursor, page_size }) => ({
    method: 'GET',
    // Notion hands out property ids already URL-encoded ("%3AUPp"); decoding first keeps them from being encoded twice.
    path: fillPath('/pages/:page_id/properties/:property_id', { page_id, property_id: decodeOnce(property_id) }),
    query: { start_cursor, page_size },
  }),
  example: { page_id: EXAMPLE_PAGE_ID, property_id: 'title' },
});

function decodeOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
