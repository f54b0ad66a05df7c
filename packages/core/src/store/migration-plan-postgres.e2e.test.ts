// The migration controls on PostgreSQL (on SQLite: migration-plan.test.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { INSERT, migrationsUnderControl } from './migration-plan.test-support.js';
import { PostgresStore } from './postgres.js';
import { numberPlaceholders } from './workspace-sql.js';

const PG_URL = process.env.PORTICO_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];

afterAll(async () => {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
});

migrationsUnderControl('PostgreSQL', () => {
  const schema = `portico_cluster_migrate_${randomBytes(4).toString('hex')}`;
  schemas.push(schema);
  return {
    store: new PostgresStore(PG_URL, { schema }),
    async recordMigration(version, name) {
      const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
      await client.connect();
      try {
        await client.query(numberPlaceholders(INSERT), [version, name, new Date().toISOString()]);
      } finally {
        await client.end();
      }
    },
  };
});
