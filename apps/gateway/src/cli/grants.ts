import { parseArgs } from 'node:util';
import type { GrantRecord } from '@portico/core';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, UsageError, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage:
  portico grants list [--workspace ID]
  portico grants revoke <grant id> [--workspace ID]

Grants are what an admin allowed an OAuth client (Claude, ChatGPT, another MCP client) to do, on the consent page of
the dashboard (docs/mcp-authorization.md). list shows each grant's client, what it may use, its last use and whether
it is active; revoke ends every token of the grant at once, on every gateway sharing the database.
  --workspace ID      The workspace of the grants (default: default)`;

/** A client names itself at registration: in a terminal its name is shown without control characters. */
const printable = (text: string) => text.replace(/\p{Cc}/gu, '?');

function scopeOf(g: GrantRecord): string {
  const what = g.scopes.toolSet ? `tool set ${g.scopes.toolSet}` : g.scopes.services === '*' ? 'all services' : g.scopes.services.join(',');
  return `${what}${g.scopes.readOnly ? ' read-only' : ''}`;
}

function stateOf(g: GrantRecord, now: number): string {
  if (g.revokedAt) return 'revoked';
  return g.expiresAt && Date.parse(g.expiresAt) <= now ? 'ended' : 'active';
}

async function grants(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { engine, store } = runtime;
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: WORKSPACE_OPTION, strict: true });
    await engine.workspaces.require(values.workspace);
    const now = Date.now();
    io.out(['ID'.padEnd(22), 'CLIENT'.padEnd(24), 'SCOPE'.padEnd(28), 'LAST USED'.padEnd(26), 'ENDS'.padEnd(26), 'STATE'].join(' '));
    for (const g of await store.authorization.listGrants(values.workspace)) {
      io.out(
        [
          g.id.padEnd(22),
          printable(g.clientName).slice(0, 24).padEnd(24),
          scopeOf(g).padEnd(28),
          (g.lastUsedAt ?? '-').padEnd(26),
          (g.expiresAt ?? 'never').padEnd(26),
          stateOf(g, now),
        ].join(' '),
      );
    }
    return 0;
  }
  if (sub === 'revoke') {
    const { values, positionals } = parseArgs({ args: rest, options: WORKSPACE_OPTION, allowPositionals: true, strict: true });
    const id = positionals[0];
    if (!id) throw new UsageError('grants revoke needs a grant id (see portico grants list)');
    await engine.workspaces.require(values.workspace);
    if (!(await store.authorization.revokeGrant(values.workspace, id, new Date().toISOString()))) {
      throw new UsageError(`no active grant ${id} in workspace ${values.workspace}`);
    }
    io.out(`Revoked ${id}: its tokens no longer work`);
    return 0;
  }
  throw new UsageError('grants takes list or revoke (see portico grants --help)');
}

export const grantsCommand: Command = { help: HELP, run: (args, env, io) => withRuntime(env, (runtime) => grants(args, runtime, io)) };
