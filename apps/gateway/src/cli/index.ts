import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { GatewayError } from '@portico/core';
import { ConfigError } from '../config/load.js';
import { unknownVariables } from '../config/unknown-variables.js';
import { VERSION } from '../version.js';
import { auditCommand } from './audit.js';
import { type Command, type Io, refuseUnnamedDatabase, UsageError } from './command.js';
import { connectCommand } from './connect.js';
import { disconnectCommand } from './disconnect.js';
import { encryptionCommand } from './encryption.js';
import { envCommand } from './env.js';
import { eventsCommand } from './events.js';
import { grantsCommand } from './grants.js';
import { integrationsCommand } from './integrations.js';
import { keysCommand } from './keys.js';
import { membersCommand } from './members.js';
import { migrateCommand } from './migrate.js';
import { operationsCommand } from './operations.js';
import { serveCommand } from './serve.js';
import { toolSetsCommand } from './tool-sets.js';
import { workspacesCommand } from './workspaces.js';

const HELP = `portico ${VERSION} — an integration gateway serving business applications over MCP and REST

Usage: portico <command> [options]

Commands:
  serve                         Start the gateway (HTTP: /api/mcp, /api/v1/<service>/…, /api/admin/…, /dashboard, /healthz, /readyz)
  workspaces list|create|rename|delete
                                Manage workspaces (each with its own keys, connections, settings, audit)
  keys create|list|revoke       Manage API keys
  grants list|revoke            OAuth clients' grants: their client, scope and last use; revoke ends their tokens
  members list|invite|remove    The people of a workspace, who sign in with the firm's identity provider
  tool-sets list|show|save|delete
                                Manage tool sets: named selections of operations a key can be bound to
  integrations list|configure   Show integrations; turn MCP/REST on or off, set base URL and settings
  operations [<service>]        List the operations of the installed integrations: name, REST method and path, what it does
  connect <service>             Store an upstream token for a service (encrypted at rest)
  disconnect <service>          Remove a service's stored credentials
  events list|secret|forget     Webhooks from the applications: where they deliver, their signing secrets
  encryption rotate|status|prune
                                Rotate the key encrypting upstream credentials, while gateways keep serving
  audit                         List audit records, newest first, with filters
  migrate status|up             Show the schema's migrations; apply the pending ones (--dry-run prints their SQL)
  env                           List the environment variables the gateway reads

Every command reads the same configuration (environment variables, see 'portico env'). Commands acting on keys,
grants, integrations, connections, event secrets, tool sets and the audit trail take --workspace ID (default: default).
Without PORTICO_DATABASE_URL, the commands other than serve, operations and env use <data dir>/portico.db only if it
exists: they refuse to create a new database unless given --create (serve creates it on the first start).
'portico <command> --help' shows a command's options.`;

/** Every command, by the name typed after `portico`; each file holds its help beside its handler. */
const COMMANDS: ReadonlyMap<string, Command> = new Map([
  ['serve', serveCommand],
  ['workspaces', workspacesCommand],
  ['keys', keysCommand],
  ['grants', grantsCommand],
  ['members', membersCommand],
  ['tool-sets', toolSetsCommand],
  ['integrations', integrationsCommand],
  ['operations', operationsCommand],
  ['connect', connectCommand],
  ['disconnect', disconnectCommand],
  ['events', eventsCommand],
  ['encryption', encryptionCommand],
  ['audit', auditCommand],
  ['migrate', migrateCommand],
  ['env', envCommand],
]);

/** Commands that need no existing database: serve creates its own, the others read none. */
const WITHOUT_DATABASE: ReadonlySet<string> = new Set(['serve', 'env', 'operations']);

/**
 * Writes to stdout or stderr that stop quietly when the reader goes away (`portico audit | head`): the rest of the
 * output is dropped, without an EPIPE stack, and the command still finishes its work and exits with its own code (a
 * `migrate up` piped into `head` is not cut off half-way).
 */
function closableWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    closed = true;
  });
  return (text) => {
    if (!closed && !stream.destroyed) stream.write(text);
  };
}

const writeOut = closableWriter(process.stdout);
const writeErr = closableWriter(process.stderr);

const defaultIo: Io = {
  out: (line) => writeOut(`${line}\n`),
  err: (line) => writeErr(`${line}\n`),
  stdin: () => readFileSync(0, 'utf8'),
  prompt: async (question) => {
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await terminal.question(question);
    } finally {
      terminal.close();
    }
  },
};

/** Runs one CLI command; returns the process exit code. `serve` resolves only when the server stops. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = defaultIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name || name === '-h' || name === '--help' || name === 'help') {
      io.out(HELP);
      return name ? 0 : 1;
    }
    if (name === '--version' || name === '-v') {
      io.out(VERSION);
      return 0;
    }
    const command = COMMANDS.get(name);
    if (rest.includes('--help') || rest.includes('-h')) {
      if (!command) throw new UsageError(`unknown command "${name}"`);
      io.out(command.help);
      return 0;
    }
    if (!command) throw new UsageError(`unknown command "${name}" (see portico --help)`);
    // A variable the gateway does not read is said once, by the process the operator started (misspellings of one it
    // reads are refused by the configuration itself).
    if (name !== 'env') {
      const unknown = unknownVariables(env);
      if (unknown.refused.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${unknown.refused.join('\n  - ')}`);
      if (cluster.isPrimary) for (const warning of unknown.warnings) io.err(`portico: warning: ${warning}`);
    }
    if (WITHOUT_DATABASE.has(name)) return await command.run(rest, env, io);
    refuseUnnamedDatabase(env, rest.includes('--create'));
    return await command.run(
      rest.filter((arg) => arg !== '--create'),
      env,
      io,
    );
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof GatewayError) {
      io.err(`portico: ${error.message}`);
      return 2;
    }
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`portico: ${(error as Error).message}`);
      return 2;
    }
    io.err(`portico: ${(error as Error).message ?? error}`);
    return 1;
  }
}
