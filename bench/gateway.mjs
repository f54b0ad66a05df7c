// The gateway under test, as a child process: the built @portico/gateway serving core's example plugin
// (packages/core/src/testing/example-plugin.ts), pointed at the benchmark upstream (its first argument), connected, with
// REST and MCP enabled. Everything else is the gateway's own start-up path (startGateway, the same code `portico serve`
// runs) with its default configuration: embedded SQLite in a fresh data directory, pino at PORTICO_LOG_LEVEL
// (default info, one access-log line per request, to stdout, which run.mjs sends to /dev/null).
// Reports { url, key } over IPC. Stops cleanly on SIGTERM or when the parent goes away, so that --cpu-prof is written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createLogger, loadConfig, startGateway } from '../apps/gateway/dist/index.js';
import { DEFAULT_WORKSPACE } from '../packages/core/dist/index.js';
import { examplePlugin } from '../packages/core/dist/testing/index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-'));
const config = loadConfig({
  // One key at thousands of calls a second: a per-key limit far above that keeps the limiter's cost in the
  // measurement without refusing calls (the environment may still set its own).
  PORTICO_RATE_LIMIT_PER_MINUTE: '1000000000',
  PORTICO_RATE_LIMIT_BURST: '1000000000',
  ...process.env,
  PORTICO_DATA_DIR: dataDir,
  PORTICO_HOST: '127.0.0.1',
  PORTICO_PORT: '0',
  PORTICO_EXAMPLE_BASE_URL: `${process.argv[2]}/api`,
});
const logger = createLogger(config.logLevel);
const gateway = await startGateway({ config, logger, plugins: [examplePlugin] });
const { engine } = gateway.runtime;
await engine.connectToken(DEFAULT_WORKSPACE, 'example', 'bench-upstream-token');
await engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true, mcpEnabled: true });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await gateway.close();
  logger.flush?.();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('disconnect', stop);

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
process.on('message', (message) => {
  if (message === 'stats:reset') {
    loopDelay.reset();
    gc = { count: 0, ms: 0, maxMs: 0 };
    process.send({ stats: 'reset' });
  } else if (message === 'stats:read') {
    const ms = (ns) => ns / 1e6;
    process.send({
      stats: {
        loopDelayP50: ms(loopDelay.percentile(50)),
        loopDelayP99: ms(loopDelay.percentile(99)),
        loopDelayMax: ms(loopDelay.max),
        gc,
      },
    });
  }
});
process.send?.({ ready: true, url: gateway.url, key: gateway.createdKey.key });
