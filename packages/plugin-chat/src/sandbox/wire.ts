// Slack's wire shapes of the sandbox's records: what its methods answer with.

import { sandboxNow, zoneOffsetMinutes } from '@portico/core/testing/emulator';
import {
  BOT_ID,
  BOT_USER_ID,
  type Reaction,
  type SandboxChannel,
  type SandboxFile,
  type SandboxUser,
  type StoredMessage,
  TEAM_ID,
} from './data.js';
import type { Result } from './web-api.js';

export function userJson(u: SandboxUser): Result {
  return {
    id: u.id,
    team_id: TEAM_ID,
    name: u.name,
    deleted: u.deleted,
    real_name: u.realName,
    tz: u.tz,
    // Slack gives the offset in force now, in seconds: −28800 in Pacific standard time, −25200 in daylight time.
    tz_offset: zoneOffsetMinutes(sandboxNow(), u.tz) * 60,
    is_admin: u.isAdmin,
    is_owner: u.isAdmin,
    is_bot: u.isBot,
    is_app_user: false,
    updated: 1714000000,
    profile: {
      real_name: u.realName,
      display_name: u.displayName,
      title: u.title,
      ...(u.email === undefined ? {} : { email: u.email }),
      ...(u.isBot ? { bot_id: BOT_ID } : {}),
      status_text: '',
      status_emoji: '',
      image_48: `https://avatars.harlowpike.example/${u.name}_48.png`,
      team: TEAM_ID,
    },
  };
}

export function channelJson(c: SandboxChannel, withMembers: boolean): Result {
  if (c.kind === 'im') {
    return { id: c.id, created: c.created, is_im: true, is_org_shared: false, user: c.dmUser, is_user_deleted: false, priority: 0 };
  }
  return {
    id: c.id,
    name: c.name,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: c.isPrivate,
    created: c.created,
    is_archived: c.isArchived,
    is_general: c.isGeneral,
    unlinked: 0,
    name_normalized: c.name,
    is_shared: false,
    is_org_shared: false,
    is_ext_shared: false,
    is_member: c.members.has(BOT_USER_ID),
    creator: c.creator,
    topic: { value: c.topic, creator: c.creator, last_set: c.created },
    purpose: { value: c.purpose, creator: c.creator, last_set: c.created },
    previous_names: [],
    ...(withMembers ? { num_members: c.members.size } : {}),
  };
}

export function fileJson(f: SandboxFile, origin: string): Result {
  const extension = f.name.includes('.') ? (f.name.split('.').pop() ?? '').toLowerCase() : '';
  return {
    id: f.id,
    created: f.created,
    timestamp: f.created,
    name: f.name,
    title: f.title,
    mimetype: MIME_TYPES[extension] ?? 'application/octet-stream',
    filetype: extension || 'binary',
    user: f.user,
    size: f.bytes?.length ?? f.declaredLength,
    is_external: false,
    is_public: f.channels.length > 0,
    url_private: `${origin}/__sandbox/files/${f.id}`,
    permalink: `https://harlowpike.slack.example/files/${f.user}/${f.id}/${encodeURIComponent(f.name)}`,
    channels: [...f.channels],
  };
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

export function reactionJson(r: Reaction): Result {
  return { name: r.name, users: [...r.users], count: r.users.length };
}

export function messageJson(c: SandboxChannel, m: StoredMessage, origin: string): Result {
  const replies = m.threadTs === m.ts ? c.messages.filter((r) => r.threadTs === m.ts && r.ts !== m.ts) : [];
  const parent = m.threadTs !== undefined && m.threadTs !== m.ts ? c.messages.find((p) => p.ts === m.threadTs) : undefined;
  const pinned = c.pins.some((p) => p.ts === m.ts);
  return {
    type: 'message',
    ...(m.subtype === undefined ? {} : { subtype: m.subtype }),
    user: m.user,
    text: m.text,
    ts: m.ts,
    team: TEAM_ID,
    ...(m.botId === undefined ? {} : { bot_id: m.botId }),
    ...(m.threadTs === undefined ? {} : { thread_ts: m.threadTs }),
    ...(parent ? { parent_user_id: parent.user } : {}),
    ...(replies.length > 0
      ? {
          reply_count: replies.length,
          reply_users_count: new Set(replies.map((r) => r.user)).size,
          reply_users: [...new Set(replies.map((r) => r.user))],
          latest_reply: replies[replies.length - 1]?.ts,
        }
      : {}),
    ...(m.reactions.length > 0 ? { reactions: m.reactions.map(reactionJson) } : {}),
    ...(m.files.length > 0 ? { files: m.files.map((f) => fileJson(f, origin)), upload: true } : {}),
    ...(pinned ? { pinned_to: [c.id] } : {}),
  };
}
