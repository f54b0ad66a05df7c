import { StringEnum } from '@portico/core';
import {
  Bool,
  Day,
  EXTERNAL_FILTERS,
  EXTERNAL_RULES,
  Flag,
  IdFilter,
  List,
  Moment,
  notNull,
  nullable,
  Obj,
  Ref,
  Text,
} from '../schemas.js';
import { family } from './kit/rows.js';

// Communications: the emails and phone calls logged on matters, and the secure conversations with clients (message
// threads and their messages).

const COMMUNICATION_TYPES = ['EmailCommunication', 'PhoneCommunication'] as const;

const communicationBody = {
  type: StringEnum(['PhoneCommunication', 'EmailCommunication'], { description: 'A phone call or an email.' }),
  subject: Text('Subject line (of the email, or a title for the call).'),
  body: Text('Text of the email, or notes of the call.'),
  received_at: Moment('When it was sent or the call happened'),
  matter: Obj('The matter the communication is filed under, as { "id": <matter id> }.'),
  senders: List('Who it is from, as [{ "id": <id>, "type": "User" | "Contact" }].'),
  receivers: List('Who it went to, as [{ "id": <id>, "type": "User" | "Contact" }].'),
  external_properties: List('External properties, as [{ "name": "…", "value": "…" }].'),
  notification_event_subscribers: List('Users notified of changes, as [{ "user_id": <id> }].'),
};

export const communications = family([
  {
    key: 'communications',
    path: '/communications',
    clio: '/communications',
    record: ['communication', 'communications'],
    words: ['communication (logged email or phone call)', 'communications (logged emails and phone calls)'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Logged emails and phone calls, usually filed under a matter.',
    fields: 'id,type,subject,body,received_at,matter{id,display_number},senders{id,name},receivers{id,name}',
    order: 'date(asc)',
    filters: {
      contact_id: IdFilter('Only communications with this contact.', notNull),
      matter_id: IdFilter('Only communications filed under this matter.', nullable),
      user_id: IdFilter('Only communications of this user.', notNull),
      date: Day('Only communications on this date'),
      received_at: Moment('Only communications received at this time'),
      received_since: Moment('Only communications received on or after this time'),
      received_before: Moment('Only communications received on or before this time'),
      having_time_entries: Flag('Only communications with (true) or without (false) time entries.'),
      query: Text('Wildcard search in subject and body.'),
      type: StringEnum(COMMUNICATION_TYPES, { description: 'Only emails or only phone calls.' }),
      ...EXTERNAL_FILTERS,
    },
    listRules: EXTERNAL_RULES,
    body: communicationBody,
    required: ['type', 'subject', 'body', 'received_at'],
    text: {
      list: 'Lists logged communications (emails and phone calls) by matter, contact, user, date or type; query searches subject and body. Their ids go into activities (communication_id) for time spent.',
      get: 'Returns one communication (email or phone call); the id comes from list_communications.',
      create:
        'Logs a phone call or an email with a client or any other contact: type, subject, body and received_at are required; file it with matter: {"id": <matter id>}, and name senders and receivers as [{ "id", "type": "User" | "Contact" }].',
      update: 'Changes a logged communication (id from list_communications): subject, body, matter, senders or receivers.',
      delete: 'Deletes a logged communication (id from list_communications). Answers 204 with no body.',
    },
  },
  {
    key: 'conversations',
    path: '/conversations',
    clio: '/conversations',
    record: ['conversation', 'conversations'],
    words: ['conversation (secure client message thread)', 'conversations (secure client message threads)'],
    verbs: ['list', 'get', 'update'],
    about: 'Secure conversations with clients (message threads).',
    fields: 'id,subject,archived,read,message_count,matter{id,display_number}',
    order: 'id(asc)',
    filters: {
      archived: Flag('Only archived (true) or unarchived (false) conversations.'),
      contact_id: IdFilter('Only conversations with this contact.', notNull),
      date: Day('Only conversations created on this date'),
      for_user: Flag('true: conversations accessible to the user’s groups; false: those the user is a member of.'),
      matter_id: IdFilter('Only conversations of this matter.', nullable),
      read_status: Flag('Only read (true) or unread (false) conversations.'),
      time_entries: Flag('Only conversations with (true) or without (false) time entries.'),
    },
    body: {
      archived: Bool('Archive (true) or unarchive (false).'),
      read: Bool('Mark read (true) or unread (false).'),
      matter: Ref('matter to file the conversation under'),
    },
    text: {
      list: 'Lists conversations (secure client message threads) by contact, matter, date, read or archived state.',
      get: 'Returns one conversation; the id comes from list_conversations. Its messages: list_conversation_messages with conversation_id.',
      update: 'Archives, marks read or files a conversation under a matter (id from list_conversations).',
    },
  },
  {
    key: 'conversation_messages',
    path: '/conversation_messages',
    clio: '/conversation_messages',
    record: ['conversation_message', 'conversation_messages'],
    words: ['conversation message (secure client message)', 'conversation messages (secure client messages)'],
    verbs: ['list', 'get', 'create'],
    about: 'Messages of Clio’s secure client conversations.',
    fields: 'id,subject,body,created_at,sender{id,name},conversation{id}',
    order: 'id(asc)',
    filters: {
      conversation_id: IdFilter('The conversation whose messages to list (ids from list_conversations); Clio requires it.', notNull),
      query: Text('Wildcard search in the message body.'),
    },
    body: {
      body: Text('Text of the message.'),
      subject: Text('Subject.'),
      receivers: List('Who receives it, as [{ "id": <id>, "type": "User" | "Contact" }].'),
      attachment: Obj('A document to attach, as { "document_id": <id>, "document_version_id": <id> }.'),
      conversation: Ref('conversation to add the message to', 'leave out to start a new conversation'),
      matter: Ref('matter'),
    },
    required: ['body', 'subject', 'receivers'],
    listRequired: ['conversation_id'],
    text: {
      list: 'Lists messages of conversations (Clio’s secure client messaging); created_since and updated_since refer to the message’s conversation.',
      get: 'Returns one message; the id comes from list_conversation_messages.',
      create:
        'Sends a secure message to a client or another contact (Clio’s client messaging): body, subject and receivers are required; give conversation to reply in an existing one.',
    },
  },
]);
