import { parseArgs } from 'node:util';
import type { RegisteredIntegration } from '@portico/core';
import { loadConfig } from '../config/load.js';
import { createLogger } from '../observability/logger.js';
import { loadRegistry } from '../runtime/runtime.js';
import { type Command, pad, UsageError } from './command.js';

const HELP = `Usage: portico operations [<service>] [--markdown]

Lists the operations of the installed integrations (or of one), one line each: the operation's name, its REST method
and path under /api/v1/<service>, and what it does. Over MCP an operation is called as call_<service> with
{ "method": "<operation>", "params": {…} }; describe_method and /api/v1/<service>/openapi.json give its parameters.
Needs no database: it reads the plugins PORTICO_PLUGINS and PORTICO_EXTRA_PLUGINS name (default: the six first-party).

Options:
  --markdown     A Markdown table per integration`;

/** The operations of `integrations` as Markdown: a heading and a table (name, REST method and path, summary) each. */
export function operationsMarkdown(integrations: readonly RegisteredIntegration[]): string {
  const lines: string[] = [];
  for (const integration of integrations) {
    if (lines.length > 0) lines.push('');
    lines.push(`## ${integration.plugin.displayName} (\`${integration.service}\`, ${integration.operations.size} operations)`, '');
    lines.push('| operation | REST | what it does |', '| --- | --- | --- |');
    for (const operation of integration.operations.values()) {
      const { method, path, summary } = operation.definition;
      lines.push(`| \`${operation.name}\` | \`${method} ${path}\` | ${summary.replaceAll('|', '\\|')} |`);
    }
  }
  return lines.join('\n');
}

/** `portico operations`: every operation the installed plugins serve, read from the plugins themselves. */
export const operationsCommand: Command = {
  help: HELP,
  run: async (args, env, io) => {
    const { values, positionals } = parseArgs({ args, options: { markdown: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw new UsageError('operations takes at most one service');
    const config = loadConfig(env);
    const registry = await loadRegistry(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr));
    const [service] = positionals;
    const integrations = service === undefined ? registry.list() : [registry.get(service)].filter((i) => i !== undefined);
    if (service !== undefined && integrations.length === 0) {
      const installed = registry.list().map((integration) => integration.service);
      throw new UsageError(`no integration "${service}" is installed (installed: ${installed.join(', ') || 'none'})`);
    }
    if (values.markdown) {
      io.out(operationsMarkdown(integrations));
      return 0;
    }
    for (const integration of integrations) {
      const operations = [...integration.operations.values()];
      const nameWidth = Math.max(...operations.map((operation) => operation.name.length));
      const restWidth = Math.max(...operations.map(({ definition }) => definition.method.length + 1 + definition.path.length));
      io.out(`${integration.plugin.displayName} (${integration.service}, ${operations.length} operations)`);
      for (const { name, definition } of operations) {
        io.out(`  ${pad([name, `${definition.method} ${definition.path}`, definition.summary], [nameWidth, restWidth])}`);
      }
    }
    return 0;
  },
};
