// Start-up time (spawn → first 200 from /healthz) and RSS of `portico serve` with all plugins, with the installed
// ones by default and with one; a node:http hello world as the floor; and the start-up path one step at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { freePort, processFile, spawnCollect, startChild, stopChild, waitHealthy } from '../harness/children.mjs';
import { closeAgent, send } from '../harness/client.mjs';
import { memoryMiB } from '../harness/machine.mjs';
import { median } from '../harness/stats.mjs';
import { GATEWAY_BIN, gatewayNodeFlags } from '../workspace.mjs';

/**
 * Spawns `portico serve` on a free port and resolves once it answers /healthz.
 * @param {{ plugins?: string | undefined, dataDir: string, logLevel: string }} options
 */
export async function startServe({ plugins, dataDir, logLevel }) {
  const port = await freePort();
  /** @type {NodeJS.ProcessEnv} */
  const env = { PORTICO_PORT: String(port), PORTICO_DATA_DIR: dataDir, PORTICO_LOG_LEVEL: logLevel };
  if (plugins) env.PORTICO_PLUGINS = plugins;
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const proc = spawnCollect([...(await gatewayNodeFlags()), GATEWAY_BIN, 'serve'], env);
  try {
    const ready = await waitHealthy(url, proc.child);
    return { ...proc, url, startupMs: ready - t0, memory: memoryMiB(/** @type {number} */ (proc.child.pid)) };
  } catch (error) {
    proc.child.kill('SIGKILL');
    throw new Error(`${error instanceof Error ? error.message : error}\n${proc.stderr()}`);
  }
}

async function startNodeHello() {
  const port = await freePort();
  const t0 = performance.now();
  const proc = spawnCollect(['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`], {});
  const ready = await waitHealthy(`http://127.0.0.1:${port}`, proc.child);
  const memory = memoryMiB(/** @type {number} */ (proc.child.pid));
  await stopChild(proc.child);
  return { startupMs: ready - t0, memory };
}

/** @typedef {{ startupMs: number, memory: import('../harness/machine.mjs').Memory }} Start */

/** @param {Start[]} runs */
const summarize = (runs) => ({
  startupMs: median(runs.map((r) => r.startupMs)),
  maxStartupMs: Math.max(...runs.map((r) => r.startupMs)),
  rss: median(runs.map((r) => r.memory.rss)),
  peak: median(runs.map((r) => r.memory.peak)),
});

/**
 * @typedef {object} StartupConfiguration
 * @property {string} name
 * @property {'six' | 'all' | 'notes'} [plugins] which configuration (absent for the hello world)
 * @property {string[]} [integrations] the services /healthz listed
 * @property {{ startupMs: number, maxStartupMs?: number, rss: number, peak?: number }} first first start, empty data directory
 * @property {ReturnType<typeof summarize>} [restart] restart on that directory
 * @property {Start[] | { first: Start[], restart: Start[] }} runs
 */

/**
 * @param {string[]} installed the installed plugins (short names)
 * @param {{ starts: number, logLevel: string }} settings
 * @param {(line: string) => void} log
 */
export async function measureStartup(installed, { starts, logLevel }, log) {
  /** @type {{ name: string, plugins: string | undefined, key: 'six' | 'all' | 'notes' }[]} */
  const configs = [
    {
      name: installed.length === 6 ? 'all six plugins' : `the ${installed.length} installed plugins (of six)`,
      plugins: installed.join(','),
      key: 'six',
    },
    { name: 'the installed plugins', plugins: undefined, key: 'all' },
    { name: 'one plugin (notes)', plugins: 'notes', key: 'notes' },
  ];
  /** @type {StartupConfiguration[]} */
  const results = [];
  const hello = [];
  for (let i = 0; i < starts; i++) hello.push(await startNodeHello());
  results.push({
    name: 'node:http hello world (floor)',
    first: { startupMs: median(hello.map((r) => r.startupMs)), rss: median(hello.map((r) => r.memory.rss)) },
    runs: hello,
  });
  for (const config of configs) {
    // One discarded start first, so that every measured start finds the files in the page cache.
    {
      const dataDir = mkdtempSync(join(os.tmpdir(), 'portico-bench-start-'));
      await stopChild((await startServe({ plugins: config.plugins, dataDir, logLevel })).child);
      rmSync(dataDir, { recursive: true, force: true });
    }
    /** @type {Start[]} */
    const first = [];
    /** @type {Start[]} */
    const restart = [];
    /** @type {string[]} */
    let integrations = [];
    for (let i = 0; i < starts; i++) {
      const dataDir = mkdtempSync(join(os.tmpdir(), 'portico-bench-start-'));
      for (const runs of [first, restart]) {
        const started = await startServe({ plugins: config.plugins, dataDir, logLevel });
        if (runs === first) {
          /** @type {{ integrations: string[] }} */
          const health = JSON.parse((await send(`${started.url}/healthz`)).text);
          integrations = health.integrations;
          closeAgent();
        }
        runs.push({ startupMs: started.startupMs, memory: started.memory });
        await stopChild(started.child);
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
    results.push({
      name: config.name,
      plugins: config.key,
      integrations,
      first: summarize(first),
      restart: summarize(restart),
      runs: { first, restart },
    });
    log(
      `start-up ${config.name}: ${summarize(first).startupMs.toFixed(0)} ms first start, ${summarize(restart).startupMs.toFixed(0)} ms restart`,
    );
  }
  return results;
}

/** The start-up path one step at a time, in a fresh process (processes/startup-breakdown.mjs). */
export async function measureStartupBreakdown() {
  /** @type {import('../harness/children.mjs').Started<{ steps: import('../processes/startup-breakdown.mjs').StartupStep[], plugins: string[] }>} */
  const child = await startChild(processFile('startup-breakdown.mjs'), {}, ['--experimental-import-meta-resolve', '--no-warnings'], []);
  await stopChild(child.child);
  return { steps: child.steps, plugins: child.plugins };
}
