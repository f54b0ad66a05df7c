import { parseArgs } from 'node:util';
import { MEMBER_ROLES, type MemberRole } from '@portico/core';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, UsageError, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage:
  portico members list [--workspace ID]
  portico members invite <email> [--role owner|admin|member] [--name NAME] [--services a,b] [--read-only] [--tool-set ID] [--workspace ID]
  portico members remove <member id> [--workspace ID]

Members are the people of a workspace: they sign in to the dashboard with the firm's identity provider
(PORTICO_OIDC_ISSUER) and connect their own assistants, which can do at most what they may (docs/workspaces.md).
invite adds a person by email (their first sign-in with that address binds them); remove ends their sessions and
revokes every grant they gave, on every gateway sharing the database.
  --role ROLE         owner, admin or member (default: member)
  --services a,b      Only these services (default: every service)
  --read-only         Only operations that read
  --tool-set ID       Only the operations of this tool set
  --workspace ID      The workspace (default: default)`;

async function members(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const { engine, store } = runtime;
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: WORKSPACE_OPTION, strict: true });
    await engine.workspaces.require(values.workspace);
    io.out(['ID'.padEnd(20), 'EMAIL'.padEnd(32), 'ROLE'.padEnd(7), 'MAY USE'.padEnd(30), 'LAST SIGN-IN'].join(' '));
    for (const m of await store.members.list(values.workspace)) {
      const may = [m.narrowing.services?.join(',') ?? 'all services', m.narrowing.readOnly ? 'read-only' : '', m.narrowing.toolSet ?? '']
        .filter(Boolean)
        .join(' ');
      io.out([m.id.padEnd(20), m.email.padEnd(32), m.role.padEnd(7), may.padEnd(30), m.lastSignInAt ?? 'invited'].join(' '));
    }
    return 0;
  }
  if (sub === 'invite') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        ...WORKSPACE_OPTION,
        role: { type: 'string', default: 'member' },
        name: { type: 'string' },
        services: { type: 'string' },
        'read-only': { type: 'boolean', default: false },
        'tool-set': { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    const email = positionals[0];
    if (!email) throw new UsageError('members invite needs an email address');
    if (!MEMBER_ROLES.includes(values.role as MemberRole)) throw new UsageError(`--role must be one of ${MEMBER_ROLES.join(', ')}`);
    await engine.workspaces.require(values.workspace);
    const services = values.services
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = (services ?? []).filter((s) => !engine.registry.get(s));
    if (unknown.length > 0) throw new UsageError(`unknown services: ${unknown.join(', ')}`);
    // the CLI acts with the database's own authority (the operator's): no actor to hold it to
    const member = await engine.members.invite(
      values.workspace,
      {
        email,
        name: values.name ?? null,
        role: values.role as MemberRole,
        narrowing: {
          ...(services ? { services } : {}),
          ...(values['read-only'] ? { readOnly: true } : {}),
          ...(values['tool-set'] ? { toolSet: values['tool-set'] } : {}),
        },
      },
      null,
    );
    io.out(`Invited ${member.email} as ${member.role} (${member.id}): they sign in with the identity provider`);
    return 0;
  }
  if (sub === 'remove') {
    const { values, positionals } = parseArgs({ args: rest, options: WORKSPACE_OPTION, allowPositionals: true, strict: true });
    const id = positionals[0];
    if (!id) throw new UsageError('members remove needs a member id (see portico members list)');
    await engine.workspaces.require(values.workspace);
    const removed = await engine.members.remove(values.workspace, id, null);
    io.out(`Removed ${removed.email}: their sessions ended and their grants are revoked`);
    return 0;
  }
  throw new UsageError('members takes list, invite or remove (see portico members --help)');
}

export const membersCommand: Command = { help: HELP, run: (args, env, io) => withRuntime(env, (runtime) => members(args, runtime, io)) };
