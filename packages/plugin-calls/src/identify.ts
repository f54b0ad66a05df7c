import type { ConnectionIdentity, IdentifyClient } from '@portico/core/plugin';

interface Account {
  id?: unknown;
  name?: unknown;
}

interface User {
  id?: unknown;
  email?: unknown;
  name?: unknown;
  first_name?: unknown;
  last_name?: unknown;
}

type Listing<K extends string, T> = { total_pages?: unknown } & { [key in K]?: T[] };

/** The most a listing is paged through (250 a page): a firm's accounts and users fit many times over. */
const MAX_PAGES = 8;
const PER_PAGE = 250;

/**
 * The CallRail account and user the connection's API key acts as. CallRail's keys are a user's own, but its API has
 * no who-am-I: the user is the one, among the users of the accounts the key reaches (`GET /v3/a.json`, then
 * `GET /v3/a/{id}/users.json`), whose email is the person's the connection is said to belong to (a member's for a
 * personal connection, the `user_email` saved with a shared one); with no such person or no match, the first account
 * alone, and nobody is named (docs/adr/0034-whom-a-callrail-key-acts-as.md).
 */
export async function identify(client: IdentifyClient): Promise<ConnectionIdentity> {
  const accounts = await all<'accounts', Account>(client, '/a.json', 'accounts');
  const named = accounts.filter((a): a is { id: string | number; name: string } => isId(a.id) && typeof a.name === 'string');
  const email = client.person?.email.toLowerCase();
  if (email) {
    for (const account of named) {
      const users = await all<'users', User>(client, `/a/${encodeURIComponent(String(account.id))}/users.json`, 'users');
      const user = users.find((u) => typeof u.email === 'string' && u.email.toLowerCase() === email && isId(u.id));
      if (user) {
        return {
          account: { id: String(account.id), name: account.name },
          user: { id: String(user.id), name: nameOf(user) ?? email, email: user.email as string },
        };
      }
    }
  }
  const first = named[0];
  return first ? { account: { id: String(first.id), name: first.name } } : {};
}

async function all<K extends string, T>(client: IdentifyClient, path: string, key: K): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const response = await client.send({ method: 'GET', path, query: { page, per_page: PER_PAGE } });
    const body = response.body as Listing<K, T> | undefined;
    const found = body?.[key];
    if (!Array.isArray(found)) break;
    items.push(...found);
    const pages = typeof body?.total_pages === 'number' ? body.total_pages : 1;
    if (page >= pages || found.length === 0) break;
  }
  return items;
}

const isId = (value: unknown): value is string | number =>
  (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value));

function nameOf(user: User): string | undefined {
  if (typeof user.name === 'string' && user.name.trim()) return user.name.trim();
  const parts = [user.first_name, user.last_name].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return parts.length > 0 ? parts.join(' ') : undefined;
}
