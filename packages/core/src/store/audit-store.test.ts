import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client/sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { audit, integration, T3 } from './samples.test-support.js';
import { SqliteStore } from './sqlite.js';
import { DEFAULT_WORKSPACE } from './types.js';

// The audit query and retention beyond the shared contract (contract-audit.test-support.ts): the upgrade of a database from the
// previous release, the indexes the queries use, and retention taking turns between PostgreSQL instances.

const OLD = '2020-01-01T00:00:00.000Z';
const CUTOFF = '2026-01-01T00:00:00.000Z';
const INDEXES = ['audit_at', 'audit_workspace_key', 'audit_workspace_service'];

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

describe('SqliteStore audit', () => {
  it('upgrades a database of the previous release: its records stay and become queryable through the new indexes', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'portico-audit-')), 'p.db');
    const first = new SqliteStore(path);
    await first.migrate();
    await first.appendAudit([audit('before-upgrade', { at: OLD }), audit('recent', { at: T3, service: 'slack' })]);
    await first.close();
    // Back to the previous release's schema: without migration 4.
    const raw = createClient({ url: `file:${path}` });
    for (const index of INDEXES) await raw.execute(`DROP INDEX ${index}`);
    await raw.execute('DELETE FROM schema_migrations WHERE version = 4');
    raw.close();

    const store = new SqliteStore(path);
    closing.push(() => store.close());
    await store.migrate();
    expect((await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 10 })).records.map((r) => r.operation)).toEqual([
      'recent',
      'before-upgrade',
    ]);
    const check = createClient({ url: `file:${path}` });
    closing.push(async () => check.close());
    const indexes = (await check.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit' ORDER BY name")).rows;
    expect(indexes.map((r) => r.name)).toEqual(expect.arrayContaining(INDEXES));
    // The plans: a service or key filter and the retention delete each use their index, not a scan of the table.
    const plan = async (sql: string, args: Array<string | number>) =>
      (await check.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args })).rows.map((r) => String(r.detail)).join('\n');
    expect(
      await plan('SELECT * FROM audit WHERE workspace_id = ? AND service = ? ORDER BY id DESC LIMIT ?', ['default', 'slack', 10]),
    ).toContain('audit_workspace_service');
    expect(
      await plan('SELECT * FROM audit WHERE workspace_id = ? AND key_id = ? ORDER BY id DESC LIMIT ?', ['default', 'k', 10]),
    ).toContain('audit_workspace_key');
    expect(await plan('SELECT id FROM audit WHERE at < ? ORDER BY at LIMIT ?', [CUTOFF, 10])).toContain('audit_at');
    expect(await store.pruneAudit(CUTOFF, { batchSize: 10, maxBatches: 1 })).toEqual({ deleted: 1, more: false });
  });
});

describe('SqliteStore audit writes from a thread of their own', () => {
  const fresh = async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'portico-audit-')), 'p.db');
    const store = new SqliteStore(path);
    await store.migrate();
    return { path, store };
  };

  it('keeps every batch, in order, beside writes on the event loop; closing waits for the batches in flight', async () => {
    const { path, store } = await fresh();
    const writes: Promise<void>[] = [];
    for (let batch = 0; batch < 20; batch++) {
      writes.push(store.appendAudit(Array.from({ length: 50 }, (_, n) => audit(`op_${batch * 50 + n}`))));
      // the event loop's own writes go on meanwhile, on the other connection
      await store.putIntegration(integration('slack', { mcpEnabled: batch % 2 === 0 }));
    }
    // not awaited: close must not lose them
    void Promise.allSettled(writes);
    await store.close();
    expect((await Promise.allSettled(writes)).every((w) => w.status === 'fulfilled')).toBe(true);

    const reopened = new SqliteStore(path);
    closing.push(() => reopened.close());
    await reopened.migrate();
    const check = createClient({ url: `file:${path}` });
    closing.push(async () => check.close());
    const rows = (await check.execute('SELECT operation FROM audit ORDER BY id')).rows.map((r) => String(r.operation));
    expect(rows).toHaveLength(1000);
    expect(rows).toEqual(Array.from({ length: 1000 }, (_, n) => `op_${n}`));
  });

  it('a batch it cannot write fails with what SQLite said, and the next batch is written', async () => {
    const { path, store } = await fresh();
    closing.push(() => store.close());
    const raw = createClient({ url: `file:${path}` });
    closing.push(async () => raw.close());
    await raw.execute('ALTER TABLE audit RENAME TO audit_aside');
    await expect(store.appendAudit([audit('lost')])).rejects.toThrow(/no such table: audit/);
    await raw.execute('ALTER TABLE audit_aside RENAME TO audit');
    await store.appendAudit([audit('kept')]);
    expect((await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 10 })).records.map((r) => r.operation)).toEqual(['kept']);
  });
});
