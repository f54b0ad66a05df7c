import { parseArgs } from 'node:util';
import type { ToolSetRule } from '@portico/core';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, pad, UsageError, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage:
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
  --workspace ID  The workspace (default: default)`;

async function toolSets(args: string[], runtime: Runtime, io: Io): Promise<number> {
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

export const toolSetsCommand: Command = {
  help: HELP,
  run: (args, env, io) => withRuntime(env, (runtime) => toolSets(args, runtime, io)),
};
