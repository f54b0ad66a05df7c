// The gateway under test, as a child process: the built @portico/gateway serving core's example plugin
// (packages/core/src/testing/example-plugin.ts), pointed at the benchmark upstream (its first argument), connected, with
// REST and MCP enabled. Everything else is the gateway's own start-up path (startGateway, the same code `portico serve`
// runs) with its default configuration: embedded SQLite in a fresh data directory, pino at PORTICO_LOG_LEVEL
// (default info, one access-log line per request, to stdout, which run.mjs sends to /dev/null).
// V8's flags are set as `portico serve` sets them (cli-v8-flags.mjs, imported first). Reports a GatewayReady over IPC.
// Stops cleanly on SIGTERM or when the parent goes away, so that --cpu-prof is written.
import './cli-v8-flags.mjs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { startExampleGateway } from './example-gateway.mjs';

/**
 * @typedef {object} GatewayReady
 * @property {string} url
 * @property {string} key the admin key: every operation
 * @property {string} toolSetKey a key bound to a tool set holding both benchmarked operations
 */

/**
 * What the gateway process measured between 'stats:reset' and 'stats:read' (ms).
 * @typedef {object} GatewayStats
 * @property {number} loopDelayP50
 * @property {number} loopDelayP99
 * @property {number} loopDelayMax
 * @property {{ count: number, ms: number, maxMs: number }} gc
 */

const { gateway, key } = await startExampleGateway('bench', process.argv[2] ?? '');
// A second key, bound to a tool set holding both benchmarked operations: the REST path 'rest-toolset' measures the
// tool-set check's cost against the full key in the same run.
const { engine } = gateway.runtime;
await engine.toolSets.save('default', {
  id: 'bench',
  rules: [
    { match: 'example:list_items', readOnly: false },
    { match: 'example:create_*', readOnly: false },
  ],
});
const toolSetKey = await engine.createApiKey({
  workspaceId: 'default',
  name: 'bench-tool-set',
  scopes: { admin: false, services: '*', readOnly: false, toolSet: 'bench' },
});

// Bench instrumentation, outside the gateway: event-loop delay and GC pauses between 'stats:reset' and 'stats:read'.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
let gc = { count: 0, ms: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count++;
    gc.ms += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
/** @param {number} ns */
const ms = (ns) => ns / 1e6;
process.on('message', (message) => {
  if (message === 'stats:reset') {
    loopDelay.reset();
    gc = { count: 0, ms: 0, maxMs: 0 };
    process.send?.({ stats: 'reset' });
  } else if (message === 'stats:read') {
    /** @type {GatewayStats} */
    const stats = {
      loopDelayP50: ms(loopDelay.percentile(50)),
      loopDelayP99: ms(loopDelay.percentile(99)),
      loopDelayMax: ms(loopDelay.max),
      gc,
    };
    process.send?.({ stats });
  }
});
/** @type {GatewayReady & { ready: true }} */
const ready = { ready: true, url: gateway.url, key, toolSetKey: toolSetKey.key };
process.send?.(ready);
