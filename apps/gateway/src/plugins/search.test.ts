import { OperationIndex, Registry, silentLogger } from '@portico/core';
import { beforeAll, describe, expect, it } from 'vitest';
import tasks from '../fixtures/search-tasks.json' with { type: 'json' };
import { loadPlugins } from './load.js';

let index: OperationIndex;
beforeAll(async () => {
  const registry = new Registry();
  for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
  index = new OperationIndex(registry.list());
});

describe('search_methods ranking', () => {
  it(`finds the intended operation in the top 3 for each of the ${tasks.length} committed tasks`, () => {
    expect(tasks.length).toBeGreaterThanOrEqual(40);
    const misses: string[] = [];
    for (const { task, expect: wanted } of tasks) {
      const top = index.search(task, { limit: 3 }).map((hit) => `${hit.service}.${hit.method}`);
      if (!top.includes(wanted)) misses.push(`"${task}": wanted ${wanted}, got ${top.join(', ') || 'nothing'}`);
    }
    expect(misses).toEqual([]);
  });

  it('returns nothing for words no operation uses, and respects the limit', () => {
    expect(index.search('zzzz qqqq', { limit: 5 })).toEqual([]);
    expect(index.search('list', { limit: 4 })).toHaveLength(4);
  });
});
