import { CommaList, EXPECTS, FreeObject, IntegerString, Type } from '@portico/core/plugin';

/**
 * The catalog's default page size, a string as the catalog types `limit`; Slack's own defaults differ per method
 * (100 or more), so it is always sent.
 */
export const DEFAULT_LIMIT = '20';
export const MAX_LIMIT = 999;

/** Slack counts message text up to 40,000 characters; longer text is refused with `msg_too_long`. */
export const MAX_TEXT_LENGTH = 40_000;

/** Decoded upload size the gateway accepts for upload_file (5 MiB): the whole file travels in one JSON request. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export const CHANNEL_TYPES = ['public_channel', 'private_channel', 'mpim', 'im'] as const;

const TS_PATTERN = '^\\d+(\\.\\d+)?$';

// ---- parameters ------------------------------------------------------------------------------------------------

/** A Slack conversation id: C (channel), G (private channel or group DM) or D (DM), then capital letters and digits. */
export const CONVERSATION_ID_PATTERN = '^[CGD][A-Z0-9]{2,}$';

/**
 * What a channel parameter that is not a conversation id is told, on every operation that takes one: a #name, a bare
 * name or a number would reach Slack only to come back as channel_not_found, with nothing said about the fix.
 */
export const CHANNEL_ID_EXPECTED =
  'a conversation id, not a #name, a channel name or a number: channel ids look like C05GENERAL1 (C…, G… or D…) — take the id from list_channels';

/** A conversation id parameter, refused with {@link CHANNEL_ID_EXPECTED} when it is anything else. */
export function ConversationId(description: string) {
  return Type.String({ pattern: CONVERSATION_ID_PATTERN, [EXPECTS]: CHANNEL_ID_EXPECTED, description, examples: ['C05GENERAL1'] });
}

export const ChannelId = ConversationId(
  'Conversation id (starts with C, G or D), as returned by list_channels or create_channel; a #name or a bare channel name is refused.',
);

/** A message timestamp: Slack's message id, a Unix time with a microsecond fraction, always a string. */
export function MessageTs(description: string) {
  return Type.String({ pattern: TS_PATTERN, description, examples: ['1714060800.001700'] });
}

/**
 * Slack message timestamps ("1714060800.000100") are ids as much as times: comparing them as floats loses the
 * microsecond digits, so they are compared as integers of microseconds.
 */
export function tsKey(ts: string): bigint {
  const [seconds = '0', fraction = ''] = ts.split('.');
  return BigInt(seconds) * 1_000_000n + BigInt(fraction.slice(0, 6).padEnd(6, '0'));
}

export function compareTs(a: string, b: string): number {
  const ka = tsKey(a);
  const kb = tsKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** oldest / latest bounds: Unix seconds, optionally with a fractional part, as strings. */
export function TimeBound(description: string) {
  return Type.String({ pattern: TS_PATTERN, description, examples: ['1714000000'] });
}

/** The catalog types limit as a string ("string, default 20, max 999"): `"50"` and `50` are both accepted. */
export const Limit = IntegerString({
  minimum: 1,
  maximum: MAX_LIMIT,
  default: DEFAULT_LIMIT,
  description: `Maximum number of items in this page (1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}). Slack may return fewer even when more exist; rely on the cursor, not on the count.`,
  examples: [DEFAULT_LIMIT],
});

export const Cursor = Type.String({
  description:
    'Opaque cursor for the next page: response_metadata.next_cursor of the previous response. Omit it (or pass an empty string) for the first page; an empty next_cursor in a response means there are no more pages.',
  examples: ['bmV4dF90czoxNzE0MDYwODAwMDAwMTAw'],
});

export const ChannelTypes = CommaList(CHANNEL_TYPES, {
  default: 'public_channel',
  description:
    'Conversation types to include (default public_channel): public_channel for public channels, private_channel for private channels the bot is a member of, mpim for group DMs, im for DMs. Write them without spaces; an array of them is joined with commas.',
  examples: ['public_channel,private_channel'],
});

export const ChannelName = Type.String({
  minLength: 1,
  maxLength: 80,
  pattern: '^[a-z0-9_-]+$',
  description:
    'Channel name without the leading #: lowercase letters, digits, hyphens and underscores only, no spaces, at most 80 characters. Give it on every call: without it Slack answers invalid_name_required (400).',
  examples: ['project-apollo'],
});

export const UserId = Type.String({
  pattern: '^[A-Z0-9]+$',
  description: 'User id (starts with U or W), as returned by list_users or lookup_user_by_email.',
  examples: ['U05ALICE001'],
});

export const UserIdList = Type.String({
  pattern: '^[A-Z0-9]+(,[A-Z0-9]+)*$',
  description:
    'Comma-separated user ids without spaces (up to 1000), from list_users or lookup_user_by_email. Give it on every call: without it Slack answers no_user (400).',
  examples: ['U05ALICE001,U05BRUNO002'],
});

export const EmojiName = Type.String({
  pattern: '^[^:\\s]+(::[^:\\s]+)?$',
  maxLength: 100,
  description:
    'Emoji name without surrounding colons, e.g. thumbsup or white_check_mark; a skin tone may follow as thumbsup::skin-tone-2. Give it on every call: without it Slack refuses the call (invalid_arguments, a 400).',
  examples: ['thumbsup'],
});

// ---- responses (extra properties allowed: Slack bodies pass through unchanged) -----------------------------------

const Ok = Type.Boolean({ description: 'true on success (failures become gateway errors)' });
const Metadata = Type.Object(
  { next_cursor: Type.Optional(Type.String({ description: 'Cursor for the next page; empty string when there is none' })) },
  { description: 'Paging data' },
);
const Items = (description: string) => Type.Array(FreeObject(), { description });

export const SendMessageResponse = Type.Object({
  ok: Ok,
  channel: Type.Optional(Type.String({ description: 'Conversation id the message was posted to' })),
  ts: Type.Optional(Type.String({ description: 'Timestamp (id) of the new message' })),
  message: Type.Optional(FreeObject({ description: 'The message as Slack stored it' })),
});

export const MessagesResponse = Type.Object({
  ok: Ok,
  messages: Type.Optional(Items('Messages of this page')),
  has_more: Type.Optional(Type.Boolean({ description: 'true when another page exists' })),
  response_metadata: Type.Optional(Metadata),
});

export const ChannelsResponse = Type.Object({
  ok: Ok,
  channels: Type.Optional(Items('Conversations of this page')),
  response_metadata: Type.Optional(Metadata),
});

export const ChannelResponse = Type.Object({
  ok: Ok,
  channel: Type.Optional(FreeObject({ description: 'The conversation' })),
});

export const ReactionsResponse = Type.Object({
  ok: Ok,
  type: Type.Optional(Type.String({ description: 'Kind of item, message here' })),
  channel: Type.Optional(Type.String({ description: 'Conversation id' })),
  message: Type.Optional(FreeObject({ description: 'The message with its reactions (name, users, count)' })),
});

export const PinsResponse = Type.Object({
  ok: Ok,
  items: Type.Optional(Items('Pinned items, each with type, created and message')),
});

export const FilesResponse = Type.Object({
  ok: Ok,
  files: Type.Optional(Items('The uploaded files (id, title, …)')),
});

export const MembersResponse = Type.Object({
  ok: Ok,
  members: Type.Optional(Items('Users of this page')),
  response_metadata: Type.Optional(Metadata),
});

export const UserResponse = Type.Object({
  ok: Ok,
  user: Type.Optional(FreeObject({ description: 'The user, with profile' })),
});

export const OkResponse = Type.Object({ ok: Ok });
