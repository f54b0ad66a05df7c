import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { Encryptor, GatewayError, type KeyScopes } from '@portico/core';
import { publicConnection, publicKey } from './admin.js';
import { parseAuditQuery, publicAuditPage } from './audit-query.js';
import { type Io, UsageError, WORKSPACE_OPTION } from './cli-support.js';
import { toolSetsCommand, WORKSPACE_HELP, workspacesCommand } from './cli-workspaces.js';
import { ConfigError, ENVIRONMENT, type GatewayConfig, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { addKeyToFile, keyFile, openRuntime, pruneKeyFile, type Runtime } from './runtime.js';
import { startGateway } from './server.js';
import { VERSION } from './version.js';

const HELP: Record<string, string> = {
  main: `portico ${VERSION} — an integration gateway serving business applications over MCP and REST

Usage: portico <command> [options]

Commands:
  serve                         Start the gateway (HTTP: /api/mcp, /api/v1/<service>/…, /api/admin/…, /dashboard, /healthz)
  workspaces list|create|rename|delete
                                Manage workspaces (each with its own keys, connections, settings, audit)
  keys create|list|revoke       Manage API keys
  tool-sets list|show|save|delete
                                Manage tool sets: named selections of operations a key can be bound to
  integrations list|configure   Show integrations; turn MCP/REST on or off, set base URL and settings
  connect <service>             Store an upstream token for a service (encrypted at rest)
  disconnect <service>          Remove a service's stored credentials
  encryption rotate|status|prune
                                Rotate the key encrypting upstream credentials, while gateways keep serving
  audit                         List audit records, newest first, with filters
  env                           List the environment variables the gateway reads

Every command reads the same configuration (environment variables, see 'portico env'). Commands acting on keys,
integrations, connections, tool sets and the audit trail take --workspace ID (default: default).
'portico <command> --help' shows a command's options.`,
  serve: `Usage: portico serve [--sandbox] [--port N] [--host ADDR]

Starts the gateway. On the first start without any API key, an admin key is created and printed once.

Options:
  --sandbox      Start each installed plugin's sandbox upstream (an in-process emulator on loopback with seeded
                 data), connect the plugins to it, enable REST for them, and print a fresh admin key. Uses its own
                 database (<data dir>/sandbox.db) unless PORTICO_DATABASE_URL is set.
  --port N       Port (overrides PORTICO_PORT; 0 picks a free port)
  --host ADDR    Interface (overrides PORTICO_HOST)
  -h, --help     This help`,
  keys: `Usage:
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
  --workspace ID      The workspace of the key (default: default)`,
  integrations: `Usage:
  portico integrations list [--workspace ID]
  portico integrations configure <service> [--mcp on|off] [--rest on|off] [--base-url URL|default] [--set name=value]…
                                 [--workspace ID]

A new integration starts with MCP on and REST off. Each workspace has its own toggles and settings.
  --workspace ID       The workspace (default: default)
  --mcp on|off         MCP access (tools/list and call_<service>)
  --rest on|off        REST access (/api/v1/<service>/… and its OpenAPI document)
  --base-url URL       Upstream base URL for this workspace ('default' clears it); PORTICO_<SERVICE>_BASE_URL wins over it
  --set name=value     A plugin setting (e.g. --set notion_version=2022-06-28); repeatable`,
  connect: `Usage:
  portico connect <service> --token TOKEN|- [--meta name=value]… [--workspace ID]
  portico connect <service> --oauth [--workspace ID]

Each workspace has its own connections (its own token, its own account); --workspace names it (default: default).

--token stores a token-type credential for the service (an API key, a bot token, an internal integration token),
encrypted with AES-256-GCM. '--token -' reads the token from standard input, which keeps it out of shell history.
--oauth prints the provider's authorization URL (needs PORTICO_<SERVICE>_CLIENT_ID and _CLIENT_SECRET); open it in a
browser, approve, and the provider returns to the gateway's /api/connect/<service>/callback, which stores the tokens.
The link is single-use and expires after 10 minutes.`,
  encryption: `Usage:
  portico encryption status     Which key encrypts, and how many stored credentials each key holds
  portico encryption rotate     Re-encrypt every stored credential under a new key
  portico encryption prune      Drop old keys that no stored credential uses any more (key file only)

With the key file (<data dir>/encryption.key, the default): rotate writes a new key in front of the file, keeps the
old ones for decryption, and re-encrypts every connection. Running gateways pick the new key up by themselves the
first time they meet it. Run prune afterwards to retire the old keys. Back the file up after each change.

With PORTICO_ENCRYPTION_KEY: set the new key as PORTICO_ENCRYPTION_KEY and the old one(s) in
PORTICO_ENCRYPTION_PREVIOUS_KEYS on every instance first (restart them), then run rotate, which re-encrypts every
connection under the new key; then remove the old keys from PORTICO_ENCRYPTION_PREVIOUS_KEYS.`,
  audit: `Usage: portico audit [--service S] [--operation O] [--protocol rest|mcp|dashboard|admin|cli] [--status 429|4xx]
                     [--code CODE] [--key KEY_ID] [--since TIME] [--until TIME] [--limit N] [--cursor C] [--json]
                     [--workspace ID]

Lists the audit records of a workspace (--workspace, default: default), newest first: every call over REST, MCP and the
dashboard, OAuth connects and refreshes. Each filter narrows the list; --since (inclusive) and --until (exclusive) take a date (2026-01-31) or a time
with its zone (2026-01-31T12:00:00Z). --limit is the page size (default 100, at most 1000); when there is more, the
command names the --cursor of the next page. --json prints { "records": [...], "next_cursor": ... }. Records older
than PORTICO_AUDIT_RETENTION_DAYS are deleted by the running gateway.`,
  ...WORKSPACE_HELP,
  disconnect: `Usage: portico disconnect <service> [--workspace ID]

Deletes the stored credentials of the service; an OAuth token is first revoked at the provider where it supports that.`,
};

const defaultIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stdin: () => readFileSync(0, 'utf8'),
  prompt: async (question) => {
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await terminal.question(question);
    } finally {
      terminal.close();
    }
  },
};

/** Runs one CLI command; returns the process exit code. `serve` resolves only when the server stops. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === '-h' || command === '--help' || command === 'help') {
      io.out(HELP.main as string);
      return command ? 0 : 1;
    }
    if (command === '--version' || command === '-v') {
      io.out(VERSION);
      return 0;
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      const text = HELP[command];
      if (!text) throw new UsageError(`unknown command "${command}"`);
      io.out(text);
      return 0;
    }
    switch (command) {
      case 'serve':
        return await serve(rest, env, io);
      case 'env':
        for (const v of ENVIRONMENT) io.out(`${v.name.padEnd(30)} ${v.meaning} (default: ${v.default})`);
        return 0;
      case 'workspaces':
        return await withRuntime(env, (runtime) => workspacesCommand(rest, runtime, io));
      case 'tool-sets':
        return await withRuntime(env, (runtime) => toolSetsCommand(rest, runtime, io));
      case 'keys':
        return await withRuntime(env, (runtime) => keys(rest, runtime, io));
      case 'integrations':
        return await withRuntime(env, (runtime) => integrations(rest, runtime, io));
      case 'connect':
        return await withRuntime(env, (runtime) => connect(rest, runtime, io));
      case 'encryption':
        return await encryption(rest, env, io);
      case 'disconnect':
        return await withRuntime(env, (runtime) => disconnect(rest, runtime, io));
      case 'audit':
        return await auditCommand(rest, env, io);
      default:
        throw new UsageError(`unknown command "${command}" (see portico --help)`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof GatewayError) {
      io.err(`portico: ${error.message}`);
      return 2;
    }
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`portico: ${(error as Error).message}`);
      return 2;
    }
    io.err(`portico: ${(error as Error).message ?? error}`);
    return 1;
  }
}

async function withRuntime(env: NodeJS.ProcessEnv, run: (runtime: Runtime) => Promise<number>): Promise<number> {
  const config = loadConfig(env);
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr));
  try {
    return await run(runtime);
  } finally {
    await runtime.close();
  }
}

async function serve(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { sandbox: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } },
    strict: true,
  });
  const overrides: NodeJS.ProcessEnv = { ...env };
  if (values.port !== undefined) overrides.PORTICO_PORT = values.port;
  if (values.host !== undefined) overrides.PORTICO_HOST = values.host;
  if (values.sandbox && !env.PORTICO_DATABASE_URL) {
    overrides.PORTICO_DATABASE_URL = `file:${resolve(env.PORTICO_DATA_DIR || './data', 'sandbox.db')}`;
  }
  const config: GatewayConfig = loadConfig(overrides);
  const logger = createLogger(config.logLevel);
  const gateway = await startGateway({ config, logger, sandbox: Boolean(values.sandbox) });
  printBanner(gateway.url, gateway.runtime, gateway.createdKey, Boolean(values.sandbox), config.dashboard, io);
  await new Promise<void>((resolveStop) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      void gateway.close().then(() => {
        logger.flush();
        resolveStop();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

function printBanner(
  url: string,
  runtime: Runtime,
  createdKey: { name: string; key: string } | undefined,
  sandbox: boolean,
  dashboard: boolean,
  io: Io,
): void {
  const services = runtime.registry.list().map((i) => i.service);
  const key = createdKey?.key ?? '<your API key>';
  const lines = [
    '',
    `Portico ${VERSION} is listening on ${url}${sandbox ? ' (sandbox mode: upstreams are local emulators with seeded data)' : ''}`,
    `Integrations: ${services.length > 0 ? services.join(', ') : 'none installed'}`,
    '',
  ];
  if (createdKey) {
    lines.push(`API key (admin, named "${createdKey.name}", shown only now):`, `  ${createdKey.key}`, '');
  }
  if (dashboard) {
    lines.push(
      'Dashboard:',
      `  ${url}/dashboard   sign in with ${createdKey ? 'the admin key above' : 'an admin API key (portico keys create --name NAME --admin)'}`,
      '',
    );
  }
  lines.push(
    'MCP (Streamable HTTP, stateless):',
    `  endpoint: ${url}/api/mcp   header: Authorization: Bearer ${key}`,
    `  npx @modelcontextprotocol/inspector@0.18.0 --cli ${url}/api/mcp --transport http --header "Authorization: Bearer ${key}" --method tools/list`,
  );
  if (services.includes('notion')) {
    lines.push(
      '',
      'REST:',
      `  curl -H "Authorization: Bearer ${key}" ${url}/api/v1/notion/users`,
      `  curl -H "Authorization: Bearer ${key}" ${url}/api/v1/notion/openapi.json`,
    );
  }
  lines.push('', 'Stop with Ctrl-C.', '');
  for (const line of lines) io.out(line);
}

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

function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new UsageError(`${flag} takes on or off`);
}

function pairs(list: string[] | undefined, flag: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of list ?? []) {
    const at = item.indexOf('=');
    if (at < 1) throw new UsageError(`${flag} takes name=value (got "${item}")`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
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
    await engine.workspaces.require(values.workspace);
    const state = await engine.configureIntegration(values.workspace, service, {
      ...(mcpEnabled === undefined ? {} : { mcpEnabled }),
      ...(restEnabled === undefined ? {} : { restEnabled }),
      ...(baseUrl === undefined ? {} : { baseUrl: baseUrl === 'default' ? null : baseUrl }),
      ...(Object.keys(settings).length > 0 ? { settings } : {}),
    });
    io.out(
      `${service}: MCP ${state.mcpEnabled ? 'on' : 'off'}, REST ${state.restEnabled ? 'on' : 'off'}${state.baseUrl ? `, base URL ${state.baseUrl}` : ''}`,
    );
    io.err('Gateways running on this database apply it within 5 seconds (at once on PostgreSQL); no restart is needed.');
    return 0;
  }
  throw new UsageError('integrations takes list or configure (see portico integrations --help)');
}

async function connect(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { token: { type: 'string' }, meta: { type: 'string', multiple: true }, oauth: { type: 'boolean' }, ...WORKSPACE_OPTION },
    allowPositionals: true,
    strict: true,
  });
  const service = positionals[0];
  if (!service) throw new UsageError('connect needs a service');
  await runtime.engine.workspaces.require(values.workspace);
  if (values.oauth) {
    const started = await runtime.engine.beginOAuth(values.workspace, service, null);
    io.err(`Open this URL in a browser and approve access; the provider sends you back to Portico (valid until ${started.expiresAt}):`);
    io.out(started.authorizeUrl);
    return 0;
  }
  if (values.token === undefined)
    throw new UsageError('connect needs --token TOKEN (or --token - to read it from standard input), or --oauth');
  const token = values.token === '-' ? io.stdin().trim() : values.token;
  const record = await runtime.engine.connectToken(values.workspace, service, token, pairs(values.meta, '--meta'));
  const shown = publicConnection(record);
  io.out(`Connected ${shown.service} (${shown.kind}); the token is stored encrypted.`);
  return 0;
}

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

async function encryption(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [sub] = args;
  if (sub !== 'rotate' && sub !== 'status' && sub !== 'prune')
    throw new UsageError('encryption takes rotate, status or prune (see portico encryption --help)');
  const config = loadConfig(env);
  if (sub === 'rotate' && !config.encryptionKey) {
    const id = addKeyToFile(config);
    io.err(`Added key ${id} in front of ${keyFile(config)}; back the file up.`);
  }
  return withRuntime(env, async (runtime) => {
    const { engine, store } = runtime;
    if (sub === 'rotate') {
      const report = await engine.reencryptAll();
      io.out(
        `Active key ${engine.activeKeyId}: ${report.rewritten} re-encrypted, ${report.current} already current, ${report.failed.length} failed (of ${report.total}).`,
      );
      for (const failure of report.failed) io.err(`  ${failure.workspaceId}/${failure.service}: ${failure.reason}`);
      return report.failed.length === 0 ? 0 : 1;
    }
    const counts = new Map<string, number>();
    for (const connection of await store.allConnections()) {
      const id = Encryptor.keyIdOf(connection.secret) ?? 'unknown';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    if (sub === 'status') {
      io.out(`Active key: ${engine.activeKeyId} (${config.encryptionKey ? 'PORTICO_ENCRYPTION_KEY' : keyFile(config)})`);
      for (const [id, count] of counts) io.out(`  ${id}: ${count} connection(s)`);
      return 0;
    }
    if (config.encryptionKey) {
      throw new UsageError(
        'prune works on the key file; with PORTICO_ENCRYPTION_KEY, remove unused keys from PORTICO_ENCRYPTION_PREVIOUS_KEYS yourself',
      );
    }
    const dropped = pruneKeyFile(config, new Set(counts.keys()));
    io.out(dropped.length > 0 ? `Dropped ${dropped.length} unused key(s): ${dropped.join(', ')}` : 'No unused keys to drop.');
    return 0;
  });
}

async function auditCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
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
    const row = (cells: string[]) => cells.map((cell, i) => cell.padEnd([8, 24, 8, 12, 28, 6, 24, 7][i] ?? 0)).join(' ');
    io.out(row(['ID', 'AT', 'PROTOCOL', 'SERVICE', 'OPERATION', 'STATUS', 'CODE', 'MS', 'KEY']));
    for (const r of page.records) {
      const cells = [r.id, r.at, r.protocol, r.service.slice(0, 12), r.operation.slice(0, 28), String(r.status), r.code ?? '-'];
      io.out(row([...cells, String(r.durationMs), r.keyId ?? '-']));
    }
    if (page.next) io.err(`More records: add --cursor ${page.next}`);
    return 0;
  });
}
