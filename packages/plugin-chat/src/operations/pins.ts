import { defineOperation, Params } from '@portico/core/plugin';
import { ChannelId, MessageTs, OkResponse, PinsResponse } from '../schemas.js';
import { formPost } from './kit.js';

const MessageTimestamp = MessageTs('ts of the message to pin or unpin (from read_messages, read_thread or send_message).');

export const addPin = defineOperation({
  name: 'add_pin',
  method: 'POST',
  path: '/channels/:channel/messages/:timestamp/pins',
  summary: 'Pin a message to its channel',
  description:
    "Pins a message so it is listed in the channel's pinned items, given the channel id and the message ts as " +
    'timestamp (from read_messages or send_message). The bot must be a member of the channel; pinning an already ' +
    'pinned message is a conflict.',
  params: Params({ channel: ChannelId, timestamp: MessageTimestamp }),
  response: OkResponse,
  // https://api.slack.com/methods/pins.add
  upstream: formPost('/pins.add'),
  example: { channel: 'C05GENERAL1', timestamp: '1714060800.001700' },
});

export const removePin = defineOperation({
  name: 'remove_pin',
  method: 'DELETE',
  path: '/channels/:channel/messages/:timestamp/pins',
  summary: 'Unpin a message from its channel',
  description:
    'Unpins a message, which itself stays in the channel, given the channel id and the message ts as timestamp ' +
    '(from list_pins). A message that is not pinned is not found.',
  params: Params({ channel: ChannelId, timestamp: MessageTimestamp }),
  response: OkResponse,
  // https://api.slack.com/methods/pins.remove (a POST method upstream)
  upstream: formPost('/pins.remove'),
  example: { channel: 'C05GENERAL1', timestamp: '1714060800.001700' },
});

export const listPins = defineOperation({
  name: 'list_pins',
  method: 'GET',
  path: '/channels/:channel/pins',
  summary: 'List the pinned messages of a channel',
  description:
    'Returns everything pinned in a channel (id from list_channels), most recently pinned first, in one answer ' +
    'with no paging. Each item has type (message), created (when it was pinned), created_by (who pinned it) and ' +
    'message (with its ts and text).',
  params: Params({ channel: ChannelId }),
  response: PinsResponse,
  // https://api.slack.com/methods/pins.list
  upstream: { method: 'GET', path: '/pins.list' },
  example: { channel: 'C05GENERAL1' },
});
