import type { ConnectionIdentity, IdentifyClient } from '@portico/core/plugin';

interface Account {
  id?: unknown;
  name?: unknown;
}

/** The CallRail account the connection's API key reaches (`GET /v3/a.json`, the first one when it reaches several). */
export async function identify(client: IdentifyClient): Promise<ConnectionIdentity> {
  const response = await client.send({ method: 'GET', path: '/a.json', query: { page: 1, per_page: 1 } });
  const account = (response.body as { accounts?: Account[] } | undefined)?.accounts?.[0];
  if (!account || account.id === undefined || typeof account.name !== 'string') return {};
  return { account: { id: String(account.id), name: account.name } };
}
