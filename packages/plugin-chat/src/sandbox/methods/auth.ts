// Who the token is: the sandbox's bot token is the Portico app's bot, installed in the firm's workspace; a user token
// (a person's own, from the app's OAuth) is that person.
import { FIRM } from '@portico/core/testing/emulator';
import { BOT_ID, BOT_USER_ID, TEAM_ID } from '../data.js';
import { type Args, findUser, type MethodContext, type Result } from '../web-api.js';

// https://api.slack.com/methods/auth.test
export function authTest(_args: Args, { state, origin }: MethodContext): Result {
  const me = findUser(state, state.actor);
  const bot = state.actor === BOT_USER_ID ? { bot_id: BOT_ID } : {};
  return { ok: true, url: `${origin}/`, team: FIRM.name, user: me.name, team_id: TEAM_ID, user_id: me.id, ...bot };
}

// https://api.slack.com/methods/auth.revoke
export function authRevoke(_args: Args, { state, token }: MethodContext): Result {
  const revoked = state.oauth.userTokens.delete(token);
  return { ok: true, revoked };
}
