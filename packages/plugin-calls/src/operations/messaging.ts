import { defineOperation, Params, Type } from '@portico/core/plugin';
import {
  AccountId,
  AnyRecord,
  CompanyFilter,
  DATE_RULES,
  DateFilters,
  DEFAULT_PER_PAGE,
  idParam,
  Paged,
  Paging,
  SMS_THREAD_PER_PAGE,
} from '../schemas.js';
import { callrailGet } from '../upstream.js';
import { datesInOrder } from './kit.js';

const EXAMPLE_ACCOUNT = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';
const EXAMPLE_THREAD = 'SMT9d4a7c2e5b8f4a1d6c3e9b7f2a5d8c16';

const MessageSearch = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Customer phone number, customer name or tag name.',
    examples: ['Whitman'],
  }),
);

export const listSmsThreads = defineOperation({
  name: 'list_sms_threads',
  method: 'GET',
  path: '/accounts/:account_id/sms-threads',
  summary: 'List SMS threads: text conversations with callers',
  description:
    'Lists the SMS threads, each the text conversation between one customer number and one tracking number, with ' +
    "id (for get_sms_thread), company_id, the customer's name and number, tracking number, last message time, " +
    'message count and tags. list_text_message_conversations lists the same conversations with their latest messages ' +
    'inline and is the one to prefer. Filter by period (date_range or start_date and end_date, on the last message), ' +
    'company_id or search (customer number, name or tag name). Paged: page from 1, per_page default 25, max 250.',
  preferred: 'list_text_message_conversations',
  params: Params(
    { account_id: AccountId, ...DateFilters, company_id: CompanyFilter, search: MessageSearch, ...Paging },
    { rules: DATE_RULES },
  ),
  // A schema cannot compare two values: start_date <= end_date.
  check: datesInOrder,
  response: Paged('sms_threads', AnyRecord, 'SMS threads on this page'),
  // https://apidocs.callrail.com/#listing-all-sms-threads
  upstream: callrailGet('/a/:account_id/sms-threads.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT, date_range: 'last_7_days' },
});

export const getSmsThread = defineOperation({
  name: 'get_sms_thread',
  method: 'GET',
  path: '/accounts/:account_id/sms-threads/:thread_id',
  summary: 'Read the text messages of one SMS thread',
  description:
    'Returns the text messages of one SMS thread (thread_id from list_sms_threads), oldest first, with direction, ' +
    'content, created_at and status; with_msg_errors=true adds the delivery error of failed messages. CallRail ' +
    'names the array "tags", not "messages": read the messages from tags. get_text_message_conversation reads the ' +
    'same conversation (conversation_id from list_text_message_conversations) and is the one to prefer. Paged: page ' +
    'from 1, per_page default 100, max 100.',
  preferred: 'get_text_message_conversation',
  params: Params({
    account_id: AccountId,
    thread_id: idParam('SMS thread id, from list_sms_threads.', EXAMPLE_THREAD),
    with_msg_errors: Type.Optional(Type.Boolean({ description: 'true: include the delivery error of each failed message.' })),
    // Unlike the paged lists, the catalog types this operation's paging as numbers: they stay numbers (a numeric string is
    // accepted too, through core's coercion rule).
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        default: 1,
        description: 'Page of messages, starting at 1 (default 1). Ask for the next page while page < total_pages.',
        examples: [2],
      }),
    ),
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SMS_THREAD_PER_PAGE,
        default: SMS_THREAD_PER_PAGE,
        description: `Messages per page, 1 to ${SMS_THREAD_PER_PAGE} (default ${SMS_THREAD_PER_PAGE}).`,
        examples: [50],
      }),
    ),
  }),
  // CallRail's quirk, kept as is: the messages of the thread arrive under the key `tags`.
  response: Paged('tags', AnyRecord, 'The messages of the thread (CallRail names this array tags)'),
  // https://apidocs.callrail.com/#retrieving-a-single-sms-thread
  upstream: callrailGet('/a/:account_id/sms-threads/:thread_id.json', { perPage: SMS_THREAD_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT, thread_id: EXAMPLE_THREAD, with_msg_errors: true },
});

export const listTextMessageConversations = defineOperation({
  name: 'list_text_message_conversations',
  method: 'GET',
  path: '/accounts/:account_id/text-messages',
  summary: 'List text message conversations with their latest messages',
  description:
    "Lists CallRail's text message inbox, one conversation per customer and tracking number, with the customer's " +
    'name and number, the tracking number, state, last_message_at and recent_messages inline, so one request ' +
    'answers "what did people text us?". Filter by period (date_range or start_date and end_date), company_id or ' +
    'search; for the full history of one conversation use get_text_message_conversation. Paged: page from 1, ' +
    'per_page default 25, max 250; the array is named conversations.',
  params: Params(
    { account_id: AccountId, ...DateFilters, company_id: CompanyFilter, search: MessageSearch, ...Paging },
    { rules: DATE_RULES },
  ),
  // A schema cannot compare two values: start_date <= end_date.
  check: datesInOrder,
  response: Paged('conversations', AnyRecord, 'Conversations on this page'),
  // https://apidocs.callrail.com/#listing-all-text-message-conversations
  upstream: callrailGet('/a/:account_id/text-messages.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT, date_range: 'last_30_days' },
});

export const getTextMessageConversation = defineOperation({
  name: 'get_text_message_conversation',
  method: 'GET',
  path: '/accounts/:account_id/text-messages/:conversation_id',
  summary: 'Read a whole text message conversation',
  description:
    'Returns one text conversation (conversation_id from list_text_message_conversations) with all its messages ' +
    '(direction, content, created_at), the customer and the tracking number. The inbox view with only the latest ' +
    'messages is list_text_message_conversations.',
  params: Params({
    account_id: AccountId,
    conversation_id: idParam('Conversation id, from list_text_message_conversations.', EXAMPLE_THREAD),
  }),
  // https://apidocs.callrail.com/#retrieving-a-single-text-message-conversation
  upstream: callrailGet('/a/:account_id/text-messages/:conversation_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, conversation_id: EXAMPLE_THREAD },
});
