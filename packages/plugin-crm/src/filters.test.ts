import { describeFilters, type FilterCase, type FilterRecord, filterParams, pickValue, useSandbox } from '@portico/core/testing';
import { lawmaticsPlugin } from './index.js';

// Every documented list filter of the Lawmatics plugin against its sandbox. Lawmatics lists take one filter
// per request (filter_by names the field, filter_on the value, filter_with the operator): every list is filtered on one
// of its own fields with a value from its records, and every operator is exercised on the prospects.

// The filter suite only lists: the seed laid at start serves every case, unrestored.
const harness = useSandbox(lawmaticsPlugin, { resetEachTest: false });
type Call = typeof harness.call;
type Params = Record<string, unknown>;

const LISTS = /^list_/;
const FILTER = ['filter_by', 'filter_on', 'filter_with'];

interface Page {
  data?: FilterRecord[];
  meta?: { total_pages?: number };
}

/** Every page of a list (Lawmatics' page size is fixed at 25). */
async function collect(call: Call, operation: string, params: Params): Promise<FilterRecord[]> {
  const records: FilterRecord[] = [];
  for (let page = 1; page <= 40; page += 1) {
    const body = await call<Page>(operation, { ...params, page });
    records.push(...(body.data ?? []));
    if (page >= (body.meta?.total_pages ?? 1)) break;
  }
  return records;
}

const attribute = (name: string) => (r: FilterRecord) => (r.attributes as FilterRecord | undefined)?.[name];
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const TIME = /^\d{4}-\d{2}-\d{2}T/;

/** The forms' entries need a form: the one with the most entries. */
async function formWithEntries(call: Call): Promise<Params> {
  let best: { params: Params; count: number } = { params: {}, count: -1 };
  for (const form of await collect(call, 'list_forms', {})) {
    const params = { custom_form_uuid: form.id };
    const count = (await collect(call, 'list_form_entries', params)).length;
    if (count > best.count) best = { params, count };
  }
  return best.params;
}

/**
 * filter_by one of the list's own attributes (text before numbers and booleans before times), filter_on a value some
 * records hold and others not, filter_with "=".
 */
function equality(operation: string): FilterCase {
  // A list that names its filterable fields (activities) is filtered on one of them.
  const schema = lawmaticsPlugin.operations.find((o) => o.name === operation)?.params.properties?.filter_by as
    | { enum?: string[] }
    | undefined;
  const allowed = schema?.enum;
  return {
    operation,
    filters: FILTER,
    base: operation === 'list_form_entries' ? formWithEntries : {},
    pick: (records) => {
      const names = [...new Set(records.flatMap((r) => Object.keys((r.attributes as FilterRecord | undefined) ?? {})))].filter(
        (n) => allowed === undefined || allowed.includes(n),
      );
      const ranked = [...names.filter((n) => !TIME.test(String(records.map(attribute(n)).find(isScalar) ?? ''))), ...names];
      for (const name of ranked) {
        const values = records.map(attribute(name));
        if (!values.every((v) => v === null || isScalar(v))) continue;
        const counts = new Map<string, number>();
        for (const v of values) if (v !== null && v !== '') counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
        const [value] = [...counts].filter(([, n]) => n < records.length).sort((a, b) => b[1] - a[1])[0] ?? [];
        if (value === undefined) continue;
        const same = TIME.test(value)
          ? (v: unknown) => Date.parse(String(v)) === Date.parse(value)
          : (v: unknown) => v !== null && String(v) === value;
        return {
          params: { filter_by: name, filter_on: value, filter_with: '=' },
          matches: (r) => same(attribute(name)(r)),
          label: `${name} = ${value}`,
        };
      }
      return undefined;
    },
  };
}

/** An operator on the prospects: on their creation time (ordering), their first names (text) or a field some lack. */
function operator(name: string, pick: FilterCase['pick']): FilterCase {
  return { operation: 'list_prospects', filters: ['filter_with'], name: `filter_with ${name}`, base: { fields: 'all' }, pick };
}

const created = attribute('created_at');
const time = (r: FilterRecord) => Date.parse(String(created(r)));
/** The median creation time: an ordering operator keeps the records on one side of it. */
const median = (records: FilterRecord[]) => [...records].map(time).sort((a, b) => a - b)[Math.floor(records.length / 2)] ?? 0;
const ordering = (symbol: string, keep: (t: number, m: number) => boolean) =>
  operator(symbol, (records) => {
    const m = median(records);
    const value = records.find((r) => time(r) === m);
    return (
      value && {
        params: { filter_by: 'created_at', filter_on: String(created(value)), filter_with: symbol },
        matches: (r) => keep(time(r), m),
      }
    );
  });

/** A first name and the records sharing it, for the text operators. */
const firstName = attribute('first_name');
const someName = (records: FilterRecord[]) => String(records.map(firstName).find((v) => typeof v === 'string' && v.length > 2) ?? '');

/** An attribute some records leave empty and others fill, for null / not_null. */
const sometimesEmpty = (records: FilterRecord[]) =>
  [...new Set(records.flatMap((r) => Object.keys((r.attributes as FilterRecord | undefined) ?? {})))].find((n) => {
    const empty = records.filter((r) => attribute(n)(r) === null || attribute(n)(r) === '').length;
    return empty > 0 && empty < records.length && records.every((r) => attribute(n)(r) === null || isScalar(attribute(n)(r)));
  });
const isEmpty = (v: unknown) => v === null || v === '' || v === undefined;

/** An activity names a record in its owner, recipient or tracked relationship. */
const related = (type: string) => (r: FilterRecord) =>
  Object.values((r.relationships as Record<string, { data?: FilterRecord | null }> | undefined) ?? {})
    .map((rel) => rel.data)
    .filter((ref) => ref?.type === type)
    .map((ref) => ref?.id);

/** Activities filtered on a field that is not an attribute of theirs: the event (their key) or the record they concern. */
function activitiesBy(field: string, read: (r: FilterRecord) => unknown): FilterCase {
  return {
    operation: 'list_activities',
    filters: ['filter_by'],
    name: `filter_by ${field}`,
    pick: (records) => {
      const picked = pickValue(records, read);
      return (
        picked && {
          params: { filter_by: field, filter_on: String(picked.value) },
          matches: picked.matches,
          label: `${field} = ${String(picked.value)}`,
        }
      );
    },
  };
}

describeFilters(lawmaticsPlugin, {
  harness,
  filtersOf: (plugin) => new Map(plugin.operations.filter((o) => LISTS.test(o.name)).map((o) => [o.name, filterParams(o)])),
  records: (body) => (body as Page).data ?? [],
  collect,
  cases: [
    ...lawmaticsPlugin.operations.filter((o) => LISTS.test(o.name)).map((o) => equality(o.name)),
    activitiesBy('event', attribute('key')),
    // A matter is a prospect in Lawmatics' API.
    activitiesBy('matter_id', related('prospect')),
    activitiesBy('contact_id', related('contact')),
    ordering('<', (t, m) => t < m),
    ordering('<=', (t, m) => t <= m),
    ordering('>', (t, m) => t > m),
    ordering('>=', (t, m) => t >= m),
    operator('!=', (records) => {
      const name = someName(records);
      return {
        params: { filter_by: 'first_name', filter_on: name, filter_with: '!=' },
        matches: (r) => firstName(r) !== null && firstName(r) !== name,
      };
    }),
    operator('like', (records) => {
      const prefix = someName(records).slice(0, 2);
      return {
        params: { filter_by: 'first_name', filter_on: `${prefix}%`, filter_with: 'like' },
        matches: (r) => String(firstName(r) ?? '').startsWith(prefix),
      };
    }),
    operator('ilike', (records) => {
      const prefix = someName(records).slice(0, 2);
      return {
        params: { filter_by: 'first_name', filter_on: `${prefix.toUpperCase()}%`, filter_with: 'ilike' },
        matches: (r) =>
          String(firstName(r) ?? '')
            .toLowerCase()
            .startsWith(prefix.toLowerCase()),
      };
    }),
    operator('null', (records) => {
      const name = sometimesEmpty(records);
      return name === undefined
        ? undefined
        : { params: { filter_by: name, filter_with: 'null' }, matches: (r) => isEmpty(attribute(name)(r)) };
    }),
    operator('not_null', (records) => {
      const name = sometimesEmpty(records);
      return name === undefined
        ? undefined
        : { params: { filter_by: name, filter_with: 'not_null' }, matches: (r) => !isEmpty(attribute(name)(r)) };
    }),
  ],
});
