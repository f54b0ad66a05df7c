// The users family: listing and looking up people.
import { type Args, findUser, type MethodContext, page, type Result, required, SlackError, str } from '../web-api.js';
import { userJson } from '../wire.js';

// https://api.slack.com/methods/users.list
export function listUsers(args: Args, { state }: MethodContext): Result {
  const sorted = [...state.users].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // without a limit Slack returns as many members as it can in one page
  const result = page(sorted, (u) => u.id, 'user', args, Math.max(sorted.length, 1), 1000);
  return {
    ok: true,
    members: result.items.map(userJson),
    cache_ts: state.clock,
    response_metadata: { next_cursor: result.nextCursor },
  };
}

// https://api.slack.com/methods/users.info
export function userInfo(args: Args, { state }: MethodContext): Result {
  return { ok: true, user: userJson(findUser(state, str(args, 'user'))) };
}

// https://api.slack.com/methods/users.lookupByEmail
export function lookupByEmail(args: Args, { state }: MethodContext): Result {
  const email = required(args, 'email').toLowerCase();
  const found = state.users.find((u) => u.email?.toLowerCase() === email);
  if (!found) throw new SlackError('users_not_found');
  return { ok: true, user: userJson(found) };
}
