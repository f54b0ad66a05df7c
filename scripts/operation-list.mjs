// Regenerates the operation list in docs/operation-list.md from the installed plugins (`pnpm docs:operations`).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadPlugins, renderOperationList, withOperationList } from '../apps/gateway/dist/index.js';
import { Registry, silentLogger } from '../packages/core/dist/index.js';

const registry = new Registry();
for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
const file = new URL('../docs/operation-list.md', import.meta.url);
writeFileSync(file, withOperationList(readFileSync(file, 'utf8'), renderOperationList(registry.list())));
// The formatter aligns the tables, as it does for every Markdown file in the repository.
execFileSync('pnpm', ['exec', 'biome', 'format', '--write', fileURLToPath(file)], { stdio: 'ignore' });
console.log(
  `docs/operation-list.md: ${registry
    .list()
    .map((i) => `${i.service} ${i.operations.size}`)
    .join(', ')}`,
);
