// The channels family: listing, reading, creating and archiving conversations, and inviting to them.
import type { SandboxChannel } from '../data.js';
import {
  type Args,
  bool,
  findChannel,
  findUser,
  type MethodContext,
  memberChannel,
  page,
  type Result,
  SlackError,
  str,
  tick,
} from '../web-api.js';
import { channelJson } from '../wire.js';

const CHANNEL_NAME = /^[a-z0-9_-]+$/;
const CHANNEL_TYPES = new Set(['public_channel', 'private_channel', 'mpim', 'im']);

// https://api.slack.com/methods/conversations.list
export function listConversations(args: Args, { state }: MethodContext): Result {
  const types = (str(args, 'types') ?? 'public_channel').split(',').map((t) => t.trim());
  if (types.some((t) => !CHANNEL_TYPES.has(t))) throw new SlackError('invalid_types');
  const wanted = new Set(types);
  const excludeArchived = bool(args, 'exclude_archived');
  const visible = state.channels.filter((c) => {
    if (excludeArchived && c.isArchived) return false;
    if (c.kind === 'im') return wanted.has('im') && c.members.has(state.actor);
    if (c.isPrivate) return wanted.has('private_channel') && c.members.has(state.actor);
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
export function conversationInfo(args: Args, { state }: MethodContext): Result {
  const target = findChannel(state, str(args, 'channel'));
  return { ok: true, channel: channelJson(target, bool(args, 'include_num_members')) };
}

// https://api.slack.com/methods/conversations.create
export function createConversation(args: Args, { state }: MethodContext): Result {
  const name = str(args, 'name');
  if (name === undefined) throw new SlackError('invalid_name_required');
  if (name.length > 80) throw new SlackError('invalid_name_maxlength');
  if (!CHANNEL_NAME.test(name)) throw new SlackError('invalid_name_specials');
  if (/^[-_]+$/.test(name)) throw new SlackError('invalid_name_punctuation');
  if (state.channels.some((c) => c.name === name)) throw new SlackError('name_taken');
  tick(state);
  state.sequence += 1;
  const created: SandboxChannel = {
    id: `C06NEW${String(state.sequence).padStart(5, '0')}`,
    name,
    kind: 'channel',
    isPrivate: bool(args, 'is_private'),
    isArchived: false,
    isGeneral: false,
    created: state.clock,
    creator: state.actor,
    topic: '',
    purpose: '',
    members: new Set([state.actor]),
    messages: [],
    pins: [],
  };
  state.channels.push(created);
  return { ok: true, channel: channelJson(created, false) };
}

// https://api.slack.com/methods/conversations.archive
export function archiveConversation(args: Args, { state }: MethodContext): Result {
  const target = findChannel(state, str(args, 'channel'));
  if (target.isArchived) throw new SlackError('already_archived');
  if (target.isGeneral) throw new SlackError('cant_archive_general');
  if (target.kind === 'im') throw new SlackError('method_not_supported_for_channel_type');
  if (!target.members.has(state.actor)) throw new SlackError('not_in_channel');
  target.isArchived = true;
  return { ok: true };
}

// https://api.slack.com/methods/conversations.invite
export function invite(args: Args, { state }: MethodContext): Result {
  const target = memberChannel(state, str(args, 'channel'));
  if (target.isArchived) throw new SlackError('is_archived');
  const ids = (str(args, 'users') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0) throw new SlackError('no_user');
  if (ids.length > 1000) throw new SlackError('too_many_users');
  for (const id of ids) {
    if (id === state.actor) throw new SlackError('cant_invite_self');
    const user = findUser(state, id);
    if (user.deleted) throw new SlackError('user_is_deactivated');
    if (target.members.has(id)) throw new SlackError('already_in_channel');
  }
  for (const id of ids) target.members.add(id);
  return { ok: true, channel: channelJson(target, false) };
}
