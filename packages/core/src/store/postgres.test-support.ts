import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresStore } from './postgres.js';

/** The PostgreSQL the store tests use (PORTICO_TEST_POSTGRES_URL, else the machine's `test` database). */
export const TEST_POSTGRES_URL = process.env.PORTICO_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** PORTICO_REQUIRE_POSTGRES=1 (CI): a PostgreSQL that cannot be reached fails the tests instead of skipping them. */
export const POSTGRES_REQUIRED = process.env.PORTICO_REQUIRE_POSTGRES === '1';

/** For messages: the URL without a password. */
export const TEST_POSTGRES_SHOWN = TEST_POSTGRES_URL.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');

/** Decided once, before any test is declared: undefined when PostgreSQL answers, else why not. */
export async function postgresProblem(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Stores on one fresh schema named `prefix_<random>`, each with its own pool as separate gateway processes have
 * them: `open(count)` makes and migrates them, `close()` ends every one and drops the schema (for `afterAll`).
 */
export function storesOnOneSchema(prefix: string): { open(count: number): Promise<PostgresStore[]>; close(): Promise<void> } {
  const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
  const stores: PostgresStore[] = [];
  return {
    async open(count) {
      const made = Array.from({ length: count }, () => new PostgresStore(TEST_POSTGRES_URL, { schema, poolSize: 4 }));
      stores.push(...made);
      for (const store of made) await store.migrate();
      return made;
    },
    async close() {
      for (const store of stores.splice(0)) await store.close();
      await dropSchemas(schema);
    },
  };
}

/** Drops the schemas a test made on the test server (for `afterAll`), each with everything in it. */
export async function dropSchemas(...schemas: string[]): Promise<void> {
  if (schemas.length === 0) return;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}
