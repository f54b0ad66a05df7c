import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client/sqlite3';
import { describe, it } from 'vitest';
import { SqliteStore } from './sqlite.js';
import { checkUpgraded, previousRelease } from './upgrade.test-support.js';

/**
 * Upgrade in place: a database made by the previous release (schema version 4, before workspaces could be managed
 * and before tool sets) holding keys, settings, connections, OAuth states and audit records is opened by this code.
 * Nothing may be lost, and the keys must keep working with the powers they had.
 */

describe('upgrading a database made by the previous release', () => {
  it('SQLite: keeps every record, and the keys keep working', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'portico-upgrade-')), 'portico.db');
    const client = createClient({ url: `file:${path}` });
    await previousRelease(async (sql, args = []) => {
      await client.execute({ sql, args: args as never });
    }, 'sqlite');
    client.close();
    const store = new SqliteStore(path);
    try {
      await checkUpgraded(store);
    } finally {
      await store.close();
    }
  });
});
