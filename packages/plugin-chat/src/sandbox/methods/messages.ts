// The messages family: posting and reading messages and threads.
import { tsKey } from '../../schemas.js';
import { BOT_ID, BOT_USER_ID, type StoredMessage } from '../data.js';
import {
  type Args,
  bool,
  findMessage,
  insertMessage,
  isTopLevel,
  type MethodContext,
  memberChannel,
  nextTs,
  page,
  type Result,
  required,
  SlackError,
  str,
  tsArg,
} from '../web-api.js';
import { messageJson } from '../wire.js';

// https://api.slack.com/methods/chat.postMessage
export function postMessage(args: Args, { state, origin }: MethodContext): Result {
  const target = memberChannel(state, str(args, 'channel'));
  if (target.isArchived) throw new SlackError('is_archived');
  const text = required(args, 'text', 'no_text');
  if (text.length > 40_000) throw new SlackError('msg_too_long');
  const threadTs = tsArg(args, 'thread_ts', 'invalid_thread_ts');
  // a reply's ts lands in its parent's thread: threads are one level deep
  const parent = threadTs === undefined ? undefined : findMessage(target, threadTs, 'thread_not_found');
  const root = parent === undefined ? undefined : target.messages.find((m) => m.ts === (parent.threadTs ?? parent.ts));
  if (root) root.threadTs = root.ts;
  const created: StoredMessage = {
    ts: nextTs(state),
    user: state.actor,
    text,
    ...(state.actor === BOT_USER_ID ? { botId: BOT_ID } : {}),
    reactions: [],
    files: [],
    ...(root === undefined ? {} : { threadTs: root.ts }),
    ...(root !== undefined && bool(args, 'reply_broadcast') ? { subtype: 'thread_broadcast' } : {}),
  };
  insertMessage(target, created);
  return { ok: true, channel: target.id, ts: created.ts, message: messageJson(target, created, origin) };
}

// https://api.slack.com/methods/conversations.history
export function history(args: Args, { state, origin }: MethodContext): Result {
  const target = memberChannel(state, str(args, 'channel'));
  const oldest = tsArg(args, 'oldest', 'invalid_ts_oldest');
  const latest = tsArg(args, 'latest', 'invalid_ts_latest');
  const inclusive = bool(args, 'inclusive');
  const inWindow = (m: StoredMessage) => {
    const key = tsKey(m.ts);
    if (oldest !== undefined && (inclusive ? key < tsKey(oldest) : key <= tsKey(oldest))) return false;
    if (latest !== undefined && (inclusive ? key > tsKey(latest) : key >= tsKey(latest))) return false;
    return true;
  };
  const newestFirst = target.messages.filter((m) => isTopLevel(m) && inWindow(m)).reverse();
  const result = page(newestFirst, (m) => m.ts, 'next_ts', args, 100, 999);
  return {
    ok: true,
    messages: result.items.map((m) => messageJson(target, m, origin)),
    has_more: result.hasMore,
    pin_count: target.pins.length,
    response_metadata: { next_cursor: result.nextCursor },
  };
}

// https://api.slack.com/methods/conversations.replies
export function replies(args: Args, { state, origin }: MethodContext): Result {
  const target = memberChannel(state, str(args, 'channel'));
  const ts = tsArg(args, 'ts', 'invalid_ts') ?? required(args, 'ts');
  const parent = findMessage(target, ts, 'thread_not_found');
  const root = parent.threadTs ?? parent.ts;
  const thread = parent.threadTs === undefined ? [parent] : target.messages.filter((m) => m.ts === root || m.threadTs === root);
  const result = page(thread, (m) => m.ts, 'next_ts', args, 1000, 1000);
  return {
    ok: true,
    messages: result.items.map((m) => messageJson(target, m, origin)),
    has_more: result.hasMore,
    response_metadata: { next_cursor: result.nextCursor },
  };
}
