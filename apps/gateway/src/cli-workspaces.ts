import { parseArgs } from 'node:util';
import { describeUsage, type ToolSetRule } from '@portico/core';
import { type Io, UsageError, WORKSPACE_OPTION } from './cli-support.js';
import type { Runtime } from './runtime.js';

export const WORKSPACE_HELP: Record<string, string> = {
  workspaces: `Usage:
  portico workspaces list
  portico workspaces create <id> [--name NAME]
  portico workspaces rename <id> --name NAME
  portico workspaces delete <id> [--yes]

A workspace holds its own API keys, connections, integration settings, tool sets and audit trail; nothing of one is
visible or usable from another. The id (1-40 lowercase letters, digits and inner hyphens, e.g. smith-law) is how
commands (--workspace) and the admin API (/api/admin/workspaces/<id>/…) name it. The default workspace always exists.
delete says what it removes and asks you to type the id, unless --yes; the workspace's keys stop working at once.
  --name NAME    A display name (default: the id)
  --yes          Delete without asking`,
  'tool-sets': `Usage:
  portico tool-sets list [--workspace ID]
  portico tool-sets show <id> [--workspace ID]
  portico tool-sets save <id> --rule RULE… [--read RULE…] [--name NAME] [--workspace ID]
  portico tool-sets delete <id> [--workspace ID]

A tool set is a named selection of operations; a key created with --tool-set <id> sees and calls only those, over MCP
and REST. A rule is a service (clio), an operation (clio:list_matters) or a pattern where * stands for any
characters (clio:list_*, quickbooks:report_*, *:search_*). Every rule must match at least one operation.
save creates the set or replaces it; keys bound to it follow at once, on every instance.
  --rule RULE     Operations to include; repeatable
  --read RULE     Only the operations matching RULE that read; repeatable
  --name NAME     A display name (default: the id)
  --workspace ID  The workspace (default: default)`,
};

const pad = (cells: string[], widths: number[]) =>
  cells
    .map((cell, i) => cell.padEnd(widths[i] ?? 0))
    .join(' ')
    .trimEnd();

export async function workspacesCommand(args: string[], runtime: Runtime, io: Io): Promise<number> {
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

export async function toolSetsCommand(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { engine } = runtime;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      rule: { type: 'string', multiple: true },
      read: { type: 'string', multiple: true },
      name: { type: 'string' },
      ...WORKSPACE_OPTION,
    },
    allowPositionals: true,
    strict: true,
  });
  const workspaceId = (await engine.workspaces.require(values.workspace)).id;
  if (sub === 'list') {
    io.out(pad(['ID', 'NAME', 'OPERATIONS', 'RULES'], [20, 28, 10]));
    for (const { record, operations } of await engine.toolSets.list(workspaceId)) {
      const rules = record.rules.map((rule) => (rule.readOnly ? `${rule.match} (read)` : rule.match)).join(' ');
      io.out(pad([record.id, record.name.slice(0, 28), String(operations.length), rules], [20, 28, 10]));
    }
    return 0;
  }
  const id = positionals[0];
  if (!id) throw new UsageError(`tool-sets ${sub ?? ''} needs a tool set id (see portico tool-sets --help)`.replace('  ', ' '));
  if (sub === 'show') {
    const found = await engine.toolSets.get(workspaceId, id);
    if (!found) throw new UsageError(`no tool set ${id} in workspace ${workspaceId}`);
    io.out(`${found.record.id} (${found.record.name}), version ${found.record.version}: ${found.operations.length} operations`);
    for (const operation of found.operations) io.out(`  ${operation}`);
    return 0;
  }
  if (sub === 'save') {
    const rules: ToolSetRule[] = [
      ...(values.rule ?? []).map((match) => ({ match, readOnly: false })),
      ...(values.read ?? []).map((match) => ({ match, readOnly: true })),
    ];
    if (rules.length === 0) throw new UsageError('tool-sets save needs at least one --rule or --read');
    const saved = await engine.toolSets.save(workspaceId, { id, rules, ...(values.name ? { name: values.name } : {}) });
    io.out(`Saved tool set ${saved.record.id} (version ${saved.record.version}): ${saved.operations.length} operations`);
    return 0;
  }
  if (sub === 'delete') {
    if (!(await engine.toolSets.delete(workspaceId, id))) throw new UsageError(`no tool set ${id} in workspace ${workspaceId}`);
    io.out(`Deleted tool set ${id}`);
    return 0;
  }
  throw new UsageError('tool-sets takes list, show, save or delete (see portico tool-sets --help)');
}
