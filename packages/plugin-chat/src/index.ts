import { definePlugin, packageVersion } from '@portico/core/plugin';
import { slackEvents } from './events.js';
import { identify } from './identify.js';
import { archiveChannel, createChannel, getChannelInfo, inviteToChannel, listChannels } from './operations/channels.js';
import { uploadFile } from './operations/files.js';
import { readMessages, readThread, sendMessage } from './operations/messages.js';
import { addPin, listPins, removePin } from './operations/pins.js';
import { addReaction, getReactions, removeReaction } from './operations/reactions.js';
import { getUserInfo, listUsers, lookupUserByEmail } from './operations/users.js';
import { inspectSlackResponse, parseSlackToken, parseSlackUserToken } from './upstream.js';
import { slackVocabulary } from './vocabulary.js';

/** Bot scopes the 18 operations need (see the README's table). */
const BOT_SCOPES = [
  'channels:read',
  'channels:history',
  'channels:manage',
  'groups:read',
  'groups:history',
  'groups:write',
  'im:read',
  'mpim:read',
  'chat:write',
  'reactions:read',
  'reactions:write',
  'pins:read',
  'pins:write',
  'files:write',
  'users:read',
  'users:read.email',
];

export const slackPlugin = definePlugin({
  service: 'slack',
  displayName: 'Slack',
  version: packageVersion(import.meta.url),
  description:
    'Slack team chat: read and post channel messages and threads, manage channels and members, react to and pin messages, upload files and look up people.',
  contract: 1,
  upstream: {
    // https://api.slack.com/web — every method is https://slack.com/api/<method>
    baseUrl: 'https://slack.com/api',
    // Default auth header (Authorization: Bearer <bot token>) is what Slack expects.
    inspect: inspectSlackResponse,
    // files.getUploadURLExternal hands out upload URLs on https://files.slack.com/upload/v1/… (Slack's method
    // reference); Slack's own subdomains are allowed too, nothing else (a sandbox's URLs are on its base URL's host).
    egressHosts: ['files.slack.com', '*.slack.com'],
  },
  auth: {
    token: {
      description:
        'A Slack bot token (xoxb-…) from your Slack app’s OAuth & Permissions page, with the scopes channels:read, channels:history, channels:manage, groups:read, groups:history, groups:write, im:read, mpim:read, chat:write, reactions:read, reactions:write, pins:read, pins:write, files:write, users:read and users:read.email. Paste it as the connection token; bot tokens do not expire unless token rotation is enabled for the app.',
    },
    // OAuth v2 for Slack apps: https://api.slack.com/authentication/oauth-v2 — errors come as 200 with ok:false;
    // with token rotation on, the answer also carries a refresh token and expires_in (12 h).
    oauth2: {
      authorizeUrl: 'https://slack.com/oauth/v2/authorize',
      tokenUrl: 'https://slack.com/api/oauth.v2.access',
      revokeUrl: 'https://slack.com/api/auth.revoke',
      revokeStyle: 'bearer',
      scopes: BOT_SCOPES,
      scopeSeparator: ',',
      clientAuth: 'body',
      parseToken: parseSlackToken,
      connectionFacts: (_callback, body) => {
        const b = (body ?? {}) as { team?: { id?: string; name?: string }; bot_user_id?: string };
        return { team_id: b.team?.id ?? null, team_name: b.team?.name ?? null, bot_user_id: b.bot_user_id ?? null };
      },
      // A person's own account: user scopes, and their user token (messages they send show them as the author).
      personal: {
        scopes: [],
        authorizeParams: { user_scope: userScopes().join(',') },
        parseToken: parseSlackUserToken,
        connectionFacts: (_callback, body) => {
          const b = (body ?? {}) as { team?: { id?: string; name?: string }; authed_user?: { id?: string } };
          return { team_id: b.team?.id ?? null, team_name: b.team?.name ?? null, user_id: b.authed_user?.id ?? null };
        },
      },
    },
  },
  operations: [
    sendMessage,
    readMessages,
    readThread,
    listChannels,
    getChannelInfo,
    createChannel,
    archiveChannel,
    inviteToChannel,
    addReaction,
    getReactions,
    removeReaction,
    addPin,
    removePin,
    listPins,
    uploadFile,
    listUsers,
    getUserInfo,
    lookupUserByEmail,
  ],
  vocabulary: slackVocabulary,
  sandbox: () => import('./sandbox/index.js'),
  identify,
  events: slackEvents,
});

export default slackPlugin;

/** The bot scopes as a person's user token asks for them: user tokens manage channels with `channels:write`. */
function userScopes(): string[] {
  return BOT_SCOPES.map((scope) => (scope === 'channels:manage' ? 'channels:write' : scope));
}
