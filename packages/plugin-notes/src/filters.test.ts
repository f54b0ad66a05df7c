import { describeFilters, type FilterCase, type FilterRecord, filterParams, pickValue, useSandbox } from '@portico/core/testing';
import { notionPlugin } from './index.js';

// Every documented list filter of the Notion plugin against its sandbox. query_database's filter is one
// parameter with a condition per property type: each type the seeded databases hold is exercised on its own.

// The filter suite only lists: the seed laid at start serves every case, unrestored.
const harness = useSandbox(notionPlugin, { resetEachTest: false });
type Call = typeof harness.call;

const LISTS = /^(list_|search$|query_database$)/;
const results = (body: unknown) => ((body as { results?: FilterRecord[] }).results ?? []) as FilterRecord[];

const plain = (text: unknown) => (Array.isArray(text) ? text.map((t) => String((t as FilterRecord).plain_text ?? '')).join('') : '');
/** A page's or database's title: the database's own, or the page's title property. */
const titleOf = (r: FilterRecord) => {
  if (r.object === 'database') return plain(r.title);
  const title = Object.values((r.properties ?? {}) as Record<string, FilterRecord>).find((p) => p.type === 'title');
  return plain(title?.title);
};

const everything = async (call: Call) => results(await call('search', { page_size: 100 }));

/** The value a row holds in a property, in the shape its filter condition compares. */
function cell(row: FilterRecord, name: string): unknown {
  const property = (row.properties as Record<string, FilterRecord>)[name];
  if (!property) return undefined;
  const value = property[String(property.type)];
  switch (property.type) {
    case 'title':
    case 'rich_text':
      return plain(value) || undefined;
    case 'select':
    case 'status':
      return (value as FilterRecord | null)?.name ?? undefined;
    case 'multi_select':
      return ((value as FilterRecord[] | null) ?? []).map((o) => o.name);
    case 'people':
      return ((value as FilterRecord[] | null) ?? []).map((o) => o.id);
    case 'date':
      return ((value as FilterRecord | null)?.start as string | undefined)?.slice(0, 10);
    default:
      return value ?? undefined;
  }
}

/** Where a property-type case runs: the database holding such a property whose rows hold it most diversely. */
function propertyCase(type: string, condition: (value: unknown) => [Record<string, unknown>, (cellValue: unknown) => boolean]): FilterCase {
  let property = '';
  return {
    operation: 'query_database',
    filters: ['filter'],
    name: `filter on a ${type} property`,
    base: async (call) => {
      const databases = results(await call('search', { filter: { property: 'object', value: 'database' }, page_size: 100 }));
      let best = { database_id: '', distinct: -1, name: '' };
      for (const database of databases) {
        for (const [name, schema] of Object.entries(database.properties as Record<string, FilterRecord>)) {
          if (schema.type !== type) continue;
          const rows = results(await call('query_database', { database_id: database.id, page_size: 100 }));
          const distinct = new Set(rows.map((r) => JSON.stringify(cell(r, name)))).size;
          if (distinct > best.distinct) best = { database_id: String(database.id), distinct, name };
        }
      }
      property = best.name;
      return { database_id: best.database_id, page_size: 100 };
    },
    pick: (rows) => {
      const picked = pickValue(rows, (r) => cell(r, property));
      if (!picked) return undefined;
      const [payload, test] = condition(picked.value);
      return {
        params: { filter: { property, [type]: payload } },
        matches: (r) => test(cell(r, property)),
        label: `${property} (${type}) ${JSON.stringify(payload)}`,
      };
    },
  };
}

const text = (value: unknown): [Record<string, unknown>, (v: unknown) => boolean] => {
  const needle = String(value).toLowerCase();
  return [{ contains: String(value) }, (v) => typeof v === 'string' && v.toLowerCase().includes(needle)];
};
const equals = (value: unknown): [Record<string, unknown>, (v: unknown) => boolean] => [{ equals: value }, (v) => v === value];
const contains = (value: unknown): [Record<string, unknown>, (v: unknown) => boolean] => [
  { contains: value },
  (v) => Array.isArray(v) && v.includes(value),
];

describeFilters(notionPlugin, {
  harness,
  filtersOf: (plugin) => new Map(plugin.operations.filter((o) => LISTS.test(o.name)).map((o) => [o.name, filterParams(o)])),
  records: results,
  cases: [
    {
      operation: 'search',
      filters: ['query'],
      base: { page_size: 100 },
      pick: (records) => {
        const picked = pickValue(records, titleOf);
        if (!picked) return undefined;
        const needle = String(picked.value).toLowerCase();
        return { params: { query: String(picked.value) }, matches: (r) => titleOf(r).toLowerCase().includes(needle) };
      },
    },
    {
      operation: 'search',
      filters: ['filter'],
      base: { page_size: 100 },
      pick: (records) => {
        const picked = pickValue(records, (r) => r.object);
        return picked && { params: { filter: { property: 'object', value: picked.value } }, matches: picked.matches };
      },
    },
    propertyCase('title', text),
    propertyCase('rich_text', text),
    propertyCase('email', text),
    propertyCase('phone_number', (value) => [{ equals: value }, (v) => v === value]),
    propertyCase('select', equals),
    propertyCase('status', equals),
    propertyCase('checkbox', equals),
    propertyCase('multi_select', contains),
    propertyCase('people', contains),
    propertyCase('date', (value) => [{ on_or_after: value }, (v) => typeof v === 'string' && v >= String(value)]),
    {
      // Notion refuses comments without a block: the unfiltered set is every page's comments gathered one by one.
      operation: 'list_comments',
      filters: ['block_id'],
      all: async (call) => {
        const pages = (await everything(call)).filter((r) => r.object === 'page');
        const comments = await Promise.all(
          pages.map(async (p) => results(await call('list_comments', { block_id: p.id, page_size: 100 }))),
        );
        return comments.flat();
      },
      pick: (records) => {
        const picked = pickValue(records, (r) => (r.parent as FilterRecord).page_id ?? (r.parent as FilterRecord).block_id);
        return picked && { params: { block_id: picked.value, page_size: 100 }, matches: picked.matches };
      },
    },
  ],
});
