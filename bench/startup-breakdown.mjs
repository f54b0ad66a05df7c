// Where start-up time and memory go: the gateway's start-up path taken one step at a time in one fresh process (run
// as a child by run.mjs with --experimental-import-meta-resolve). Each step reports its wall time and the RSS after
// it. The packages are unbundled (scripts/build-package.mjs): importing @portico/core loads typebox and the MCP
// SDK with zod from node_modules; importing @portico/gateway loads koa, @koa/router, pino and prom-client.
// @libsql/client (a native binding) is loaded first and named on its own. Extra plugin modules (the benchmark's
// stand-ins) come as arguments, loaded after the installed first-party plugins.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url);
const CORE = pathToFileURL(join(root.pathname, 'packages/core', 'package.json')).href;

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

await load(['@libsql/client/sqlite3'], CORE);
mark('import @libsql/client (native SQLite binding)');
const core = await import('../packages/core/dist/index.js');
mark('import @portico/core (with typebox, MCP SDK + zod; got on the first upstream call)');
const gateway = await import('../apps/gateway/dist/index.js');
mark('import @portico/gateway (with koa, @koa/router, pino, prom-client)');
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
for (const file of process.argv.slice(2)) {
  const [plugin] = await gateway.loadPlugins([file], core.silentLogger);
  plugins.push(plugin);
  mark(`import ${plugin.service} stand-in (${plugin.displayName})`);
}
const registry = new core.Registry();
for (const plugin of plugins) registry.register(plugin);
mark(`register ${plugins.length} plugins (routes; validators compile on first use)`);
const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-breakdown-'));
const config = gateway.loadConfig({ PORTICO_DATA_DIR: dataDir, PORTICO_PORT: '0', PORTICO_LOG_LEVEL: 'silent' });
const running = await gateway.startGateway({ config, logger: core.silentLogger, plugins });
mark('startGateway: SQLite open + migrate, registry, engine, first admin key, listen');
await fetch(`${running.url}/healthz`).then((r) => r.text());
mark('first /healthz answered');
await running.close();
rmSync(dataDir, { recursive: true, force: true });
process.send?.({ steps, plugins: plugins.map((p) => p.service) });
