import { atLeastOne, atMostOne, defineOperation, Params, Type } from '@portico/core/plugin';
import {
  Comment,
  EXAMPLE_DISCUSSION_ID,
  EXAMPLE_PAGE_ID,
  ListOf,
  NotionId,
  PageParent,
  PageSize,
  RichTextArray,
  StartCursor,
} from '../schemas.js';

export const listComments = defineOperation({
  name: 'list_comments',
  method: 'GET',
  path: '/comments',
  summary: 'List the open comments on a page or block',
  description:
    'Returns the unresolved comments on a page (pass the page id as block_id) or on one block, oldest first; ' +
    'block_id is required, and the integration needs the "read comments" capability. Comments with the same ' +
    'discussion_id form one thread, to reply to with create_comment. Paging: when has_more is true, call again ' +
    'with start_cursor set to next_cursor.',
  params: Params({
    // Optional as the catalog lists it; Notion itself refuses a listing without block_id (a 400).
    block_id: Type.Optional(
      NotionId(
        'Id of the page or block whose comments to list (UUID, dashes optional): a page id from search or query_database, or a block id from list_block_children.',
        EXAMPLE_PAGE_ID,
      ),
    ),
    start_cursor: Type.Optional(StartCursor),
    page_size: Type.Optional(PageSize),
  }),
  response: ListOf(Comment, 'Comments on the page or block.'),
  // https://developers.notion.com/reference/retrieve-a-comment
  upstream: { method: 'GET', path: '/comments' },
  example: { block_id: EXAMPLE_PAGE_ID },
});

export const createComment = defineOperation({
  name: 'create_comment',
  method: 'POST',
  path: '/comments',
  summary: 'Add a comment to a page or reply in a discussion',
  description:
    'Adds a comment: parent { "page_id": "…" } starts a new discussion on a page, discussion_id (from ' +
    'list_comments) replies in an existing thread, and exactly one of the two is required. The text is rich_text, ' +
    'like [{ "text": { "content": "Looks good to me" } }]. The integration needs the "insert comments" capability; ' +
    'the answer is the created comment.',
  params: Params(
    {
      parent: Type.Optional(PageParent),
      discussion_id: Type.Optional(
        NotionId('Id of the discussion thread to reply in: the discussion_id of a comment from list_comments.', EXAMPLE_DISCUSSION_ID),
      ),
      // Optional as the catalog lists it; Notion itself refuses a comment without text (a 400).
      rich_text: Type.Optional(RichTextArray('The comment text; Notion needs it.', { minItems: 1 })),
    },
    // The catalog: either parent (a page) or discussion_id must be given. Notion also refuses both together.
    { rules: [atLeastOne('parent', 'discussion_id'), atMostOne('parent', 'discussion_id')] },
  ),
  response: Comment,
  // https://developers.notion.com/reference/create-a-comment
  upstream: { method: 'POST', path: '/comments' },
  example: {
    parent: { page_id: EXAMPLE_PAGE_ID },
    rich_text: [{ type: 'text', text: { content: 'Can we move the review to Thursday?' } }],
  },
});
