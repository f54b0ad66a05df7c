import { defineOperation, Params, Type } from '@portico/core/plugin';
import { ChannelId, EmojiName, MessageTs, OkResponse, ReactionsResponse } from '../schemas.js';
import { formPost } from './kit.js';

const MessageTimestamp = MessageTs('ts of the message (from read_messages, read_thread or send_message).');

export const addReaction = defineOperation({
  name: 'add_reaction',
  method: 'POST',
  path: '/channels/:channel/messages/:timestamp/reactions',
  summary: 'Add an emoji reaction (thumbs up, eyes…) to a message',
  description:
    'Adds an emoji reaction from the bot to a message: the channel id, the message ts as timestamp (from ' +
    'read_messages or send_message) and the emoji name without colons (thumbsup, eyes, white_check_mark, or a ' +
    'custom emoji). Reacting twice with the same emoji is a conflict.',
  // name is optional as in the catalog; Slack needs it, and its own error (invalid_arguments) answers a 400.
  params: Params({ channel: ChannelId, timestamp: MessageTimestamp, name: Type.Optional(EmojiName) }),
  response: OkResponse,
  // https://api.slack.com/methods/reactions.add
  upstream: formPost('/reactions.add'),
  example: { channel: 'C05GENERAL1', timestamp: '1714060800.001700', name: 'eyes' },
});

export const getReactions = defineOperation({
  name: 'get_reactions',
  method: 'GET',
  path: '/channels/:channel/messages/:timestamp/reactions',
  summary: 'Get who reacted to a message, and with which emoji',
  description:
    'Returns a message with its reactions: message.reactions lists each emoji name, count and the ids of users who ' +
    'reacted (resolve them with get_user_info). Pass full=true to get every user id even on popular reactions.',
  params: Params({
    channel: ChannelId,
    timestamp: MessageTimestamp,
    full: Type.Optional(Type.Boolean({ default: false, description: 'Return the complete list of users per reaction (default false).' })),
  }),
  response: ReactionsResponse,
  // https://api.slack.com/methods/reactions.get
  upstream: { method: 'GET', path: '/reactions.get' },
  example: { channel: 'C05GENERAL1', timestamp: '1714060800.001700', full: true },
});

export const removeReaction = defineOperation({
  name: 'remove_reaction',
  method: 'DELETE',
  path: '/channels/:channel/messages/:timestamp/reactions',
  summary: "Remove the bot's emoji reaction from a message",
  description:
    'Removes a reaction the bot added, given the channel id, the message ts as timestamp and the emoji name ' +
    "without colons. It cannot remove other people's reactions, and a reaction the bot has not made is not found.",
  // name is optional as in the catalog; Slack needs it, and its own error (invalid_arguments) answers a 400.
  params: Params({ channel: ChannelId, timestamp: MessageTimestamp, name: Type.Optional(EmojiName) }),
  response: OkResponse,
  // https://api.slack.com/methods/reactions.remove (a POST method upstream)
  upstream: formPost('/reactions.remove'),
  example: { channel: 'C05GENERAL1', timestamp: '1714060800.001700', name: 'eyes' },
});
