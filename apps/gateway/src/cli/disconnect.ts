import { parseArgs } from 'node:util';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, UsageError, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage: portico disconnect <service> [--workspace ID]

Deletes the stored credentials of the service; an OAuth token is first revoked at the provider where it supports that.`;

async function disconnect(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: WORKSPACE_OPTION, allowPositionals: true, strict: true });
  const service = positionals[0];
  if (!service) throw new UsageError('disconnect needs a service');
  await runtime.engine.workspaces.require(values.workspace);
  const result = await runtime.engine.disconnect(values.workspace, service);
  if (!result.deleted) throw new UsageError(`${service} is not connected`);
  io.out(`Disconnected ${service}`);
  if (result.revoked === true) io.out('The token was revoked at the provider.');
  if (result.revoked === false) io.err(`The token could not be revoked at the provider (${result.revokeError}); it is deleted here.`);
  return 0;
}

export const disconnectCommand: Command = {
  help: HELP,
  run: (args, env, io) => withRuntime(env, (runtime) => disconnect(args, runtime, io)),
};
