import { MEMBER_SIGN_IN_VARIABLES } from './member-sign-in.js';
/** Every environment variable the gateway reads, with its meaning and default: the source of the docs table. */
export const ENVIRONMENT: ReadonlyArray<{ name: string; default: string; meaning: string }> = [
  { name: 'PORTICO_HOST', default: '127.0.0.1', meaning: 'Interface to listen on (0.0.0.0 to accept remote clients)' },
  { name: 'PORTICO_PORT', default: '8787', meaning: 'TCP port' },
  { name: 'PORTICO_PUBLIC_URL', default: 'http://<host>:<port>', meaning: 'Base URL clients use; appears in OpenAPI servers' },
  { name: 'PORTICO_DATA_DIR', default: './data', meaning: 'Directory of the embedded database and the generated encryption key' },
  {
    name: 'PORTICO_DATABASE_URL',
    default: 'file:<data dir>/portico.db',
    meaning: 'Database: file:<path> for embedded SQLite, postgres://user:pass@host/db for PostgreSQL (several instances)',
  },
  {
    name: 'PORTICO_DATABASE_SCHEMA',
    default: 'public',
    meaning: 'PostgreSQL only: the schema holding Portico’s tables (created if missing)',
  },
  {
    name: 'PORTICO_MIGRATE',
    default: 'auto',
    meaning:
      "auto: apply pending schema migrations at start (one instance migrates, the others wait); never: refuse to start while any is pending ('portico migrate up' applies them)",
  },
  {
    name: 'PORTICO_DATABASE_POOL_SIZE',
    default: '10',
    meaning: 'PostgreSQL only: connections each instance opens for queries (plus the lock pool and one LISTEN connection)',
  },
  {
    name: 'PORTICO_DATABASE_WAIT_SECONDS',
    default: '60',
    meaning:
      'How long serve keeps retrying at start (250 ms doubling to 5 s, each retry logged) while the database cannot be reached; 0 exits at once',
  },
  {
    name: 'PORTICO_DATABASE_APPLICATION_NAME',
    default: 'portico',
    meaning:
      'PostgreSQL only: application_name of the instance’s connections in pg_stat_activity (:lock and :listen added for the lock and LISTEN sessions)',
  },
  {
    name: 'PORTICO_DATABASE_LOCK_POOL_SIZE',
    default: '10',
    meaning:
      'PostgreSQL only: sessions each instance opens for connection locks (token refreshes); at most one per connection refreshing at once',
  },
  {
    name: 'PORTICO_PLUGINS',
    default: 'all installed first-party plugins',
    meaning: 'Comma-separated plugin packages (or short names: notes, chat, calls…); replaces the first-party list',
  },
  {
    name: 'PORTICO_EXTRA_PLUGINS',
    default: '(none)',
    meaning:
      'Comma-separated plugin packages loaded in addition to PORTICO_PLUGINS (or to the first-party ones): third-party plugins, installed in the project or beside the gateway',
  },
  { name: 'PORTICO_SERVICE_RENAMES', default: '(none)', meaning: 'Rename service keys: notion=notes,slack=chat' },
  {
    name: 'PORTICO_<SERVICE>_BASE_URL',
    default: "the plugin's upstream",
    meaning: 'Upstream base URL override for one service, e.g. PORTICO_NOTION_BASE_URL',
  },
  {
    name: 'PORTICO_EGRESS_ALLOW_PRIVATE',
    default: 'off',
    meaning:
      'Base URLs on link-local (169.254.0.0/16, fe80::/10) or cloud metadata addresses and names, and names resolving to them, are refused; on allows them all, or list the host names, addresses and CIDR ranges to allow. Loopback and private ranges are always allowed',
  },
  {
    name: 'PORTICO_WORKSPACE_UPSTREAM_HOSTS',
    default: '(none)',
    meaning:
      "Hosts a workspace admin may point an integration's base URL at besides the plugin's own: host names, *.domain, IP addresses, CIDR ranges, or any. Without it, workspace base URLs on loopback, private or other hosts, with userinfo, ? or # are refused",
  },
  {
    name: 'PORTICO_<SERVICE>_CLIENT_ID',
    default: '(none)',
    meaning: 'OAuth client id of one service (with PORTICO_<SERVICE>_CLIENT_SECRET): enables its connect flow',
  },
  { name: 'PORTICO_<SERVICE>_CLIENT_SECRET', default: '(none)', meaning: 'OAuth client secret of one service' },
  {
    name: 'PORTICO_<SERVICE>_REDIRECT_URL',
    default: '<public URL>/api/connect/<service>/callback',
    meaning: 'OAuth redirect URL registered with the provider',
  },
  {
    name: 'PORTICO_<SERVICE>_OAUTH_AUTHORIZE_URL',
    default: "the plugin's",
    meaning: 'Override of the provider’s authorize endpoint (also _OAUTH_TOKEN_URL, _OAUTH_REVOKE_URL): regions, sandboxes',
  },
  {
    name: 'PORTICO_UPSTREAM_TIMEOUT_MS',
    default: '30000',
    meaning: 'Time budget of one upstream call, its retries and their waits included (504 past it)',
  },
  {
    name: 'PORTICO_UPSTREAM_MAX_RESPONSE_BYTES',
    default: '10485760',
    meaning: 'Largest upstream answer body; a larger one is cut off and answered 502',
  },
  {
    name: 'PORTICO_UPSTREAM_RETRIES',
    default: '2',
    meaning: 'Retries of idempotent upstream calls on network errors, 429, 502, 503, 504 (0–5)',
  },
  {
    name: 'PORTICO_UPSTREAM_MAX_CONCURRENCY',
    default: '32',
    meaning: 'Requests in flight at once per upstream connection (workspace + service) for plugins that declare no limit; 0: no cap',
  },
  {
    name: 'PORTICO_UPSTREAM_QUEUE_LENGTH',
    default: '200',
    meaning: 'Calls that may wait for a slot of one upstream connection; one more is answered 429 rate_limited with Retry-After',
  },
  {
    name: 'PORTICO_UPSTREAM_QUEUE_WAIT_MS',
    default: '10000',
    meaning: 'Longest wait for a slot of an upstream connection (part of the upstream time budget, at most three quarters of it); then 429',
  },
  {
    name: 'PORTICO_<SERVICE>_UPSTREAM_LIMITS',
    default: "the plugin's",
    meaning:
      'Override of one service’s upstream limits per connection, e.g. PORTICO_CLIO_UPSTREAM_LIMITS=concurrency=8,per_minute=40 (also per_second, per_hour; 0 removes one), or none',
  },
  {
    name: 'PORTICO_RETRY_AFTER_CAP_MS',
    default: '10000',
    meaning: 'Longest Retry-After the gateway waits out itself; longer ones are returned as 429',
  },
  { name: 'PORTICO_BODY_LIMIT_BYTES', default: '8388608', meaning: 'Largest accepted request body (413 above it)' },
  { name: 'PORTICO_LOG_LEVEL', default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent' },
  {
    name: 'PORTICO_ENCRYPTION_PREVIOUS_KEYS',
    default: '(none)',
    meaning: 'Comma-separated older keys that still decrypt during a rotation (with PORTICO_ENCRYPTION_KEY)',
  },
  {
    name: 'PORTICO_MCP_TOOLS',
    default: 'compact',
    meaning: 'compact: describe_method, search_methods and call_<service>; operations: one tool per operation (<service>_<operation>)',
  },
  {
    name: 'PORTICO_MCP_RESULT_BUDGET',
    default: '32768',
    meaning: 'Largest MCP tool result in bytes; a larger one is shortened to valid JSON saying what was left out and how to page or narrow',
  },
  {
    name: 'PORTICO_MCP_LEGACY_SSE',
    default: 'off',
    meaning: 'on: also serve the 2024-11-05 HTTP+SSE transport at /api/mcp/sse (single instance only)',
  },
  {
    name: 'PORTICO_DASHBOARD',
    default: 'on',
    meaning: 'on: serve the dashboard at /dashboard (sign in with an admin API key); off: no dashboard routes at all',
  },
  {
    name: 'PORTICO_ALLOWED_HOSTS',
    default: "loopback names and the public URL's host",
    meaning:
      'Host names accepted in the Host and Origin headers of /api requests (DNS-rebinding protection); * for any. On an interface other than loopback, this or PORTICO_PUBLIC_URL is required',
  },
  {
    name: 'PORTICO_RATE_LIMIT_PER_MINUTE',
    default: '600',
    meaning:
      'Calls of operations (REST and MCP) each API key may make a minute; above it 429 rate_limited with Retry-After. Shared by all instances on one PostgreSQL. 0 turns it off',
  },
  {
    name: 'PORTICO_RATE_LIMIT_BURST',
    default: '60',
    meaning: 'Calls an API key may make at once after being idle (the token bucket’s size), on top of which the per-minute rate refills',
  },
  {
    name: 'PORTICO_OAUTH_ACCESS_TOKEN_SECONDS',
    default: '3600',
    meaning: 'Lifetime of the access tokens the built-in authorization server issues to MCP and REST clients (docs/mcp-authorization.md)',
  },
  {
    name: 'PORTICO_OAUTH_REFRESH_TOKEN_DAYS',
    default: '30',
    meaning: 'How long an unused refresh token of the built-in authorization server stays valid; each use rotates it',
  },
  {
    name: 'PORTICO_OAUTH_CIMD_ALLOW_HOSTS',
    default: '(none)',
    meaning:
      'Comma-separated hosts (names or IP addresses) a Client ID Metadata Document may be fetched from although they are not public (loopback, private): for a client on the firm’s own network, and for tests. Documents are fetched over https only',
  },
  {
    name: 'PORTICO_OAUTH_CIMD_CA_FILE',
    default: '(none)',
    meaning: 'A PEM file of certificate authorities trusted, besides the public ones, when fetching Client ID Metadata Documents',
  },
  {
    name: 'PORTICO_OAUTH_ISSUER',
    default: '(none)',
    meaning:
      "An external identity provider's issuer (its tokens' iss, exactly): both doors then accept its JWTs too, and the resource metadata names it (docs/mcp-authorization.md)",
  },
  {
    name: 'PORTICO_OAUTH_AUDIENCE',
    default: 'the public URL',
    meaning: "What the provider's tokens must name in aud; by default the public URL, or it with /api/mcp or /api/v1",
  },
  {
    name: 'PORTICO_OAUTH_JWKS_URL',
    default: "the issuer's discovery document",
    meaning: "Where the provider's signing keys are; by default jwks_uri of <issuer>/.well-known/openid-configuration",
  },
  {
    name: 'PORTICO_OAUTH_JWKS_REFETCH_SECONDS',
    default: '30',
    meaning: "Fewest seconds between two fetches of the provider's keys when tokens name a key id not known yet (a rotation)",
  },
  ...MEMBER_SIGN_IN_VARIABLES,
  {
    name: 'PORTICO_OAUTH_CLAIM',
    default: 'portico',
    meaning:
      'The claim of the provider’s tokens that names the workspace, services or tool set and write access (docs/mcp-authorization.md)',
  },
  {
    name: 'PORTICO_METRICS_PORT',
    default: '(none)',
    meaning:
      'Serve Prometheus metrics at /metrics on this separate port, without a key (0 picks a free port); unset: /metrics on the main port, for operator keys only',
  },
  { name: 'PORTICO_METRICS_HOST', default: '127.0.0.1', meaning: 'Interface of the metrics port' },
  {
    name: 'PORTICO_AUDIT_RETENTION_DAYS',
    default: '90',
    meaning:
      'Audit records older than this many days are deleted in the background (at start, then every 10 minutes); 0 keeps them forever',
  },
  {
    name: 'PORTICO_AUDIT_SPOOL_DIR',
    default: '<data dir>/audit-spool',
    meaning:
      'Where audit records wait on disk while the database refuses them, written when it returns (also by the next start); off: in memory only (up to 100,000, lost at a stop). One folder per host',
  },
  {
    name: 'PORTICO_AUDIT_SPOOL_MAX_MB',
    default: '256',
    meaning:
      'Size the audit spool may reach; records past it are dropped, counted in portico_audit_records_total and said in an error line',
  },
  {
    name: 'PORTICO_AUDIT_EXPORT',
    default: 'off',
    meaning:
      'Every audit record also as a JSON line, as it is recorded (even while the database is down): stdout (a log line with msg "audit") or file:<path> (appended), for a log shipper or SIEM',
  },
  {
    name: 'PORTICO_SHUTDOWN_GRACE_MS',
    default: '10000',
    meaning: 'On SIGTERM or SIGINT: how long in-flight requests may take to finish before their connections are closed',
  },
  {
    name: 'PORTICO_DRAIN_SECONDS',
    default: '0',
    meaning:
      'On SIGTERM or SIGINT, before the grace period: seconds the instance keeps serving with /readyz answering 503 and Connection: close on every answer, so a balancer moves away without a dropped call. Set it above the balancer’s health-check interval × fall count',
  },
  {
    name: 'PORTICO_WORKERS',
    default: '1',
    meaning:
      'Worker processes of serve sharing its port (as serve --workers): a number from 1 to 64, or auto for one per available core. The primary migrates and makes the first key before forking, replaces a worker that dies, and holds the upstream limits all workers share (docs/deploy.md)',
  },
  {
    name: 'PORTICO_INSTANCE_HEARTBEAT_SECONDS',
    default: '10',
    meaning:
      'How often a serving instance reports the encryption keys it can decrypt with to the database; an instance not heard from for three periods no longer holds back a new key (two-phase rotation)',
  },
  {
    name: 'PORTICO_TRUST_PROXY',
    default: '(none)',
    meaning:
      'Comma-separated addresses or CIDR ranges of the reverse proxies in front of the gateway: behind them, the client address (access log, sign-in limit) is read from X-Forwarded-For',
  },
  {
    name: 'PORTICO_SANDBOX_TODAY',
    default: "today's UTC date",
    meaning:
      'Sandbox mode only: the day (YYYY-MM-DD) the sandboxes take as today; their seeded data (yesterday’s calls, overdue invoices…) is laid out around it. Re-read at every POST /__sandbox/reset',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    default: '(none: no spans)',
    meaning:
      'OpenTelemetry: base URL of an OTLP/HTTP collector; set, the gateway records spans (request, upstream call, store) and exports them to <URL>/v1/traces. Unset, the SDK is not even loaded',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    default: '(none)',
    meaning: 'The full traces URL, used as given; wins over OTEL_EXPORTER_OTLP_ENDPOINT',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    default: 'http/protobuf',
    meaning: 'http/protobuf or http/json (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL wins over it); grpc is not offered',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    default: '(none)',
    meaning:
      'Headers sent with each export, name=value pairs (values percent-encoded) separated by commas, e.g. a collector key; OTEL_EXPORTER_OTLP_TRACES_HEADERS adds to them. Never logged',
  },
  { name: 'OTEL_SERVICE_NAME', default: 'portico', meaning: 'service.name of the exported spans' },
  { name: 'OTEL_SDK_DISABLED', default: 'false', meaning: 'true: no spans even with an endpoint set' },
  {
    name: 'PORTICO_ENCRYPTION_KEY',
    default: '<data dir>/encryption.key',
    meaning: '32-byte key (base64 or hex) encrypting upstream credentials at rest',
  },
];
