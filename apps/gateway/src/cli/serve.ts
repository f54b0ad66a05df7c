import cluster from 'node:cluster';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fallbackOf, integerRule } from '../config/environment.js';
import { ConfigError, type GatewayConfig, loadConfig, MAX_WORKERS } from '../config/load.js';
import { publicUrlWarning } from '../config/public-url.js';
import { createLogger } from '../observability/logger.js';
import type { Runtime } from '../runtime/runtime.js';
import { startGateway } from '../server/start.js';
import { VERSION } from '../version.js';
import { runPrimary, workersProblem } from '../workers/primary.js';
import { runWorker } from '../workers/worker.js';
import type { Command, Io } from './command.js';

const HELP = `Usage: portico serve [--sandbox] [--port N] [--host ADDR] [--workers N|auto]

Starts the gateway. On the first start without any API key, an admin key is created and printed once, to stderr
(stdout carries only the JSON log).

Options:
  --sandbox      Start each installed plugin's sandbox upstream (an in-process emulator on loopback with seeded
                 data), connect the plugins to it, enable REST for them, and print a fresh admin key. Uses its own
                 database (<data dir>/sandbox.db) unless PORTICO_DATABASE_URL is set. Several instances on one
                 PostgreSQL database (on one host) form one sandbox: the first prints the key, the others join
                 it, and every instance calls the upstreams of one of them (docs/operations.md). One process on
                 the embedded database, with no PORTICO_OIDC_ISSUER, also signs the sandbox firm's people in to
                 the dashboard through its own identity provider (docs/workspaces.md).
  --port N       Port (overrides PORTICO_PORT, default ${integerRule('PORTICO_PORT').fallback}; 0 picks a free port)
  --host ADDR    Interface (overrides PORTICO_HOST, default ${fallbackOf('PORTICO_HOST')})
  --workers N    Worker processes sharing the port (overrides PORTICO_WORKERS; default 1: one process, as before).
                 1 to ${MAX_WORKERS}, or auto for one per available core. The primary process migrates and makes the
                 first key before forking, holds the limits every worker shares (upstream: in flight, queues, rate
                 windows per connection; sign-ins and registrations per address), replaces a worker that dies, drains
                 them all on SIGTERM and restarts them one at a time on SIGHUP (docs/deploy.md)
  -h, --help     This help

Every other setting is an environment variable: 'portico env' lists them, with their defaults.`;

async function serve(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { sandbox: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' }, workers: { type: 'string' } },
    strict: true,
  });
  const overrides: NodeJS.ProcessEnv = { ...env };
  if (values.port !== undefined) overrides.PORTICO_PORT = values.port;
  if (values.host !== undefined) overrides.PORTICO_HOST = values.host;
  if (values.workers !== undefined) overrides.PORTICO_WORKERS = values.workers;
  if (values.sandbox && !env.PORTICO_DATABASE_URL) {
    overrides.PORTICO_DATABASE_URL = `file:${resolve(env.PORTICO_DATA_DIR || './data', 'sandbox.db')}`;
  }
  const config: GatewayConfig = loadConfig(overrides);
  const logger = createLogger(config.logLevel);
  if (cluster.isWorker) return runWorker(config, logger);
  const warning = publicUrlWarning(config.publicUrl);
  if (warning) logger.warn({ publicUrl: config.publicUrl }, warning);
  if (config.workers > 1) {
    const problem = workersProblem(config, Boolean(values.sandbox));
    if (problem) throw new ConfigError(`Invalid configuration:\n  - ${problem}`);
    return runPrimary({
      config,
      logger,
      ready: (url, runtime, createdKey) =>
        printBanner(url, runtime, createdKey, false, config.dashboard, io, false, config.workers, warning),
    });
  }
  const gateway = await startGateway({ config, logger, sandbox: Boolean(values.sandbox) });
  printBanner(
    gateway.url,
    gateway.runtime,
    gateway.createdKey,
    Boolean(values.sandbox),
    config.dashboard,
    io,
    gateway.joinedSandbox,
    1,
    warning,
    gateway.sandboxSignIn?.name,
  );
  await new Promise<void>((resolveStop) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      void gateway.close().then(() => {
        logger.flush();
        resolveStop();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

function printBanner(
  url: string,
  runtime: Pick<Runtime, 'registry'>,
  createdKey: { name: string; key: string } | undefined,
  sandbox: boolean,
  dashboard: boolean,
  io: Io,
  joinedSandbox = false,
  workers = 1,
  warning?: string,
  firmSignIn?: string,
): void {
  const services = runtime.registry.list().map((i) => i.service);
  const key = createdKey?.key ?? '<your API key>';
  const lines = [
    '',
    `Portico ${VERSION} is listening on ${url}${sandbox ? ' (sandbox mode: upstreams are local emulators with seeded data)' : ''}${workers > 1 ? ` (${workers} workers)` : ''}`,
    `Integrations: ${services.length > 0 ? services.join(', ') : 'none installed'}`,
    '',
  ];
  if (createdKey) {
    lines.push(`API key (admin, named "${createdKey.name}", shown only now):`, `  ${createdKey.key}`, '');
  } else if (joinedSandbox) {
    lines.push('Joined the sandbox of the instances already running on this database: use the key the first one printed.', '');
  }
  if (dashboard) {
    lines.push(
      'Dashboard:',
      `  ${url}/dashboard   sign in with ${createdKey ? 'the admin key above' : 'an admin API key (portico keys create --name NAME --admin)'}`,
      ...(firmSignIn ? [`  or as one of the firm's people: "Sign in with ${firmSignIn}" lists them`] : []),
      '',
    );
  }
  lines.push(
    'MCP (Streamable HTTP, stateless):',
    `  endpoint: ${url}/api/mcp   header: Authorization: Bearer ${key}`,
    `  npx @modelcontextprotocol/inspector@0.18.0 --cli ${url}/api/mcp --transport http --header "Authorization: Bearer ${key}" --method tools/list`,
  );
  if (services.includes('notion')) {
    lines.push(
      '',
      'REST:',
      `  curl -H "Authorization: Bearer ${key}" ${url}/api/v1/notion/users`,
      `  curl -H "Authorization: Bearer ${key}" ${url}/api/v1/notion/openapi.json`,
    );
  }
  if (warning) lines.push('', `Warning: ${warning}.`);
  lines.push('', 'Stop with Ctrl-C.', '');
  // To stderr, for the operator at the terminal: stdout carries the JSON log alone, and a log shipper reading it
  // never receives the admin key. One write: a reader of both streams (a test, a terminal multiplexer) never finds a
  // log line between the key's heading and the key.
  io.err(lines.join('\n'));
}

/** `portico serve`: resolves only when the server has stopped (SIGINT, SIGTERM). */
export const serveCommand: Command = { help: HELP, run: serve };
