import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { SqliteStore } from '../store/sqlite.js';
import type { AuditRecord, Store } from '../store/types.js';
import { AuditLog } from './audit-log.js';
import { AuditSpool } from './audit-spool.js';
import { type AuditTrailCounts, Observers } from './observers.js';

/** A store whose audit writes fail while `down` is set; everything else is a real SQLite store. */
async function flakyStore(): Promise<{ store: Store; setDown(down: boolean): void }> {
  const real = new SqliteStore(':memory:');
  await real.migrate();
  let down = false;
  const store = new Proxy(real, {
    get(target, name, receiver) {
      if (name === 'appendAudit') {
        return (records: AuditRecord[]) => (down ? Promise.reject(new Error('connection refused')) : target.appendAudit(records));
      }
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, setDown: (value) => (down = value) };
}

function recordingLogger(): { logger: Logger; lines: Array<{ level: string; msg: string; fields: unknown }> } {
  const lines: Array<{ level: string; msg: string; fields: unknown }> = [];
  const at = (level: string) => (fields: unknown, msg?: string) => lines.push({ level, msg: msg ?? String(fields), fields });
  const logger = {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
  } as unknown as Logger;
  return { logger, lines };
}

const record = (n: number): AuditRecord => ({
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  workspaceId: 'default',
  keyId: null,
  service: 'example',
  operation: `op_${n}`,
  protocol: 'rest',
  status: 200,
  code: null,
  durationMs: 1,
  clientAddress: null,
});

it('holds the records of a failed write and writes them, in order, once the store takes them again', async () => {
  const { store, setDown } = await flakyStore();
  const counts: AuditTrailCounts[] = [];
  const observers = new Observers();
  observers.add({ auditTrail: (c) => counts.push(c) });
  const { logger, lines } = recordingLogger();
  const audit = new AuditLog(store, logger, 60_000, observers);
  try {
    setDown(true);
    audit.request(record(1));
    audit.request(record(2));
    await audit.flush();
    audit.request(record(3));
    await audit.flush();
    expect(audit.heldRecords).toBe(3);
    expect(await store.listAudit('default', 10)).toEqual([]);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    setDown(false);
    await audit.flush();
    expect(audit.heldRecords).toBe(0);
    const written = await store.listAudit('default', 10);
    expect(written.map((r) => r.operation).sort()).toEqual(['op_1', 'op_2', 'op_3']);
    expect(counts).toEqual([{ held: 2, dropped: 0 }, { held: 1, dropped: 0 }, { written: 3 }]);
    expect(lines.some((l) => l.level === 'error')).toBe(false);
  } finally {
    audit.stop();
    await store.close();
  }
});

it('drops the oldest records past the hold limit, counts them and says so in an error line', async () => {
  const { store, setDown } = await flakyStore();
  const counts: AuditTrailCounts[] = [];
  const observers = new Observers();
  observers.add({ auditTrail: (c) => counts.push(c) });
  const { logger, lines } = recordingLogger();
  const audit = new AuditLog(store, logger, 60_000, observers, 3);
  try {
    setDown(true);
    for (let n = 1; n <= 5; n++) audit.request(record(n));
    await audit.flush();
    expect(audit.heldRecords).toBe(3);
    expect(counts).toEqual([{ held: 5, dropped: 2 }]);
    expect(lines.filter((l) => l.level === 'error')).toEqual([expect.objectContaining({ fields: { dropped: 2, holdLimit: 3 } })]);
    setDown(false);
    await audit.flush();
    expect((await store.listAudit('default', 10)).map((r) => r.operation).sort()).toEqual(['op_3', 'op_4', 'op_5']);
    setDown(true);
    audit.request(record(6));
    await audit.flush();
    await audit.abandonHeld(); // the gateway stops while the database is still down
    expect(counts.at(-1)).toEqual({ dropped: 1 });
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(2);
  } finally {
    audit.stop();
    await store.close();
  }
});

describe('with a spool on disk', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portico-audit-spool-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps refused records on disk across a stop, and the next start writes each one once', async () => {
    const { store, setDown } = await flakyStore();
    const { logger, lines } = recordingLogger();
    const first = new AuditLog(store, logger, 60_000, new Observers(), { spool: new AuditSpool({ dir, maxBytes: 1_000_000 }) });
    setDown(true);
    for (let n = 1; n <= 4; n++) first.request(record(n));
    await first.flush();
    first.request(record(5));
    await first.flush();
    expect(first.heldRecords).toBe(0); // nothing waits in memory
    await first.abandonHeld(); // stopped while the database is down: nothing is dropped
    first.stop();
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ level: 'warn', fields: { records: 5, dir } });
    const onDisk = readdirSync(dir);
    expect(onDisk).toHaveLength(1);
    expect((statSync(join(dir, onDisk[0] as string)).mode & 0o777).toString(8)).toBe('600');

    // The gateway starts again (the stop released its file to whoever drains next), and the database is back.
    setDown(false);
    const counts: AuditTrailCounts[] = [];
    const observers = new Observers();
    observers.add({ auditTrail: (c) => counts.push(c) });
    const second = new AuditLog(store, logger, 60_000, observers, { spool: new AuditSpool({ dir, maxBytes: 1_000_000 }) });
    second.request(record(6));
    await second.flush();
    await second.flush();
    second.stop();
    const written = (await store.listAudit('default', 10)).map((r) => r.operation).sort();
    expect(written).toEqual(['op_1', 'op_2', 'op_3', 'op_4', 'op_5', 'op_6']);
    // the new record first, then those from disk (each keeps the time of its call)
    expect(counts).toEqual([{ written: 1 }, { written: 5 }]);
    expect(readdirSync(dir)).toEqual([]);
    await store.close();
  });

  it('leaves the file of a live process alone, and takes over the file of one that is gone', async () => {
    const { store } = await flakyStore();
    const line = (n: number) => `${JSON.stringify(record(n))}\n`;
    // pid 1 always runs; a pid past the kernel's maximum never does.
    writeFileSync(join(dir, 'held-1-aaaa.jsonl'), line(1));
    writeFileSync(join(dir, 'held-99999999-bbbb.jsonl'), line(2) + line(3));
    const spool = new AuditSpool({ dir, maxBytes: 1_000_000 });
    const audit = new AuditLog(store, recordingLogger().logger, 60_000, new Observers(), { spool });
    await audit.flush();
    audit.stop();
    expect((await store.listAudit('default', 10)).map((r) => r.operation).sort()).toEqual(['op_2', 'op_3']);
    expect(readdirSync(dir)).toEqual(['held-1-aaaa.jsonl']);
    await store.close();
  });

  it('drops what does not fit in its size, counts it and says so', async () => {
    const { store, setDown } = await flakyStore();
    const counts: AuditTrailCounts[] = [];
    const observers = new Observers();
    observers.add({ auditTrail: (c) => counts.push(c) });
    const { logger, lines } = recordingLogger();
    const size = `${JSON.stringify(record(1))}\n`.length;
    const audit = new AuditLog(store, logger, 60_000, observers, { spool: new AuditSpool({ dir, maxBytes: size * 3 }) });
    setDown(true);
    for (let n = 1; n <= 5; n++) audit.request(record(n));
    await audit.flush();
    expect(counts).toEqual([{ held: 3, dropped: 2 }]);
    expect(lines.filter((l) => l.level === 'error')).toEqual([expect.objectContaining({ fields: { dropped: 2, dir } })]);
    setDown(false);
    await audit.flush();
    audit.stop();
    expect((await store.listAudit('default', 10)).map((r) => r.operation).sort()).toEqual(['op_1', 'op_2', 'op_3']);
    await store.close();
  });

  it('exports every record as it is recorded, even while the database is down', async () => {
    const { store, setDown } = await flakyStore();
    const exported: AuditRecord[] = [];
    const audit = new AuditLog(store, recordingLogger().logger, 60_000, new Observers(), { exporter: (r) => exported.push(r) });
    setDown(true);
    audit.request(record(1));
    audit.event('default', null, 'example', 'oauth_refresh', 'rest', 200, null);
    expect(exported.map((r) => r.operation)).toEqual(['op_1', 'oauth_refresh']);
    audit.stop();
    await store.close();
  });
});
