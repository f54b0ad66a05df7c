// The built gateway serving core's example plugin against a benchmark upstream, for the child processes of the
// benchmark (gateway.mjs) and the soak test (soak-gateway.mjs): the gateway's own start-up path (startGateway, the code
// `portico serve` runs) on embedded SQLite in a fresh data directory, connected, REST and MCP enabled. `stop()` closes
// it, removes the data directory and exits; it runs once, on SIGTERM or when the parent goes away. `key` is the admin
// key the first start creates.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCore, importCoreTesting, importGateway } from '../workspace.mjs';

const { createLogger, loadConfig, startGateway } = await importGateway();
const { DEFAULT_WORKSPACE } = await importCore();
const { examplePlugin } = await importCoreTesting();

/**
 * @param {string} name names the data directory and the upstream token
 * @param {string} upstreamUrl
 */
export async function startExampleGateway(name, upstreamUrl) {
  const dataDir = mkdtempSync(join(tmpdir(), `portico-${name}-`));
  const config = loadConfig({
    // One key at thousands of calls a second: a per-key limit far above that keeps the limiter's cost in the
    // measurement without refusing calls (the environment may still set its own).
    PORTICO_RATE_LIMIT_PER_MINUTE: '1000000000',
    PORTICO_RATE_LIMIT_BURST: '1000000000',
    ...process.env,
    PORTICO_DATA_DIR: dataDir,
    PORTICO_HOST: '127.0.0.1',
    PORTICO_PORT: '0',
    PORTICO_EXAMPLE_BASE_URL: `${upstreamUrl}/api`,
  });
  const logger = createLogger(config.logLevel);
  const gateway = await startGateway({ config, logger, plugins: [examplePlugin] });
  const key = gateway.createdKey?.key;
  if (!key) throw new Error(`the gateway created no admin key in ${dataDir}`);
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', `${name}-upstream-token`);
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true, mcpEnabled: true });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await gateway.close();
    logger.flush?.();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  return { gateway, key, stop };
}
