import { describe, expect, it } from 'vitest';
import { Registry } from '../contract/registry.js';
import { SqliteStore } from '../store/sqlite.js';
import { examplePlugin } from '../testing/example-plugin.js';
import { resolveRules, ToolSets } from './tool-sets.js';

const registry = new Registry();
registry.register(examplePlugin);
const names = (rules: Array<[string, boolean?]>) =>
  resolveRules(
    registry,
    rules.map(([match, readOnly]) => ({ match, readOnly: readOnly ?? false })),
  );

describe('tool set rules', () => {
  it('match a service, an operation, or globs in either part; read-only rules keep only what reads', () => {
    expect(names([['example']]).allowed.list()).toEqual([...examplePlugin.operations.map((op) => `example:${op.name}`)]);
    expect(names([['example:get_item']]).allowed.list()).toEqual(['example:get_item']);
    expect(names([['example:get_*']]).allowed.list()).toEqual(['example:get_item', 'example:get_current_item']);
    expect(names([['*:*_item']]).allowed.list()).toEqual([
      'example:get_item',
      'example:get_current_item',
      'example:create_item',
      'example:delete_item',
    ]);
    expect(names([['ex*:list_*']]).allowed.list()).toEqual(['example:list_items']);
    expect(names([['example', true]]).allowed.list()).toEqual(['example:list_items', 'example:get_item', 'example:get_current_item']);
  });

  it('are a union, each counted on its own; a rule matching nothing counts 0', () => {
    const { allowed, matched } = names([['example:get_*'], ['example:get_item'], ['example:create_*', true], ['clio'], ['example:lst_*']]);
    expect(allowed.list()).toEqual(['example:get_item', 'example:get_current_item']);
    expect(allowed.size).toBe(2);
    expect(matched).toEqual([2, 1, 0, 0, 0]);
    expect(allowed.has('example', 'get_item')).toBe(true);
    expect(allowed.has('example', 'create_item')).toBe(false);
    expect(allowed.hasService('example')).toBe(true);
    expect(allowed.hasService('clio')).toBe(false);
  });

  it('treat regular-expression characters literally', () => {
    expect(names([['example:get.item']]).matched).toEqual([0]);
  });
});

describe('ToolSets', () => {
  it('resolves a set once per version, allows nothing for a set that does not exist, and refuses bad input', async () => {
    const store = new SqliteStore(':memory:');
    await store.migrate();
    const sets = new ToolSets(registry, store);
    expect((await sets.allowed('default', 'nosuch')).size).toBe(0);
    const saved = await sets.save('default', { id: 'readers', rules: [{ match: 'example', readOnly: true }] });
    expect(saved.operations).toEqual(['example:list_items', 'example:get_item', 'example:get_current_item']);
    const first = await sets.allowed('default', 'readers');
    expect(first.size).toBe(3);
    sets.forget('default', 'readers');
    expect(await sets.allowed('default', 'readers')).toBe(first); // same version: the resolved set is reused
    await sets.save('default', { id: 'readers', rules: [{ match: 'example:list_items', readOnly: false }] });
    expect((await sets.allowed('default', 'readers')).list()).toEqual(['example:list_items']);
    await expect(sets.save('default', { id: 'Bad Id', rules: [{ match: 'example', readOnly: false }] })).rejects.toMatchObject({
      code: 'bad_request',
    });
    await expect(sets.save('default', { id: 'x', rules: [] })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(sets.save('default', { id: 'x', rules: [{ match: 'example:(.*)', readOnly: false }] })).rejects.toMatchObject({
      code: 'bad_request',
    });
    await expect(sets.save('default', { id: 'x', rules: [{ match: 'example:nope_*', readOnly: false }] })).rejects.toThrow(
      'Rule "example:nope_*" matches no operation',
    );
    await store.close();
  });
});
