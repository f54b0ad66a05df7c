import { parseArgs } from 'node:util';
import { parseAuditQuery, publicAuditPage } from '../records/audit.js';
import { type Command, type Io, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage: portico audit [--service S] [--operation O] [--protocol rest|mcp|dashboard|admin|cli] [--status 429|4xx]
                     [--code CODE] [--key KEY_ID] [--since TIME] [--until TIME] [--limit N] [--cursor C] [--json]
                     [--workspace ID]

Lists the audit records of a workspace (--workspace, default: default), newest first: every call over REST, MCP and the
dashboard, OAuth connects and refreshes, each with the client's address (CLIENT: the socket's, or the one a trusted
proxy forwarded, PORTICO_TRUST_PROXY; '-' for events no request made). Each filter narrows the list; --since (inclusive) and --until (exclusive) take a date (2026-01-31) or a time
with its zone (2026-01-31T12:00:00Z). --limit is the page size (default 100, at most 1000); when there is more, the
command names the --cursor of the next page. --json prints { "records": [...], "next_cursor": ... }. Records older
than PORTICO_AUDIT_RETENTION_DAYS are deleted by the running gateway.`;

async function audit(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const text = { type: 'string' } as const;
  const { values } = parseArgs({
    args,
    options: {
      service: text,
      operation: text,
      protocol: text,
      status: text,
      code: text,
      key: text,
      since: text,
      until: text,
      limit: text,
      cursor: text,
      json: { type: 'boolean' },
      ...WORKSPACE_OPTION,
    },
    strict: true,
  });
  const { key, json, workspace, ...filters } = values;
  // the same filters, checked the same way, as GET /api/admin/audit
  const query = parseAuditQuery(workspace, { ...filters, key_id: key });
  return withRuntime(env, async (runtime) => {
    await runtime.engine.workspaces.require(workspace);
    const page = await runtime.store.queryAudit(query);
    if (json) {
      io.out(JSON.stringify(publicAuditPage(page), null, 2));
      return 0;
    }
    const row = (cells: string[]) => cells.map((cell, i) => cell.padEnd([8, 24, 8, 12, 28, 6, 24, 7, 24][i] ?? 0)).join(' ');
    io.out(row(['ID', 'AT', 'PROTOCOL', 'SERVICE', 'OPERATION', 'STATUS', 'CODE', 'MS', 'KEY', 'CLIENT']));
    for (const r of page.records) {
      const cells = [r.id, r.at, r.protocol, r.service.slice(0, 12), r.operation.slice(0, 28), String(r.status), r.code ?? '-'];
      io.out(row([...cells, String(r.durationMs), r.keyId ?? '-', r.clientAddress ?? '-']));
    }
    if (page.next) io.err(`More records: add --cursor ${page.next}`);
    return 0;
  });
}

export const auditCommand: Command = { help: HELP, run: audit };
