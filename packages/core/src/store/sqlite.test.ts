import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { conn } from './samples.test-support.js';
import { SqliteStore } from './sqlite.js';
import { DEFAULT_WORKSPACE } from './types.js';

// Behaviour shared with PostgreSQL is in the store contract (contract*.ts, run by contract.test.ts); this file keeps
// what only a file database has.
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function open(path: string) {
  const store = new SqliteStore(path);
  stores.push(store);
  await store.migrate();
  return store;
}

describe('SqliteStore', () => {
  it('migrates a file database idempotently and keeps data across reopen', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'portico-store-')), 'nested', 'p.db');
    const first = await open(path);
    await first.putConnection(conn('notion', { secret: 'enc1:x' }));
    await first.close();
    stores.splice(0);
    const second = await open(path);
    expect(await second.getConnection(DEFAULT_WORKSPACE, 'notion')).toMatchObject({ secret: 'enc1:x', version: 1 });
    expect(await second.getWorkspace(DEFAULT_WORKSPACE)).toMatchObject({ id: DEFAULT_WORKSPACE });
  });
});
