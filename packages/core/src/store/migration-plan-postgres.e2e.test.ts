// The migration controls on PostgreSQL (on SQLite: migration-plan.test.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { INSERT, migrationsUnderControl } from './migration-plan.test-support.js';
import { PostgresStore } from './postgres.js';
import { dropSchemas, TEST_POSTGRES_URL as PG_URL } from './postgres.test-support.js';
import { numberPlaceholders } from './workspace-sql.js';

const schemas: string[] = [];

afterAll(async () => {
  await dropSchemas(...schemas);
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
