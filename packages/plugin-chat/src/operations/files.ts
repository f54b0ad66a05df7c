import { Buffer } from 'node:buffer';
import { atLeastOne, atMostOne, defineOperation, GatewayError, Params, requires, type Static, Type } from '@portico/core/plugin';
import { ConversationId, FilesResponse, MAX_UPLOAD_BYTES, MessageTs } from '../schemas.js';
import { formPost } from './kit.js';

/**
 * Base64 alphabet (RFC 4648 §4, padded, no line breaks), as Buffer.toString('base64') and btoa produce it. The
 * length is checked in `check`: a grouped pattern such as ((?:….{4})*) overflows the regex stack on megabytes of input.
 */
const BASE64_PATTERN = '^[A-Za-z0-9+/]*={0,2}$';
const MAX_BASE64_LENGTH = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4;
const MAX_MIB = MAX_UPLOAD_BYTES / 1024 / 1024;

/** Slack requires a filename; when the caller gives none, the name says what kind of content it is. */
export const DEFAULT_TEXT_FILENAME = 'upload.txt';
export const DEFAULT_BINARY_FILENAME = 'upload.bin';

const uploadParams = Params(
  {
    channel_id: Type.Optional(
      ConversationId('Channel id (from list_channels) to share the file in. Without it the file is uploaded privately to the bot.'),
    ),
    filename: Type.Optional(
      Type.String({
        minLength: 1,
        description: `Name of the file, with an extension Slack can use to detect the type. Default: ${DEFAULT_TEXT_FILENAME} for content, ${DEFAULT_BINARY_FILENAME} for content_base64. Also used as the file title.`,
        examples: ['release-notes.md'],
      }),
    ),
    content: Type.Optional(
      Type.String({
        minLength: 1,
        description: `Text content of the file, sent as UTF-8 (at most ${MAX_MIB} MiB once encoded). Use this or content_base64, not both.`,
        examples: ['# Release 2.4.1\n- Fixes invoice rounding\n'],
      }),
    ),
    content_base64: Type.Optional(
      Type.String({
        minLength: 4,
        maxLength: MAX_BASE64_LENGTH,
        pattern: BASE64_PATTERN,
        description: `Binary content (images, PDFs…) as standard padded base64 without line breaks, at most ${MAX_MIB} MiB once decoded. Use this or content, not both.`,
        examples: ['iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='],
      }),
    ),
    initial_comment: Type.Optional(
      Type.String({ minLength: 1, description: 'Message posted with the file in the channel.', examples: ['Notes for today’s release'] }),
    ),
    thread_ts: Type.Optional(MessageTs('Share the file as a reply in this thread: ts of the parent message. Requires channel_id.')),
  },
  {
    rules: [
      // The catalog: content and content_base64 are mutually exclusive.
      atMostOne('content', 'content_base64'),
      // A file needs its bytes: the catalog marks neither (req) because only one of the two is wanted.
      atLeastOne('content', 'content_base64'),
      // Slack shares a file in a thread only within a channel (one-way: channel_id alone shares it in the channel).
      requires('thread_ts', 'channel_id'),
    ],
  },
);

type UploadParams = Static<typeof uploadParams>;

/** The bytes to upload, decoded once; the schema has refused both/neither and the check oversized content. */
function fileBytes(params: UploadParams): { data: Uint8Array; contentType: string } {
  if (params.content !== undefined) return { data: Buffer.from(params.content, 'utf8'), contentType: 'text/plain; charset=utf-8' };
  return { data: Buffer.from(params.content_base64 ?? '', 'base64'), contentType: 'application/octet-stream' };
}

function decodedBase64Length(value: string): number {
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

/**
 * What the schema cannot say: that base64's length is a multiple of 4 (a pattern saying it overflows the regex stack
 * on megabytes, see BASE64_PATTERN) and the size in bytes (maxLength counts characters, not UTF-8 bytes or decoded
 * base64). The cross-field rules are in the schema.
 */
function checkUpload(params: UploadParams): string | undefined {
  const hasText = params.content !== undefined;
  if (!hasText && (params.content_base64 ?? '').length % 4 !== 0)
    return 'content_base64 is not padded base64 (its length must be a multiple of 4)';
  const size = hasText ? Buffer.byteLength(params.content ?? '', 'utf8') : decodedBase64Length(params.content_base64 ?? '');
  if (size > MAX_UPLOAD_BYTES) return `the file is ${size} bytes; at most ${MAX_UPLOAD_BYTES} bytes (${MAX_MIB} MiB) can be uploaded`;
  return undefined;
}

interface UploadTicket {
  upload_url?: unknown;
  file_id?: unknown;
}

export const uploadFile = defineOperation({
  name: 'upload_file',
  method: 'POST',
  path: '/files',
  summary: 'Upload a file and optionally share it in a channel',
  description:
    "Uploads a file (a PDF, an image, a text document) with Slack's current upload flow and, with channel_id, " +
    'shares it in that channel, as a thread reply with thread_ts and introduced by initial_comment when given. ' +
    'Give the content either as text in content (UTF-8) or as base64 in content_base64 for binary files, exactly ' +
    `one of them, at most ${MAX_MIB} MiB. filename should carry an extension (report.pdf, chart.png) so Slack can show a ` +
    `preview; it defaults to ${DEFAULT_TEXT_FILENAME} or ${DEFAULT_BINARY_FILENAME}.`,
  params: uploadParams,
  check: checkUpload,
  response: FilesResponse,
  run: async (params, ctx) => {
    const file = fileBytes(params);
    const filename = params.filename ?? (params.content !== undefined ? DEFAULT_TEXT_FILENAME : DEFAULT_BINARY_FILENAME);

    // https://api.slack.com/methods/files.getUploadURLExternal — form-encoded only: Slack ignores a JSON body here
    // and answers invalid_arguments.
    const reserved = await ctx.send({
      method: 'POST',
      path: '/files.getUploadURLExternal',
      form: { filename, length: file.data.byteLength },
    });
    const ticket = (reserved.body ?? {}) as UploadTicket;
    if (typeof ticket.upload_url !== 'string' || typeof ticket.file_id !== 'string') {
      throw new GatewayError('upstream_error', 'Slack did not hand out an upload URL for the file');
    }

    // The upload URL is absolute and pre-authorized: the bot token is not sent to it.
    await ctx.send({ method: 'POST', url: ticket.upload_url, raw: file });

    // https://api.slack.com/methods/files.completeUploadExternal — form-encoded like every Slack call here; its
    // `files` argument is then a JSON array in a string.
    const completed = await ctx.send(
      formPost('/files.completeUploadExternal')({
        files: JSON.stringify([{ id: ticket.file_id, title: filename }]),
        channel_id: params.channel_id,
        initial_comment: params.initial_comment,
        thread_ts: params.thread_ts,
      }),
    );
    return completed.body;
  },
  example: {
    channel_id: 'C05GENERAL1',
    filename: 'release-notes.md',
    content: '# Release 2.4.1\n- Fixes invoice rounding\n',
    initial_comment: 'Notes for today’s release',
  },
});
