import { createRequire } from 'node:module';
import type pg from 'pg';

/**
 * node-postgres, loaded by the first PostgresStore: a gateway on the embedded SQLite default never pays for it
 * (about 15 MiB and 60 ms of start-up). pg is CommonJS, so a synchronous require keeps the constructor synchronous.
 * It is an optional peer dependency of @portico/core (docs/adr/0017-dependencies.md): only a PostgreSQL
 * deployment installs it, and one that did not is told so.
 */
let pgModule: typeof pg | undefined;
export function loadPg(load: (name: string) => unknown = createRequire(import.meta.url)): typeof pg {
  if (pgModule) return pgModule;
  try {
    pgModule = load('pg') as typeof pg;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'MODULE_NOT_FOUND' || !/'pg'/.test(String((error as Error).message))) throw error;
    throw new Error(
      'a PostgreSQL database needs the pg package (node-postgres), which is not installed: run `npm install pg` where @portico/core is installed (for the gateway: beside @portico/gateway), or leave PORTICO_DATABASE_URL unset for the embedded SQLite database',
    );
  }
  return pgModule;
}
