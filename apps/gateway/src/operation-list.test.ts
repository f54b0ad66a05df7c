import { readFileSync } from 'node:fs';
import { Registry, silentLogger } from '@portico/core';
import { describe, expect, it } from 'vitest';
import { renderOperationList, withOperationList } from './operation-list.js';
import { loadPlugins } from './plugins.js';

describe('docs/operations.md', () => {
  it('lists exactly the operations the installed plugins serve (regenerate with pnpm docs:operations)', async () => {
    const registry = new Registry();
    for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
    const document = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    expect(document).toBe(withOperationList(document, renderOperationList(registry.list())));
    for (const integration of registry.list()) {
      expect(document).toContain(`(\`${integration.service}\`, ${integration.operations.size} operations)`);
    }
  });
});
