import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import {
  EgressPolicy,
  type ExternalIssuerOptions,
  type OAuthClientConfig,
  parseEgressAllowance,
  parseEncryptionKey,
  parseUpstreamLimits,
  parseWorkspaceHosts,
  type UpstreamLimits,
} from '@portico/core';
import { parseCorsOrigins } from '../server/cors.js';
import { externalIssuer } from './external-issuer.js';
import { type MemberSignInOptions, memberSignInConfig } from './member-sign-in.js';
import { type OtlpConfig, otlpConfig } from './otlp.js';
import { environmentReader } from './reader.js';
import { readSecretFiles } from './secret-files.js';
import { parseTrustedProxies } from './trusted-proxies.js';
import { unknownVariables } from './unknown-variables.js';

/** The gateway's configuration: read from the environment once, validated, typed. */
export interface GatewayConfig {
  host: string;
  port: number;
  /** How clients reach this gateway (used in OpenAPI `servers` and the start-up banner). */
  publicUrl: string | undefined;
  dataDir: string;
  /** `file:<path>` (embedded SQLite), `:memory:`, or `postgres://…` (PostgreSQL, for several instances). */
  databaseUrl: string;
  /** PORTICO_MIGRATE: `auto` applies pending migrations at start; `never` refuses to start with any pending. */
  migrate: 'auto' | 'never';
  /** PostgreSQL schema to keep Portico's tables in (created if missing); undefined: the server's default (public). */
  databaseSchema: string | undefined;
  /** PostgreSQL: connections for queries, and sessions for connection locks, per instance. */
  databasePoolSize: number;
  databaseLockPoolSize: number;
  /** PostgreSQL: `application_name` of this instance's connections (`:lock` and `:listen` added for those). */
  databaseApplicationName: string;
  /** How long `serve` retries at start while the database cannot be reached (0: not at all). */
  databaseWaitSeconds: number;
  /** PostgreSQL: how long opening a connection may take. */
  databaseConnectSeconds: number;
  /** Proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client (server/client-address.ts). */
  trustProxy: string[];
  /** Plugin packages to load; undefined means every first-party plugin that is installed. */
  plugins: string[] | undefined;
  /** Plugin packages loaded on top of `plugins` (or of the first-party ones): third-party plugins. */
  extraPlugins: string[];
  /** Operator renames of service keys, `{ notion: 'notes' }`. */
  serviceRenames: Record<string, string>;
  /** OAuth clients per service from `PORTICO_<SERVICE>_CLIENT_ID` / `_CLIENT_SECRET` (+ optional redirect and endpoints). */
  oauthClients: Record<string, OAuthClientConfig>;
  /** Per-service upstream base URL overrides from `PORTICO_<SERVICE>_BASE_URL`. */
  baseUrls: Record<string, string>;
  /** Link-local and metadata destinations allowed anyway (`PORTICO_EGRESS_ALLOW_PRIVATE`): all, a list, or none. */
  egressAllowPrivate: 'all' | string[] | undefined;
  /** Hosts a workspace may point a stored base URL at besides the plugin's own (`PORTICO_WORKSPACE_UPSTREAM_HOSTS`). */
  workspaceUpstreamHosts: 'any' | string[] | undefined;
  upstreamTimeoutMs: number;
  upstreamRetries: number;
  retryAfterCapMs: number;
  /** Requests in flight per upstream connection for plugins that declare no concurrency (0: no cap). */
  upstreamMaxConcurrency: number;
  /** Calls that may wait for a slot per upstream connection. */
  upstreamQueueLength: number;
  /** Longest wait for a slot, ms (within the upstream time budget). */
  upstreamQueueWaitMs: number;
  /** Per-service overrides of the plugins' upstream limits from `PORTICO_<SERVICE>_UPSTREAM_LIMITS`. */
  upstreamLimits: Record<string, UpstreamLimits>;
  /** Largest upstream answer body, bytes (502 above it). */
  upstreamMaxResponseBytes: number;
  bodyLimitBytes: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** 32-byte key, base64 or hex; when absent a key file in the data directory is used (created on first run). */
  encryptionKey: string | undefined;
  /** Older keys, for decryption only, during a rotation (with PORTICO_ENCRYPTION_KEY). */
  previousEncryptionKeys: string[];
  /** MCP tool surface: compact (describe/search/call per service) or one tool per operation. */
  mcpTools: 'compact' | 'operations';
  /** Largest MCP tool result in bytes before it is shortened. */
  mcpResultBudget: number;
  /** Serve the legacy HTTP+SSE transport (2024-11-05) at /api/mcp/sse and /api/mcp/messages. */
  mcpLegacySse: boolean;
  /** Serve the dashboard at /dashboard (PORTICO_DASHBOARD, default on). */
  dashboard: boolean;
  /** Host names accepted in Host/Origin headers of /api requests (DNS-rebinding protection); undefined: derived. */
  allowedHosts: string[] | undefined;
  /** Origins whose pages may call /api/mcp and /api/v1 across origins (`PORTICO_CORS_ORIGINS`, server/cors.ts). */
  corsOrigins: string[];
  /** On SIGTERM/SIGINT, how long in-flight requests may take to finish before their connections are closed. */
  shutdownGraceMs: number;
  /**
   * On SIGTERM/SIGINT, how long the instance keeps serving (readiness 503, `Connection: close` on every answer) before
   * it stops listening, so that balancers move away without a dropped call.
   */
  drainSeconds: number;
  /** `serve`'s worker processes sharing the port (PORTICO_WORKERS or --workers; `auto`: one per available core). */
  workers: number;
  /** How often a serving instance reports its encryption keys (connections/key-agreement.ts in core). */
  heartbeatSeconds: number;
  /** Degraded mode: how long memory keeps serving after the database stops answering (store/outage.ts in core). */
  degradedSeconds: number;
  /** Events older than this many days are deleted as deliveries arrive; 0 keeps them forever. */
  eventsRetentionDays: number;
  /** Port of a separate, keyless `/metrics` listener; undefined: `/metrics` on the main port, for admin keys. */
  metricsPort: number | undefined;
  /** Interface of the metrics listener. */
  metricsHost: string;
  /** Audit records older than this many days are deleted in the background; 0 keeps them forever. */
  auditRetentionDays: number;
  /** Where audit records wait on disk while the database refuses them; undefined: in memory (lost at a stop). */
  auditSpoolDir: string | undefined;
  /** How much the audit spool may hold, bytes. */
  auditSpoolMaxBytes: number;
  /** Each audit record as it is recorded, as a JSON line: into the log (stdout) or appended to a file. */
  auditExport: { to: 'log' } | { to: 'file'; path: string } | undefined;
  /** Calls of operations a minute per API key (the token bucket's refill rate); 0 turns the rate limit off. */
  rateLimitPerMinute: number;
  /** Calls a key may make at once after being idle (the token bucket's size). */
  rateLimitBurst: number;
  /** Lifetimes of the built-in authorization server's tokens, seconds. */
  oauthAccessTokenSeconds: number;
  oauthRefreshTokenDays: number;
  /** Hosts a Client ID Metadata Document may be fetched from although not public (`PORTICO_OAUTH_CIMD_ALLOW_HOSTS`). */
  oauthCimdAllowHosts: string[];
  /** Extra certificate authorities (PEM) trusted for those fetches (`PORTICO_OAUTH_CIMD_CA_FILE`, read at start). */
  oauthCimdCa: string | undefined;
  /** The firm's identity provider whose JWTs both doors accept (PORTICO_OAUTH_ISSUER and its companions); none: unset. */
  oauthIssuer: ExternalIssuerOptions | undefined;
  /** Members sign in to the dashboard with the firm's OpenID Connect provider (PORTICO_OIDC_*); none: unset. */
  memberSignIn: MemberSignInOptions | undefined;
  /** Spans exported over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT and companions: config/otlp.ts); undefined: no tracing. */
  otlp: OtlpConfig | undefined;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): GatewayConfig {
  // Secrets given as files (PORTICO_ENCRYPTION_KEY_FILE…) are read once, first: everything below sees their values.
  const { env, problems } = readSecretFiles(environment);
  // A misspelt variable (PORTICO_DATABSE_URL) would otherwise be ignored and its default used: a fresh database
  problems.push(...unknownVariables(environment).refused);
  const reader = environmentReader(env, problems);
  const { read, int } = reader;
  const trusted = parseTrustedProxies(read('PORTICO_TRUST_PROXY'));
  problems.push(...trusted.problems);
  const url = (name: string, raw: string | undefined): string | undefined => {
    if (raw === undefined || raw === '') return undefined;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be an http(s) URL (got "${raw}")`);
      return undefined;
    }
  };

  const dataDir = resolve(reader.value('PORTICO_DATA_DIR'));
  const databaseUrl = read('PORTICO_DATABASE_URL') || `file:${resolve(dataDir, 'portico.db')}`;
  if (!databaseUrl.startsWith('file:') && databaseUrl !== ':memory:' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // only the scheme is echoed: the rest of a database URL may hold a password
    problems.push(`PORTICO_DATABASE_URL must be file:<path>, :memory: or postgres://… (got a "${databaseUrl.split(':')[0]}:" URL)`);
  }

  const migrate = reader.choose<GatewayConfig['migrate']>('PORTICO_MIGRATE');
  const databaseSchema = read('PORTICO_DATABASE_SCHEMA') || undefined;
  if (databaseSchema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    problems.push('PORTICO_DATABASE_SCHEMA must be a lowercase identifier (letters, digits, underscores)');
  }

  const logLevel = reader.choose<GatewayConfig['logLevel']>('PORTICO_LOG_LEVEL');

  const serviceRenames: Record<string, string> = {};
  for (const pair of (read('PORTICO_SERVICE_RENAMES') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [from, to] = pair.split('=').map((s) => s.trim());
    if (!from || !to || !/^[a-z][a-z0-9]{1,31}$/.test(to)) problems.push(`PORTICO_SERVICE_RENAMES: "${pair}" must look like notion=notes`);
    else serviceRenames[from] = to;
  }

  const oauthClients: Record<string, OAuthClientConfig> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^PORTICO_([A-Z0-9]+)_CLIENT_ID$/.exec(name);
    if (!match || !value) continue;
    const prefix = `PORTICO_${match[1]}`;
    const secret = env[`${prefix}_CLIENT_SECRET`];
    if (!secret) {
      problems.push(`${prefix}_CLIENT_ID is set but ${prefix}_CLIENT_SECRET is not`);
      continue;
    }
    const optional = (suffix: string) => url(`${prefix}_${suffix}`, env[`${prefix}_${suffix}`]);
    const redirectUri = optional('REDIRECT_URL');
    const authorizeUrl = optional('OAUTH_AUTHORIZE_URL');
    const tokenUrl = optional('OAUTH_TOKEN_URL');
    const revokeUrl = optional('OAUTH_REVOKE_URL');
    oauthClients[(match[1] as string).toLowerCase()] = {
      clientId: value,
      clientSecret: secret,
      ...(redirectUri ? { redirectUri } : {}),
      ...(authorizeUrl ? { authorizeUrl } : {}),
      ...(tokenUrl ? { tokenUrl } : {}),
      ...(revokeUrl ? { revokeUrl } : {}),
    };
  }

  const oauthCimdAllowHosts = (read('PORTICO_OAUTH_CIMD_ALLOW_HOSTS') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of oauthCimdAllowHosts) {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9_.:-]+)$/.test(entry))
      problems.push(`PORTICO_OAUTH_CIMD_ALLOW_HOSTS: "${entry}" is not a host name or IP address`);
  }
  let oauthCimdCa: string | undefined;
  const caFile = read('PORTICO_OAUTH_CIMD_CA_FILE');
  if (caFile) {
    try {
      oauthCimdCa = readFileSync(caFile, 'utf8');
      if (!oauthCimdCa.includes('-----BEGIN CERTIFICATE-----')) throw new Error('it holds no PEM certificate');
    } catch (error) {
      problems.push(`PORTICO_OAUTH_CIMD_CA_FILE: ${(error as Error).message}`);
    }
  }

  let corsOrigins: string[] = [];
  try {
    corsOrigins = parseCorsOrigins(read('PORTICO_CORS_ORIGINS'));
  } catch (error) {
    problems.push(`PORTICO_CORS_ORIGINS: ${(error as Error).message}`);
  }
  let egressAllowPrivate: GatewayConfig['egressAllowPrivate'];
  try {
    egressAllowPrivate = parseEgressAllowance(read('PORTICO_EGRESS_ALLOW_PRIVATE'));
  } catch (error) {
    problems.push(`PORTICO_EGRESS_ALLOW_PRIVATE: ${(error as Error).message}`);
  }
  let workspaceUpstreamHosts: GatewayConfig['workspaceUpstreamHosts'];
  try {
    workspaceUpstreamHosts = parseWorkspaceHosts(read('PORTICO_WORKSPACE_UPSTREAM_HOSTS'));
  } catch (error) {
    problems.push(`PORTICO_WORKSPACE_UPSTREAM_HOSTS: ${(error as Error).message}`);
  }
  const egress = new EgressPolicy(egressAllowPrivate ? { allowPrivate: egressAllowPrivate } : {});
  const baseUrls: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^PORTICO_([A-Z0-9]+)_BASE_URL$/.exec(name);
    if (!match) continue;
    const parsed = url(name, value);
    // link-local and metadata addresses are refused unless PORTICO_EGRESS_ALLOW_PRIVATE allows them
    const problem = parsed === undefined ? undefined : egress.baseUrlProblem(parsed, name);
    if (problem) problems.push(problem);
    else if (parsed) baseUrls[(match[1] as string).toLowerCase()] = parsed;
  }
  // The OAuth endpoint overrides are held to the same rule (a literal address never goes through the DNS guard).
  for (const [service, client] of Object.entries(oauthClients)) {
    for (const [suffix, value] of [
      ['OAUTH_AUTHORIZE_URL', client.authorizeUrl],
      ['OAUTH_TOKEN_URL', client.tokenUrl],
      ['OAUTH_REVOKE_URL', client.revokeUrl],
    ] as const) {
      const problem = value === undefined ? undefined : egress.baseUrlProblem(value, `PORTICO_${service.toUpperCase()}_${suffix}`);
      if (problem) problems.push(problem);
    }
  }

  const upstreamLimits: Record<string, UpstreamLimits> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^PORTICO_([A-Z0-9]+)_UPSTREAM_LIMITS$/.exec(name);
    if (!match || value === undefined || value === '') continue;
    try {
      upstreamLimits[(match[1] as string).toLowerCase()] = parseUpstreamLimits(value);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    }
  }

  const pluginList = read('PORTICO_PLUGINS');
  const plugins = pluginList
    ? pluginList
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  const extraPlugins = (read('PORTICO_EXTRA_PLUGINS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

  const mcpTools = reader.choose<GatewayConfig['mcpTools']>('PORTICO_MCP_TOOLS');
  const legacy = reader.choose('PORTICO_MCP_LEGACY_SSE');
  const dashboard = reader.choose('PORTICO_DASHBOARD');

  const host = reader.value('PORTICO_HOST');
  const allowedHosts = read('PORTICO_ALLOWED_HOSTS');
  const config: GatewayConfig = {
    host,
    port: int('PORTICO_PORT'),
    publicUrl: url('PORTICO_PUBLIC_URL', read('PORTICO_PUBLIC_URL')),
    dataDir,
    databaseUrl,
    migrate,
    databaseSchema,
    databasePoolSize: int('PORTICO_DATABASE_POOL_SIZE'),
    databaseLockPoolSize: int('PORTICO_DATABASE_LOCK_POOL_SIZE'),
    databaseApplicationName: reader.value('PORTICO_DATABASE_APPLICATION_NAME'),
    databaseWaitSeconds: int('PORTICO_DATABASE_WAIT_SECONDS'),
    databaseConnectSeconds: int('PORTICO_DATABASE_CONNECT_SECONDS'),
    trustProxy: trusted.proxies,
    plugins,
    extraPlugins,
    serviceRenames,
    oauthClients,
    baseUrls,
    egressAllowPrivate,
    workspaceUpstreamHosts,
    upstreamTimeoutMs: int('PORTICO_UPSTREAM_TIMEOUT_MS'),
    upstreamRetries: int('PORTICO_UPSTREAM_RETRIES'),
    retryAfterCapMs: int('PORTICO_RETRY_AFTER_CAP_MS'),
    upstreamMaxConcurrency: int('PORTICO_UPSTREAM_MAX_CONCURRENCY'),
    upstreamQueueLength: int('PORTICO_UPSTREAM_QUEUE_LENGTH'),
    upstreamQueueWaitMs: int('PORTICO_UPSTREAM_QUEUE_WAIT_MS'),
    upstreamLimits,
    upstreamMaxResponseBytes: int('PORTICO_UPSTREAM_MAX_RESPONSE_BYTES'),
    bodyLimitBytes: int('PORTICO_BODY_LIMIT_BYTES'),
    mcpResultBudget: int('PORTICO_MCP_RESULT_BUDGET'),
    shutdownGraceMs: int('PORTICO_SHUTDOWN_GRACE_MS'),
    drainSeconds: int('PORTICO_DRAIN_SECONDS'),
    workers: workerCount(read('PORTICO_WORKERS'), problems),
    heartbeatSeconds: int('PORTICO_INSTANCE_HEARTBEAT_SECONDS'),
    degradedSeconds: int('PORTICO_DEGRADED_SECONDS'),
    eventsRetentionDays: int('PORTICO_EVENTS_RETENTION_DAYS'),
    metricsPort: read('PORTICO_METRICS_PORT') ? int('PORTICO_METRICS_PORT') : undefined,
    metricsHost: reader.value('PORTICO_METRICS_HOST'),
    auditRetentionDays: int('PORTICO_AUDIT_RETENTION_DAYS'),
    auditSpoolDir: auditSpoolDir(read('PORTICO_AUDIT_SPOOL_DIR'), dataDir),
    auditSpoolMaxBytes: int('PORTICO_AUDIT_SPOOL_MAX_MB') * 1024 * 1024,
    auditExport: auditExport(read('PORTICO_AUDIT_EXPORT'), problems),
    rateLimitPerMinute: int('PORTICO_RATE_LIMIT_PER_MINUTE'),
    rateLimitBurst: int('PORTICO_RATE_LIMIT_BURST'),
    oauthAccessTokenSeconds: int('PORTICO_OAUTH_ACCESS_TOKEN_SECONDS'),
    oauthRefreshTokenDays: int('PORTICO_OAUTH_REFRESH_TOKEN_DAYS'),
    oauthCimdAllowHosts,
    oauthCimdCa,
    oauthIssuer: externalIssuer(reader, problems),
    memberSignIn: memberSignInConfig(env, problems),
    otlp: otlpConfig(env, problems),
    logLevel,
    encryptionKey: read('PORTICO_ENCRYPTION_KEY') || undefined,
    previousEncryptionKeys: (read('PORTICO_ENCRYPTION_PREVIOUS_KEYS') ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    mcpTools,
    mcpLegacySse: legacy === 'on',
    dashboard: dashboard === 'on',
    allowedHosts: allowedHosts
      ? allowedHosts
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean)
      : undefined,
    corsOrigins,
  };
  for (const [name, value] of [
    ['PORTICO_ENCRYPTION_KEY', config.encryptionKey],
    ...config.previousEncryptionKeys.map((k) => ['PORTICO_ENCRYPTION_PREVIOUS_KEYS', k] as const),
  ] as const) {
    if (value === undefined) continue;
    try {
      parseEncryptionKey(value);
    } catch {
      problems.push(`${name} must hold 32-byte keys, base64 (44 characters) or hex (64 characters)`);
    }
  }
  if (config.previousEncryptionKeys.length > 0 && !config.encryptionKey) {
    problems.push('PORTICO_ENCRYPTION_PREVIOUS_KEYS needs PORTICO_ENCRYPTION_KEY');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}

/** The most workers `serve` starts: past a host's cores they only add memory and database connections. */
export const MAX_WORKERS = 64;

/** PORTICO_WORKERS: 1 by default (one process, no IPC), `auto` one per available core, or a number up to {@link MAX_WORKERS}. */
function workerCount(value: string | undefined, problems: string[]): number {
  if (value === undefined || value === '') return 1;
  if (value === 'auto') return Math.min(MAX_WORKERS, availableParallelism());
  const count = Number(value);
  if (/^\d+$/.test(value) && count >= 1 && count <= MAX_WORKERS) return count;
  problems.push(`PORTICO_WORKERS (serve --workers) must be auto or a whole number from 1 to ${MAX_WORKERS} (got "${value.slice(0, 20)}")`);
  return 1;
}

/** `off` keeps held audit records in memory only; unset: a folder of the data directory. */
function auditSpoolDir(value: string | undefined, dataDir: string): string | undefined {
  if (value === 'off') return undefined;
  return resolve(value || resolve(dataDir, 'audit-spool'));
}

function auditExport(value: string | undefined, problems: string[]): GatewayConfig['auditExport'] {
  if (!value || value === 'off') return undefined;
  if (value === 'stdout') return { to: 'log' };
  if (value.startsWith('file:') && value.length > 'file:'.length) return { to: 'file', path: resolve(value.slice('file:'.length)) };
  problems.push('PORTICO_AUDIT_EXPORT must be off, stdout or file:<path>');
  return undefined;
}
