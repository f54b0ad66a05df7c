// The plugin's vocabulary at work: search_methods finds its operations by the words its users say, with core as it is.
import { examplePlugin, OperationIndex, Registry } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { acmeTasksPlugin } from './index.js';

function indexOf(plugins: readonly unknown[]): OperationIndex {
  const registry = new Registry();
  for (const plugin of plugins) registry.register(plugin);
  return new OperationIndex(registry.list());
}

const withVocabulary = indexOf([acmeTasksPlugin, examplePlugin]);
const without = indexOf([{ ...acmeTasksPlugin, vocabulary: undefined }, examplePlugin]);
const first = (index: OperationIndex, query: string) => {
  const [hit] = index.search(query, { limit: 1 });
  return hit ? `${hit.service}.${hit.method}` : undefined;
};

describe('the template plugin’s vocabulary', () => {
  it('finds its operations by its users’ words, which core does not know', () => {
    expect(first(withVocabulary, 'list my chores')).toBe('acmetasks.list_tasks');
    expect(first(withVocabulary, 'add an errand for Friday')).toBe('acmetasks.create_task');
    expect(first(withVocabulary, 'which action items are due this week')).toBe('acmetasks.list_tasks');
    expect(first(without, 'list my chores')).toBeUndefined();
  });

  it('routes a request naming the application or its own word to its operations first', () => {
    expect(withVocabulary.namedServices('list the items in Acme Tasks')).toEqual(['acmetasks']);
    expect(withVocabulary.namedServices('what is on the kanban')).toEqual(['acmetasks']);
    expect(first(withVocabulary, 'list the items on the kanban')).toMatch(/^acmetasks\./);
    expect(first(without, 'list the items on the kanban')).toBe('example.list_items');
  });
});
