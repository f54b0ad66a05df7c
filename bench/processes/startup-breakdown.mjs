// Where start-up time and memory go: the gateway's start-up path taken one step at a time in one fresh process (run
// as a child by run.mjs with --experimental-import-meta-resolve). Each step reports its wall time and the RSS after
// it. The packages are unbundled (scripts/build-package.mjs): importing @portico/core loads typebox's type builder
// from node_modules (its compiler and the MCP SDK with zod load later, with the first call that needs them); importing @portico/gateway loads koa, @koa/router, pino and prom-client.
// @libsql/client (a native binding) is loaded first and named on its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCore, importGateway, importSqliteBinding } from '../workspace.mjs';

/**
 * @typedef {object} StartupStep
 * @property {string} step
 * @property {number} ms wall time of the step
 * @property {number} rssMiB RSS after it
 */

/** @type {StartupStep[]} */
const steps = [];
// Node's own start-up, up to the first line of this module.
steps.push({ step: 'node process start-up (until user code runs)', ms: performance.now(), rssMiB: process.memoryUsage().rss / 2 ** 20 });
let last = performance.now();
/** @param {string} name */
const mark = (name) => {
  const now = performance.now();
  steps.push({ step: name, ms: now - last, rssMiB: process.memoryUsage().rss / 2 ** 20 });
  last = performance.now();
};

await importSqliteBinding();
mark('import @libsql/client (native SQLite binding)');
const core = await importCore();
mark('import @portico/core (with typebox; its compiler, the MCP SDK and got load on first use)');
const gateway = await importGateway();
mark('import @portico/gateway (with koa, @koa/router, pino, prom-client)');
/** @type {Awaited<ReturnType<typeof gateway.loadPlugins>>} */
const plugins = [];
// Load the installed plugins one at a time, as loadPlugins would.
for (const name of gateway.FIRST_PARTY_PLUGINS) {
  let plugin;
  try {
    [plugin] = await gateway.loadPlugins([name], core.silentLogger);
  } catch {
    continue; // not installed
  }
  if (!plugin) continue;
  plugins.push(plugin);
  mark(`import ${name}`);
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
