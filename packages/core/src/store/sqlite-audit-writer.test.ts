import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client/sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteAuditWriter } from './sqlite-audit-writer.js';

const SQL = 'INSERT INTO notes (text) SELECT value FROM json_each(?) ORDER BY key';

describe('SqliteAuditWriter', () => {
  it('fails the batch of a thread that could not open the database, and starts a new thread for the next', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'portico-writer-')), 'later');
    const writer = new SqliteAuditWriter(`file:${join(dir, 'p.db')}`, SQL);
    try {
      // the folder does not exist yet: the thread cannot open the file
      await expect(writer.write(JSON.stringify(['lost']))).rejects.toThrow();
      mkdirSync(dir);
      const db = createClient({ url: `file:${join(dir, 'p.db')}` });
      await db.execute('CREATE TABLE notes (text TEXT)');
      await writer.write(JSON.stringify(['first', 'second']));
      expect((await db.execute('SELECT text FROM notes ORDER BY rowid')).rows.map((r) => r.text)).toEqual(['first', 'second']);
      db.close();
    } finally {
      await writer.close();
    }
    await expect(writer.write(JSON.stringify(['late']))).rejects.toThrow('The audit writer is closed');
  });
});
