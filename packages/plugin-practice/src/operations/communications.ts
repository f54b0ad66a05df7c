import { StringEnum } from '@portico/core/plugin';
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
    summaries: {
      list: 'List logged emails and phone calls (communications) on matters',
      get: 'Get a logged email or phone call (communication)',
      create: 'Log a phone call or email with a client on a matter',
      update: 'Change a logged email or phone call',
      delete: 'Delete a logged email or phone call',
    },
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
      list: 'Lists communications, the emails and phone calls logged on matters and contacts (a matter’s correspondence log). Filter by matter_id, contact_id, user_id, type (EmailCommunication or PhoneCommunication), received_since/received_before or query in subject and body; secure client portal messages are list_conversation_messages.',
      get: 'Returns one logged email or phone call with its subject, body, senders, receivers and matter; the id comes from list_communications.',
      create:
        'Logs a phone call or an email with a client or any other contact: type, subject, body and received_at are required. File it with matter: {"id": <matter id>}, and name senders and receivers as [{ "id", "type": "User" | "Contact" }]; record the time spent with create_activity.',
      update: 'Changes a logged email or phone call (id from list_communications): subject, body, matter, senders or receivers.',
      delete: 'Deletes a logged email or phone call from the matter’s record (id from list_communications). Answers 204 with no body.',
    },
  },
  {
    key: 'conversations',
    path: '/conversations',
    clio: '/conversations',
    record: ['conversation', 'conversations'],
    summaries: {
      list: 'List secure client portal conversations (message threads)',
      get: 'Get a secure client portal conversation',
      update: 'Update a client portal conversation: archive, mark read or file it',
    },
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
      list: 'Lists conversations, the secure message threads with clients in Clio’s client portal. Filter by contact_id, matter_id, date, read_status or archived; the messages of one thread are list_conversation_messages.',
      get: 'Returns one secure client conversation (a message thread) with its subject, participants and matter; the id comes from list_conversations. Its messages: list_conversation_messages with conversation_id.',
      update: 'Archives a secure client conversation, marks it read or files it under a matter (id from list_conversations).',
    },
  },
  {
    key: 'conversation_messages',
    path: '/conversation_messages',
    clio: '/conversation_messages',
    record: ['conversation_message', 'conversation_messages'],
    summaries: {
      list: 'List the messages of a secure client portal conversation',
      get: 'Get a secure client portal message',
      create: 'Send a secure client portal message to a client',
    },
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
      list: 'Lists the messages of one secure client portal conversation (conversation_id from list_conversations is required); query searches them. created_since and updated_since refer to the message’s conversation.',
      get: 'Returns one secure client portal message with its body, sender and attachment; the id comes from list_conversation_messages.',
      create:
        'Sends a secure message through Clio’s client portal to a client or another contact: body, subject and receivers are required. Give conversation to reply in an existing thread; to log an ordinary email instead, use create_communication.',
    },
  },
]);
