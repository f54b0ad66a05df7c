// The users family: people and the integration's bot.
import { notFound } from '../errors.js';
import type { Json } from '../json.js';
import { listOf, type Paging, paginate, requireId, type Store } from './store.js';

export function addUser(ws: Store, record: Json): void {
  ws.users.set(String(record.id), record);
  if (record.type === 'bot') ws.botId = String(record.id);
}

export function listUsers(ws: Store, paging: Paging): Json {
  const all = [...ws.users.values()];
  return listOf(
    'user',
    paginate(
      all.map((u) => structuredClone(u)),
      all.map((u) => String(u.id)),
      paging,
    ),
  );
}

export function getUser(ws: Store, rawId: string): Json {
  const id = requireId(rawId, 'path.user_id');
  const found = ws.users.get(id);
  if (!found) throw notFound('user', id);
  return structuredClone(found);
}

export function me(ws: Store): Json {
  return structuredClone(ws.users.get(ws.botId) ?? {});
}
