import { atLeastOne, defineOperation, FreeObject, fillPath, Params, Type } from '@portico/core/plugin';
import { BlockArray, BlockId, EXAMPLE_BLOCK_ID, EXAMPLE_PAGE_ID, NotionId, PageSize, StartCursor } from '../schemas.js';

export const getBlock = defineOperation({
  name: 'get_block',
  method: 'GET',
  path: '/blocks/:block_id',
  summary: 'Get a single block of a page: a paragraph, heading or to-do',
  description:
    'Returns one content block (a paragraph, heading, to-do, list item…) with its type, its content under the key ' +
    'named by its type (paragraph.rich_text, say), has_children and archived. Block ids come from ' +
    'list_block_children; to read a whole page, use list_block_children with the page id instead.',
  params: Params({ block_id: BlockId }),
  // https://developers.notion.com/reference/retrieve-a-block
  upstream: { method: 'GET', path: '/blocks/:block_id' },
  example: { block_id: EXAMPLE_BLOCK_ID },
});

export const updateBlock = defineOperation({
  name: 'update_block',
  method: 'PATCH',
  path: '/blocks/:block_id',
  summary: 'Change the text of a block or archive it',
  description:
    'Replaces the content of one block (edit a paragraph, tick a to-do), or archives or restores it; block_content ' +
    'is keyed by the block\'s current type, which cannot change, like { "to_do": { "checked": true } }. Get the ' +
    'block (get_block or list_block_children) first to know its type. archived or in_trash true deletes the block, ' +
    'false restores it.',
  params: Params(
    {
      block_id: BlockId,
      block_content: Type.Optional(
        FreeObject({
          minProperties: 1,
          description:
            'The new content, an object keyed by the block type, e.g. { "heading_2": { "rich_text": [{ "text": { "content": "Decisions" } }] } }. Sent as the top-level fields of Notion’s request body.',
          examples: [{ paragraph: { rich_text: [{ type: 'text', text: { content: 'Updated wording' } }] } }],
        }),
      ),
      archived: Type.Optional(Type.Boolean({ description: 'true archives (deletes) the block; false restores it.' })),
      in_trash: Type.Optional(Type.Boolean({ description: 'Same as archived, under the newer name.' })),
    },
    // An update with nothing to change would only read the block back.
    { rules: [atLeastOne('block_content', 'archived', 'in_trash')] },
  ),
  // A check rather than a schema rule: it looks inside block_content (whose keys are free), which the cross-field rules
  // (about which parameters are given) cannot say.
  check: ({ block_content }) => {
    const clash = Object.keys(block_content ?? {}).find((key) => key === 'archived' || key === 'in_trash');
    return clash ? `block_content must not contain ${clash}: use the ${clash} parameter` : undefined;
  },
  // https://developers.notion.com/reference/update-a-block
  upstream: ({ block_id, block_content, archived, in_trash }) => ({
    method: 'PATCH',
    path: fillPath('/blocks/:block_id', { block_id }),
    // Notion expects the type-keyed content at the top level of the body, beside archived/in_trash.
    body: { ...block_content, archived, in_trash },
  }),
  example: { block_id: EXAMPLE_BLOCK_ID, block_content: { to_do: { checked: true } } },
});

export const deleteBlock = defineOperation({
  name: 'delete_block',
  method: 'DELETE',
  path: '/blocks/:block_id',
  summary: 'Delete (archive) a block from a page',
  description:
    'Moves a block (a paragraph, a list item, an embedded page) to the trash: Notion archives rather than erases, ' +
    'and update_block with archived false restores it. Deleting a child_page or child_database block trashes that ' +
    'page or database. Block ids come from list_block_children.',
  params: Params({ block_id: BlockId }),
  // https://developers.notion.com/reference/delete-a-block
  upstream: { method: 'DELETE', path: '/blocks/:block_id' },
  example: { block_id: EXAMPLE_BLOCK_ID },
});

export const listBlockChildren = defineOperation({
  name: 'list_block_children',
  method: 'GET',
  path: '/blocks/:block_id/children',
  summary: "Read a page's content: its blocks in order",
  description:
    'Returns the text and other content of a page (pass the page id as block_id) or the nested blocks of a block, ' +
    'in document order. Blocks with has_children true have nested content: call this again with their id. Paging: ' +
    'at most page_size blocks per call (max 100); when has_more is true, call again with start_cursor set to ' +
    'next_cursor.',
  params: Params({
    block_id: NotionId('Id of the page or block whose children to list (UUID, dashes optional).', EXAMPLE_PAGE_ID),
    start_cursor: Type.Optional(StartCursor),
    page_size: Type.Optional(PageSize),
  }),
  // https://developers.notion.com/reference/get-block-children
  upstream: { method: 'GET', path: '/blocks/:block_id/children' },
  example: { block_id: EXAMPLE_PAGE_ID, page_size: 100 },
});

export const appendBlockChildren = defineOperation({
  name: 'append_block_children',
  method: 'PATCH',
  path: '/blocks/:block_id/children',
  summary: 'Append text, to-do items or a checklist to the end of a page',
  description:
    'Adds content to the end of an existing page (pass the page id as block_id), such as a line, paragraph, heading, ' +
    'bullet or checklist item, or inside a block that holds children (toggle, list item, callout…): up to 100 ' +
    'blocks, at the end unless after names the child block to insert after. Each block is keyed by its type, like { "paragraph": { ' +
    '"rich_text": [{ "text": { "content": "Hello" } }] } }, and children is required. To make a new page rather ' +
    'than add to one, use create_page.',
  params: Params({
    block_id: NotionId(
      'Id of the page or block to add content to (UUID, dashes optional): a page id from search, or a block id from list_block_children.',
      EXAMPLE_PAGE_ID,
    ),
    // Optional as the catalog lists it; Notion itself refuses an append without children (a 400).
    children: Type.Optional(BlockArray),
    after: Type.Optional(NotionId('Id of an existing child block to insert after; omit to append at the end.', EXAMPLE_BLOCK_ID)),
  }),
  // https://developers.notion.com/reference/patch-block-children
  upstream: { method: 'PATCH', path: '/blocks/:block_id/children' },
  example: {
    block_id: EXAMPLE_PAGE_ID,
    children: [
      { object: 'block', type: 'heading_2', heading_2: { rich_text: [{ type: 'text', text: { content: 'Action items' } }] } },
      { object: 'block', type: 'to_do', to_do: { rich_text: [{ type: 'text', text: { content: 'Send the minutes' } }], checked: false } },
    ],
  },
});
