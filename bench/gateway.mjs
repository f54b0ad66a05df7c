// The gateway under test, as a child process: the built @portico/gateway serving core's example plugin
// (packages/core/src/testing/example-plugin.ts), pointed at the benchmark upstream (its first argument), connected, with
// REST and MCP enabled. Everything else is the gateway's own start-up path (startGateway, the same code `portico serve`
// runs) with its default configuration: embedded SQLite in a fresh data directory, pino at PORTICO_LOG_LEVEL
// (default info, one access-log line per request, to stdout, which run.mjs sends to /dev/null).
// Reports { url, key, toolSetKey } over IPC. Stops cleanly on SIGTERM or when the parent goes away, so that --cpu-prof is written.
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { startExampleGateway } from './example-gateway.mjs';

const { gateway } = await startExampleGateway('bench', process.argv[2]);
// A second key, bound to a tool set holding both benchmarked operations: the REST target 'rest-toolset' measures the
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
process.send?.({ ready: true, url: gateway.url, key: gateway.createdKey.key, toolSetKey: toolSetKey.key });
