// The gateway of the soak test (bench/soak.mjs), as a child process: the built gateway serving core's example plugin
// against the soak upstream (its first argument), on embedded SQLite in a fresh data directory. Over IPC it reports
// { url, key } when ready, answers 'memory' with its RSS and heap after garbage collection, 'audit:count' with the
// number of audit records written (after flushing), and stops on 'stop' (or when the parent goes away).
import { importCore } from '../workspace.mjs';
import { startExampleGateway } from './example-gateway.mjs';

/** @typedef {{ rssMiB: number, heapUsedMiB: number }} SoakMemory */

const { DEFAULT_WORKSPACE } = await importCore();
const { gateway, key, stop } = await startExampleGateway('soak', process.argv[2] ?? '');
/** @param {object} message */
const reply = (message) => process.send?.(message);
process.on('message', async (message) => {
  if (message === 'stop') return stop();
  if (message === 'memory') {
    // After the load: collect garbage twice, a second apart, then read the process' memory (needs --expose-gc).
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    /** @type {SoakMemory} */
    const memory = { rssMiB: rss / 2 ** 20, heapUsedMiB: heapUsed / 2 ** 20 };
    return reply(memory);
  }
  if (message === 'audit:count') {
    await gateway.runtime.engine.flushAudit();
    const records = await gateway.runtime.store.listAudit(DEFAULT_WORKSPACE, Number.MAX_SAFE_INTEGER);
    return reply({ count: records.length });
  }
});
reply({ ready: true, url: gateway.url, key });
