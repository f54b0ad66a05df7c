import { Buffer } from 'node:buffer';
import { compareTs, tsKey } from '../schemas.js';
import {
  BOT_ID,
  BOT_USER_ID,
  type Reaction,
  type SandboxChannel,
  type SandboxFile,
  type SandboxState,
  type SandboxUser,
  type StoredMessage,
  TEAM_ID,
} from './data.js';

/** Arguments of a Web API call: query string merged with the form or JSON body, as Slack merges them. */
export type Args = Record<string, unknown>;
type Result = Record<string, unknown>;

export interface MethodContext {
  state: SandboxState;
  /** `http://host:port` of the sandbox, for URLs it hands out. */
  origin: string;
}

/** Thrown by a method to answer `{ ok: false, error }` with HTTP 200, Slack's way of failing. */
export class SlackError extends Error {
  constructor(
    readonly code: string,
    readonly extra: Result = {},
  ) {
    super(code);
  }
}

export interface MethodSpec {
  /** Whether Slack reads a JSON body for this method; for the others a JSON body is ignored. */
  json: boolean;
  handle(args: Args, ctx: MethodContext): Result;
}

// ---- argument helpers ----------------------------------------------------------------------------------------------

function str(args: Args, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

function required(args: Args, name: string, code = 'invalid_arguments'): string {
  const value = str(args, name);
  if (value === undefined) {
    throw new SlackError(
      code,
      code === 'invalid_arguments' ? { response_metadata: { messages: [`[ERROR] missing required field: ${name}`] } } : {},
    );
  }
  return value;
}

function bool(args: Args, name: string): boolean {
  const value = args[name];
  return value === true || value === 'true' || value === '1' || value === 1;
}

function limitOf(args: Args, fallback: number, max: number): number {
  const raw = str(args, 'limit');
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new SlackError('invalid_limit');
  return value === 0 ? fallback : Math.min(value, max);
}

function tsArg(args: Args, name: string, code: string): string | undefined {
  const value = str(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new SlackError(code);
  return value;
}

// ---- cursors: base64 of "<kind>:<key of the first item of the next page>", like Slack's ---------------------------

function encodeCursor(kind: string, key: string): string {
  return Buffer.from(`${kind}:${key}`, 'utf8').toString('base64');
}

function page<T>(items: readonly T[], keyOf: (item: T) => string, kind: string, args: Args, fallback: number, max: number) {
  const limit = limitOf(args, fallback, max);
  const cursor = str(args, 'cursor');
  let start = 0;
  if (cursor !== undefined) {
    const decoded = Buffer.from(cursor, 'base64').toString('utf8');
    const key = decoded.startsWith(`${kind}:`) ? decoded.slice(kind.length + 1) : undefined;
    start = key === undefined ? -1 : items.findIndex((item) => keyOf(item) === key);
    if (start < 0) throw new SlackError('invalid_cursor');
  }
  const slice = items.slice(start, start + limit);
  const next = items[start + limit];
  return { items: slice, hasMore: next !== undefined, nextCursor: next === undefined ? '' : encodeCursor(kind, keyOf(next)) };
}

// ---- lookups -------------------------------------------------------------------------------------------------------

function findChannel(state: SandboxState, id: string | undefined): SandboxChannel {
  if (id === undefined) throw new SlackError('channel_not_found');
  const byName = id.startsWith('#') ? id.slice(1) : undefined;
  const found = state.channels.find((c) => c.id === id || (byName !== undefined && c.name === byName));
  // private conversations the bot is not in are invisible to it, exactly like missing ones
  if (!found || (found.isPrivate && !found.members.has(BOT_USER_ID))) throw new SlackError('channel_not_found');
  return found;
}

/** A conversation the bot may read from or write to. */
function memberChannel(state: SandboxState, id: string | undefined): SandboxChannel {
  const found = findChannel(state, id);
  if (!found.members.has(BOT_USER_ID)) throw new SlackError('not_in_channel');
  return found;
}

function findMessage(target: SandboxChannel, ts: string | undefined, code = 'message_not_found'): StoredMessage {
  const found = ts === undefined ? undefined : target.messages.find((m) => tsKey(m.ts) === tsKey(ts));
  if (!found) throw new SlackError(code);
  return found;
}

function findUser(state: SandboxState, id: string | undefined): SandboxUser {
  const found = id === undefined ? undefined : state.users.find((u) => u.id === id);
  if (!found) throw new SlackError('user_not_found');
  return found;
}

function nextTs(state: SandboxState): string {
  state.clock += 1;
  state.sequence += 1;
  return `${state.clock}.${String(state.sequence).padStart(6, '0')}`;
}

function isTopLevel(m: StoredMessage): boolean {
  return m.threadTs === undefined || m.threadTs === m.ts || m.subtype === 'thread_broadcast';
}

function insertMessage(target: SandboxChannel, m: StoredMessage): void {
  target.messages.push(m);
  target.messages.sort((a, b) => compareTs(a.ts, b.ts));
}

// ---- serializers (Slack's wire shapes) -----------------------------------------------------------------------------

function userJson(u: SandboxUser): Result {
  return {
    id: u.id,
    team_id: TEAM_ID,
    name: u.name,
    deleted: u.deleted,
    real_name: u.realName,
    tz: u.tz,
    tz_offset: u.tzOffset,
    is_admin: u.isAdmin,
    is_owner: u.isAdmin,
    is_bot: u.isBot,
    is_app_user: false,
    updated: 1714000000,
    profile: {
      real_name: u.realName,
      display_name: u.displayName,
      title: u.title,
      ...(u.email === undefined ? {} : { email: u.email }),
      ...(u.isBot ? { bot_id: BOT_ID } : {}),
      status_text: '',
      status_emoji: '',
      image_48: `https://avatars.harborlane.example/${u.name}_48.png`,
      team: TEAM_ID,
    },
  };
}

function channelJson(c: SandboxChannel, withMembers: boolean): Result {
  if (c.kind === 'im') {
    return { id: c.id, created: c.created, is_im: true, is_org_shared: false, user: c.dmUser, is_user_deleted: false, priority: 0 };
  }
  return {
    id: c.id,
    name: c.name,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: c.isPrivate,
    created: c.created,
    is_archived: c.isArchived,
    is_general: c.isGeneral,
    unlinked: 0,
    name_normalized: c.name,
    is_shared: false,
    is_org_shared: false,
    is_ext_shared: false,
    is_member: c.members.has(BOT_USER_ID),
    creator: c.creator,
    topic: { value: c.topic, creator: c.creator, last_set: c.created },
    purpose: { value: c.purpose, creator: c.creator, last_set: c.created },
    previous_names: [],
    ...(withMembers ? { num_members: c.members.size } : {}),
  };
}

function fileJson(f: SandboxFile, origin: string): Result {
  const extension = f.name.includes('.') ? (f.name.split('.').pop() ?? '').toLowerCase() : '';
  return {
    id: f.id,
    created: f.created,
    timestamp: f.created,
    name: f.name,
    title: f.title,
    mimetype: MIME_TYPES[extension] ?? 'application/octet-stream',
    filetype: extension || 'binary',
    user: f.user,
    size: f.bytes?.length ?? f.declaredLength,
    is_external: false,
    is_public: f.channels.length > 0,
    url_private: `${origin}/__sandbox/files/${f.id}`,
    permalink: `https://harborlane.slack.example/files/${f.user}/${f.id}/${encodeURIComponent(f.name)}`,
    channels: [...f.channels],
  };
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

function reactionJson(r: Reaction): Result {
  return { name: r.name, users: [...r.users], count: r.users.length };
}

function messageJson(c: SandboxChannel, m: StoredMessage, origin: string): Result {
  const replies = m.threadTs === m.ts ? c.messages.filter((r) => r.threadTs === m.ts && r.ts !== m.ts) : [];
  const parent = m.threadTs !== undefined && m.threadTs !== m.ts ? c.messages.find((p) => p.ts === m.threadTs) : undefined;
  const pinned = c.pins.some((p) => p.ts === m.ts);
  return {
    type: 'message',
    ...(m.subtype === undefined ? {} : { subtype: m.subtype }),
    user: m.user,
    text: m.text,
    ts: m.ts,
    team: TEAM_ID,
    ...(m.botId === undefined ? {} : { bot_id: m.botId }),
    ...(m.threadTs === undefined ? {} : { thread_ts: m.threadTs }),
    ...(parent ? { parent_user_id: parent.user } : {}),
    ...(replies.length > 0
      ? {
          reply_count: replies.length,
          reply_users_count: new Set(replies.map((r) => r.user)).size,
          reply_users: [...new Set(replies.map((r) => r.user))],
          latest_reply: replies[replies.length - 1]?.ts,
        }
      : {}),
    ...(m.reactions.length > 0 ? { reactions: m.reactions.map(reactionJson) } : {}),
    ...(m.files.length > 0 ? { files: m.files.map((f) => fileJson(f, origin)), upload: true } : {}),
    ...(pinned ? { pinned_to: [c.id] } : {}),
  };
}

// ---- methods ---------------------------------------------------------------------------------------------------------

const EMOJI = /^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/;
const CHANNEL_NAME = /^[a-z0-9_-]+$/;
const CHANNEL_TYPES = new Set(['public_channel', 'private_channel', 'mpim', 'im']);

// https://api.slack.com/methods/chat.postMessage
function postMessage(args: Args, { state, origin }: MethodContext): Result {
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
    user: BOT_USER_ID,
    text,
    botId: BOT_ID,
    reactions: [],
    files: [],
    ...(root === undefined ? {} : { threadTs: root.ts }),
    ...(root !== undefined && bool(args, 'reply_broadcast') ? { subtype: 'thread_broadcast' } : {}),
  };
  insertMessage(target, created);
  return { ok: true, channel: target.id, ts: created.ts, message: messageJson(target, created, origin) };
}

// https://api.slack.com/methods/conversations.history
function history(args: Args, { state, origin }: MethodContext): Result {
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
function replies(args: Args, { state, origin }: MethodContext): Result {
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

// https://api.slack.com/methods/conversations.list
function listConversations(args: Args, { state }: MethodContext): Result {
  const types = (str(args, 'types') ?? 'public_channel').split(',').map((t) => t.trim());
  if (types.some((t) => !CHANNEL_TYPES.has(t))) throw new SlackError('invalid_types');
  const wanted = new Set(types);
  const excludeArchived = bool(args, 'exclude_archived');
  const visible = state.channels.filter((c) => {
    if (excludeArchived && c.isArchived) return false;
    if (c.kind === 'im') return wanted.has('im') && c.members.has(BOT_USER_ID);
    if (c.isPrivate) return wanted.has('private_channel') && c.members.has(BOT_USER_ID);
    return wanted.has('public_channel');
  });
  const result = page(visible, (c) => c.id, 'channel', args, 100, 1000);
  return {
    ok: true,
    channels: result.items.map((c) => channelJson(c, true)),
    response_metadata: { next_cursor: result.nextCursor },
  };
}

// https://api.slack.com/methods/conversations.info
function conversationInfo(args: Args, { state }: MethodContext): Result {
  const target = findChannel(state, str(args, 'channel'));
  return { ok: true, channel: channelJson(target, bool(args, 'include_num_members')) };
}

// https://api.slack.com/methods/conversations.create
function createConversation(args: Args, { state }: MethodContext): Result {
  const name = str(args, 'name');
  if (name === undefined) throw new SlackError('invalid_name_required');
  if (name.length > 80) throw new SlackError('invalid_name_maxlength');
  if (!CHANNEL_NAME.test(name)) throw new SlackError('invalid_name_specials');
  if (/^[-_]+$/.test(name)) throw new SlackError('invalid_name_punctuation');
  if (state.channels.some((c) => c.name === name)) throw new SlackError('name_taken');
  state.clock += 1;
  state.sequence += 1;
  const created: SandboxChannel = {
    id: `C06NEW${String(state.sequence).padStart(5, '0')}`,
    name,
    kind: 'channel',
    isPrivate: bool(args, 'is_private'),
    isArchived: false,
    isGeneral: false,
    created: state.clock,
    creator: BOT_USER_ID,
    topic: '',
    purpose: '',
    members: new Set([BOT_USER_ID]),
    messages: [],
    pins: [],
  };
  state.channels.push(created);
  return { ok: true, channel: channelJson(created, false) };
}

// https://api.slack.com/methods/conversations.archive
function archiveConversation(args: Args, { state }: MethodContext): Result {
  const target = findChannel(state, str(args, 'channel'));
  if (target.isArchived) throw new SlackError('already_archived');
  if (target.isGeneral) throw new SlackError('cant_archive_general');
  if (target.kind === 'im') throw new SlackError('method_not_supported_for_channel_type');
  if (!target.members.has(BOT_USER_ID)) throw new SlackError('not_in_channel');
  target.isArchived = true;
  return { ok: true };
}

// https://api.slack.com/methods/conversations.invite
function invite(args: Args, { state }: MethodContext): Result {
  const target = memberChannel(state, str(args, 'channel'));
  if (target.isArchived) throw new SlackError('is_archived');
  const ids = (str(args, 'users') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0) throw new SlackError('no_user');
  if (ids.length > 1000) throw new SlackError('too_many_users');
  for (const id of ids) {
    if (id === BOT_USER_ID) throw new SlackError('cant_invite_self');
    const user = findUser(state, id);
    if (user.deleted) throw new SlackError('user_is_deactivated');
    if (target.members.has(id)) throw new SlackError('already_in_channel');
  }
  for (const id of ids) target.members.add(id);
  return { ok: true, channel: channelJson(target, false) };
}

function reactionTarget(args: Args, state: SandboxState): { target: SandboxChannel; message: StoredMessage } {
  if (str(args, 'timestamp') === undefined) throw new SlackError('no_item_specified');
  const target = memberChannel(state, str(args, 'channel'));
  return { target, message: findMessage(target, tsArg(args, 'timestamp', 'bad_timestamp')) };
}

// https://api.slack.com/methods/reactions.add
function addReaction(args: Args, { state }: MethodContext): Result {
  const { target, message } = reactionTarget(args, state);
  if (target.isArchived) throw new SlackError('is_archived');
  const name = required(args, 'name');
  if (!EMOJI.test(name)) throw new SlackError('invalid_name');
  let reaction = message.reactions.find((r) => r.name === name);
  if (reaction?.users.includes(BOT_USER_ID)) throw new SlackError('already_reacted');
  if (!reaction) {
    reaction = { name, users: [] };
    message.reactions.push(reaction);
  }
  reaction.users.push(BOT_USER_ID);
  return { ok: true };
}

// https://api.slack.com/methods/reactions.get
function getReactions(args: Args, { state, origin }: MethodContext): Result {
  const { target, message } = reactionTarget(args, state);
  return { ok: true, type: 'message', channel: target.id, message: messageJson(target, message, origin) };
}

// https://api.slack.com/methods/reactions.remove
function removeReaction(args: Args, { state }: MethodContext): Result {
  const { message } = reactionTarget(args, state);
  const name = required(args, 'name');
  const reaction = message.reactions.find((r) => r.name === name);
  if (!reaction?.users.includes(BOT_USER_ID)) throw new SlackError('no_reaction');
  reaction.users = reaction.users.filter((u) => u !== BOT_USER_ID);
  if (reaction.users.length === 0) message.reactions = message.reactions.filter((r) => r !== reaction);
  return { ok: true };
}

// https://api.slack.com/methods/pins.add
function addPin(args: Args, { state }: MethodContext): Result {
  const { target, message } = reactionTarget(args, state);
  if (target.pins.some((p) => p.ts === message.ts)) throw new SlackError('already_pinned');
  state.clock += 1;
  target.pins.push({ ts: message.ts, created: state.clock, createdBy: BOT_USER_ID });
  return { ok: true };
}

// https://api.slack.com/methods/pins.remove
function removePin(args: Args, { state }: MethodContext): Result {
  const { target, message } = reactionTarget(args, state);
  if (!target.pins.some((p) => p.ts === message.ts)) throw new SlackError('not_pinned');
  target.pins = target.pins.filter((p) => p.ts !== message.ts);
  return { ok: true };
}

// https://api.slack.com/methods/pins.list
function listPins(args: Args, { state, origin }: MethodContext): Result {
  const target = memberChannel(state, str(args, 'channel'));
  const items = [...target.pins]
    .sort((a, b) => b.created - a.created)
    .map((pin) => ({
      type: 'message',
      created: pin.created,
      created_by: pin.createdBy,
      channel: target.id,
      message: messageJson(target, findMessage(target, pin.ts), origin),
    }));
  return { ok: true, items };
}

// https://api.slack.com/methods/files.getUploadURLExternal
function getUploadUrl(args: Args, { state, origin }: MethodContext): Result {
  const filename = required(args, 'filename');
  const lengthRaw = required(args, 'length');
  const length = Number(lengthRaw);
  if (!Number.isInteger(length) || length < 0) throw new SlackError('invalid_arguments');
  if (length === 0) throw new SlackError('missing_argument');
  state.clock += 1;
  state.sequence += 1;
  const id = `F06UP${String(state.sequence).padStart(6, '0')}`;
  state.files.set(id, {
    id,
    name: filename,
    title: filename,
    declaredLength: length,
    user: BOT_USER_ID,
    created: state.clock,
    channels: [],
  });
  return { ok: true, upload_url: `${origin}/upload/${id}`, file_id: id };
}

// https://api.slack.com/methods/files.completeUploadExternal
function completeUpload(args: Args, { state, origin }: MethodContext): Result {
  let entries = args.files;
  if (typeof entries === 'string') {
    try {
      entries = JSON.parse(entries);
    } catch {
      throw new SlackError('invalid_arguments', { response_metadata: { messages: ['[ERROR] files must be a JSON array'] } });
    }
  }
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new SlackError('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: files'] } });
  }
  const files = entries.map((entry: unknown) => {
    const { id, title } = (typeof entry === 'object' && entry !== null ? entry : {}) as { id?: unknown; title?: unknown };
    const file = typeof id === 'string' ? state.files.get(id) : undefined;
    // a file whose bytes never arrived cannot be completed
    if (!file?.bytes) throw new SlackError('file_not_found');
    return { file, title: typeof title === 'string' && title ? title : file.name };
  });
  const channelId = str(args, 'channel_id');
  const target = channelId === undefined ? undefined : memberChannel(state, channelId);
  const threadTs = tsArg(args, 'thread_ts', 'invalid_thread_ts');
  if (threadTs !== undefined && !target) throw new SlackError('invalid_arguments');
  const parent = target && threadTs !== undefined ? findMessage(target, threadTs, 'thread_not_found') : undefined;
  if (target?.isArchived) throw new SlackError('is_archived');
  for (const { file, title } of files) {
    file.title = title;
    if (target && !file.channels.includes(target.id)) file.channels.push(target.id);
  }
  if (target) {
    if (parent) parent.threadTs = parent.ts;
    insertMessage(target, {
      ts: nextTs(state),
      user: BOT_USER_ID,
      text: str(args, 'initial_comment') ?? '',
      botId: BOT_ID,
      reactions: [],
      files: files.map(({ file }) => file),
      ...(parent ? { threadTs: parent.ts } : {}),
    });
  }
  return { ok: true, files: files.map(({ file }) => fileJson(file, origin)) };
}

// https://api.slack.com/methods/users.list
function listUsers(args: Args, { state }: MethodContext): Result {
  const sorted = [...state.users].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // without a limit Slack returns as many members as it can in one page
  const result = page(sorted, (u) => u.id, 'user', args, Math.max(sorted.length, 1), 1000);
  return {
    ok: true,
    members: result.items.map(userJson),
    cache_ts: state.clock,
    response_metadata: { next_cursor: result.nextCursor },
  };
}

// https://api.slack.com/methods/users.info
function userInfo(args: Args, { state }: MethodContext): Result {
  return { ok: true, user: userJson(findUser(state, str(args, 'user'))) };
}

// https://api.slack.com/methods/users.lookupByEmail
function lookupByEmail(args: Args, { state }: MethodContext): Result {
  const email = required(args, 'email').toLowerCase();
  const found = state.users.find((u) => u.email?.toLowerCase() === email);
  if (!found) throw new SlackError('users_not_found');
  return { ok: true, user: userJson(found) };
}

/** The Web API methods the sandbox emulates, by Slack method name. */
export const METHODS: Readonly<Record<string, MethodSpec>> = {
  'chat.postMessage': { json: true, handle: postMessage },
  'conversations.history': { json: false, handle: history },
  'conversations.replies': { json: false, handle: replies },
  'conversations.list': { json: false, handle: listConversations },
  'conversations.info': { json: false, handle: conversationInfo },
  'conversations.create': { json: true, handle: createConversation },
  'conversations.archive': { json: true, handle: archiveConversation },
  'conversations.invite': { json: true, handle: invite },
  'reactions.add': { json: true, handle: addReaction },
  'reactions.get': { json: false, handle: getReactions },
  'reactions.remove': { json: true, handle: removeReaction },
  'pins.add': { json: true, handle: addPin },
  'pins.remove': { json: true, handle: removePin },
  'pins.list': { json: false, handle: listPins },
  // Slack reads only form or query arguments here: a JSON body looks like a call without filename and length.
  'files.getUploadURLExternal': { json: false, handle: getUploadUrl },
  'files.completeUploadExternal': { json: true, handle: completeUpload },
  'users.list': { json: false, handle: listUsers },
  'users.info': { json: false, handle: userInfo },
  'users.lookupByEmail': { json: false, handle: lookupByEmail },
};
