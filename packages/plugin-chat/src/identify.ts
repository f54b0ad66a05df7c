import type { ConnectionIdentity, IdentifyClient } from '@portico/core/plugin';

interface AuthTest {
  team?: unknown;
  team_id?: unknown;
  user?: unknown;
  user_id?: unknown;
}

/**
 * The Slack workspace (team) and user (the bot user, for a bot token; the person, for their own user token) the
 * connection's token acts as (`auth.test`), with the user's real name and email where `users.info` tells them.
 */
export async function identify(client: IdentifyClient): Promise<ConnectionIdentity> {
  const response = await client.send({ method: 'POST', path: '/auth.test' });
  const body = (response.body ?? {}) as AuthTest;
  const account = typeof body.team_id === 'string' ? { account: { id: body.team_id, name: String(body.team ?? '') } } : {};
  if (typeof body.user_id !== 'string') return account;
  const user = { id: body.user_id, name: String(body.user ?? '') };
  try {
    const info = await client.send({ method: 'GET', path: '/users.info', query: { user: body.user_id } });
    const profile = (info.body as { user?: { real_name?: unknown; profile?: { email?: unknown } } } | undefined)?.user;
    if (typeof profile?.real_name === 'string' && profile.real_name) user.name = profile.real_name;
    if (typeof profile?.profile?.email === 'string') Object.assign(user, { email: profile.profile.email });
  } catch {
    // the handle from auth.test is enough
  }
  return { ...account, user };
}
