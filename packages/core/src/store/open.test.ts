import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from './open.js';
import { PostgresStore } from './postgres.js';
import { SqliteStore } from './sqlite.js';
import { DEFAULT_WORKSPACE } from './types.js';

describe('openStore', () => {
  it('opens SQLite for :memory:, file:<path> and file:// URLs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portico-open-'));
    for (const url of [':memory:', `file:${join(dir, 'a.db')}`, pathToFileURL(join(dir, 'b.db')).href]) {
      const store = openStore(url);
      expect(store).toBeInstanceOf(SqliteStore);
      await store.migrate();
      expect(await store.getWorkspace(DEFAULT_WORKSPACE)).toBeDefined();
      await store.close();
    }
  });

  it('opens PostgreSQL for postgres:// and postgresql:// (without connecting yet)', async () => {
    for (const url of ['postgres://u@127.0.0.1:1/db', 'postgresql://u@127.0.0.1:1/db']) {
      const store = openStore(url);
      expect(store).toBeInstanceOf(PostgresStore);
      await store.close();
    }
  });

  it('rejects other URLs without echoing them (they may carry a password)', () => {
    expect(() => openStore('mysql://user:s3cret@host/db')).toThrow(/Unsupported database URL \(scheme "mysql:"\)/);
    expect(() => openStore('mysql://user:s3cret@host/db')).not.toThrow(/s3cret/);
    expect(() => openStore('data/portico.db')).toThrow(/expected file:<path>/);
    expect(() => openStore('file:')).toThrow(/names no file/);
  });
});
