import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import {
  DEFAULT_MCP_RESULT_BUDGET,
  EgressPolicy,
  type ExternalIssuerOptions,
  type OAuthClientConfig,
  parseEgressAllowance,
  parseEncryptionKey,
  parseUpstreamLimits,
  parseWorkspaceHosts,
  type UpstreamLimits,
} from '@portico/core';
import { type MemberSignInOptions, memberSignInConfig } from './member-sign-in.js';
import { type OtlpConfig, otlpConfig } from './otlp.js';
import { readSecretFiles } from './secret-files.js';
import { parseTrustedProxies } from './trusted-proxies.js';

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

/**
 * PORTICO_OAUTH_ISSUER (the provider's `iss`, exactly), PORTICO_OAUTH_AUDIENCE, PORTICO_OAUTH_JWKS_URL and
 * PORTICO_OAUTH_CLAIM; the companions without the issuer are a mistake worth saying.
 */
function externalIssuer(env: NodeJS.ProcessEnv, problems: string[]): ExternalIssuerOptions | undefined {
  const issuer = env.PORTICO_OAUTH_ISSUER || undefined;
  const companions = [
    'PORTICO_OAUTH_AUDIENCE',
    'PORTICO_OAUTH_JWKS_URL',
    'PORTICO_OAUTH_CLAIM',
    'PORTICO_OAUTH_JWKS_REFETCH_SECONDS',
  ].filter((name) => env[name]);
  if (!issuer) {
    if (companions.length > 0) problems.push(`${companions.join(', ')} need PORTICO_OAUTH_ISSUER`);
    return undefined;
  }
  for (const [name, value] of [
    ['PORTICO_OAUTH_ISSUER', issuer],
    ['PORTICO_OAUTH_JWKS_URL', env.PORTICO_OAUTH_JWKS_URL],
  ] as const) {
    if (!value) continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(value);
    } catch {}
    const loopback = parsed?.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(parsed.hostname);
    if (parsed?.protocol !== 'https:' && !loopback) problems.push(`${name} must be an https URL (got "${value}")`);
  }
  const claim = env.PORTICO_OAUTH_CLAIM || undefined;
  if (claim !== undefined && !/^[A-Za-z0-9_.:/-]{1,100}$/.test(claim)) problems.push('PORTICO_OAUTH_CLAIM must be a claim name');
  const floor = Number(env.PORTICO_OAUTH_JWKS_REFETCH_SECONDS || 30);
  if (!Number.isInteger(floor) || floor < 1 || floor > 3600) problems.push('PORTICO_OAUTH_JWKS_REFETCH_SECONDS must be 1 to 3600');
  return {
    issuer,
    jwksRefetchFloorMs: floor * 1000,
    audience: env.PORTICO_OAUTH_AUDIENCE || undefined,
    jwksUri: env.PORTICO_OAUTH_JWKS_URL || undefined,
    claim,
  };
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): GatewayConfig {
  // Secrets given as files (PORTICO_ENCRYPTION_KEY_FILE…) are read once, first: everything below sees their values.
  const { env, problems } = readSecretFiles(environment);
  const trusted = parseTrustedProxies(env.PORTICO_TRUST_PROXY);
  problems.push(...trusted.problems);
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
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

  const dataDir = resolve(env.PORTICO_DATA_DIR || './data');
  const databaseUrl = env.PORTICO_DATABASE_URL || `file:${resolve(dataDir, 'portico.db')}`;
  if (!databaseUrl.startsWith('file:') && databaseUrl !== ':memory:' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // only the scheme is echoed: the rest of a database URL may hold a password
    problems.push(`PORTICO_DATABASE_URL must be file:<path>, :memory: or postgres://… (got a "${databaseUrl.split(':')[0]}:" URL)`);
  }

  const migrate = (env.PORTICO_MIGRATE || 'auto') as GatewayConfig['migrate'];
  if (migrate !== 'auto' && migrate !== 'never') problems.push('PORTICO_MIGRATE must be auto or never');
  const databaseSchema = env.PORTICO_DATABASE_SCHEMA || undefined;
  if (databaseSchema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    problems.push('PORTICO_DATABASE_SCHEMA must be a lowercase identifier (letters, digits, underscores)');
  }

  const logLevel = (env.PORTICO_LOG_LEVEL || 'info') as GatewayConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`PORTICO_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const serviceRenames: Record<string, string> = {};
  for (const pair of (env.PORTICO_SERVICE_RENAMES ?? '')
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

  const oauthCimdAllowHosts = (env.PORTICO_OAUTH_CIMD_ALLOW_HOSTS ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of oauthCimdAllowHosts) {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9_.:-]+)$/.test(entry))
      problems.push(`PORTICO_OAUTH_CIMD_ALLOW_HOSTS: "${entry}" is not a host name or IP address`);
  }
  let oauthCimdCa: string | undefined;
  if (env.PORTICO_OAUTH_CIMD_CA_FILE) {
    try {
      oauthCimdCa = readFileSync(env.PORTICO_OAUTH_CIMD_CA_FILE, 'utf8');
      if (!oauthCimdCa.includes('-----BEGIN CERTIFICATE-----')) throw new Error('it holds no PEM certificate');
    } catch (error) {
      problems.push(`PORTICO_OAUTH_CIMD_CA_FILE: ${(error as Error).message}`);
    }
  }

  let egressAllowPrivate: GatewayConfig['egressAllowPrivate'];
  try {
    egressAllowPrivate = parseEgressAllowance(env.PORTICO_EGRESS_ALLOW_PRIVATE);
  } catch (error) {
    problems.push(`PORTICO_EGRESS_ALLOW_PRIVATE: ${(error as Error).message}`);
  }
  let workspaceUpstreamHosts: GatewayConfig['workspaceUpstreamHosts'];
  try {
    workspaceUpstreamHosts = parseWorkspaceHosts(env.PORTICO_WORKSPACE_UPSTREAM_HOSTS);
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

  const plugins = env.PORTICO_PLUGINS
    ? env.PORTICO_PLUGINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  const extraPlugins = (env.PORTICO_EXTRA_PLUGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

  const mcpTools = (env.PORTICO_MCP_TOOLS || 'compact') as GatewayConfig['mcpTools'];
  if (mcpTools !== 'compact' && mcpTools !== 'operations') problems.push('PORTICO_MCP_TOOLS must be compact or operations');
  const legacy = env.PORTICO_MCP_LEGACY_SSE || 'off';
  if (legacy !== 'on' && legacy !== 'off') problems.push('PORTICO_MCP_LEGACY_SSE must be on or off');
  const dashboard = env.PORTICO_DASHBOARD || 'on';
  if (dashboard !== 'on' && dashboard !== 'off') problems.push('PORTICO_DASHBOARD must be on or off');

  const host = env.PORTICO_HOST || '127.0.0.1';
  const config: GatewayConfig = {
    host,
    port: int('PORTICO_PORT', 8787, 0, 65535),
    publicUrl: url('PORTICO_PUBLIC_URL', env.PORTICO_PUBLIC_URL),
    dataDir,
    databaseUrl,
    migrate,
    databaseSchema,
    databasePoolSize: int('PORTICO_DATABASE_POOL_SIZE', 10, 1, 1_000),
    databaseLockPoolSize: int('PORTICO_DATABASE_LOCK_POOL_SIZE', 10, 1, 1_000),
    databaseApplicationName: env.PORTICO_DATABASE_APPLICATION_NAME || 'portico',
    databaseWaitSeconds: int('PORTICO_DATABASE_WAIT_SECONDS', 60, 0, 3_600),
    trustProxy: trusted.proxies,
    plugins,
    extraPlugins,
    serviceRenames,
    oauthClients,
    baseUrls,
    egressAllowPrivate,
    workspaceUpstreamHosts,
    upstreamTimeoutMs: int('PORTICO_UPSTREAM_TIMEOUT_MS', 30_000, 100, 600_000),
    upstreamRetries: int('PORTICO_UPSTREAM_RETRIES', 2, 0, 5),
    retryAfterCapMs: int('PORTICO_RETRY_AFTER_CAP_MS', 10_000, 0, 600_000),
    upstreamMaxConcurrency: int('PORTICO_UPSTREAM_MAX_CONCURRENCY', 32, 0, 100_000),
    upstreamQueueLength: int('PORTICO_UPSTREAM_QUEUE_LENGTH', 200, 0, 100_000),
    upstreamQueueWaitMs: int('PORTICO_UPSTREAM_QUEUE_WAIT_MS', 10_000, 0, 600_000),
    upstreamLimits,
    upstreamMaxResponseBytes: int('PORTICO_UPSTREAM_MAX_RESPONSE_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    bodyLimitBytes: int('PORTICO_BODY_LIMIT_BYTES', 8 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    mcpResultBudget: int('PORTICO_MCP_RESULT_BUDGET', DEFAULT_MCP_RESULT_BUDGET, 2048, 64 * 1024 * 1024),
    shutdownGraceMs: int('PORTICO_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    drainSeconds: int('PORTICO_DRAIN_SECONDS', 0, 0, 3_600),
    workers: workerCount(env.PORTICO_WORKERS, problems),
    heartbeatSeconds: int('PORTICO_INSTANCE_HEARTBEAT_SECONDS', 10, 1, 3_600),
    metricsPort: env.PORTICO_METRICS_PORT ? int('PORTICO_METRICS_PORT', 0, 0, 65535) : undefined,
    metricsHost: env.PORTICO_METRICS_HOST || '127.0.0.1',
    auditRetentionDays: int('PORTICO_AUDIT_RETENTION_DAYS', 90, 0, 36_500),
    auditSpoolDir: auditSpoolDir(env.PORTICO_AUDIT_SPOOL_DIR, dataDir),
    auditSpoolMaxBytes: int('PORTICO_AUDIT_SPOOL_MAX_MB', 256, 1, 1_048_576) * 1024 * 1024,
    auditExport: auditExport(env.PORTICO_AUDIT_EXPORT, problems),
    rateLimitPerMinute: int('PORTICO_RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000_000),
    rateLimitBurst: int('PORTICO_RATE_LIMIT_BURST', 60, 1, 1_000_000_000),
    oauthAccessTokenSeconds: int('PORTICO_OAUTH_ACCESS_TOKEN_SECONDS', 3600, 1, 86_400),
    oauthRefreshTokenDays: int('PORTICO_OAUTH_REFRESH_TOKEN_DAYS', 30, 1, 365),
    oauthCimdAllowHosts,
    oauthCimdCa,
    oauthIssuer: externalIssuer(env, problems),
    memberSignIn: memberSignInConfig(env, problems),
    otlp: otlpConfig(env, problems),
    logLevel,
    encryptionKey: env.PORTICO_ENCRYPTION_KEY || undefined,
    previousEncryptionKeys: (env.PORTICO_ENCRYPTION_PREVIOUS_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    mcpTools,
    mcpLegacySse: legacy === 'on',
    dashboard: dashboard === 'on',
    allowedHosts: env.PORTICO_ALLOWED_HOSTS
      ? env.PORTICO_ALLOWED_HOSTS.split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean)
      : undefined,
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
