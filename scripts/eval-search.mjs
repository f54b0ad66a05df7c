// Evaluates search_methods' ranking on the committed task set (`pnpm eval:search`): top-1 and top-3, overall and per
// service, for the development part, the held-out part and the whole set, and the tasks missed. `--split dev` (or
// `held-out`, `fresh`, `fresh-features`, `fresh-staff`, `fresh-names`) reports one part only: tune on the development part, never on the held-out
// one. `--summary` prints the figures without the tasks missed (measure the held-out part that way, so that its misses
// are never tuned on). Without `--split`, it also reports the frozen held-out set help-pages.json, figures only, always
// (never its misses).
// Every task is ranked across all services, as an assistant's request is: a service a task names is only words of it.
import { readFileSync } from 'node:fs';
import { evaluateSearch, formatScore, loadPlugins } from '../apps/gateway/dist/index.js';
import { OperationIndex, Registry, silentLogger } from '../packages/core/dist/index.js';

const SPLITS = ['dev', 'held-out', 'fresh', 'fresh-features', 'fresh-staff', 'fresh-names'];
const args = process.argv.slice(2);
const at = args.indexOf('--split');
const only = at >= 0 ? args[at + 1] : undefined;
const summary = args.includes('--summary');
if (
  (at >= 0 && !SPLITS.includes(only ?? '')) ||
  args.some((arg, i) => arg !== '--split' && arg !== '--summary' && (at < 0 || i !== at + 1))
) {
  console.error('usage: node scripts/eval-search.mjs [--split dev|held-out|fresh|fresh-features|fresh-staff|fresh-names] [--summary]');
  process.exit(2);
}

const registry = new Registry();
for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
const index = new OperationIndex(registry.list());
const services = registry.list().map((integration) => `${integration.service} ${integration.operations.size}`);
console.log(`${services.join(', ')} operations`);

const load = (split) =>
  JSON.parse(readFileSync(new URL(`../apps/gateway/src/fixtures/search-eval/${split}.json`, import.meta.url), 'utf8'));
const sets = Object.fromEntries(SPLITS.map((split) => [split, load(split)]));
for (const split of only ? [only] : SPLITS) {
  const tasks = sets[split];
  const result = evaluateSearch(index, tasks);
  console.log(`\n${split}: ${tasks.length} tasks, ${formatScore(result.overall)}`);
  for (const [service, score] of Object.entries(result.byService).sort()) console.log(`  ${service.padEnd(11)} ${formatScore(score)}`);
  if (summary) continue;
  if (result.misses.length > 0) console.log(`  not in the top 3:`);
  for (const miss of result.misses)
    console.log(`    "${miss.task}": wanted ${miss.expect.join(' or ')}, got ${miss.got.join(', ') || 'nothing'}`);
}
const all = SPLITS.flatMap((split) => sets[split]);
// The whole set, both parts together: printed only with both parts, so that tuning on dev never shows held-out figures.
if (!only) {
  console.log(`\nall: ${all.length} tasks, ${formatScore(evaluateSearch(index, all).overall)}`);
  // The frozen held-out set written from the help pages: its figures only, apart from the others.
  const helpPages = load('help-pages');
  const result = evaluateSearch(index, helpPages);
  console.log(`\nhelp-pages (frozen, held out): ${helpPages.length} tasks, ${formatScore(result.overall)}`);
  for (const [service, score] of Object.entries(result.byService).sort()) console.log(`  ${service.padEnd(11)} ${formatScore(score)}`);
}

// The ranking runs on every search_methods call: its cost per query, over every task of the set, five rounds.
const times = [];
for (let round = 0; round < 5; round++) {
  for (const { task } of all) {
    const start = performance.now();
    index.search(task, { limit: 10 });
    times.push(performance.now() - start);
  }
}
times.sort((a, b) => a - b);
const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
const p50 = times[Math.floor(times.length * 0.5)];
const p95 = times[Math.floor(times.length * 0.95)];
console.log(
  `\nlatency per query (${times.length} searches): mean ${mean.toFixed(3)} ms, p50 ${p50.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms`,
);
