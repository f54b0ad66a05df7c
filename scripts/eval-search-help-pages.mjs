// Measures search_methods' ranking on the frozen held-out set apps/gateway/src/fixtures/search-eval/help-pages.json
// (`pnpm eval:search:help-pages`, after a build): top-1 and top-3, overall and per service. It prints the figures
// only, never the tasks missed, so that the set is never tuned on (see the README next to the set).
import { readFileSync } from 'node:fs';
import { evaluateSearch, formatScore, loadPlugins } from '../apps/gateway/dist/index.js';
import { OperationIndex, Registry, silentLogger } from '../packages/core/dist/index.js';

if (process.argv.length > 2) {
  console.error('usage: node scripts/eval-search-help-pages.mjs');
  process.exit(2);
}

const registry = new Registry();
for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
const index = new OperationIndex(registry.list());
const tasks = JSON.parse(readFileSync(new URL('../apps/gateway/src/fixtures/search-eval/help-pages.json', import.meta.url), 'utf8'));
const result = evaluateSearch(index, tasks);
console.log(`help-pages (held out): ${tasks.length} tasks, ${formatScore(result.overall)}`);
for (const [service, score] of Object.entries(result.byService).sort()) console.log(`  ${service.padEnd(11)} ${formatScore(score)}`);
