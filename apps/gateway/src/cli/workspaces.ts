import { parseArgs } from 'node:util';
import { describeUsage } from '@portico/core';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, pad, UsageError, withRuntime } from './command.js';

const HELP = `Usage:
  portico workspaces list
  portico workspaces create <id> [--name NAME]
  portico workspaces rename <id> --name NAME
  portico workspaces delete <id> [--yes]

A workspace holds its own API keys, connections, integration settings, tool sets and audit trail; nothing of one is
visible or usable from another. The id (1-40 lowercase letters, digits and inner hyphens, e.g. smith-law) is how
commands (--workspace) and the admin API (/api/admin/workspaces/<id>/…) name it. The default workspace always exists.
delete says what it removes and asks you to type the id, unless --yes; the workspace's keys stop working at once.
  --name NAME    A display name (default: the id)
  --yes          Delete without asking`;

async function workspaces(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { workspaces } = runtime.engine;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, yes: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const id = positionals[0];
  if (sub === 'list') {
    io.out(pad(['ID', 'NAME', 'KEYS', 'CONNECTIONS', 'TOOL SETS', 'CREATED'], [20, 28, 5, 12, 10]));
    for (const workspace of await workspaces.list()) {
      const { usage } = await workspaces.summary(workspace.id);
      const cells = [workspace.id, workspace.name.slice(0, 28), String(usage.keys), String(usage.connections), String(usage.toolSets)];
      io.out(pad([...cells, workspace.createdAt], [20, 28, 5, 12, 10]));
    }
    return 0;
  }
  if (!id) throw new UsageError(`workspaces ${sub ?? ''} needs a workspace id (see portico workspaces --help)`.replace('  ', ' '));
  if (sub === 'create') {
    const created = await workspaces.create({ id, ...(values.name ? { name: values.name } : {}) });
    io.out(`Created workspace ${created.id} (${created.name})`);
    return 0;
  }
  if (sub === 'rename') {
    if (!values.name) throw new UsageError('workspaces rename needs --name');
    const renamed = await workspaces.rename(id, values.name);
    io.out(`Renamed workspace ${renamed.id} to ${renamed.name}`);
    return 0;
  }
  if (sub === 'delete') {
    const { usage } = await workspaces.summary(id);
    let confirm: string | undefined = id;
    if (!values.yes) {
      io.err(`Deleting workspace ${id} removes ${describeUsage(usage)}. Its keys stop working at once.`);
      if (!io.prompt) throw new UsageError('add --yes to delete without a terminal to confirm on');
      confirm = (await io.prompt(`Type ${id} to delete it: `)).trim();
      if (confirm !== id) {
        io.err('Not deleted.');
        return 1;
      }
    }
    const removed = await workspaces.delete(id, confirm);
    io.out(`Deleted workspace ${id}: ${describeUsage(removed)}`);
    return 0;
  }
  throw new UsageError('workspaces takes list, create, rename or delete (see portico workspaces --help)');
}

export const workspacesCommand: Command = {
  help: HELP,
  run: (args, env, io) => withRuntime(env, (runtime) => workspaces(args, runtime, io)),
};
