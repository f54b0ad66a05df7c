import { parseArgs } from 'node:util';
import { publicConnection } from '../records/connections.js';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, pairs, UsageError, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage:
  portico connect <service> --token TOKEN|- [--meta name=value]… [--workspace ID]
  portico connect <service> --oauth [--workspace ID]

Each workspace has its own connections (its own token, its own account); --workspace names it (default: default).

--token stores a token-type credential for the service (an API key, a bot token, an internal integration token),
encrypted with AES-256-GCM. '--token -' reads the token from standard input, which keeps it out of shell history.
--oauth prints the provider's authorization URL (needs PORTICO_<SERVICE>_CLIENT_ID and _CLIENT_SECRET); open it in a
browser, approve, and the provider returns to the gateway's /api/connect/<service>/callback, which stores the tokens.
The link is single-use and expires after 10 minutes.`;

async function connect(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { token: { type: 'string' }, meta: { type: 'string', multiple: true }, oauth: { type: 'boolean' }, ...WORKSPACE_OPTION },
    allowPositionals: true,
    strict: true,
  });
  const service = positionals[0];
  if (!service) throw new UsageError('connect needs a service');
  await runtime.engine.workspaces.require(values.workspace);
  if (values.oauth) {
    const started = await runtime.engine.beginOAuth(values.workspace, service, null);
    io.err(`Open this URL in a browser and approve access; the provider sends you back to Portico (valid until ${started.expiresAt}):`);
    io.out(started.authorizeUrl);
    return 0;
  }
  if (values.token === undefined)
    throw new UsageError('connect needs --token TOKEN (or --token - to read it from standard input), or --oauth');
  const token = values.token === '-' ? io.stdin().trim() : values.token;
  const record = await runtime.engine.connectToken(values.workspace, service, token, pairs(values.meta, '--meta'));
  const shown = publicConnection(record);
  io.out(`Connected ${shown.service} (${shown.kind}); the token is stored encrypted.`);
  return 0;
}

export const connectCommand: Command = { help: HELP, run: (args, env, io) => withRuntime(env, (runtime) => connect(args, runtime, io)) };
