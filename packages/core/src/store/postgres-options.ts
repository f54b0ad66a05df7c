import type { ListenState } from './postgres-notify.js';

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
  /** Shown in `pg_stat_activity` (default `portico`); the LISTEN connection adds `:listen`, lock sessions `:lock`. */
  applicationName?: string;
  /** Told when the LISTEN connection is lost, and when it is back (with how long it was down). */
  onListenState?: (state: ListenState) => void;
}
