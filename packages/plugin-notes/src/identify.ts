import type { ConnectionIdentity, IdentifyClient } from '@portico/core/plugin';

interface NotionUser {
  id?: unknown;
  name?: unknown;
  type?: unknown;
  person?: { email?: unknown };
  bot?: { owner?: { type?: unknown; user?: NotionUser }; workspace_name?: unknown; workspace_id?: unknown };
}

/**
 * Whom a Notion connection acts as (`GET /v1/users/me`): the integration's bot, or the user who installed it when the
 * bot is owned by one; the account is the bot's workspace.
 */
export async function identify(client: IdentifyClient): Promise<ConnectionIdentity> {
  const response = await client.send({ method: 'GET', path: '/users/me' });
  const me = response.body as NotionUser | undefined;
  if (!me || me.id === undefined) return {};
  const owner = me.bot?.owner?.type === 'user' ? me.bot.owner.user : undefined;
  const acting = owner?.id !== undefined && typeof owner.name === 'string' ? owner : me;
  const email = acting.person?.email;
  const workspace = me.bot?.workspace_name;
  const workspaceId = me.bot?.workspace_id;
  return {
    user: { id: String(acting.id), name: String(acting.name ?? ''), ...(typeof email === 'string' ? { email } : {}) },
    ...(typeof workspace === 'string' && typeof workspaceId === 'string' ? { account: { id: workspaceId, name: workspace } } : {}),
  };
}
