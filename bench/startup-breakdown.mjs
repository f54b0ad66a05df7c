// Where start-up time and memory go: the gateway's start-up path taken one step at a time in one fresh process
// (run as a child by run.mjs with --experimental-import-meta-resolve, to resolve dependencies from the package that
// declares them). Each step reports its wall time and the RSS after it; a dependency is counted at the first step
// that loads it, so the order below (heavy third-party packages first) attributes shared dependencies to them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url);
const from = (pkgDir) => pathToFileURL(join(root.pathname, pkgDir, 'package.json')).href;
const CORE = from('packages/core');
const GATEWAY = from('apps/gateway');

const steps = [];
let last = performance.now();
const mark = (name) => {
  const now = performance.now();
  steps.push({ step: name, ms: now - last, rssMiB: process.memoryUsage().rss / 2 ** 20 });
  last = performance.now();
};
// Node's own start-up, up to the first line of this module.
steps.push({ step: 'node process start-up (until user code runs)', ms: performance.now(), rssMiB: process.memoryUsage().rss / 2 ** 20 });
last = performance.now();

const load = async (specifiers, parent) => {
  for (const s of specifiers) await import(import.meta.resolve(s, parent));
};

await load(['@modelcontextprotocol/sdk/server/index.js', '@modelcontextprotocol/sdk/types.js'], CORE);
mark('import @modelcontextprotocol/sdk server + types (with zod)');
await load(['@libsql/client'], CORE);
mark('import @libsql/client (native SQLite binding)');
await load(['got'], CORE);
mark('import got');
await load(['typebox', 'typebox/compile', 'typebox/value'], CORE);
mark('import typebox');
await load(['@modelcontextprotocol/sdk/server/streamableHttp.js'], GATEWAY);
mark('import MCP Streamable HTTP transport');
await load(['koa', '@koa/router'], GATEWAY);
mark('import koa + @koa/router');
await load(['pino'], GATEWAY);
mark('import pino');
const core = await import('../packages/core/dist/index.js');
mark('import @portico/core (rest of it)');
const gateway = await import('../apps/gateway/dist/index.js');
mark('import @portico/gateway (rest of it)');
const plugins = [];
// Load the installed plugins one at a time, as loadPlugins would.
for (const name of gateway.FIRST_PARTY_PLUGINS) {
  let plugin;
  try {
    [plugin] = await gateway.loadPlugins([name], core.silentLogger);
  } catch {
    continue; // not installed
  }
  plugins.push(plugin);
  mark(`import ${name}`);
}
const registry = new core.Registry();
for (const plugin of plugins) registry.register(plugin);
mark(`register ${plugins.length} plugins (routes, compiled validators)`);
const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-breakdown-'));
const config = gateway.loadConfig({ PORTICO_DATA_DIR: dataDir, PORTICO_PORT: '0', PORTICO_LOG_LEVEL: 'silent' });
const running = await gateway.startGateway({ config, logger: core.silentLogger, plugins });
mark('startGateway: SQLite open + migrate, registry, engine, first admin key, listen');
await fetch(`${running.url}/healthz`).then((r) => r.text());
mark('first /healthz answered');
await running.close();
rmSync(dataDir, { recursive: true, force: true });
process.send?.({ steps, plugins: plugins.map((p) => p.service) });
