// Who the token is: the sandbox's token is the Portico app's bot, installed in the firm's workspace.
import { FIRM } from '@portico/core/testing/emulator';
import { BOT_ID, BOT_USER_ID, TEAM_ID } from '../data.js';
import { type Args, findUser, type MethodContext, type Result } from '../web-api.js';

// https://api.slack.com/methods/auth.test
export function authTest(_args: Args, { state, origin }: MethodContext): Result {
  const bot = findUser(state, BOT_USER_ID);
  return { ok: true, url: `${origin}/`, team: FIRM.name, user: bot.name, team_id: TEAM_ID, user_id: bot.id, bot_id: BOT_ID };
}
