import { expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { SqliteStore } from '../store/sqlite.js';
import type { AuditRecord, Store } from '../store/types.js';
import { AuditLog } from './audit-log.js';
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
    audit.abandonHeld(); // the gateway stops while the database is still down
    expect(counts.at(-1)).toEqual({ dropped: 1 });
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(2);
  } finally {
    audit.stop();
    await store.close();
  }
});
