// Regenerates the operation list in docs/operations.md from the installed plugins (`pnpm docs:operations`).
import { readFileSync, writeFileSync } from 'node:fs';
import { loadPlugins, renderOperationList, withOperationList } from '../apps/gateway/dist/index.js';
import { Registry, silentLogger } from '../packages/core/dist/index.js';

const registry = new Registry();
for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
const file = new URL('../docs/operations.md', import.meta.url);
writeFileSync(file, withOperationList(readFileSync(file, 'utf8'), renderOperationList(registry.list())));
console.log(
  `docs/operations.md: ${registry
    .list()
    .map((i) => `${i.service} ${i.operations.size}`)
    .join(', ')}`,
);
