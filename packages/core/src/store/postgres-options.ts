// What a PostgreSQL store shows its users, without naming the driver's types (pg is an optional dependency: a
// consumer's type-check must not need its declarations).

/** The LISTEN connection went down (it was up), or came back (`downMs`: how long it was away). */
export type ListenState = { up: false; reason: string } | { up: true; downMs: number };

/** A sandbox upstream as published by the instance hosting it. */
export interface SandboxUpstream {
  service: string;
  url: string;
  /** The hosting instance's id. */
  host: string;
}

/** An instance's own database session for cluster-wide locks and the published sandbox upstreams (postgres-cluster.ts). */
export interface ClusterLink {
  /** Whether the session still answers. */
  alive(): Promise<boolean>;
  tryLock(name: string): Promise<boolean>;
  lockShared(name: string): Promise<void>;
  unlock(name: string): Promise<void>;
  publishSandboxUpstreams(host: string, upstreams: Record<string, string>): Promise<void>;
  sandboxUpstreams(): Promise<SandboxUpstream[]>;
  clearSandboxUpstreams(): Promise<void>;
  close(): void;
}

export interface PostgresStoreOptions {
  /** Schema for the tables, made by `migrate()` if missing, on every connection's `search_path` (default: the role's). */
  schema?: string;
  /** Connections for queries (default 10). */
  poolSize?: number;
  /**
   * Sessions for connection locks (default: `poolSize`): a second pool, so that callers waiting for a lock never hold
   * the connections that the lock holder needs for its own queries. Each instance also holds one LISTEN connection.
   */
  lockPoolSize?: number;
  /**
   * How long opening a database connection may take, ms (default 10,000): a server that takes the TCP connection and
   * never answers fails the connect with "timeout expired" instead of hanging the start, a query or the LISTEN session.
   */
  connectTimeoutMs?: number;
  /** Shown in `pg_stat_activity` (default `portico`); the LISTEN connection adds `:listen`, lock sessions `:lock`. */
  applicationName?: string;
  /** Told when the LISTEN connection is lost, and when it is back (with how long it was down). */
  onListenState?: (state: ListenState) => void;
}
