// The gateway of the soak test (bench/soak.mjs), as a child process: the built gateway serving core's example plugin
// against the soak upstream (its first argument), on embedded SQLite in a fresh data directory. Over IPC it reports
// { url, key } when ready, answers 'memory' with its RSS and heap after garbage collection, 'audit:count' with the
// number of audit records written (after flushing), and stops
// on 'stop' (or when the parent goes away).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, loadConfig, startGateway } from '../apps/gateway/dist/index.js';
import { DEFAULT_WORKSPACE } from '../packages/core/dist/index.js';
import { examplePlugin } from '../packages/core/dist/testing/index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'portico-soak-'));
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
await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'soak-upstream-token');
await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await gateway.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('disconnect', stop);
process.on('message', async (message) => {
  if (message === 'stop') return stop();
  if (message === 'memory') {
    // After the load: collect garbage twice, a second apart, then read the process' memory (needs --expose-gc).
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    return process.send({ rssMiB: rss / 2 ** 20, heapUsedMiB: heapUsed / 2 ** 20 });
  }
  if (message === 'audit:count') {
    await gateway.runtime.engine.flushAudit();
    const records = await gateway.runtime.store.listAudit(DEFAULT_WORKSPACE, Number.MAX_SAFE_INTEGER);
    process.send({ count: records.length });
  }
});
process.send({ ready: true, url: gateway.url, key: gateway.createdKey.key });
