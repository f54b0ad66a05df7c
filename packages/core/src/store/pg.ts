import { createRequire } from 'node:module';
import type pg from 'pg';
import { quoteIdent } from './postgres-schema.js';

/**
 * node-postgres, loaded by the first PostgresStore: a gateway on the embedded SQLite default never pays for it
 * (about 15 MiB and 60 ms of start-up). pg is CommonJS, so a synchronous require keeps the constructor synchronous.
 * It is an optional peer dependency of @portico/core (docs/adr/0017-dependencies.md): only a PostgreSQL
 * deployment installs it, and one that did not is told so.
 */
let pgModule: typeof pg | undefined;
export function loadPg(load?: (name: string) => unknown): typeof pg {
  if (pgModule && !load) return pgModule;
  try {
    const loaded = (load ?? createRequire(import.meta.url))('pg') as typeof pg;
    if (load) return loaded;
    pgModule = loaded;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'MODULE_NOT_FOUND' || !/'pg'/.test(String((error as Error).message))) throw error;
    throw new Error(
      'a PostgreSQL database needs the pg package (node-postgres), which is not installed: run `npm install pg` where @portico/core is installed (for the gateway: beside @portico/gateway), or leave PORTICO_DATABASE_URL unset for the embedded SQLite database',
    );
  }
  return pgModule;
}

/**
 * The query pool and the lock pool of a PostgresStore, both opening connections with the connect timeout. The schema
 * goes on the query sessions' search_path at connection start-up (the `options` startup parameter), so no query is
 * ever queued on a connection before the caller's own: pg 9 refuses concurrent queries on one client.
 */
export function openPools(
  connectionString: string,
  options: { schema?: string; poolSize?: number; lockPoolSize?: number; applicationName: string; connectTimeoutMs: number },
): { pool: pg.Pool; lockPool: pg.Pool } {
  const { Pool } = loadPg();
  const Client = clientWithConnectTimeout(options.connectTimeoutMs);
  const max = options.poolSize ?? 10;
  const startup = options.schema === undefined ? {} : { options: `-c search_path=${quoteIdent(options.schema)}` };
  const pool = new Pool({ Client, connectionString, max, application_name: options.applicationName, ...startup });
  const lockPool = new Pool({
    Client,
    connectionString,
    max: options.lockPoolSize ?? max,
    application_name: `${options.applicationName}:lock`,
  });
  // An idle pooled client whose server connection dies emits 'error' on the pool; unhandled, that would crash the
  // process. The pool drops the client and opens a new one on demand, so there is nothing else to do.
  pool.on('error', () => {});
  lockPool.on('error', () => {});
  return { pool, lockPool };
}

/**
 * node-postgres's Client with a connect timeout: a server that takes the TCP connection and never answers fails the
 * connect ("timeout expired") after `ms` instead of hanging it forever. Given to a pool as its `Client`, it bounds
 * opening a connection only: waiting for a free one of a full pool stays unbounded, as before.
 */
export function clientWithConnectTimeout(ms: number): typeof pg.Client {
  const { Client } = loadPg();
  return class extends Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: ms });
    }
  };
}
