import type { MethodSpec } from '../web-api.js';
import { authRevoke, authTest } from './auth.js';
import { archiveConversation, conversationInfo, createConversation, invite, listConversations } from './channels.js';
import { completeUpload, getUploadUrl } from './files.js';
import { history, postMessage, replies } from './messages.js';
import { addPin, listPins, removePin } from './pins.js';
import { addReaction, getReactions, removeReaction } from './reactions.js';
import { listUsers, lookupByEmail, userInfo } from './users.js';

/** The Web API methods the sandbox emulates, by Slack method name. */
export const METHODS: Readonly<Record<string, MethodSpec>> = {
  'auth.test': { json: false, handle: authTest },
  'auth.revoke': { json: false, handle: authRevoke },
  'chat.postMessage': { json: true, handle: postMessage },
  'conversations.history': { json: false, handle: history },
  'conversations.replies': { json: false, handle: replies },
  'conversations.list': { json: false, handle: listConversations },
  'conversations.info': { json: false, handle: conversationInfo },
  'conversations.create': { json: true, handle: createConversation },
  'conversations.archive': { json: true, handle: archiveConversation },
  'conversations.invite': { json: true, handle: invite },
  'reactions.add': { json: true, handle: addReaction },
  'reactions.get': { json: false, handle: getReactions },
  'reactions.remove': { json: true, handle: removeReaction },
  'pins.add': { json: true, handle: addPin },
  'pins.remove': { json: true, handle: removePin },
  'pins.list': { json: false, handle: listPins },
  // Slack reads only form or query arguments here: a JSON body looks like a call without filename and length.
  'files.getUploadURLExternal': { json: false, handle: getUploadUrl },
  'files.completeUploadExternal': { json: true, handle: completeUpload },
  'users.list': { json: false, handle: listUsers },
  'users.info': { json: false, handle: userInfo },
  'users.lookupByEmail': { json: false, handle: lookupByEmail },
};
