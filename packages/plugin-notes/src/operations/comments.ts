import { defineOperation, Params, Type } from '@portico/core';
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
    'Returns the unresolved comments attached to a page (pass the page id as block_id) or to one block, oldest first. Comments ' +
    'with the same discussion_id form one thread; reply to a thread with create_comment and that discussion_id. Requires the ' +
    'integration’s "read comments" capability. Paging: when has_more is true, call again with start_cursor set to next_cursor. ' +
    'Returns a list of comment objects.',
  params: Params({
    // Notion requires it, so it is required here rather than failing upstream.
    block_id: NotionId('Id of the page or block whose comments to list (UUID, dashes optional).', EXAMPLE_PAGE_ID),
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
  summary: 'Comment on a page or reply in a discussion',
  description:
    'Adds a comment. Give parent { "page_id": "…" } to start a new discussion on a page, or discussion_id (from list_comments) ' +
    'to reply in an existing thread — exactly one of the two. The comment text is rich_text, e.g. ' +
    '[{ "text": { "content": "Looks good to me" } }]. Requires the integration’s "insert comments" capability. ' +
    'Returns the created comment.',
  params: Params({
    parent: Type.Optional(PageParent),
    discussion_id: Type.Optional(NotionId('Id of the discussion thread to reply in (from list_comments).', EXAMPLE_DISCUSSION_ID)),
    rich_text: RichTextArray('The comment text.', { minItems: 1 }),
  }),
  response: Comment,
  check: ({ parent, discussion_id }) => {
    if (parent === undefined && discussion_id === undefined) return 'give parent (a page) or discussion_id (a thread to reply in)';
    if (parent !== undefined && discussion_id !== undefined) return 'give either parent or discussion_id, not both';
    return undefined;
  },
  // https://developers.notion.com/reference/create-a-comment
  upstream: { method: 'POST', path: '/comments' },
  example: {
    parent: { page_id: EXAMPLE_PAGE_ID },
    rich_text: [{ type: 'text', text: { content: 'Can we move the review to Thursday?' } }],
  },
});
