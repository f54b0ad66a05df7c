import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type GatewayConfig, loadConfig } from '../config/load.js';
import { createLogger } from '../observability/logger.js';
import type { Runtime } from '../runtime/runtime.js';
import { startGateway } from '../server/start.js';
import { VERSION } from '../version.js';
import type { Command, Io } from './command.js';

const HELP = `Usage: portico serve [--sandbox] [--port N] [--host ADDR]

Starts the gateway. On the first start without any API key, an admin key is created and printed once, to stderr
(stdout carries only the JSON log).

Options:
  --sandbox      Start each installed plugin's sandbox upstream (an in-process emulator on loopback with seeded
                 data), connect the plugins to it, enable REST for them, and print a fresh admin key. Uses its own
                 database (<data dir>/sandbox.db) unless PORTICO_DATABASE_URL is set. Several instances on one
                 PostgreSQL database (on one host) form one sandbox: the first prints the key, the others join
                 it, and every instance calls the upstreams of one of them (docs/operations.md).
  --port N       Port (overrides PORTICO_PORT; 0 picks a free port)
  --host ADDR    Interface (overrides PORTICO_HOST)
  -h, --help     This help`;

async function serve(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { sandbox: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } },
    strict: true,
  });
  const overrides: NodeJS.ProcessEnv = { ...env };
  if (values.port !== undefined) overrides.PORTICO_PORT = values.port;
  if (values.host !== undefined) overrides.PORTICO_HOST = values.host;
  if (values.sandbox && !env.PORTICO_DATABASE_URL) {
    overrides.PORTICO_DATABASE_URL = `file:${resolve(env.PORTICO_DATA_DIR || './data', 'sandbox.db')}`;
  }
  const config: GatewayConfig = loadConfig(overrides);
  const logger = createLogger(config.logLevel);
  const gateway = await startGateway({ config, logger, sandbox: Boolean(values.sandbox) });
  printBanner(gateway.url, gateway.runtime, gateway.createdKey, Boolean(values.sandbox), config.dashboard, io, gateway.joinedSandbox);
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
  runtime: Runtime,
  createdKey: { name: string; key: string } | undefined,
  sandbox: boolean,
  dashboard: boolean,
  io: Io,
  joinedSandbox = false,
): void {
  const services = runtime.registry.list().map((i) => i.service);
  const key = createdKey?.key ?? '<your API key>';
  const lines = [
    '',
    `Portico ${VERSION} is listening on ${url}${sandbox ? ' (sandbox mode: upstreams are local emulators with seeded data)' : ''}`,
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
  lines.push('', 'Stop with Ctrl-C.', '');
  // To stderr, for the operator at the terminal: stdout carries the JSON log alone, and a log shipper reading it
  // never receives the admin key.
  for (const line of lines) io.err(line);
}

/** `portico serve`: resolves only when the server has stopped (SIGINT, SIGTERM). */
export const serveCommand: Command = { help: HELP, run: serve };
