import { createRequire } from 'node:module';
import type pg from 'pg';

/**
 * node-postgres, loaded by the first PostgresStore: a gateway on the embedded SQLite default never pays for it
 * (about 15 MiB and 60 ms of start-up). pg is CommonJS, so a synchronous require keeps the constructor synchronous.
 */
let pgModule: typeof pg | undefined;
export function loadPg(): typeof pg {
  pgModule ??= createRequire(import.meta.url)('pg') as typeof pg;
  return pgModule;
}
