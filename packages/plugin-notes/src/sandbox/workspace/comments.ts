// The comments family: discussions on pages and blocks.
import { archivedError, bodyInvalid, notFound, validationError } from '../errors.js';
import { isObject, type Json } from '../json.js';
import { toRichText } from '../rich-text.js';
import { findPage, listOf, type Paging, paginate, requireId, type Stamp, type Store, user } from './store.js';

export function listComments(ws: Store, rawBlockId: string | undefined, paging: Paging): Json {
  if (rawBlockId === undefined)
    throw validationError('query failed validation: query.block_id should be defined, instead was `undefined`.');
  const id = requireId(rawBlockId, 'query.block_id');
  if (!ws.pages.has(id) && !ws.blocks.has(id)) throw notFound('block', id);
  const found = ws.comments.filter((c) => {
    const parent = c.parent as Json;
    return parent.page_id === id || parent.block_id === id;
  });
  return listOf(
    'comment',
    paginate(
      found.map((c) => structuredClone(c)),
      found.map((c) => String(c.id)),
      paging,
    ),
  );
}

export function createComment(ws: Store, body: Json, stamp: Stamp = {}): Json {
  if (body.parent !== undefined && body.discussion_id !== undefined) {
    throw validationError('body failed validation: provide either body.parent or body.discussion_id, not both.');
  }
  let parent: Json;
  let discussionId: string;
  if (body.discussion_id !== undefined) {
    discussionId = requireId(body.discussion_id, 'body.discussion_id');
    const thread = ws.comments.find((c) => c.discussion_id === discussionId);
    if (!thread) throw notFound('discussion', discussionId);
    parent = structuredClone(thread.parent as Json);
  } else if (isObject(body.parent)) {
    if (stamp.seed && body.parent.block_id !== undefined) {
      parent = { type: 'block_id', block_id: requireId(body.parent.block_id, 'body.parent.block_id') };
    } else {
      const pageId = requireId(body.parent.page_id, 'body.parent.page_id');
      if (findPage(ws, pageId).archived) throw archivedError();
      parent = { type: 'page_id', page_id: pageId };
    }
    discussionId = stamp.discussion ?? ws.newId('discussion');
  } else {
    throw bodyInvalid('body.parent', 'should be defined, instead was `undefined`');
  }
  if (body.rich_text === undefined) throw bodyInvalid('body.rich_text', 'should be defined, instead was `undefined`');
  const richText = toRichText(body.rich_text, 'body.rich_text', ws.values.label);
  if (richText.length === 0) throw bodyInvalid('body.rich_text', 'should not be empty');
  const time = stamp.time ?? ws.clock.tick();
  const comment: Json = {
    object: 'comment',
    id: stamp.id ?? ws.newId('comment'),
    parent,
    discussion_id: discussionId,
    created_time: time,
    last_edited_time: time,
    created_by: user(stamp.by ?? ws.botId),
    rich_text: richText,
  };
  ws.comments.push(comment);
  return structuredClone(comment);
}
