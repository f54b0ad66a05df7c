import type { ConnectionIdentity, IdentifyClient } from '@portico/core/plugin';

interface AuthTest {
  team?: unknown;
  team_id?: unknown;
  user?: unknown;
  user_id?: unknown;
}

/** The Slack workspace (team) and user (the bot user, for a bot token) the connection's token acts as (`auth.test`). */
export async function identify(client: IdentifyClient): Promise<ConnectionIdentity> {
  const response = await client.send({ method: 'POST', path: '/auth.test' });
  const body = (response.body ?? {}) as AuthTest;
  return {
    ...(typeof body.team_id === 'string' ? { account: { id: body.team_id, name: String(body.team ?? '') } } : {}),
    ...(typeof body.user_id === 'string' ? { user: { id: body.user_id, name: String(body.user ?? '') } } : {}),
  };
}
