import pg from 'pg';

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
