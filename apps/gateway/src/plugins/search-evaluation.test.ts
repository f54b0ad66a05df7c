import { OperationIndex, Registry, silentLogger } from '@portico/core';
import { beforeAll, describe, expect, it } from 'vitest';
import dev from '../fixtures/search-eval/dev.json' with { type: 'json' };
import fresh from '../fixtures/search-eval/fresh.json' with { type: 'json' };
import freshFeatures from '../fixtures/search-eval/fresh-features.json' with { type: 'json' };
import freshNames from '../fixtures/search-eval/fresh-names.json' with { type: 'json' };
import freshStaff from '../fixtures/search-eval/fresh-staff.json' with { type: 'json' };
import heldOut from '../fixtures/search-eval/held-out.json' with { type: 'json' };
import { loadPlugins } from './load.js';
import { evaluateSearch, type SearchTask } from './search-evaluation.js';

// The evaluation set of search_methods (docs/mcp.md, "Finding an operation"): tasks in a firm's words, the development
// part tuned on, the held-out part never looked at while tuning, and the fresh sets (each written before the tuning
// it then served). The floors sit just under the figures reached (89.5 % / 99.4 % on dev, 79.8 % / 95.0 % held out,
// 92.5 % / 99.2 % on fresh, 76.0 % / 92.0 % on fresh-features, 74.5 % / 96.0 % on fresh-staff, 74.0 % / 90.0 % on
// fresh-names): the ranking may get better, never silently worse.
// The targets (top-3 95 %, top-1 80 %) are reached on the dev part, not on the held-out part; docs/mcp.md says so.
const FLOORS = {
  dev: { top1: 0.88, top3: 0.98 },
  'held-out': { top1: 0.78, top3: 0.94 },
  fresh: { top1: 0.9, top3: 0.98 },
  'fresh-features': { top1: 0.75, top3: 0.91 },
  'fresh-staff': { top1: 0.73, top3: 0.95 },
  'fresh-names': { top1: 0.72, top3: 0.88 },
} as const;

let index: OperationIndex;
let known: Set<string>;
beforeAll(async () => {
  const registry = new Registry();
  for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
  index = new OperationIndex(registry.list());
  known = new Set(registry.list().flatMap((i) => [...i.operations.keys()].map((name) => `${i.service}.${name}`)));
});

const parts: Record<keyof typeof FLOORS, SearchTask[]> = {
  dev,
  'held-out': heldOut,
  fresh,
  'fresh-features': freshFeatures,
  'fresh-staff': freshStaff,
  'fresh-names': freshNames,
};

describe('search_methods evaluation set', () => {
  it('holds at least 400 tasks over the six services, 100 of them held out, each expecting operations that exist', () => {
    const all = [...dev, ...heldOut, ...fresh, ...freshFeatures, ...freshStaff, ...freshNames];
    expect(all.length).toBeGreaterThanOrEqual(400);
    expect(heldOut.length).toBeGreaterThanOrEqual(100);
    const services = new Set(all.flatMap((task) => task.expect.map((name) => name.split('.')[0])));
    expect([...services].sort()).toEqual(['callrail', 'clio', 'lawmatics', 'notion', 'quickbooks', 'slack']);
    expect(all.flatMap((task) => task.expect).filter((name) => !known.has(name))).toEqual([]);
    // The issue's own cases are in the set.
    const tasks = new Set(all.map((task) => task.task));
    for (const task of [
      'new leads created today',
      'add a line to the end of a Notion page',
      'unbilled time entries on a matter',
      'unpaid invoices for a client',
    ]) {
      expect(tasks).toContain(task);
    }
  });

  it.each(Object.keys(FLOORS) as Array<keyof typeof FLOORS>)('ranks the %s part at or above its floors', (part) => {
    const { overall } = evaluateSearch(index, parts[part]);
    expect(overall.top1 / overall.tasks).toBeGreaterThanOrEqual(FLOORS[part].top1);
    expect(overall.top3 / overall.tasks).toBeGreaterThanOrEqual(FLOORS[part].top3);
  });

  it("finds the issue's cases: a question about new leads is a read, an invoice is the client's, time entries are activities", () => {
    const top = (query: string, limit: number) => index.search(query, { limit }).map((hit) => `${hit.service}.${hit.method}`);
    expect(top('new leads created today', 3)).toContain('lawmatics.list_prospects');
    expect(top('new leads created today', 5).filter((name) => name.includes('.create_'))).toEqual([]);
    expect(top('add a line to the end of a Notion page', 1)).toEqual(['notion.append_block_children']);
    expect(top('unbilled time entries on a matter', 1)).toEqual(['clio.list_activities']);
    expect(top('unpaid invoices for a client', 1)[0]).toMatch(/^(quickbooks\.find_invoices|clio\.list_bills|lawmatics\.list_invoices)$/);
  });
});
