import { parseArgs } from 'node:util';
import { CONNECTION_POLICIES, type ConnectionPolicy } from '@portico/core';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, pairs, UsageError, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage:
  portico integrations list [--workspace ID]
  portico integrations configure <service> [--mcp on|off] [--rest on|off] [--base-url URL|default] [--set name=value]…
                                 [--connection-policy shared|personal|personal_else_shared] [--workspace ID]

A new integration starts with MCP on and REST off. Each workspace has its own toggles and settings.
  --workspace ID       The workspace (default: default)
  --mcp on|off         MCP access (tools/list and call_<service>)
  --rest on|off        REST access (/api/v1/<service>/… and its OpenAPI document)
  --base-url URL       Upstream base URL for this workspace ('default' clears it); PORTICO_<SERVICE>_BASE_URL wins over it
  --set name=value     A plugin setting (e.g. --set notion_version=2022-06-28); repeatable
  --connection-policy  Whose upstream account a member's call acts as: shared (the workspace's connection), personal
                       (their own, which they connect in the dashboard), personal_else_shared (theirs where they
                       connected one, else the workspace's; the default). Calls with an API key always use the shared one.`;

function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new UsageError(`${flag} takes on or off`);
}

async function integrations(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { engine, store } = runtime;
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: WORKSPACE_OPTION, strict: true });
    const workspaceId = (await engine.workspaces.require(values.workspace)).id;
    const connected = new Map((await store.listConnections(workspaceId)).map((c) => [c.service, c]));
    io.out(['SERVICE'.padEnd(12), 'NAME'.padEnd(20), 'OPS'.padEnd(5), 'MCP'.padEnd(5), 'REST'.padEnd(5), 'CONNECTION'].join(' '));
    for (const integration of runtime.registry.list()) {
      const state = await engine.integrationState(workspaceId, integration.service);
      const connection = connected.get(integration.service);
      io.out(
        [
          integration.service.padEnd(12),
          integration.plugin.displayName.padEnd(20),
          String(integration.operations.size).padEnd(5),
          (state.mcpEnabled ? 'on' : 'off').padEnd(5),
          (state.restEnabled ? 'on' : 'off').padEnd(5),
          connection ? `${connection.kind}, ${connection.status}` : 'not connected',
        ].join(' '),
      );
    }
    return 0;
  }
  if (sub === 'configure') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        mcp: { type: 'string' },
        rest: { type: 'string' },
        'base-url': { type: 'string' },
        set: { type: 'string', multiple: true },
        'connection-policy': { type: 'string' },
        ...WORKSPACE_OPTION,
      },
      allowPositionals: true,
      strict: true,
    });
    const service = positionals[0];
    if (!service) throw new UsageError('integrations configure needs a service');
    const mcpEnabled = onOff(values.mcp, '--mcp');
    const restEnabled = onOff(values.rest, '--rest');
    const settings = pairs(values.set, '--set');
    const baseUrl = values['base-url'];
    const policy = values['connection-policy'];
    if (policy !== undefined && !CONNECTION_POLICIES.includes(policy as ConnectionPolicy)) {
      throw new UsageError(`--connection-policy takes ${CONNECTION_POLICIES.join(', ')}`);
    }
    await engine.workspaces.require(values.workspace);
    const state = await engine.configureIntegration(values.workspace, service, {
      ...(mcpEnabled === undefined ? {} : { mcpEnabled }),
      ...(restEnabled === undefined ? {} : { restEnabled }),
      ...(baseUrl === undefined ? {} : { baseUrl: baseUrl === 'default' ? null : baseUrl }),
      ...(Object.keys(settings).length > 0 ? { settings } : {}),
      ...(policy === undefined ? {} : { connectionPolicy: policy as ConnectionPolicy }),
    });
    io.out(
      `${service}: MCP ${state.mcpEnabled ? 'on' : 'off'}, REST ${state.restEnabled ? 'on' : 'off'}${state.baseUrl ? `, base URL ${state.baseUrl}` : ''}, connection policy ${state.connectionPolicy}`,
    );
    io.err('Gateways running on this database apply it within 5 seconds (at once on PostgreSQL); no restart is needed.');
    return 0;
  }
  throw new UsageError('integrations takes list or configure (see portico integrations --help)');
}

export const integrationsCommand: Command = {
  help: HELP,
  run: (args, env, io) => withRuntime(env, (runtime) => integrations(args, runtime, io)),
};
