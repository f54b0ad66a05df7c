import { BooleanString, defineOperation, Params, Type } from '@portico/core/plugin';
import {
  ChannelId,
  ChannelName,
  ChannelResponse,
  ChannelsResponse,
  ChannelTypes,
  Cursor,
  Limit,
  OkResponse,
  UserIdList,
} from '../schemas.js';
import { formPost, pageQuery } from './kit.js';

export const listChannels = defineOperation({
  name: 'list_channels',
  method: 'GET',
  path: '/channels',
  summary: 'List Slack channels to find a channel id by name',
  description:
    'Lists the channels (conversations) the bot can see, public ones by default with archived ones included, each ' +
    'with id, name, is_private, is_archived, is_member, topic, purpose and num_members: the place to turn a ' +
    'channel name like #intake into the id every other operation takes. Pass types to include private channels ' +
    '(only those the bot is in), group DMs (mpim) or DMs (im), and exclude_archived=true to hide archived ' +
    'channels. Paging: limit (default 20, max 999); while response_metadata.next_cursor is not empty, call again ' +
    'with cursor set to it.',
  params: Params({
    limit: Type.Optional(Limit),
    types: Type.Optional(ChannelTypes),
    // The catalog leaves exclude_archived untyped, so it is a query string: "true" or "false" (true/false are accepted too).
    exclude_archived: Type.Optional(
      BooleanString({ default: 'false', description: 'Pass "true" to leave out archived channels (default "false": they are listed).' }),
    ),
    cursor: Type.Optional(Cursor),
  }),
  response: ChannelsResponse,
  // https://api.slack.com/methods/conversations.list
  upstream: (params) => ({
    method: 'GET',
    path: '/conversations.list',
    query: {
      ...pageQuery(params),
      ...(params.types === undefined ? {} : { types: params.types }),
      ...(params.exclude_archived === undefined ? {} : { exclude_archived: params.exclude_archived }),
    },
  }),
  example: { types: 'public_channel,private_channel', exclude_archived: 'true', limit: '50' },
});

export const getChannelInfo = defineOperation({
  name: 'get_channel_info',
  method: 'GET',
  path: '/channels/:channel',
  summary: "Get a channel's name, topic and purpose",
  description:
    'Returns one channel (conversation) by id from list_channels: name, created, creator, is_private, is_archived, ' +
    'is_member, topic and purpose. Pass include_num_members=true to also get the member count.',
  params: Params({
    channel: ChannelId,
    include_num_members: Type.Optional(Type.Boolean({ description: 'Add num_members to the channel (default false).' })),
  }),
  response: ChannelResponse,
  // https://api.slack.com/methods/conversations.info
  upstream: { method: 'GET', path: '/conversations.info' },
  example: { channel: 'C05GENERAL1', include_num_members: true },
});

export const createChannel = defineOperation({
  name: 'create_channel',
  method: 'POST',
  path: '/channels',
  summary: 'Create a public or private Slack channel',
  description:
    'Creates a new channel, for a team, a case or a topic, with the bot as creator and first member; set ' +
    'is_private=true for a private channel. The name ' +
    'must be lowercase letters, digits, hyphens or underscores, without spaces or a leading #, at most 80 ' +
    'characters, and a name already used (even by an archived channel) is a conflict. The answer is the new ' +
    'channel, whose id invite_to_channel and send_message take.',
  params: Params({
    // Optional as in the catalog; Slack needs it, and its invalid_name_required answers a 400.
    name: Type.Optional(ChannelName),
    is_private: Type.Optional(Type.Boolean({ default: false, description: 'Create a private channel (default false: public).' })),
  }),
  response: ChannelResponse,
  // https://api.slack.com/methods/conversations.create
  upstream: formPost('/conversations.create'),
  example: { name: 'project-apollo', is_private: false },
});

export const archiveChannel = defineOperation({
  name: 'archive_channel',
  method: 'POST',
  path: '/channels/:channel/archive',
  summary: 'Archive a channel so it becomes read-only',
  description:
    "Archives a channel (id from list_channels): it becomes read-only and leaves its members' channel lists, but " +
    'its history is kept and it can be unarchived later in Slack. The bot must be a member, and #general cannot be archived.',
  params: Params({ channel: ChannelId }),
  response: OkResponse,
  // https://api.slack.com/methods/conversations.archive
  upstream: formPost('/conversations.archive'),
  example: { channel: 'C05RANDOM01' },
});

export const inviteToChannel = defineOperation({
  name: 'invite_to_channel',
  method: 'POST',
  path: '/channels/:channel/invitations',
  summary: 'Invite people to a Slack channel',
  description:
    'Adds users to a channel the bot is a member of: the channel id (from list_channels or create_channel) and a ' +
    'comma-separated list of user ids (from list_users or lookup_user_by_email). Inviting the bot itself or ' +
    'someone already in the channel is refused.',
  // users is optional as in the catalog; Slack needs it, and its no_user answers a 400.
  params: Params({ channel: ChannelId, users: Type.Optional(UserIdList) }),
  response: ChannelResponse,
  // https://api.slack.com/methods/conversations.invite
  upstream: formPost('/conversations.invite'),
  example: { channel: 'C05LAUNCH01', users: 'U05BRUNO002,U05ELENA005' },
});
