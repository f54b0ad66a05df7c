// The upgrade from the previous release on PostgreSQL (on SQLite: upgrade.test.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { PostgresStore } from './postgres.js';
import { checkUpgraded, previousRelease } from './upgrade.test-support.js';
import { numberPlaceholders } from './workspace-sql.js';

const PG_URL = process.env.PORTICO_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('upgrading a database made by the previous release', () => {
  const schema = `portico_upgrade_${randomBytes(5).toString('hex')}`;
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    try {
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } catch {
      // PostgreSQL unreachable: the test below said so
    } finally {
      await admin.end().catch(() => {});
    }
  });

  it('PostgreSQL: keeps every record, and the keys keep working', async (context) => {
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (error) {
      if (process.env.PORTICO_REQUIRE_POSTGRES === '1') throw error;
      context.skip(`PostgreSQL unreachable: ${(error as Error).message}`);
      return;
    }
    try {
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query(`SET search_path TO "${schema}"`);
      await previousRelease(async (sql, args = []) => {
        await client.query(numberPlaceholders(sql), args);
      }, 'postgres');
    } finally {
      await client.end();
    }
    const store = new PostgresStore(PG_URL, { schema });
    try {
      await checkUpgraded(store);
    } finally {
      await store.close();
    }
  });
});
