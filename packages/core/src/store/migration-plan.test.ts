import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client/sqlite3';
import { INSERT, migrationsUnderControl } from './migration-plan.test-support.js';
import { SqliteStore } from './sqlite.js';

migrationsUnderControl('SQLite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'portico-migrate-')), 'portico.db');
  return {
    store: new SqliteStore(path),
    async recordMigration(version, name) {
      const client = createClient({ url: `file:${path}` });
      try {
        await client.execute({ sql: INSERT, args: [version, name, new Date().toISOString()] });
      } finally {
        client.close();
      }
    },
  };
});
