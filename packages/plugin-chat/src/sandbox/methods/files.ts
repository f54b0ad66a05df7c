// The files family: Slack's two-step upload (an upload URL, then the completion that shares the file).
import { BOT_ID } from '../data.js';
import {
  type Args,
  findMessage,
  insertMessage,
  type MethodContext,
  memberChannel,
  nextTs,
  type Result,
  required,
  SlackError,
  str,
  tick,
  tsArg,
} from '../web-api.js';
import { fileJson } from '../wire.js';

// https://api.slack.com/methods/files.getUploadURLExternal
export function getUploadUrl(args: Args, { state, origin }: MethodContext): Result {
  const filename = required(args, 'filename');
  const lengthRaw = required(args, 'length');
  const length = Number(lengthRaw);
  if (!Number.isInteger(length) || length < 0) throw new SlackError('invalid_arguments');
  if (length === 0) throw new SlackError('missing_argument');
  tick(state);
  state.sequence += 1;
  const id = `F06UP${String(state.sequence).padStart(6, '0')}`;
  state.files.set(id, {
    id,
    name: filename,
    title: filename,
    declaredLength: length,
    user: state.actor,
    created: state.clock,
    channels: [],
  });
  return { ok: true, upload_url: `${origin}/upload/${id}`, file_id: id };
}

// https://api.slack.com/methods/files.completeUploadExternal
export function completeUpload(args: Args, { state, origin }: MethodContext): Result {
  let entries = args.files;
  if (typeof entries === 'string') {
    try {
      entries = JSON.parse(entries);
    } catch {
      throw new SlackError('invalid_arguments', { response_metadata: { messages: ['[ERROR] files must be a JSON array'] } });
    }
  }
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new SlackError('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: files'] } });
  }
  const files = entries.map((entry: unknown) => {
    const { id, title } = (typeof entry === 'object' && entry !== null ? entry : {}) as { id?: unknown; title?: unknown };
    const file = typeof id === 'string' ? state.files.get(id) : undefined;
    // a file whose bytes never arrived cannot be completed
    if (!file?.bytes) throw new SlackError('file_not_found');
    return { file, title: typeof title === 'string' && title ? title : file.name };
  });
  const channelId = str(args, 'channel_id');
  const target = channelId === undefined ? undefined : memberChannel(state, channelId);
  const threadTs = tsArg(args, 'thread_ts', 'invalid_thread_ts');
  if (threadTs !== undefined && !target) throw new SlackError('invalid_arguments');
  const parent = target && threadTs !== undefined ? findMessage(target, threadTs, 'thread_not_found') : undefined;
  if (target?.isArchived) throw new SlackError('is_archived');
  for (const { file, title } of files) {
    file.title = title;
    if (target && !file.channels.includes(target.id)) file.channels.push(target.id);
  }
  if (target) {
    if (parent) parent.threadTs = parent.ts;
    insertMessage(target, {
      ts: nextTs(state),
      user: state.actor,
      text: str(args, 'initial_comment') ?? '',
      botId: BOT_ID,
      reactions: [],
      files: files.map(({ file }) => file),
      ...(parent ? { threadTs: parent.ts } : {}),
    });
  }
  return { ok: true, files: files.map(({ file }) => fileJson(file, origin)) };
}
