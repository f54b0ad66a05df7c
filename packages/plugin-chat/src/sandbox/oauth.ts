// Slack's OAuth v2 for a Slack app, as the sandbox plays it: a person of the firm signs in (the sandbox's stand-in for
// Slack's login, firmSignIn), the app's bot token and that person's own user token come back from oauth.v2.access.
import { randomBytes } from 'node:crypto';
import { type EmulatorReply, type EmulatorRequest, firmSignIn, jsonReply, redirectBack } from '@portico/core/testing/emulator';
import { BOT_USER_ID, type SandboxState, TEAM_ID } from './data.js';

/** What the sandbox's OAuth keeps: codes waiting for their exchange, and each user token (xoxp-…)'s person. */
export type SlackOAuth = SandboxState['oauth'];

/** `GET /oauth/v2/authorize`: the person signs in, and the browser goes back to the app with a code. */
export function authorize(request: EmulatorRequest, state: SandboxState, oauth: SlackOAuth): EmulatorReply {
  const clientId = request.query.get('client_id') ?? '';
  const redirectUri = request.query.get('redirect_uri') ?? '';
  if (!clientId || !redirectUri) return jsonReply(400, { ok: false, error: 'invalid_client_id' });
  const signedIn = firmSignIn(request, 'Slack');
  if ('page' in signedIn) return signedIn.page;
  const user = state.users.find((u) => u.email === signedIn.person.email && !u.deleted);
  if (!user) return redirectBack(redirectUri, { error: 'access_denied' });
  const code = randomBytes(12).toString('hex');
  oauth.codes.set(code, { clientId, redirectUri, userId: user.id, userScope: request.query.get('user_scope') ?? '' });
  return redirectBack(redirectUri, { code, state: request.query.get('state') || undefined });
}

/**
 * `oauth.v2.access`: the code for the app's bot token and, where user scopes were asked for, the signing-in person's own
 * user token under `authed_user` (Slack's answer shape; errors are 200 with `ok: false`).
 */
export function access(args: Record<string, unknown>, botToken: string, oauth: SlackOAuth): Record<string, unknown> {
  if (typeof args.client_id !== 'string' || typeof args.client_secret !== 'string') return { ok: false, error: 'invalid_client_id' };
  const granted = oauth.codes.get(String(args.code ?? ''));
  if (!granted || granted.clientId !== args.client_id || (args.redirect_uri && granted.redirectUri !== args.redirect_uri)) {
    return { ok: false, error: 'invalid_code' };
  }
  oauth.codes.delete(String(args.code));
  const authedUser: Record<string, unknown> = { id: granted.userId };
  if (granted.userScope) {
    const userToken = `xoxp-${randomBytes(12).toString('hex')}`;
    oauth.userTokens.set(userToken, granted.userId);
    Object.assign(authedUser, { scope: granted.userScope, access_token: userToken, token_type: 'user' });
  }
  return {
    ok: true,
    access_token: botToken,
    token_type: 'bot',
    bot_user_id: BOT_USER_ID,
    app_id: 'A05PORTICO',
    team: { id: TEAM_ID, name: 'Harlow & Pike' },
    authed_user: authedUser,
  };
}
