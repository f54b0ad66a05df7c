import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuditRecord, DEFAULT_WORKSPACE, SqliteStore, silentLogger } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/load.js';
import { startTestGateway } from '../gateway.test-support.js';
import { startAuditRetention } from './audit-retention.js';

// Audit retention: records older than PORTICO_AUDIT_RETENTION_DAYS go, at start and then periodically, in bounded
// runs; newer ones stay; 0 keeps everything. A fake clock and back-dated records stand in for the passing days.

const DAY = 86_400_000;
const NOW = Date.parse('2030-06-01T00:00:00.000Z');
const daysAgo = (days: number, from = NOW) => new Date(from - days * DAY).toISOString();

const record = (operation: string, at: string): AuditRecord => ({
  at,
  workspaceId: DEFAULT_WORKSPACE,
  keyId: 'key_1',
  service: 'example',
  operation,
  protocol: 'rest',
  status: 200,
  code: null,
  durationMs: 1,
  clientAddress: null,
});

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function memoryStore(): Promise<SqliteStore> {
  const store = new SqliteStore(':memory:');
  await store.migrate();
  cleanup.push(() => store.close());
  return store;
}

const operations = async (store: SqliteStore) => (await store.listAudit(DEFAULT_WORKSPACE, 1000)).map((r) => r.operation).sort();

async function until(condition: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('audit retention', () => {
  it('deletes at start only the records older than the retention, then again on its timer, and stops cleanly', async () => {
    const store = await memoryStore();
    let now = NOW;
    const pruned: number[] = [];
    await store.appendAudit([record('old', daysAgo(31)), record('edge', daysAgo(29)), record('new', daysAgo(1))]);
    const retention = startAuditRetention(store, silentLogger, { days: 30, everyMs: 40, now: () => now, onPruned: (n) => pruned.push(n) });
    if (!retention) throw new Error('retention should run');
    cleanup.push(() => retention.stop());
    await until(async () => (await operations(store)).length === 2);
    expect(await operations(store)).toEqual(['edge', 'new']);
    expect(pruned).toEqual([1]);

    // Two days later, on the timer: "edge" is now 31 days old.
    now += 2 * DAY;
    await until(async () => (await operations(store)).length === 1);
    expect(await operations(store)).toEqual(['new']);

    await retention.stop();
    await store.appendAudit([record('after-stop', daysAgo(365, now))]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await operations(store)).toEqual(['after-stop', 'new']);
  });

  it('works a backlog off in bounded runs, one soon after another', async () => {
    const store = await memoryStore();
    await store.appendAudit([...Array.from({ length: 7 }, (_, i) => record(`old${i}`, daysAgo(100 + i))), record('new', daysAgo(1))]);
    const runs: number[] = [];
    const retention = startAuditRetention(store, silentLogger, {
      days: 90,
      now: () => NOW,
      batchSize: 2,
      maxBatches: 1,
      soonMs: 5,
      everyMs: 60_000,
      onPruned: (n) => runs.push(n),
    });
    cleanup.push(async () => retention?.stop());
    await until(async () => (await operations(store)).length === 1);
    expect(await operations(store)).toEqual(['new']);
    expect(runs).toEqual([2, 2, 2, 1]); // never more than one batch of 2 a run
  });

  it('is off with 0 days', async () => {
    expect(startAuditRetention(await memoryStore(), silentLogger, { days: 0 })).toBeUndefined();
  });
});

describe('PORTICO_AUDIT_RETENTION_DAYS in a gateway', () => {
  /** A data directory whose database already holds a year-old record and a recent one. */
  async function dataDirWithOldRecords(): Promise<string> {
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-retention-'));
    const store = new SqliteStore(join(dataDir, 'portico.db'));
    await store.migrate();
    await store.appendAudit([record('year-old', daysAgo(365, Date.now())), record('recent', daysAgo(1, Date.now()))]);
    await store.close();
    return dataDir;
  }

  it('prunes old records at start, counts them in the metrics, and keeps everything with 0', async () => {
    const pruning = await startTestGateway({
      plugins: [examplePlugin],
      env: { PORTICO_DATA_DIR: await dataDirWithOldRecords(), PORTICO_AUDIT_RETENTION_DAYS: '30' },
    });
    cleanup.push(() => pruning.close());
    const store = pruning.runtime.store as SqliteStore;
    await until(async () => (await operations(store)).length === 1);
    expect(await operations(store)).toEqual(['recent']);
    const metrics = await pruning.rest('GET', '/metrics');
    expect(metrics.body).toMatch(/^portico_audit_pruned_total 1$/m);

    const keeping = await startTestGateway({
      plugins: [examplePlugin],
      env: { PORTICO_DATA_DIR: await dataDirWithOldRecords(), PORTICO_AUDIT_RETENTION_DAYS: '0' },
    });
    cleanup.push(() => keeping.close());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await operations(keeping.runtime.store as SqliteStore)).toEqual(['recent', 'year-old']);
  });

  it('is configured with whole days from 0, default 90; the metrics port and host likewise', () => {
    expect(loadConfig({})).toMatchObject({ auditRetentionDays: 90, metricsPort: undefined, metricsHost: '127.0.0.1' });
    expect(loadConfig({ PORTICO_AUDIT_RETENTION_DAYS: '0', PORTICO_METRICS_PORT: '9464', PORTICO_METRICS_HOST: '0.0.0.0' })).toMatchObject({
      auditRetentionDays: 0,
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
    });
    for (const env of [{ PORTICO_AUDIT_RETENTION_DAYS: '-1' }, { PORTICO_AUDIT_RETENTION_DAYS: '1.5' }, { PORTICO_METRICS_PORT: 'x' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
    }
  });
});
