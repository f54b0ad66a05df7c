import { defineOperation, Params, Type } from '@portico/core/plugin';
import {
  ChannelId,
  ConversationId,
  Cursor,
  compareTs,
  Limit,
  MAX_TEXT_LENGTH,
  MessagesResponse,
  MessageTs,
  SendMessageResponse,
  TimeBound,
} from '../schemas.js';
import { formPost, pageQuery } from './kit.js';

export const sendMessage = defineOperation({
  name: 'send_message',
  method: 'POST',
  path: '/channels/:channel/messages',
  summary: 'Send a Slack message to a channel or thread',
  description:
    'Posts a message as the connected bot to a channel, private channel or DM, or as a reply in a thread. channel ' +
    'must be the conversation id (C…) taken from list_channels, never a #name or a bare name, and the bot must be ' +
    'a member (invite it first if Slack answers not_in_channel). To reply in a thread pass thread_ts, the ts of ' +
    "the thread's parent message from read_messages; text uses Slack mrkdwn (*bold*, _italic_, <@U123> mentions). " +
    "The answer's ts is the new message's id, usable with add_reaction, add_pin or as a thread_ts.",
  params: Params({
    channel: ConversationId(
      'Conversation id (starts with C, G or D) of a channel, private channel or DM: take it from list_channels (or create_channel). A #name or a bare channel name is refused: names change and are not unique over time, ids are.',
    ),
    // Optional as in the catalog; Slack needs it (this operation has no blocks), and its no_text answers a 400.
    text: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_TEXT_LENGTH,
        description: `Message text in Slack mrkdwn, at most ${MAX_TEXT_LENGTH} characters. Give it on every call: without it Slack refuses the message with no_text (400).`,
        examples: ['Deploy of *billing-api* v2.4.1 finished :white_check_mark:'],
      }),
    ),
    thread_ts: Type.Optional(MessageTs('Reply in this thread: ts of the parent message (from read_messages or send_message).')),
    reply_broadcast: Type.Optional(
      Type.Boolean({ default: false, description: 'With thread_ts: also show the reply in the channel itself (default false).' }),
    ),
    unfurl_links: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Show previews of links in the text (default true; pass false to keep the message compact).',
      }),
    ),
  }),
  response: SendMessageResponse,
  // https://api.slack.com/methods/chat.postMessage
  upstream: (params) =>
    formPost('/chat.postMessage')({
      channel: params.channel,
      text: params.text,
      thread_ts: params.thread_ts,
      reply_broadcast: params.reply_broadcast,
      // Slack's own default for bots differs from the catalog's (true), so the catalog default is always sent.
      unfurl_links: params.unfurl_links ?? true,
    }),
  example: { channel: 'C05GENERAL1', text: 'Deploy of *billing-api* v2.4.1 finished :white_check_mark:' },
});

export const readMessages = defineOperation({
  name: 'read_messages',
  method: 'GET',
  path: '/channels/:channel/messages',
  summary: "Read a channel's recent messages, newest first",
  description:
    'Returns the top-level messages (conversation history) of a channel, newest first, each with ts (its id), ' +
    'user, text, and reactions or files; thread replies are left out (a parent carries thread_ts and reply_count: ' +
    'read them with read_thread). Take the channel id from list_channels (the bot must be a member) and narrow the ' +
    'time window with oldest and latest (Unix timestamps, both inclusive). Paging: pass limit (default 20, max ' +
    '999); when has_more is true, call again with cursor = response_metadata.next_cursor.',
  params: Params({
    channel: ChannelId,
    limit: Type.Optional(Limit),
    oldest: Type.Optional(TimeBound('Only messages at or after this Unix time (inclusive), e.g. 1714000000 or 1714060800.000100.')),
    latest: Type.Optional(TimeBound('Only messages at or before this Unix time (inclusive).')),
    cursor: Type.Optional(Cursor),
  }),
  // A comparison of two values is beyond JSON Schema (it can only say which parameters are given), so this rule stays
  // a check. Timestamps are compared as microseconds: as floats they lose the fraction's last digits.
  check: (params) =>
    params.oldest !== undefined && params.latest !== undefined && compareTs(params.oldest, params.latest) > 0
      ? 'oldest must not be later than latest'
      : undefined,
  response: MessagesResponse,
  // https://api.slack.com/methods/conversations.history
  upstream: (params) => ({
    method: 'GET',
    path: '/conversations.history',
    query: {
      channel: params.channel,
      ...pageQuery(params),
      ...(params.oldest === undefined ? {} : { oldest: params.oldest }),
      ...(params.latest === undefined ? {} : { latest: params.latest }),
      // The catalog defines the bounds as inclusive; Slack excludes them unless told otherwise.
      ...(params.oldest !== undefined || params.latest !== undefined ? { inclusive: true } : {}),
    },
  }),
  example: { channel: 'C05GENERAL1', limit: '20', oldest: '1714000000' },
});

export const readThread = defineOperation({
  name: 'read_thread',
  method: 'GET',
  path: '/channels/:channel/messages/:ts/replies',
  summary: 'Read a thread: the parent message and its replies',
  description:
    'Returns a Slack thread in chronological order, the parent message first and then its replies. Pass the ' +
    "channel id and the parent message's ts (from read_messages: messages with reply_count > 0 have threads); a ts " +
    'that is not a thread parent returns just that message. Paging: limit (default 20, max 999); when has_more is ' +
    'true, call again with cursor = response_metadata.next_cursor.',
  params: Params({
    channel: ChannelId,
    ts: MessageTs('ts of the thread’s parent message (its thread_ts), from read_messages.'),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  }),
  response: MessagesResponse,
  // https://api.slack.com/methods/conversations.replies
  upstream: (params) => ({
    method: 'GET',
    path: '/conversations.replies',
    query: { channel: params.channel, ts: params.ts, ...pageQuery(params) },
  }),
  example: { channel: 'C05GENERAL1', ts: '1714077000.002600', limit: '20' },
});
