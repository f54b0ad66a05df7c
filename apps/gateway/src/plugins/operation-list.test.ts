import { readFileSync } from 'node:fs';
import { Registry, silentLogger } from '@portico/core';
import { describe, expect, it } from 'vitest';
import { loadPlugins } from './load.js';
import { renderOperationList, tableContent, withOperationList } from './operation-list.js';

describe('docs/operation-list.md', () => {
  it('lists exactly the operations the installed plugins serve (regenerate with pnpm docs:operations)', async () => {
    const registry = new Registry();
    for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
    const document = readFileSync(new URL('../../../../docs/operation-list.md', import.meta.url), 'utf8');
    // The formatter pads the tables; the list itself must be exactly the registry's.
    expect(tableContent(document)).toBe(tableContent(withOperationList(document, renderOperationList(registry.list()))));
    for (const integration of registry.list()) {
      expect(document).toContain(`(\`${integration.service}\`, ${integration.operations.size} operations)`);
    }
  });
});
