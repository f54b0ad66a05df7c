import { DEFAULT_MCP_RESULT_BUDGET } from '@portico/core';

/**
 * Every environment variable the gateway reads, declared once: its name, its documented default and meaning (markdown),
 * and, for whole numbers and fixed words, how it is parsed. load.ts parses from here (its reads are typed by these
 * names), `portico env` lists it, and the table of docs/configuration.md is generated from it (`portico env --markdown`).
 */

/** A whole number: the value when unset, and the bounds a set value must keep. */
export interface IntegerRule {
  fallback: number;
  min: number;
  max: number;
}

export interface EnvironmentVariable {
  readonly name: string;
  /** The default as documented (markdown). */
  readonly default: string;
  /** What the variable sets (markdown). */
  readonly meaning: string;
  /** The value when unset, for a variable read as given. */
  readonly fallback?: string;
  readonly integer?: IntegerRule;
  /** The words it may be; the first is the default. */
  readonly choices?: readonly string[];
}

function integer<const N extends string>(name: N, rule: IntegerRule, meaning: string, shown = `\`${rule.fallback}\``) {
  return { name, default: shown, meaning, integer: rule };
}

function choice<const N extends string, const C extends readonly [string, ...string[]]>(name: N, choices: C, meaning: string) {
  return { name, default: `\`${choices[0]}\``, meaning, choices };
}

function text<const N extends string>(name: N, shown: string, meaning: string) {
  return { name, default: shown, meaning };
}

function value<const N extends string>(name: N, fallback: string, meaning: string) {
  return { name, default: `\`${fallback}\``, meaning, fallback };
}

const DECLARED = [
  value('PORTICO_HOST', '127.0.0.1', 'Interface to listen on (`0.0.0.0` to accept remote clients)'),
  integer('PORTICO_PORT', { fallback: 8787, min: 0, max: 65_535 }, 'TCP port'),
  text(
    'PORTICO_PUBLIC_URL',
    '`http://<host>:<port>`',
    'Base URL clients use; appears in OpenAPI `servers`. Also the address the gateway registers with applications told where to send their webhooks through their API (Clio; without it, none is registered)',
  ),
  value('PORTICO_DATA_DIR', './data', 'Directory of the embedded database and the generated encryption key'),
  text(
    'PORTICO_DATABASE_URL',
    '`file:<data dir>/portico.db`',
    'Database: `file:<path>` for embedded SQLite, `postgres://user:pass@host/db` for PostgreSQL (several instances)',
  ),
  text('PORTICO_DATABASE_SCHEMA', '`public`', 'PostgreSQL only: the schema holding Portico’s tables (created if missing)'),
  choice(
    'PORTICO_MIGRATE',
    ['auto', 'never'],
    '`auto`: apply pending schema migrations at start (one instance migrates, the others wait); `never`: refuse to start while any is pending (`portico migrate up` applies them)',
  ),
  integer(
    'PORTICO_DATABASE_WAIT_SECONDS',
    { fallback: 60, min: 0, max: 3_600 },
    'How long `serve` keeps retrying at start (250 ms doubling to 5 s, each retry logged) while the database cannot be reached; `0` exits at once',
  ),
  integer(
    'PORTICO_DATABASE_CONNECT_SECONDS',
    { fallback: 10, min: 1, max: 600 },
    'PostgreSQL only: how long opening a connection may take (a server that takes it and never answers fails the try instead of hanging it)',
  ),
  integer(
    'PORTICO_DATABASE_POOL_SIZE',
    { fallback: 10, min: 1, max: 1_000 },
    'PostgreSQL only: connections each instance opens for queries (plus the lock pool and one LISTEN connection)',
  ),
  integer(
    'PORTICO_DATABASE_LOCK_POOL_SIZE',
    { fallback: 10, min: 1, max: 1_000 },
    'PostgreSQL only: sessions each instance opens for connection locks (token refreshes); at most one per connection refreshing at once',
  ),
  value(
    'PORTICO_DATABASE_APPLICATION_NAME',
    'portico',
    'PostgreSQL only: `application_name` of the instance’s connections in `pg_stat_activity` (`:lock` and `:listen` added for the lock and LISTEN sessions)',
  ),
  text(
    'PORTICO_PLUGINS',
    'all installed first-party plugins',
    'Comma-separated plugin packages (or short names: `crm`, `accounting`, `practice`, `notes`, `chat`, `calls`); replaces the first-party list',
  ),
  text(
    'PORTICO_EXTRA_PLUGINS',
    '(none)',
    'Comma-separated plugin packages loaded in addition to `PORTICO_PLUGINS` (or to the first-party ones): third-party plugins, installed in the project or beside the gateway',
  ),
  text('PORTICO_SERVICE_RENAMES', '(none)', 'Rename service keys: `notion=notes,slack=chat`'),
  text('PORTICO_<SERVICE>_BASE_URL', "the plugin's upstream", 'Upstream base URL override for one service, e.g. `PORTICO_NOTION_BASE_URL`'),
  text(
    'PORTICO_EGRESS_ALLOW_PRIVATE',
    '`off`',
    'Base URLs on link-local (`169.254.0.0/16`, `fe80::/10`) or cloud metadata addresses and names (`169.254.169.254`…), and names resolving to them, are refused; `on` allows them all, or list the names, addresses and CIDR ranges to allow. Loopback and private ranges are allowed, except for event subscriber hosts (docs/security.md)',
  ),
  text(
    'PORTICO_WORKSPACE_UPSTREAM_HOSTS',
    '(none)',
    "Hosts a workspace admin may point an integration's base URL at besides the plugin's own: host names, `*.domain`, IP addresses, CIDR ranges, or `any`. Without it, a workspace base URL on loopback, a private range or any other host, or with userinfo, `?` or `#`, is refused (docs/security.md)",
  ),
  text(
    'PORTICO_<SERVICE>_CLIENT_ID',
    '(none)',
    'OAuth client id of one service (with `PORTICO_<SERVICE>_CLIENT_SECRET`): enables its connect flow',
  ),
  text('PORTICO_<SERVICE>_CLIENT_SECRET', '(none)', 'OAuth client secret of one service'),
  text(
    'PORTICO_<SERVICE>_REDIRECT_URL',
    '`<public URL>/api/connect/<service>/callback`',
    'OAuth redirect URL registered with the provider',
  ),
  text(
    'PORTICO_<SERVICE>_OAUTH_AUTHORIZE_URL',
    "the plugin's",
    'Override of the provider’s authorize endpoint (also `_OAUTH_TOKEN_URL`, `_OAUTH_REVOKE_URL`): regions, sandboxes',
  ),
  integer(
    'PORTICO_UPSTREAM_TIMEOUT_MS',
    { fallback: 30_000, min: 100, max: 600_000 },
    'Time budget of one upstream call, its retries and their waits included (504 past it)',
  ),
  integer(
    'PORTICO_UPSTREAM_MAX_RESPONSE_BYTES',
    { fallback: 10 * 1024 * 1024, min: 1024, max: 1024 * 1024 * 1024 },
    'Largest upstream answer body; a larger one is cut off and answered 502',
  ),
  integer(
    'PORTICO_UPSTREAM_RETRIES',
    { fallback: 2, min: 0, max: 5 },
    'Retries of idempotent upstream calls on network errors, 429, 502, 503, 504 (0–5)',
  ),
  integer(
    'PORTICO_RETRY_AFTER_CAP_MS',
    { fallback: 10_000, min: 0, max: 600_000 },
    'Longest `Retry-After` the gateway waits out itself; longer ones are returned as 429',
  ),
  integer(
    'PORTICO_UPSTREAM_MAX_CONCURRENCY',
    { fallback: 32, min: 0, max: 100_000 },
    'Requests in flight at once per upstream connection (workspace + service) for plugins that declare no limit; `0`: no cap (docs/security.md)',
  ),
  integer(
    'PORTICO_UPSTREAM_QUEUE_LENGTH',
    { fallback: 200, min: 0, max: 100_000 },
    'Calls that may wait for a slot of one upstream connection; one more is answered 429 `rate_limited` with `Retry-After`',
  ),
  integer(
    'PORTICO_UPSTREAM_QUEUE_WAIT_MS',
    { fallback: 10_000, min: 0, max: 600_000 },
    'Longest wait for a slot of an upstream connection (part of the upstream time budget, at most three quarters of it); then 429',
  ),
  text(
    'PORTICO_<SERVICE>_UPSTREAM_LIMITS',
    "the plugin's",
    'Override of one service’s upstream limits per connection, e.g. `PORTICO_CLIO_UPSTREAM_LIMITS=concurrency=8,per_minute=40` (also `per_second`, `per_hour`; `0` removes one), or `none`',
  ),
  integer(
    'PORTICO_BODY_LIMIT_BYTES',
    { fallback: 8 * 1024 * 1024, min: 1024, max: 256 * 1024 * 1024 },
    'Largest accepted request body (413 above it)',
  ),
  choice(
    'PORTICO_LOG_LEVEL',
    ['info', 'fatal', 'error', 'warn', 'debug', 'trace', 'silent'],
    '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  ),
  choice(
    'PORTICO_MCP_TOOLS',
    ['compact', 'operations'],
    '`compact`: `describe_method`, `search_methods` and `call_<service>`; `operations`: one tool per operation (`<service>_<operation>`)',
  ),
  integer(
    'PORTICO_MCP_RESULT_BUDGET',
    { fallback: DEFAULT_MCP_RESULT_BUDGET, min: 2048, max: 64 * 1024 * 1024 },
    'Largest MCP tool result in bytes; a larger one is shortened to valid JSON saying what was left out and how to page or narrow (docs/mcp.md)',
  ),
  choice(
    'PORTICO_MCP_LEGACY_SSE',
    ['off', 'on'],
    '`on`: also serve the 2024-11-05 HTTP+SSE transport at `/api/mcp/sse` (single instance only)',
  ),
  choice(
    'PORTICO_DASHBOARD',
    ['on', 'off'],
    '`on`: serve the dashboard at `/dashboard` (sign in with an admin API key); `off`: no dashboard routes at all',
  ),
  text(
    'PORTICO_ALLOWED_HOSTS',
    "loopback names and the public URL's host",
    'Host names accepted in the `Host` and `Origin` headers of `/api` requests (DNS-rebinding protection); `*` for any. On an interface other than loopback, this or `PORTICO_PUBLIC_URL` is required: the gateway refuses to start without either',
  ),
  text(
    'PORTICO_CORS_ORIGINS',
    '(none)',
    'Comma-separated origins (`https://app.example.com`, exactly as browsers send them) whose pages may call `/api/mcp` and `/api/v1` with a token: their preflights are answered and their answers carry `Access-Control-Allow-Origin`. Other origins get no CORS headers',
  ),
  integer(
    'PORTICO_RATE_LIMIT_PER_MINUTE',
    { fallback: 600, min: 0, max: 1_000_000_000 },
    'Calls of operations (REST and MCP) each API key may make a minute; above it 429 `rate_limited` with `Retry-After`. Shared by all instances on one PostgreSQL (docs/security.md). `0` turns it off',
  ),
  integer(
    'PORTICO_RATE_LIMIT_BURST',
    { fallback: 60, min: 1, max: 1_000_000_000 },
    'Calls an API key may make at once after being idle (the token bucket’s size), on top of which the per-minute rate refills',
  ),
  integer(
    'PORTICO_OAUTH_ACCESS_TOKEN_SECONDS',
    { fallback: 3600, min: 1, max: 86_400 },
    'Lifetime of the access tokens the built-in authorization server issues to MCP and REST clients (docs/mcp-authorization.md)',
  ),
  integer(
    'PORTICO_OAUTH_REFRESH_TOKEN_DAYS',
    { fallback: 30, min: 1, max: 365 },
    'How long an unused refresh token of the built-in authorization server stays valid; each use rotates it',
  ),
  text(
    'PORTICO_OAUTH_CIMD_ALLOW_HOSTS',
    '(none)',
    'Comma-separated hosts (names or IP addresses) a Client ID Metadata Document may be fetched from although they are not public (loopback, private): for a client on the firm’s own network, and for tests; https only (docs/mcp-authorization.md)',
  ),
  text(
    'PORTICO_OAUTH_CIMD_CA_FILE',
    '(none)',
    'A PEM file of certificate authorities trusted, besides the public ones, when fetching Client ID Metadata Documents',
  ),
  text(
    'PORTICO_OAUTH_ISSUER',
    '(none)',
    'An external identity provider’s issuer (its tokens’ `iss`, exactly): both doors then accept its JWTs too, and the resource metadata names it (docs/mcp-authorization.md)',
  ),
  text(
    'PORTICO_OAUTH_AUDIENCE',
    'the public URL',
    'What the provider’s tokens must name in `aud`; by default the public URL, or it with `/api/mcp` or `/api/v1`',
  ),
  text(
    'PORTICO_OAUTH_JWKS_URL',
    "the issuer's discovery document",
    'Where the provider’s signing keys are; by default `jwks_uri` of `<issuer>/.well-known/openid-configuration`',
  ),
  integer(
    'PORTICO_OAUTH_JWKS_REFETCH_SECONDS',
    { fallback: 30, min: 1, max: 3_600 },
    'Fewest seconds between two fetches of the provider’s keys when tokens name a key id not known yet (a rotation)',
  ),
  text(
    'PORTICO_OAUTH_CLAIM',
    '`portico`',
    'The claim of the provider’s tokens that names the workspace, services or tool set and write access (docs/mcp-authorization.md)',
  ),
  text(
    'PORTICO_OIDC_ISSUER',
    '(none)',
    'The firm’s OpenID Connect provider (Entra ID, Google Workspace, Okta, Keycloak): members sign in to the dashboard with it (docs/workspaces.md)',
  ),
  text('PORTICO_OIDC_CLIENT_ID', '(none)', 'The gateway’s client id at that provider'),
  text('PORTICO_OIDC_CLIENT_SECRET', '(none: a public client)', 'Its client secret (or `PORTICO_OIDC_CLIENT_SECRET_FILE`)'),
  text('PORTICO_OIDC_NAME', '`your identity provider`', 'The provider’s name on the sign-in button'),
  text(
    'PORTICO_OIDC_WORKSPACE',
    '`default`',
    'The workspace people provisioned from their groups join, and whose membership a sign-in chooses first',
  ),
  text('PORTICO_OIDC_GROUPS_CLAIM', '`groups`', 'The claim listing a person’s groups (Entra ID: `roles`)'),
  text(
    'PORTICO_OIDC_ROLE_GROUPS',
    '(none: invitations only)',
    '`admin=<group>,member=<group>` (also `owner=`): groups whose people become members with that role',
  ),
  integer(
    'PORTICO_METRICS_PORT',
    { fallback: 0, min: 0, max: 65_535 },
    'Serve Prometheus metrics at `/metrics` on this separate port, without a key (`0` picks a free port); unset: `/metrics` on the main port, for operator keys only',
    '(none)',
  ),
  value('PORTICO_METRICS_HOST', '127.0.0.1', 'Interface of the metrics port'),
  integer(
    'PORTICO_AUDIT_RETENTION_DAYS',
    { fallback: 90, min: 0, max: 36_500 },
    'Audit records older than this many days are deleted in the background (at start, then every 10 minutes; PostgreSQL: by whole months); `0` keeps them forever',
  ),
  text(
    'PORTICO_AUDIT_SPOOL_DIR',
    '`<data dir>/audit-spool`',
    'Where audit records wait on disk while the database refuses them, written when it returns (also by the next start); `off`: in memory only (up to 100,000, lost at a stop). One folder per host (docs/security.md)',
  ),
  integer(
    'PORTICO_AUDIT_SPOOL_MAX_MB',
    { fallback: 256, min: 1, max: 1_048_576 },
    'Size the audit spool may reach; records past it are dropped, counted in `portico_audit_records_total` and said in an error line',
  ),
  text(
    'PORTICO_AUDIT_EXPORT',
    '`off`',
    'Every audit record also as a JSON line, as it is recorded (even while the database is down): `stdout` (a log line with `msg` `audit`) or `file:<path>` (appended), for a log shipper or SIEM',
  ),
  integer(
    'PORTICO_SHUTDOWN_GRACE_MS',
    { fallback: 10_000, min: 0, max: 600_000 },
    'On `SIGTERM` or `SIGINT`: how long in-flight requests may take to finish before their connections are closed',
  ),
  integer(
    'PORTICO_DRAIN_SECONDS',
    { fallback: 0, min: 0, max: 3_600 },
    'On `SIGTERM` or `SIGINT`, before the grace period: seconds the instance keeps serving with `/readyz` answering 503, the connections open before closing after their next answer, so a balancer moves away without a dropped call. Set it above the balancer’s health-check interval × fall count (docs/deploy.md)',
  ),
  text(
    'PORTICO_WORKERS',
    '`1`',
    'Worker processes of `serve` sharing its port (as `serve --workers`): `1`–`64`, or `auto` for one per available core. The primary migrates and makes the first key before forking, replaces a worker that dies and holds the limits all workers share: upstream limits, sign-in and registration limits (docs/deploy.md)',
  ),
  integer(
    'PORTICO_INSTANCE_HEARTBEAT_SECONDS',
    { fallback: 10, min: 1, max: 3_600 },
    'How often a serving instance reports the encryption keys it can decrypt with to the database; an instance not heard from for three periods no longer holds back a new key (two-phase rotation, see docs/security.md)',
  ),
  integer(
    'PORTICO_DEGRADED_SECONDS',
    { fallback: 300, min: 0, max: 86_400 },
    'Degraded mode: how long after the database stops answering the API keys, OAuth tokens, settings and credentials already in memory keep serving; calls needing anything else answer 503 `unavailable` with `Retry-After` (0: none past the 5-second cache; see docs/deploy.md)',
  ),
  integer(
    'PORTICO_EVENTS_RETENTION_DAYS',
    { fallback: 30, min: 0, max: 36_500 },
    'Events received from the applications (docs/events.md) older than this many days are deleted, a few at each delivery to their workspace; `0` keeps them forever',
  ),
  integer(
    'PORTICO_EVENTS_DELIVERY_TIMEOUT_MS',
    { fallback: 10_000, min: 100, max: 120_000 },
    'Event subscriptions (docs/events.md): how long the gateway waits for a subscriber to answer one delivery before counting it failed',
  ),
  integer(
    'PORTICO_EVENTS_RETRY_FIRST_SECONDS',
    { fallback: 5, min: 1, max: 86_400 },
    'Event subscriptions: the wait before retrying a failed delivery, doubled after each further failure up to `PORTICO_EVENTS_RETRY_MAX_SECONDS`',
  ),
  integer(
    'PORTICO_EVENTS_RETRY_MAX_SECONDS',
    { fallback: 3_600, min: 1, max: 86_400 },
    'Event subscriptions: the longest wait between two attempts of one delivery',
  ),
  integer(
    'PORTICO_EVENTS_RETRY_HOURS',
    { fallback: 24, min: 0, max: 720 },
    'Event subscriptions: how long a delivery is retried from its first failure; after that it becomes a dead letter (redelivered on request) and the next event goes',
  ),
  text(
    'PORTICO_TRUST_PROXY',
    '(none)',
    'Comma-separated addresses or CIDR ranges of the reverse proxies in front of the gateway: behind them, the client address (access log, audit records, sign-in limit) is read from `X-Forwarded-For`',
  ),
  text(
    'PORTICO_SANDBOX_TODAY',
    "today's date in the firm's zone",
    'Sandbox mode only: the day (`YYYY-MM-DD`) the sandboxes take as today; their seeded data (yesterday’s calls, overdue invoices…) is laid out around it. Re-read at every `POST /__sandbox/reset`',
  ),
  text(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    '(none: no spans)',
    'OpenTelemetry: base URL of an OTLP/HTTP collector; set, the gateway records spans (request, upstream call, store) and exports them to `<URL>/v1/traces` (docs/deploy.md). Unset, the SDK is not even loaded',
  ),
  text('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '(none)', 'The full traces URL, used as given; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`'),
  text(
    'OTEL_EXPORTER_OTLP_PROTOCOL',
    '`http/protobuf`',
    '`http/protobuf` or `http/json` (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` wins over it); `grpc` is not offered',
  ),
  text(
    'OTEL_EXPORTER_OTLP_HEADERS',
    '(none)',
    'Headers sent with each export, `name=value` pairs (values percent-encoded) separated by commas, e.g. a collector key; `OTEL_EXPORTER_OTLP_TRACES_HEADERS` adds to them. Never logged',
  ),
  text('OTEL_SERVICE_NAME', '`portico`', '`service.name` of the exported spans'),
  text('OTEL_SDK_DISABLED', '`false`', '`true`: no spans even with an endpoint set'),
  text(
    'PORTICO_ENCRYPTION_KEY',
    '`<data dir>/encryption.key`',
    '32-byte key (base64 or hex) encrypting upstream credentials at rest; required on PostgreSQL (only the embedded database generates one)',
  ),
  text(
    'PORTICO_ENCRYPTION_PREVIOUS_KEYS',
    '(none)',
    'Comma-separated older keys that still decrypt during a rotation (with `PORTICO_ENCRYPTION_KEY`)',
  ),
] as const satisfies readonly EnvironmentVariable[];

/** Every variable the gateway reads, in the order the README lists them. */
export const ENVIRONMENT: readonly EnvironmentVariable[] = DECLARED;

type Declared = (typeof DECLARED)[number];
/** A variable the gateway reads by its exact name (not the per-service `PORTICO_<SERVICE>_…` ones). */
export type VariableName = Exclude<Declared['name'], `${string}<${string}`>;
export type IntegerName = Extract<Declared, { integer: IntegerRule }>['name'];
export type ChoiceName = Extract<Declared, { choices: readonly string[] }>['name'];
export type ValueName = Extract<Declared, { fallback: string }>['name'];

const byName = new Map<string, EnvironmentVariable>(ENVIRONMENT.map((variable) => [variable.name, variable]));

export const integerRule = (name: IntegerName): IntegerRule => byName.get(name)?.integer as IntegerRule;
export const choicesOf = (name: ChoiceName): readonly string[] => byName.get(name)?.choices as readonly string[];
export const fallbackOf = (name: ValueName): string => byName.get(name)?.fallback as string;
