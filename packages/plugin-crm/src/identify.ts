import type { ConnectionIdentity, IdentifyClient } from '@portico/core/plugin';

interface Me {
  data?: { id?: unknown; attributes?: { name?: unknown; first_name?: unknown; last_name?: unknown; email?: unknown } };
}

/** The Lawmatics user the connection's token belongs to (`GET /v1/users/me`). */
export async function identify(client: IdentifyClient): Promise<ConnectionIdentity> {
  const response = await client.send({ method: 'GET', path: '/users/me' });
  const data = (response.body as Me | undefined)?.data;
  if (!data || data.id === undefined) return {};
  const a = data.attributes ?? {};
  const name =
    typeof a.name === 'string' && a.name ? a.name : [a.first_name, a.last_name].filter((p) => typeof p === 'string' && p).join(' ');
  return { user: { id: String(data.id), name, ...(typeof a.email === 'string' ? { email: a.email } : {}) } };
}
