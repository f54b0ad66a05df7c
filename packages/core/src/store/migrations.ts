import { AUTHORIZATION_TABLES } from './authorization-sql.js';
import { EVENTS_TABLES } from './events-sql.js';
import { ENCRYPTION_PROBE_TABLE, INSTANCES_TABLE } from './instances.js';
import { MEMBERS_TABLES } from './members-sql.js';
import type { Migration } from './migration-types.js';
import { AUDIT_BY_MONTH } from './postgres-partitions.js';
import { REGISTRATIONS_TABLES } from './registrations-sql.js';
import { SESSIONS_TABLE } from './sessions.js';
import { SUBSCRIPTIONS_TABLES } from './subscriptions-sql.js';

export type { Migration } from './migration-types.js';

const core = [
  `CREATE TABLE workspaces (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     created_at TEXT NOT NULL)`,
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     name TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE,
     prefix TEXT NOT NULL,
     scopes TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     expires_at TEXT,
     revoked_at TEXT)`,
  `CREATE INDEX api_keys_workspace ON api_keys(workspace_id)`,
  `CREATE TABLE integrations (
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     service TEXT NOT NULL,
     mcp_enabled INTEGER NOT NULL,
     rest_enabled INTEGER NOT NULL,
     base_url TEXT,
     settings TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, service))`,
  `CREATE TABLE connections (
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     service TEXT NOT NULL,
     kind TEXT NOT NULL,
     secret TEXT NOT NULL,
     meta TEXT NOT NULL,
     status TEXT NOT NULL,
     expires_at TEXT,
     version INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, service))`,
];

const OAUTH_STATES = `CREATE TABLE oauth_states (
     state_hash TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     service TEXT NOT NULL,
     key_id TEXT,
     verifier TEXT,
     redirect_uri TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     used_at TEXT)`;

const TOOL_SETS = `CREATE TABLE tool_sets (
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     id TEXT NOT NULL,
     name TEXT NOT NULL,
     rules TEXT NOT NULL,
     version INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, id))`;

const AUDIT_INDEXES = [
  'CREATE INDEX audit_workspace_service ON audit(workspace_id, service, id)',
  'CREATE INDEX audit_workspace_key ON audit(workspace_id, key_id, id)',
  'CREATE INDEX audit_at ON audit(at)',
];

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'workspaces, api keys, integrations, connections, audit',
    sqlite: [
      ...core,
      `CREATE TABLE audit (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         at TEXT NOT NULL, workspace_id TEXT NOT NULL, key_id TEXT, service TEXT NOT NULL, operation TEXT NOT NULL,
         protocol TEXT NOT NULL, status INTEGER NOT NULL, code TEXT, duration_ms INTEGER NOT NULL)`,
      `CREATE INDEX audit_workspace_at ON audit(workspace_id, id)`,
    ],
    postgres: [
      ...core,
      `CREATE TABLE audit (
         id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
         at TEXT NOT NULL, workspace_id TEXT NOT NULL, key_id TEXT, service TEXT NOT NULL, operation TEXT NOT NULL,
         protocol TEXT NOT NULL, status INTEGER NOT NULL, code TEXT, duration_ms INTEGER NOT NULL)`,
      `CREATE INDEX audit_workspace_at ON audit(workspace_id, id)`,
    ],
  },
  {
    version: 2,
    name: 'single-use OAuth states',
    sqlite: [OAUTH_STATES],
    postgres: [OAUTH_STATES],
  },
  {
    version: 3,
    name: 'shared rate-limit buckets',
    // SQLite serves one process, whose buckets are in memory; PostgreSQL instances lease from these (postgres-rate.ts).
    sqlite: [],
    postgres: [
      `CREATE TABLE rate_buckets (
         bucket TEXT PRIMARY KEY,
         tokens DOUBLE PRECISION NOT NULL,
         granted DOUBLE PRECISION NOT NULL,
         updated_ms DOUBLE PRECISION NOT NULL)`,
    ],
  },
  {
    version: 4,
    name: 'audit query and retention indexes',
    // Filters an investigation starts from (service, key) in the listing's order, and `at` for time ranges and
    // retention (store/audit-sql.ts).
    sqlite: AUDIT_INDEXES,
    postgres: AUDIT_INDEXES,
  },
  {
    version: 5,
    name: 'tool sets; admin keys of the default workspace become operator keys',
    // Before workspaces could be managed, the default workspace's admin keys administered the whole gateway: they
    // keep that power as operator keys (docs/workspaces.md, "Upgrading").
    sqlite: [
      TOOL_SETS,
      `UPDATE api_keys SET scopes = json_set(scopes, '$.operator', json('true'))
       WHERE workspace_id = 'default' AND json_extract(scopes, '$.admin') = 1`,
    ],
    postgres: [
      TOOL_SETS,
      `UPDATE api_keys SET scopes = jsonb_set(scopes::jsonb, '{operator}', 'true'::jsonb)::text
       WHERE workspace_id = 'default' AND scopes::jsonb -> 'admin' = 'true'::jsonb`,
    ],
  },
  {
    version: 6,
    name: 'dashboard sessions',
    // Sessions of the dashboard, shared by every instance on one database (store/sessions.ts).
    sqlite: SESSIONS_TABLE,
    postgres: SESSIONS_TABLE,
  },
  {
    version: 7,
    name: 'OAuth clients, grants, codes and tokens',
    // The built-in authorization server of the MCP and REST doors (store/authorization-sql.ts, docs/mcp-authorization.md).
    sqlite: AUTHORIZATION_TABLES,
    postgres: AUTHORIZATION_TABLES,
  },
  {
    version: 8,
    name: 'gateway instances and their encryption keys',
    // Each instance's heartbeat: the keys it decrypts with, so that none seals with a key another lacks (store/instances.ts).
    sqlite: INSTANCES_TABLE,
    postgres: INSTANCES_TABLE,
  },
  {
    version: 9,
    name: 'sandbox upstreams shared by a cluster',
    // Sandbox mode on PostgreSQL: the instance hosting the sandbox upstreams publishes their base URLs here, and the
    // others point at them (store/postgres-cluster.ts, docs/adr/0013-sandbox-mode.md). SQLite serves one process, which hosts its own.
    sqlite: [],
    postgres: [
      `CREATE TABLE sandbox_upstreams (
         service TEXT PRIMARY KEY,
         url TEXT NOT NULL,
         host TEXT NOT NULL,
         updated_at TEXT NOT NULL)`,
    ],
  },
  {
    version: 10,
    name: 'client address in audit records',
    // The address of the caller (the socket's, or the one a trusted proxy forwarded: PORTICO_TRUST_PROXY); NULL for
    // records written before it, and for events no request made.
    sqlite: ['ALTER TABLE audit ADD COLUMN client_address TEXT'],
    postgres: ['ALTER TABLE audit ADD COLUMN client_address TEXT'],
  },
  {
    version: 11,
    name: 'upstream quotas shared by a cluster',
    // The per-minute and per-hour windows of each connection's upstream limits, which instances on PostgreSQL lease
    // tokens from in batches (store/postgres-quota.ts, upstream/shared-windows.ts). SQLite serves one process, whose
    // windows are in memory.
    sqlite: [],
    postgres: [
      `CREATE TABLE upstream_quotas (
         service TEXT NOT NULL,
         workspace_id TEXT NOT NULL,
         window_ms INTEGER NOT NULL,
         grant_ms DOUBLE PRECISION[] NOT NULL,
         grant_n INTEGER[] NOT NULL,
         granted INTEGER NOT NULL,
         PRIMARY KEY (service, workspace_id, window_ms))`,
    ],
  },
  {
    version: 12,
    name: 'members; the person behind grants and audit records',
    // The people of a workspace, who sign in with the firm's identity provider (store/members-sql.ts,
    // docs/workspaces.md); a grant and an audit record name the member behind them (NULL: a key, or before v12).
    sqlite: MEMBERS_TABLES,
    postgres: MEMBERS_TABLES,
  },
  {
    version: 13,
    name: 'personal connections; a connection policy per integration',
    // A member's own upstream account beside the workspace's shared one: a connection row names its member ('' for the
    // shared connection), an OAuth flow the member who started it, an audit record which connection acted, and an
    // integration which connection a member's call uses (NULL: the default, personal else shared). docs/workspaces.md.
    sqlite: [
      `CREATE TABLE connections_next (
         workspace_id TEXT NOT NULL REFERENCES workspaces(id),
         service TEXT NOT NULL,
         member_id TEXT NOT NULL DEFAULT '',
         kind TEXT NOT NULL,
         secret TEXT NOT NULL,
         meta TEXT NOT NULL,
         status TEXT NOT NULL,
         expires_at TEXT,
         version INTEGER NOT NULL,
         created_at TEXT NOT NULL,
         updated_at TEXT NOT NULL,
         PRIMARY KEY (workspace_id, service, member_id))`,
      `INSERT INTO connections_next (workspace_id, service, member_id, kind, secret, meta, status, expires_at, version, created_at, updated_at)
         SELECT workspace_id, service, '', kind, secret, meta, status, expires_at, version, created_at, updated_at FROM connections`,
      'DROP TABLE connections',
      'ALTER TABLE connections_next RENAME TO connections',
      'ALTER TABLE oauth_states ADD COLUMN member_id TEXT',
      'ALTER TABLE audit ADD COLUMN connection TEXT',
      'ALTER TABLE integrations ADD COLUMN connection_policy TEXT',
    ],
    postgres: [
      "ALTER TABLE connections ADD COLUMN member_id TEXT NOT NULL DEFAULT ''",
      'ALTER TABLE connections DROP CONSTRAINT connections_pkey',
      'ALTER TABLE connections ADD PRIMARY KEY (workspace_id, service, member_id)',
      'ALTER TABLE oauth_states ADD COLUMN member_id TEXT',
      'ALTER TABLE audit ADD COLUMN connection TEXT',
      'ALTER TABLE integrations ADD COLUMN connection_policy TEXT',
    ],
  },
  {
    version: 14,
    name: 'encryption probe',
    // One value sealed with the key the cluster seals with: an instance that cannot open it (a wrong or missing
    // encryption key) answers not ready instead of failing every upstream call (connections/key-agreement.ts).
    sqlite: ENCRYPTION_PROBE_TABLE,
    postgres: ENCRYPTION_PROBE_TABLE,
  },
  {
    version: 15,
    name: 'audit partitioned by month',
    // PostgreSQL: one partition per month of `at`, so that retention drops whole months instead of deleting their rows
    // (store/postgres-partitions.ts, docs/adr/0039-audit-partitioned-by-month.md). SQLite keeps its one table.
    sqlite: [],
    postgres: AUDIT_BY_MONTH,
  },
  {
    version: 16,
    name: 'inbound events',
    // Webhooks received from the applications, normalised, once per upstream event id; the replay keys of recent
    // deliveries; each workspace's signing secret per service, sealed (store/events-sql.ts, docs/events.md).
    ...EVENTS_TABLES,
  },
  {
    version: 17,
    name: 'outbound event subscriptions',
    // Subscribers of a workspace's events with their sealed signing secrets; each stored event queued for every
    // subscription by a trigger on `events`; the log of delivery attempts (store/subscriptions-sql.ts, docs/events.md).
    ...SUBSCRIPTIONS_TABLES,
  },
  {
    version: 18,
    name: 'webhook registrations',
    // The webhook subscriptions a plugin registered with its application for a workspace, one per topic (Clio's
    // models), each with its sealed secret, expiry and a renewal lease (store/registrations-sql.ts, docs/events.md).
    ...REGISTRATIONS_TABLES,
  },
];
