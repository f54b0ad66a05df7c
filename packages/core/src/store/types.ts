import type { AuthorizationTables } from './authorization-types.js';
import type { ConnectionPolicy, ConnectionRecord } from './connection-types.js';
import type { EventTable } from './event-types.js';
import type { InstanceTable } from './instance-types.js';
import type { MemberTable } from './member-types.js';
import type { MigrateOptions, MigrationStatus } from './migration-types.js';
import type { RegistrationTable } from './registration-types.js';
import type { KeyScopes } from './scopes.js';
import type { SubscriptionTable } from './subscription-types.js';

/** Persistence contract: core talks to storage only through it; SQLite (`SqliteStore`, the default) and PostgreSQL
 * implement it with the same migrations. All state belongs to a workspace. */

export const DEFAULT_WORKSPACE = 'default';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

export type { InstanceRecord, InstanceTable } from './instance-types.js';
export type { KeyScopes } from './scopes.js';

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  /** SHA-256 of the full key, hex. The key itself is never stored. */
  hash: string;
  /** The first characters of the key, to recognise it in lists (`portico_AbC1…`). */
  prefix: string;
  scopes: KeyScopes;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** What a workspace holds: the records deleting it removes. */
export interface WorkspaceUsage {
  keys: number;
  connections: number;
  integrations: number;
  toolSets: number;
  auditRecords: number;
}

/**
 * One rule of a tool set: `match` is `service` or `service:operation`, either part a glob (`*` for any characters):
 * `clio`, `clio:list_matters`, `clio:list_*`, `*:report_*`. With `readOnly`, only the matched operations that read.
 */
export interface ToolSetRule {
  match: string;
  readOnly: boolean;
}

/** A named selection of operations of one workspace; API keys bound to it may call only these. */
export interface ToolSetRecord {
  workspaceId: string;
  /** Chosen by the operator, unique in the workspace (`intake`, `billing-readers`). */
  id: string;
  name: string;
  rules: ToolSetRule[];
  /** Incremented on every save: caches of the resolved set are keyed by (id, version). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface IntegrationSettingsRecord {
  workspaceId: string;
  service: string;
  mcpEnabled: boolean;
  restEnabled: boolean;
  /** Operator override of the upstream base URL, stored per workspace. */
  baseUrl: string | null;
  settings: Record<string, unknown>;
  /** Whose upstream account a member's call acts as; null (or absent): the default, {@link DEFAULT_CONNECTION_POLICY}. */
  connectionPolicy?: ConnectionPolicy | null;
  updatedAt: string;
}

export {
  CONNECTION_POLICIES,
  type ConnectionPolicy,
  type ConnectionRecord,
  type ConnectionStatus,
  DEFAULT_CONNECTION_POLICY,
} from './connection-types.js';

/** A pending OAuth authorization: created when an admin starts a connect flow, consumed once by the callback. */
export interface OAuthStateRecord {
  /** SHA-256 of the `state` value sent to the provider; the value itself is never stored. */
  stateHash: string;
  workspaceId: string;
  service: string;
  /** The API key that started the flow. */
  keyId: string | null;
  /** The member connecting their own account (a personal connection); null or absent: the shared connection. */
  memberId?: string | null;
  /** PKCE code verifier, encrypted; null when the provider does not use PKCE. */
  verifier: string | null;
  redirectUri: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface AuditRecord {
  at: string;
  workspaceId: string;
  keyId: string | null;
  service: string;
  operation: string;
  protocol: 'mcp' | 'rest' | 'dashboard' | 'admin' | 'cli';
  status: number;
  code: string | null;
  durationMs: number;
  clientAddress: string | null; // the socket's, or a trusted proxy's X-Forwarded-For; null: no request, or before v10
  memberId?: string | null; // the person behind the call (a member or their grant); absent or null: none, or before v12
  connection?: 'personal' | 'shared' | null; // which connection acted upstream; absent or null: none did, or before v13
}

/** An audit record as `queryAudit` lists it: with its id, which orders the records (a higher id was written later). */
export interface AuditEntry extends AuditRecord {
  id: string;
}

export type AuditStatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

/** Which audit records of a workspace to list: every filter given must match. */
export interface AuditQuery {
  workspaceId: string;
  service?: string;
  operation?: string;
  protocol?: AuditRecord['protocol'];
  /** An exact status (429) or a class ('4xx'). */
  status?: number | AuditStatusClass;
  code?: string;
  keyId?: string;
  /** At or after this time: ISO 8601 in UTC with milliseconds, as `at` is stored (`Date.prototype.toISOString`). */
  since?: string;
  /** Before this time (same form). */
  until?: string;
  /** Only records older than the one with this id: the `next` of the previous page. */
  before?: string;
  /** Page size. */
  limit: number;
}

export interface AuditPage {
  /** Newest first. */
  records: AuditEntry[];
  /** Where the next page starts (pass it as `before`); null on the last page. */
  next: string | null;
}

/** The operation calls (REST, MCP, dashboard) of a workspace, counted per service and time bucket, for a chart. */
export interface AuditSeriesQuery {
  workspaceId: string;
  /** At or after this time (the stored form: ISO 8601 UTC with milliseconds). */
  since: string;
  /** A bucket per minute (`substr(at, 1, 16)`) or per hour (`substr(at, 1, 13)`), in UTC. */
  bucket: 'minute' | 'hour';
}

/** One service's calls in one bucket. */
export interface AuditSeriesPoint {
  service: string;
  /** Start of the bucket, ISO 8601 UTC (`2026-01-31T12:05:00.000Z`). */
  at: string;
  calls: number;
  /** Calls answered with a status of 400 or more. */
  errors: number;
  /** The 95th percentile of the calls' durations (nearest rank), whole milliseconds. */
  p95Ms: number;
}

export interface AuditPruneLimits {
  /** Records deleted by one statement. */
  batchSize: number;
  /** Statements of one run. */
  maxBatches: number;
  /** Pause between statements, ms, so that other writers get the database in between (default 0). */
  pauseMs?: number;
}

export interface AuditPruneResult {
  deleted: number;
  /** Older records remain: the run stopped after `maxBatches` full batches. */
  more: boolean;
}

/**
 * What a write changed, for cache invalidation. `id` is the key id for `api_key`, the service key for
 * `integration` and `connection`, the tool set id for `tool_set` and the workspace id for `workspace` (renamed or
 * deleted: a deleted workspace's keys, settings, connections and tool sets are gone, drop them all). `id` (and `workspaceId`) `'*'` means "anything of this kind may have changed":
 * drop every cached entry of that kind. Stores send it when they cannot know what they missed (the PostgreSQL
 * LISTEN connection came back after a drop).
 */
export interface StoreChange {
  kind: 'api_key' | 'integration' | 'connection' | 'tool_set' | 'workspace';
  workspaceId: string;
  id: string;
}

export type StoreChangeListener = (change: StoreChange) => void;

export interface Store {
  /**
   * Creates or upgrades the schema, then ensures the default workspace exists. Safe to call on every start, and from
   * several processes at once where the store is shared (one migrates, the others wait). Throws a
   * `SchemaVersionError` (nothing changed) on a schema newer than the code, or pending migrations with `mode: 'never'`.
   */
  migrate(options?: MigrateOptions): Promise<void>;
  /** The applied and pending migrations, changing nothing (a database without tables: none applied). */
  migrationStatus(): Promise<MigrationStatus>;
  close(): Promise<void>;
  /** Cheap round trip for health checks. */
  ping(): Promise<void>;
  /**
   * Stores shared by several processes (PostgreSQL) implement this: whether the connection that hears other
   * processes' changes is up. A readiness probe reports an instance whose caches may be stale as not ready.
   */
  listening?(): boolean;

  getWorkspace(id: string): Promise<Workspace | undefined>;
  /** Every workspace, the default one first, then by creation. */
  listWorkspaces(): Promise<Workspace[]>;
  /** Creates a workspace; false (and nothing written) when the id is taken. */
  createWorkspace(workspace: Workspace): Promise<boolean>;
  renameWorkspace(id: string, name: string): Promise<boolean>;
  /** How many records the workspace holds; undefined when there is no such workspace. */
  workspaceUsage(id: string): Promise<WorkspaceUsage | undefined>;
  /**
   * Deletes a workspace and everything it holds (keys, integration settings, connections, tool sets, OAuth states,
   * dashboard sessions, audit records) in one transaction; returns what was removed, or undefined when there is no such workspace.
   */
  deleteWorkspace(id: string): Promise<WorkspaceUsage | undefined>;

  getToolSet(workspaceId: string, id: string): Promise<ToolSetRecord | undefined>;
  listToolSets(workspaceId: string): Promise<ToolSetRecord[]>;
  /** Insert or replace; sets version to the stored version + 1 (1 for a new set) and returns the stored record. */
  putToolSet(record: Omit<ToolSetRecord, 'version'>): Promise<ToolSetRecord>;
  deleteToolSet(workspaceId: string, id: string): Promise<boolean>;

  createApiKey(record: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  getApiKey(workspaceId: string, id: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(workspaceId: string, id: string, at: string): Promise<boolean>;
  touchApiKey(id: string, at: string): Promise<void>;

  getIntegration(workspaceId: string, service: string): Promise<IntegrationSettingsRecord | undefined>;
  listIntegrations(workspaceId: string): Promise<IntegrationSettingsRecord[]>;
  putIntegration(record: IntegrationSettingsRecord): Promise<void>;

  /** The shared connection of a service, or (with `memberId`) that member's personal one. */
  getConnection(workspaceId: string, service: string, memberId?: string | null): Promise<ConnectionRecord | undefined>;
  /** The workspace's shared connections. */
  listConnections(workspaceId: string): Promise<ConnectionRecord[]>;
  /** One member's personal connections. */
  listMemberConnections(workspaceId: string, memberId: string): Promise<ConnectionRecord[]>;
  /** Insert or replace; sets version to the stored version + 1 and returns it. */
  putConnection(record: Omit<ConnectionRecord, 'version'>): Promise<ConnectionRecord>;
  /**
   * Replaces a connection only if its version is still `expectedVersion` (compare-and-swap).
   * Returns the new record, or undefined when another writer got there first.
   */
  swapConnection(record: Omit<ConnectionRecord, 'version'>, expectedVersion: number): Promise<ConnectionRecord | undefined>;
  /** Deletes the shared connection of a service, or (with `memberId`) that member's personal one. */
  deleteConnection(workspaceId: string, service: string, memberId?: string | null): Promise<boolean>;
  /** Every connection of every workspace, shared and personal (for key rotation). */
  allConnections(): Promise<ConnectionRecord[]>;

  createOAuthState(record: OAuthStateRecord): Promise<void>;
  /**
   * Marks a state as used and returns it, in one atomic step, only if it exists and was not used before.
   * Expiry is for the caller to check (so that it can tell "expired" from "unknown or replayed").
   */
  consumeOAuthState(stateHash: string, at: string): Promise<OAuthStateRecord | undefined>;

  appendAudit(records: readonly AuditRecord[]): Promise<void>;
  listAudit(workspaceId: string, limit: number): Promise<AuditRecord[]>;
  /**
   * One page of a workspace's audit records matching `query`, newest first. The order is the id's, so paging with
   * `next` neither repeats nor skips a record while new ones are written.
   */
  queryAudit(query: AuditQuery): Promise<AuditPage>;
  /**
   * Calls, errors and p95 latency of a workspace's operation calls (protocols rest, mcp, dashboard; not OAuth events)
   * since a time, per service and minute or hour, ordered by bucket then service. Counted by the database, per
   * distinct duration, so that the percentile is exact without reading every record.
   */
  auditSeries(query: AuditSeriesQuery): Promise<AuditSeriesPoint[]>;
  /**
   * Deletes the audit records of every workspace written before `before` (their `at`), in bounded batches (see
   * `AuditPruneLimits`). PostgreSQL keeps them by month: a month's records go together, dropped with their partition
   * once the whole month is before `before` (rows outside any month partition go one by one). Resolves null, having
   * deleted nothing, when another process is pruning the same database (PostgreSQL: a try-lock, never a wait), so
   * that several instances take turns instead of doing the work twice.
   */
  pruneAudit(before: string, limits: AuditPruneLimits): Promise<AuditPruneResult | null>;

  /**
   * Runs `fn` while holding an exclusive lock for one connection (workspace + service), so that exactly one
   * token refresh runs at a time. The lock is shared by every process using the same database where the store
   * can do that (PostgreSQL: an advisory lock); SQLite, which serves a single process, locks in-process only.
   * Waiters queue (no polling); the lock is released when `fn` settles, also when it throws. `fn` must re-read
   * the connection after getting the lock (another holder may just have refreshed it) and should still write with
   * `swapConnection`: a lost database session can end a lock early. Do not nest locks.
   */
  withConnectionLock<T>(workspaceId: string, service: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` holding the lock `name`, for work that one process of those sharing the database must do at a time
   * (minting the first operator key). Same semantics as `withConnectionLock`: PostgreSQL, an advisory lock every
   * process shares; SQLite, in-process.
   */
  withClusterLock<T>(name: string, fn: () => Promise<T>): Promise<T>;

  /**
   * Stores shared by several processes (PostgreSQL) implement this: takes up to `want` whole tokens from the shared
   * token bucket `bucket` (created full when missing), refilled at `perMs` tokens a millisecond up to `burst` on a
   * clock every process shares, in one atomic step. The rate limiter leases from it in chunks (pipeline/rate-limit.ts); a
   * store that serves one process omits it, and the buckets stay in memory.
   */
  leaseTokens?(bucket: string, want: number, burst: number, perMs: number): Promise<{ granted: number; left: number }>;

  /**
   * Subscribes to changes made by the write methods (createApiKey, revokeApiKey, putIntegration, putConnection,
   * swapConnection, deleteConnection, putToolSet, deleteToolSet, renameWorkspace, deleteWorkspace; writes that change nothing are not reported; `touchApiKey` never is).
   * A write made through this store is reported synchronously, before its promise resolves. Writes made by other
   * processes are reported only by stores that share a database (PostgreSQL: LISTEN/NOTIFY), and only while the
   * listening connection is up: delivery is best effort, so caches must also expire after a bounded time.
   * A listener must not throw (an exception is swallowed so that it cannot fail the write). Returns an unsubscribe
   * function.
   */
  onChange(listener: StoreChangeListener): () => void;

  /** Dashboard sessions (the SQL: store/sessions.ts): in the database, so that every instance sharing it knows them. */
  readonly sessions: SessionTable;

  /** The built-in OAuth authorization server's clients, grants, codes and tokens (store/authorization-sql.ts). */
  readonly authorization: AuthorizationTables;
  /** Inbound events, the replay keys of recent deliveries and the signing secrets (store/events-sql.ts). */
  readonly events: EventTable;
  /** Outbound subscriptions, their delivery queue and attempt log (store/subscriptions-sql.ts). */
  readonly subscriptions: SubscriptionTable;
  /** The webhook subscriptions plugins registered with their applications (store/registrations-sql.ts). */
  readonly registrations: RegistrationTable;
  readonly members: MemberTable; // the people of workspaces, who sign in with the firm's provider (members-sql.ts)

  /** The gateway instances' heartbeats and the encryption keys each can decrypt with (store/instances.ts). */
  readonly instances: InstanceTable;
}

/**
 * A dashboard session as the store keeps it: the SHA-256 of the cookie's random id (never the id), whose admin key
 * signed in, and its clocks. Kept in the database so that a session started on one instance works on every instance
 * sharing it.
 */
export interface SessionRecord {
  idHash: string;
  workspaceId: string;
  keyId: string;
  createdAt: string;
  /** Written at most once a minute (see the dashboard's SessionStore). */
  lastSeenAt: string;
  /** The absolute end, whatever the use. */
  expiresAt: string;
}

export interface SessionTable {
  create(record: SessionRecord): Promise<void>;
  get(idHash: string): Promise<SessionRecord | undefined>;
  touch(idHash: string, at: string): Promise<void>;
  /** Ends one session; false when there was none. */
  delete(idHash: string): Promise<boolean>;
  /** Ends every session of a key; how many there were. */
  deleteOfKey(keyId: string): Promise<number>;
  /** Deletes the sessions past their absolute end (`expires_at <= now`) or last seen before `idleBefore`. */
  prune(now: string, idleBefore: string): Promise<number>;
}
