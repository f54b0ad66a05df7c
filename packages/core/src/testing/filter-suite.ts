// Every documented list filter of a plugin, exercised against its sandbox: the list unfiltered, a value picked from its
// records that should select a strict subset, the list filtered, and the answer compared with the records that match.
// A sandbox that ignores a filter answers the whole list and fails; one that filters wrongly answers other records.
// It imports vitest: only a plugin's test files import this module.
import { describe, expect, it } from 'vitest';
import { pathTokens } from '../contract/operation.js';
import type { Plugin } from '../contract/plugin.js';
import type { SandboxHarness } from './sandbox.js';

export type FilterRecord = Record<string, unknown>;
type Params = Record<string, unknown>;

/** What a case picked: the parameters that filter, and the predicate each expected record satisfies. */
export interface FilterChoice {
  params: Params;
  matches: (record: FilterRecord) => boolean;
  /** Shown when the assertion fails: what was asked for. */
  label?: string;
}

export interface FilterCase {
  operation: string;
  /** The documented parameters this case exercises (usually one; a range exercises both of its ends). */
  filters: readonly string[];
  /** Parameters every call of the case sends (path ids, a page size that holds the whole list …). */
  base?: Params | ((call: SandboxHarness['call']) => Promise<Params>);
  /**
   * The records the filter narrows, when the operation cannot be called without it (Notion's comments need a block):
   * gathered another way, e.g. the operation called for every parent. Default: the operation called with `base`.
   */
  all?: (call: SandboxHarness['call']) => Promise<FilterRecord[]>;
  /** The filter value, derived from the unfiltered records; undefined when none selects a strict, non-empty subset. */
  pick: (records: FilterRecord[]) => FilterChoice | undefined;
  /** A name for the case when one operation has several for one filter. */
  name?: string;
}

export interface FilterSuiteOptions {
  harness: SandboxHarness;
  /** The records of a list answer (the plugin's envelope: `data`, `results`, `QueryResponse.<Entity>` …). */
  records: (body: unknown, operation: string) => FilterRecord[];
  /**
   * All the records an operation answers for some parameters, across pages when the application's page size is fixed
   * (Lawmatics' 25). Default: one call, read with `records`.
   */
  collect?: (call: SandboxHarness['call'], operation: string, params: Record<string, unknown>) => Promise<FilterRecord[]>;
  /** A record's identity, to compare answers (default: its `id`). */
  identity?: (record: FilterRecord) => unknown;
  cases: readonly FilterCase[];
  /** Documented filters that cannot be exercised against the sandbox, each with its reason. */
  exceptions?: Readonly<Record<string, string>>;
  /**
   * Documented filters not exercised yet, each with what is missing (a seed without the field, an emulator that does
   * not model it): shown as todo tests, so the gap stays visible until a case replaces the entry.
   */
  pending?: Readonly<Record<string, string>>;
  /** The list operations and their filter parameters, as the coverage check counts them. */
  filtersOf: (plugin: Plugin) => ReadonlyMap<string, readonly string[]>;
}

/** The parameters that do not filter: paging, sorting, field selection and answer format. */
export const NOT_FILTERS = new Set([
  'page',
  'per_page',
  'page_size',
  'page_token',
  'limit',
  'offset',
  'cursor',
  'start_cursor',
  'fetchAll',
  'order',
  'sort',
  'sorts',
  'sort_by',
  'sort_order',
  'fields',
  'select',
  'format',
]);

/**
 * The query (or search-body) parameters of an operation that filter: all its parameters but its path ids and the
 * paging, sorting, field-selection and format ones.
 */
export function filterParams(operation: Plugin['operations'][number]): string[] {
  const path = new Set(pathTokens(operation.path));
  return Object.keys(operation.params.properties ?? {}).filter((name) => !path.has(name) && !NOT_FILTERS.has(name));
}

/** `operation.filter` keys, the way cases and exceptions name a filter. */
const key = (operation: string, filter: string) => `${operation}.${filter}`;

/**
 * Declares the filter suite of a plugin: one test per case, and the coverage check (every documented filter of every
 * list operation has a case or a reasoned exception; no case or exception names a filter the plugin lacks).
 */
export function describeFilters(plugin: Plugin, options: FilterSuiteOptions): void {
  const { harness, cases, exceptions = {}, pending = {}, filtersOf } = options;
  const records = options.records;
  const identity = options.identity ?? ((record: FilterRecord) => record.id);
  const collect =
    options.collect ??
    (async (call: SandboxHarness['call'], operation: string, params: Params) => records(await call(operation, params), operation));
  const documented = filtersOf(plugin);

  describe(`${plugin.service}: every documented list filter narrows the sandbox's answer`, () => {
    const labelled = cases.map((c) => [`${c.operation} ${c.name ?? c.filters.join(' + ')}`, c] as const);
    it.each(labelled)('%s', async (_, filterCase) => {
      const call = harness.call.bind(harness);
      const base = typeof filterCase.base === 'function' ? await filterCase.base(call) : (filterCase.base ?? {});
      const all = filterCase.all ? await filterCase.all(call) : await collect(call, filterCase.operation, base);
      const choice = filterCase.pick(all);
      expect(choice, `no value in the ${all.length} unfiltered records selects a strict subset`).toBeDefined();
      if (!choice) return;
      const expected = all.filter(choice.matches).map(identity);
      const asked = choice.label ?? JSON.stringify(choice.params);
      // A list of one record has only the empty set as strict subset: there the value is one the record does not hold.
      if (all.length > 1) expect(expected.length, `the picked value (${asked}) selects some records`).toBeGreaterThan(0);
      expect(expected.length, `the picked value (${asked}) excludes some records`).toBeLessThan(all.length);
      const answered = (await collect(call, filterCase.operation, { ...base, ...choice.params })).map(identity);
      expect(sorted(answered), `${filterCase.operation} with ${JSON.stringify(choice.params)}`).toEqual(sorted(expected));
    });
  });

  if (Object.keys(pending).length > 0) {
    describe(`${plugin.service}: documented list filters not exercised yet`, () => {
      for (const [filter, reason] of Object.entries(pending)) it.todo(`${filter}: ${reason}`);
    });
  }

  describe(`${plugin.service}: filter coverage`, () => {
    const covered = new Set(cases.flatMap((c) => c.filters.map((f) => key(c.operation, f))));
    const all = [...documented].flatMap(([operation, filters]) => filters.map((f) => key(operation, f)));
    it('exercises every documented filter, or gives the reason it cannot', () => {
      expect(all.filter((k) => !covered.has(k) && !(k in exceptions) && !(k in pending))).toEqual([]);
    });
    it('names only filters the plugin documents, and excuses none it exercises', () => {
      const known = new Set(all);
      const listed = [...Object.keys(exceptions), ...Object.keys(pending)];
      expect([...covered, ...listed].filter((k) => !known.has(k))).toEqual([]);
      expect(listed.filter((k) => covered.has(k))).toEqual([]);
    });
  });
}

const sorted = (values: unknown[]) => values.map((v) => JSON.stringify(v)).sort();

/**
 * The generic rule: a value of `field` (read with `read`) that some records hold and others do not, preferring the
 * rarest value so the subset is strict. Undefined when every record holds the same value.
 */
export function pickValue(
  records: FilterRecord[],
  read: (record: FilterRecord) => unknown,
): { value: unknown; matches: (record: FilterRecord) => boolean } | undefined {
  const counts = new Map<string, { value: unknown; count: number }>();
  for (const record of records) {
    const value = read(record);
    if (value === undefined || value === null || value === '') continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === undefined || one === null || one === '' || typeof one === 'object') continue;
      const text = String(one);
      const entry = counts.get(text) ?? { value: one, count: 0 };
      entry.count += 1;
      counts.set(text, entry);
    }
  }
  const candidates = [...counts.values()].filter((c) => c.count < records.length).sort((a, b) => b.count - a.count);
  // The most common value that still leaves records out: the widest strict subset, so a wrong filter shows.
  const best = candidates[0];
  if (!best) return undefined;
  const text = String(best.value);
  return {
    value: best.value,
    matches: (record) => {
      const value = read(record);
      return Array.isArray(value) ? value.some((v) => String(v) === text) : value !== null && value !== undefined && String(value) === text;
    },
  };
}
