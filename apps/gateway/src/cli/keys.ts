import { parseArgs } from 'node:util';
import type { KeyScopes } from '@portico/core';
import { publicKey } from '../records/keys.js';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, UsageError, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage:
  portico keys create --name NAME [--admin] [--operator] [--services a,b] [--read-only] [--tool-set ID]
                      [--expires-in DAYS] [--workspace ID]
  portico keys list [--workspace ID]
  portico keys revoke <key id> [--workspace ID]

create prints the new key once; only its SHA-256 hash is stored.
  --name NAME         What the key is for (required)
  --admin             May use the admin API (/api/admin) of its workspace
  --operator          Also manages every workspace (with --admin, in the default workspace only)
  --services a,b      Services the key may call (default: all)
  --read-only         Only operations that read may be called
  --tool-set ID       Only the operations of this tool set of the workspace (see portico tool-sets)
  --expires-in DAYS   Expire after this many days (default: never)
  --workspace ID      The workspace of the key (default: default)`;

async function keys(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { engine, store } = runtime;
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: {
        name: { type: 'string' },
        admin: { type: 'boolean' },
        operator: { type: 'boolean' },
        services: { type: 'string' },
        'read-only': { type: 'boolean' },
        'tool-set': { type: 'string' },
        'expires-in': { type: 'string' },
        ...WORKSPACE_OPTION,
      },
      strict: true,
    });
    if (!values.name) throw new UsageError('keys create needs --name');
    const services = values.services
      ? values.services
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : '*';
    if (Array.isArray(services)) {
      for (const service of services) if (!runtime.registry.get(service)) throw new UsageError(`unknown service "${service}"`);
    }
    let expiresAt: string | null = null;
    if (values['expires-in'] !== undefined) {
      const days = Number(values['expires-in']);
      if (!Number.isFinite(days) || days <= 0) throw new UsageError('--expires-in takes a positive number of days');
      expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
    }
    const scopes: KeyScopes = { admin: Boolean(values.admin), services, readOnly: Boolean(values['read-only']) };
    if (values.operator) scopes.operator = true;
    if (values['tool-set']) scopes.toolSet = values['tool-set'];
    const created = await engine.createApiKey({ workspaceId: values.workspace, name: values.name, scopes, expiresAt });
    io.err(`Created key ${created.record.id} (${values.name}). It is shown only now:`);
    io.out(created.key);
    return 0;
  }
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: WORKSPACE_OPTION, strict: true });
    await engine.workspaces.require(values.workspace);
    const list = (await store.listApiKeys(values.workspace)).map(publicKey);
    io.out(['ID'.padEnd(22), 'NAME'.padEnd(20), 'PREFIX'.padEnd(14), 'SCOPES'.padEnd(28), 'LAST USED'.padEnd(26), 'STATE'].join(' '));
    for (const k of list) {
      const scopes = [
        k.operator ? 'operator' : k.admin ? 'admin' : null,
        k.read_only ? 'read-only' : null,
        k.tool_set ? `tool set ${k.tool_set}` : null,
        k.services === '*' ? 'all services' : k.services.join(','),
      ]
        .filter(Boolean)
        .join(' ');
      const state = k.revoked_at ? 'revoked' : k.expires_at && Date.parse(k.expires_at) <= Date.now() ? 'expired' : 'active';
      io.out(
        [
          k.id.padEnd(22),
          k.name.slice(0, 20).padEnd(20),
          `${k.prefix}…`.padEnd(14),
          scopes.padEnd(28),
          (k.last_used_at ?? '-').padEnd(26),
          state,
        ].join(' '),
      );
    }
    return 0;
  }
  if (sub === 'revoke') {
    const { values, positionals } = parseArgs({ args: rest, options: WORKSPACE_OPTION, allowPositionals: true, strict: true });
    const id = positionals[0];
    if (!id) throw new UsageError('keys revoke needs a key id (see portico keys list)');
    await engine.workspaces.require(values.workspace);
    if (!(await store.revokeApiKey(values.workspace, id, new Date().toISOString()))) throw new UsageError(`no active key ${id}`);
    io.out(`Revoked ${id}`);
    return 0;
  }
  throw new UsageError('keys takes create, list or revoke (see portico keys --help)');
}

export const keysCommand: Command = { help: HELP, run: (args, env, io) => withRuntime(env, (runtime) => keys(args, runtime, io)) };
