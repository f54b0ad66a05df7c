// A gateway for bench/tracing-cost.mjs: the built gateway of the checkout at argv[2] (this one, or a baseline) serving
// core's example plugin against the upstream at argv[3], REST enabled, logging nothing; OTEL_* from the environment.
// Reports { url, key } over IPC; answers 'cpu' with its process.cpuUsage(), and 'stop' by closing and exiting.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root = '', upstreamUrl = ''] = process.argv.slice(2);
const at = (/** @type {string} */ path) => pathToFileURL(join(root, path)).href;
/** @type {typeof import('../../apps/gateway/src/index.js')} */
const { createLogger, loadConfig, startGateway } = await import(at('apps/gateway/dist/index.js'));
/** @type {typeof import('../../packages/core/src/index.js')} */
const { DEFAULT_WORKSPACE } = await import(at('packages/core/dist/index.js'));
/** @type {typeof import('../../packages/core/src/testing/index.js')} */
const { examplePlugin } = await import(at('packages/core/dist/testing/index.js'));

const config = loadConfig({
  ...process.env,
  PORTICO_RATE_LIMIT_PER_MINUTE: '1000000000',
  PORTICO_RATE_LIMIT_BURST: '1000000000',
  PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-tracing-cost-')),
  PORTICO_PORT: '0',
  PORTICO_LOG_LEVEL: 'silent',
  PORTICO_EXAMPLE_BASE_URL: `${upstreamUrl}/api`,
});
const gateway = await startGateway({ config, logger: createLogger('silent'), plugins: [examplePlugin] });
await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'tracing-cost-token');
await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
process.on('message', async (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'stop') {
    await gateway.close(0, 0);
    process.exit(0);
  }
});
process.send?.({ url: gateway.url, key: gateway.createdKey?.key });
