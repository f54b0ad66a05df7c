import type { ConnectionIdentity, IdentifyClient } from '@portico/core/plugin';

/** The Clio user the connection's token belongs to (`GET /users/who_am_i`); Clio names no account here. */
export async function identify(client: IdentifyClient): Promise<ConnectionIdentity> {
  const response = await client.send({ method: 'GET', path: '/users/who_am_i.json', query: { fields: 'id,name,email' } });
  const user = (response.body as { data?: { id?: unknown; name?: unknown; email?: unknown } } | undefined)?.data;
  if (!user || user.id === undefined) return {};
  return { user: { id: String(user.id), name: String(user.name ?? ''), ...(typeof user.email === 'string' ? { email: user.email } : {}) } };
}
