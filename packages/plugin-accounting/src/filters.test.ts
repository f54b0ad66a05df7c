import { describeFilters, type FilterCase, type FilterRecord, filterParams, pickValue, useSandbox } from '@portico/core/testing';
import { quickbooksPlugin } from './index.js';

// Every documented list filter of the QuickBooks plugin against its sandbox. The find_* operations take one
// filter, where (QuickBooks' query language): every entity is filtered on one of its own fields with a value from its
// records, and every operator of the language (=, <, >, <=, >=, LIKE, IN, AND, dotted fields) is exercised on invoices.

// The filter suite only lists: the seed laid at start serves every case, unrestored.
const harness = useSandbox(quickbooksPlugin, { resetEachTest: false });

const FINDS = /^find_/;
const ALL = { fetchAll: true };
/** Fields every entity carries that say nothing about the record (its version, its realm). */
const NOT_DATA = new Set(['Id', 'SyncToken', 'domain', 'sparse']);

const recordsOf = (body: unknown): FilterRecord[] => {
  const response = (body as { QueryResponse?: Record<string, unknown> }).QueryResponse ?? {};
  return (Object.values(response).find(Array.isArray) as FilterRecord[] | undefined) ?? [];
};

/** A reference (CustomerRef) compares by its id, as QuickBooks does. */
const scalar = (value: unknown) =>
  typeof value === 'object' && value !== null && 'value' in value ? (value as FilterRecord).value : value;
const at = (record: FilterRecord, path: string): unknown =>
  scalar(path.split('.').reduce<unknown>((value, key) => (value as FilterRecord | undefined)?.[key], record));
/** A value in the query language: strings quoted (\' escaped), numbers and booleans bare. */
const literal = (value: unknown) => (typeof value === 'string' ? `'${value.replace(/'/g, "\\'")}'` : String(value));
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The paths of a record's text fields, top level first, then one level down (Preferences hold only groups). */
const textPaths = (record: FilterRecord): string[] => {
  const top = Object.keys(record).filter((k) => typeof record[k] === 'string');
  const nested = Object.entries(record).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.keys(v as FilterRecord)
          .filter((n) => typeof (v as FilterRecord)[n] === 'string')
          .map((n) => `${k}.${n}`)
      : [],
  );
  return [...top, ...nested];
};

/** `<Field> = <value>` on the first of the entity's own fields (top level or a reference) whose value divides its records. */
function equality(operation: string): FilterCase {
  return {
    operation,
    filters: ['where'],
    base: ALL,
    pick: (records) => {
      const fields = [...new Set(records.flatMap((r) => Object.keys(r)))].filter((f) => !NOT_DATA.has(f));
      const only = records.length === 1 ? records[0] : undefined;
      if (only) {
        // One record: a value it does not hold (its own text, changed) must leave the answer empty.
        const field = textPaths(only).find((path) => !NOT_DATA.has(path));
        if (field === undefined) return undefined;
        const other = `${String(at(only, field))} (another)`;
        return {
          params: { ...ALL, where: `${field} = ${literal(other)}` },
          matches: (r) => at(r, field) === other,
          label: `${field} = ${other}`,
        };
      }
      for (const field of fields) {
        if (!records.every((r) => r[field] === undefined || isScalar(scalar(r[field])))) continue;
        const picked = pickValue(records, (r) => at(r, field));
        if (!picked) continue;
        return {
          params: { ...ALL, where: `${field} = ${literal(picked.value)}` },
          matches: picked.matches,
          label: `${field} = ${String(picked.value)}`,
        };
      }
      return undefined;
    },
  };
}

/** One operator of the language on invoices. */
function invoices(name: string, pick: FilterCase['pick']): FilterCase {
  return { operation: 'find_invoices', filters: ['where'], name: `where ${name}`, base: ALL, pick };
}
const middle = (records: FilterRecord[], path: string) => {
  const values = records.map((r) => String(at(r, path))).sort();
  return values[Math.floor(values.length / 2)] ?? '';
};
const dateOrder = (op: string, keep: (value: string, pivot: string) => boolean) =>
  invoices(`TxnDate ${op}`, (records) => {
    const pivot = middle(records, 'TxnDate');
    return { params: { ...ALL, where: `TxnDate ${op} '${pivot}'` }, matches: (r) => keep(String(at(r, 'TxnDate')), pivot) };
  });

describeFilters(quickbooksPlugin, {
  harness,
  filtersOf: (plugin) => new Map(plugin.operations.filter((o) => FINDS.test(o.name)).map((o) => [o.name, filterParams(o)])),
  records: recordsOf,
  identity: (record) => record.Id,
  cases: [
    ...quickbooksPlugin.operations.filter((o) => FINDS.test(o.name)).map((o) => equality(o.name)),
    dateOrder('<', (v, p) => v < p),
    dateOrder('<=', (v, p) => v <= p),
    dateOrder('>', (v, p) => v > p),
    dateOrder('>=', (v, p) => v >= p),
    invoices('LIKE', (records) => {
      const prefix = middle(records, 'DocNumber').slice(0, -1);
      return { params: { ...ALL, where: `DocNumber LIKE '${prefix}%'` }, matches: (r) => String(at(r, 'DocNumber')).startsWith(prefix) };
    }),
    invoices('IN', (records) => {
      const customers = [...new Set(records.map((r) => String(at(r, 'CustomerRef'))))].slice(0, 2);
      return {
        params: { ...ALL, where: `CustomerRef IN (${customers.map(literal).join(', ')})` },
        matches: (r) => customers.includes(String(at(r, 'CustomerRef'))),
      };
    }),
    invoices('AND', (records) => {
      const customer = pickValue(records, (r) => at(r, 'CustomerRef'));
      const pivot = middle(records, 'TxnDate');
      return (
        customer && {
          params: { ...ALL, where: `CustomerRef = ${literal(customer.value)} AND TxnDate >= '${pivot}'` },
          matches: (r) => customer.matches(r) && String(at(r, 'TxnDate')) >= pivot,
        }
      );
    }),
    invoices('on a dotted field', (records) => {
      const pivot = middle(records, 'MetaData.LastUpdatedTime');
      return {
        params: { ...ALL, where: `MetaData.LastUpdatedTime > '${pivot}'` },
        matches: (r) => Date.parse(String(at(r, 'MetaData.LastUpdatedTime'))) > Date.parse(pivot),
      };
    }),
  ],
});
