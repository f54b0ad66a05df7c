// Search: pages and databases by title.
import { bodyInvalid, show } from '../errors.js';
import { isObject, type Json } from '../json.js';
import { plainText } from '../rich-text.js';
import { type DatabaseRecord, listOf, type PageRecord, type Paging, pageTitle, paginate, type Store } from './store.js';

export function search(ws: Store, body: Json, paging: Paging): Json {
  const query = body.query ?? '';
  if (typeof query !== 'string') throw bodyInvalid('body.query', `should be a string, instead was \`${show(query)}\``);
  let kind: string | undefined;
  if (body.filter !== undefined) {
    const filter = body.filter;
    if (!isObject(filter)) throw bodyInvalid('body.filter', `should be an object, instead was \`${show(filter)}\``);
    if (filter.property !== 'object')
      throw bodyInvalid('body.filter.property', `should be \`"object"\`, instead was \`${show(filter.property)}\``);
    if (filter.value !== 'page' && filter.value !== 'database') {
      throw bodyInvalid('body.filter.value', `should be \`"page"\` or \`"database"\`, instead was \`${show(filter.value)}\``);
    }
    kind = filter.value;
  }
  let direction = -1;
  if (body.sort !== undefined) {
    const sort = body.sort;
    if (!isObject(sort)) throw bodyInvalid('body.sort', `should be an object, instead was \`${show(sort)}\``);
    if (sort.timestamp !== 'last_edited_time') {
      throw bodyInvalid('body.sort.timestamp', `should be \`"last_edited_time"\`, instead was \`${show(sort.timestamp)}\``);
    }
    if (sort.direction !== 'ascending' && sort.direction !== 'descending') {
      throw bodyInvalid('body.sort.direction', `should be \`"ascending"\` or \`"descending"\`, instead was \`${show(sort.direction)}\``);
    }
    direction = sort.direction === 'ascending' ? 1 : -1;
  }
  const needle = query.trim().toLowerCase();
  const found: Array<{ title: string; record: PageRecord | DatabaseRecord }> = [];
  if (kind !== 'database') for (const page of ws.pages.values()) if (!page.archived) found.push({ title: pageTitle(page), record: page });
  if (kind !== 'page') for (const db of ws.databases.values()) if (!db.archived) found.push({ title: plainText(db.title), record: db });
  const results = found
    .filter(({ title }) => title.toLowerCase().includes(needle))
    .map(({ record }) => record)
    .sort((a, b) => direction * a.last_edited_time.localeCompare(b.last_edited_time) || a.id.localeCompare(b.id));
  return listOf(
    'page_or_database',
    paginate(
      results.map((r) => structuredClone(r)),
      results.map((r) => r.id),
      paging,
    ),
  );
}
