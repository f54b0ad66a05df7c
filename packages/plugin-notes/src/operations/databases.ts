import { atLeastOne, defineOperation, FreeObject, Params, StringEnum, Type } from '@portico/core/plugin';
import {
  Cover,
  Database,
  DatabaseId,
  EXAMPLE_DATABASE_ID,
  EXAMPLE_PAGE_ID,
  Icon,
  ListOf,
  Page,
  PageParent,
  PageSize,
  Removable,
  RichTextArray,
  StartCursor,
} from '../schemas.js';

export const listDatabases = defineOperation({
  name: 'list_databases',
  method: 'GET',
  path: '/databases',
  summary: 'List the databases shared with the integration',
  description:
    'Lists every database (table, tracker, board) the integration can access, most recently edited first, to ' +
    'discover database ids for get_database, query_database or create_page. To find one database by name, search ' +
    'with a query and filter value "database" is quicker. Paging: when has_more is true, call again with ' +
    'start_cursor set to next_cursor.',
  params: Params({ start_cursor: Type.Optional(StartCursor), page_size: Type.Optional(PageSize) }),
  response: ListOf(Database, 'Databases shared with the integration.'),
  // Notion retired GET /v1/databases; a search restricted to databases is its documented replacement.
  // https://developers.notion.com/reference/post-search
  upstream: ({ start_cursor, page_size }) => ({
    method: 'POST',
    path: '/search',
    body: { filter: { property: 'object', value: 'database' }, start_cursor, page_size },
  }),
  example: { page_size: 20 },
});

export const getDatabase = defineOperation({
  name: 'get_database',
  method: 'GET',
  path: '/databases/:database_id',
  summary: "Get a database's properties (columns) and their options: its schema",
  description:
    "Returns a database's title, description, parent and property schema: each column with its id, type and " +
    'configuration (the options of select, multi_select and status columns). Read it before query_database, to ' +
    'filter and sort on the right names and option values, and before create_page under this database. It returns ' +
    'no rows: those come from query_database; database ids come from list_databases or search.',
  params: Params({ database_id: DatabaseId }),
  response: Database,
  // https://developers.notion.com/reference/retrieve-a-database
  upstream: { method: 'GET', path: '/databases/:database_id' },
  example: { database_id: EXAMPLE_DATABASE_ID },
});

const PropertySort = Type.Object(
  { property: Type.String({ minLength: 1, description: 'Property name or id' }), direction: StringEnum(['ascending', 'descending']) },
  { additionalProperties: false },
);
const TimestampSort = Type.Object(
  { timestamp: StringEnum(['created_time', 'last_edited_time']), direction: StringEnum(['ascending', 'descending']) },
  { additionalProperties: false },
);

export const queryDatabase = defineOperation({
  name: 'query_database',
  method: 'POST',
  path: '/databases/:database_id/query',
  summary: "Query a database's rows (entries) with filters and sorts",
  description:
    'Returns the rows (pages, cards) of a database (a table, board or tracker), optionally filtered and sorted, ' +
    'archived rows left out; read the ' +
    'property names and option values with get_database first. A filter names one property and a condition keyed ' +
    'by its type, like { "property": "Status", "status": { "equals": "Done" } }, combined with { "and": [...] } or ' +
    '{ "or": [...] }. Paging: at most page_size rows per call; when has_more is true, call again with the same ' +
    'filter and sorts and start_cursor set to next_cursor.',
  params: Params({
    database_id: DatabaseId,
    filter: Type.Optional(
      FreeObject({
        description:
          'Notion filter object: a property filter { "property": "Priority", "select": { "equals": "High" } }, a timestamp filter ' +
          '{ "timestamp": "last_edited_time", "last_edited_time": { "after": "2024-05-01" } }, or a compound { "and": [...] } / { "or": [...] }.',
        examples: [
          {
            and: [
              { property: 'Status', status: { does_not_equal: 'Done' } },
              { property: 'Priority', select: { equals: 'High' } },
            ],
          },
        ],
      }),
    ),
    sorts: Type.Optional(
      Type.Array(Type.Union([PropertySort, TimestampSort]), {
        description:
          'Sort criteria, applied in order. An array of { "property": "Due", "direction": "ascending" } or { "timestamp": "created_time", "direction": "descending" }.',
        examples: [[{ property: 'Due', direction: 'ascending' }]],
      }),
    ),
    start_cursor: Type.Optional(StartCursor),
    page_size: Type.Optional(PageSize),
  }),
  // A query reads; POST only because Notion takes the filter as a JSON body.
  access: 'read',
  response: ListOf(Page, 'Database rows (pages) matching the filter.'),
  // https://developers.notion.com/reference/post-database-query
  upstream: { method: 'POST', path: '/databases/:database_id/query' },
  example: {
    database_id: EXAMPLE_DATABASE_ID,
    filter: { property: 'Status', status: { equals: 'In progress' } },
    sorts: [{ property: 'Due', direction: 'ascending' }],
    page_size: 50,
  },
});

const PropertySchemas = FreeObject({
  description:
    'Column definitions keyed by column name; each value is keyed by the property type with its configuration, e.g. ' +
    '{ "Name": { "title": {} }, "Priority": { "select": { "options": [{ "name": "High", "color": "red" }] } }, "Due": { "date": {} }, ' +
    '"Done": { "checkbox": {} } }. Exactly one column must be of type title.',
  examples: [{ Name: { title: {} }, Email: { email: {} }, Stage: { select: { options: [{ name: 'Lead', color: 'gray' }] } } }],
});

/** Type of a property schema given as `{ "select": {...} }` or `{ "type": "select", "select": {...} }`. */
function isTitleSchema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const schema = value as Record<string, unknown>;
  return schema.type === 'title' || 'title' in schema;
}

export const createDatabase = defineOperation({
  name: 'create_database',
  method: 'POST',
  path: '/databases',
  summary: 'Create a database (table) inside a page',
  description:
    'Creates a database as a child of an existing page (Notion allows none at the workspace root through the API), ' +
    'with the given title and properties, which must define exactly one title column; both parent and properties ' +
    "are required. is_inline true shows it inside the parent page's content rather than as a full-page database. " +
    'Add rows afterwards with create_page and { "database_id": … } as parent; the answer is the created database ' +
    'with its property ids.',
  params: Params({
    // Optional as the catalog lists them; Notion itself refuses a database without parent or properties (a 400).
    parent: Type.Optional(PageParent),
    title: Type.Optional(RichTextArray('Database title, shown above it and in search results.')),
    properties: Type.Optional(PropertySchemas),
    icon: Type.Optional(Icon),
    cover: Type.Optional(Cover),
    is_inline: Type.Optional(Type.Boolean({ description: 'true: shown inline in the parent page; default false (full page).' })),
  }),
  response: Database,
  // A check rather than a schema rule: "exactly one column whose value has a title key" is about the content of a free-form
  // object, which the cross-field rules (about which parameters are given) cannot say.
  check: (params) => {
    if (params.properties === undefined) return undefined;
    const titles = Object.values(params.properties).filter(isTitleSchema).length;
    return titles === 1 ? undefined : `properties must define exactly one title column (found ${titles})`;
  },
  // https://developers.notion.com/reference/create-a-database
  upstream: { method: 'POST', path: '/databases' },
  example: {
    parent: { type: 'page_id', page_id: EXAMPLE_PAGE_ID },
    title: [{ type: 'text', text: { content: 'Vendors' } }],
    properties: {
      Name: { title: {} },
      Website: { url: {} },
      Tier: {
        select: {
          options: [
            { name: 'Strategic', color: 'green' },
            { name: 'Standard', color: 'gray' },
          ],
        },
      },
    },
    is_inline: false,
  },
});

export const updateDatabase = defineOperation({
  name: 'update_database',
  method: 'PATCH',
  path: '/databases/:database_id',
  summary: "Update a database's title, columns or archived state",
  description:
    "Changes a database's title or description, adds or changes columns (name a column and give its new " +
    'configuration; { "name": "New name" } renames it, null deletes it, columns not named stay), sets its icon or ' +
    'cover, or moves it to the trash (archived or in_trash true) and back. Rows are not affected except by deleted ' +
    'columns. Get the current schema with get_database first; the answer is the updated database.',
  params: Params(
    {
      database_id: DatabaseId,
      title: Type.Optional(RichTextArray('New title.')),
      description: Type.Optional(RichTextArray('New description.')),
      properties: Type.Optional(
        FreeObject({
          description:
            'Column changes keyed by current column name or id: a property schema to add or change a column, { "name": "…" } to rename, null to delete.',
          examples: [{ Priority: { select: { options: [{ name: 'Urgent', color: 'red' }] } }, Notes: null }],
        }),
      ),
      icon: Type.Optional(Removable(Icon, 'New icon, or null to remove it.')),
      cover: Type.Optional(Removable(Cover, 'New cover, or null to remove it.')),
      archived: Type.Optional(Type.Boolean({ description: 'true moves the database to the trash; false restores it.' })),
      in_trash: Type.Optional(Type.Boolean({ description: 'Same as archived, under the newer name.' })),
    },
    // An update with nothing to change would only read the database back.
    { rules: [atLeastOne('title', 'description', 'properties', 'icon', 'cover', 'archived', 'in_trash')] },
  ),
  response: Database,
  // https://developers.notion.com/reference/update-a-database
  upstream: { method: 'PATCH', path: '/databases/:database_id' },
  example: {
    database_id: EXAMPLE_DATABASE_ID,
    description: [{ type: 'text', text: { content: 'Everything the platform team is working on this quarter.' } }],
    properties: { Estimate: { number: { format: 'number' } } },
  },
});
