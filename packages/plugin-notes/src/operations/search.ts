import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { Database, ListOf, Page, PageSize, StartCursor } from '../schemas.js';

export const search = defineOperation({
  name: 'search',
  method: 'POST',
  path: '/search',
  summary: 'Search or find pages, wiki pages and databases by title',
  description:
    'Finds the pages and databases shared with the integration whose title contains the query text (titles only, ' +
    'not page content), to get the id get_page, query_database or list_block_children need. Narrow to one kind ' +
    'with filter { "property": "object", "value": "page" } (or "database"); results come newest-edited first ' +
    'unless sort says otherwise. Paging: at most page_size results per call; when has_more is true, call again ' +
    'with start_cursor set to next_cursor.',
  params: Params({
    query: Type.Optional(
      Type.String({
        description: 'Text to look for in titles. Omit to list everything shared with the integration.',
        examples: ['Roadmap'],
      }),
    ),
    filter: Type.Optional(
      Type.Object(
        {
          property: StringEnum(['object'], { description: 'The only filterable property is "object".' }),
          value: StringEnum(['page', 'database'], { description: 'Which kind of object to keep.' }),
        },
        {
          additionalProperties: false,
          description: 'Limits results to pages or to databases.',
          examples: [{ property: 'object', value: 'page' }],
        },
      ),
    ),
    sort: Type.Optional(
      Type.Object(
        {
          direction: StringEnum(['ascending', 'descending']),
          timestamp: StringEnum(['last_edited_time'], { description: 'The only sortable timestamp.' }),
        },
        {
          additionalProperties: false,
          description: 'Order of the results; default is last edited first.',
          examples: [{ direction: 'ascending', timestamp: 'last_edited_time' }],
        },
      ),
    ),
    start_cursor: Type.Optional(StartCursor),
    page_size: Type.Optional(PageSize),
  }),
  // Search reads; POST only because Notion takes its criteria as a JSON body.
  access: 'read',
  response: ListOf(Type.Union([Page, Database]), 'Pages and databases matching the query.'),
  // https://developers.notion.com/reference/post-search
  upstream: { method: 'POST', path: '/search' },
  example: { query: 'Roadmap', filter: { property: 'object', value: 'page' }, page_size: 10 },
});
