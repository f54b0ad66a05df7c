import { definePlugin } from '@portico/core';
import { inspectSlackResponse } from './errors.js';
import { archiveChannel, createChannel, getChannelInfo, inviteToChannel, listChannels } from './operations/channels.js';
import { uploadFile } from './operations/files.js';
import { readMessages, readThread, sendMessage } from './operations/messages.js';
import { addPin, listPins, removePin } from './operations/pins.js';
import { addReaction, getReactions, removeReaction } from './operations/reactions.js';
import { getUserInfo, listUsers, lookupUserByEmail } from './operations/users.js';

export const slackPlugin = definePlugin({
  service: 'slack',
  displayName: 'Slack',
  version: '0.1.0',
  description:
    'Slack team chat: read and post channel messages and threads, manage channels and members, react to and pin messages, upload files and look up people.',
  contract: 1,
  upstream: {
    // https://api.slack.com/web — every method is https://slack.com/api/<method>
    baseUrl: 'https://slack.com/api',
    // Default auth header (Authorization: Bearer <bot token>) is what Slack expects.
    inspect: inspectSlackResponse,
  },
  auth: {
    token: {
      description:
        'A Slack bot token (xoxb-…) from your Slack app’s OAuth & Permissions page, with the scopes channels:read, channels:history, channels:manage, groups:read, groups:history, groups:write, im:read, mpim:read, chat:write, reactions:read, reactions:write, pins:read, pins:write, files:write, users:read and users:read.email. Paste it as the connection token; bot tokens do not expire unless token rotation is enabled for the app.',
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
  sandbox: () => import('./sandbox/index.js'),
});

export default slackPlugin;
