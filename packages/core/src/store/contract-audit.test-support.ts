import { describe, expect, it } from 'vitest';
import { audit, T1, T2, T3 } from './samples.test-support.js';
import { type AuditQuery, DEFAULT_WORKSPACE, type Store } from './types.js';

/**
 * Store contract, the audit query and retention: every filter narrows to exactly the matching records of one
 * workspace, pages follow each other without repeating or skipping a record (also while records are written), and
 * retention deletes only records older than the cutoff, in bounded batches.
 */
export function auditContract(fresh: () => Promise<Store>): void {
  const query = (store: Store, filters: Partial<AuditQuery> = {}) =>
    store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 100, ...filters });
  const ops = async (store: Store, filters: Partial<AuditQuery> = {}) => (await query(store, filters)).records.map((r) => r.operation);

  /** Six records of the default workspace (a1…a6, oldest first) and one of another workspace. */
  async function seeded(): Promise<Store> {
    const store = await fresh();
    await store.appendAudit([
      audit('a1', { at: T1, service: 'notion', keyId: 'key_1', protocol: 'rest', status: 200 }),
      audit('a2', { at: T1, service: 'slack', keyId: 'key_2', protocol: 'mcp', status: 429, code: 'rate_limited' }),
      audit('a3', { at: T2, service: 'notion', keyId: 'key_2', protocol: 'mcp', status: 404, code: 'not_found' }),
      audit('other', { at: T2, workspaceId: 'other', service: 'notion', keyId: 'key_1' }),
      audit('a4', { at: T2, service: 'notion', keyId: null, protocol: 'admin', status: 200 }),
      audit('a5', { at: T3, service: 'slack', keyId: 'key_1', protocol: 'rest', status: 502, code: 'upstream_error' }),
    ]);
    await store.appendAudit([audit('a6', { at: '2026-01-03T12:00:00.000Z', service: 'notion', keyId: 'key_1', status: 201 })]);
    return store;
  }

  describe('audit query', () => {
    it('lists a workspace newest first, with ids that grow with each record, and every field', async () => {
      const store = await seeded();
      const page = await query(store);
      expect(page.records.map((r) => r.operation)).toEqual(['a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
      expect(page.next).toBeNull();
      const ids = page.records.map((r) => BigInt(r.id));
      expect([...ids].sort((a, b) => (a < b ? 1 : -1))).toEqual(ids);
      const { id, ...record } = page.records[1] ?? { id: '' };
      expect(id).toMatch(/^\d+$/);
      expect(record).toEqual(
        audit('a5', { at: T3, service: 'slack', keyId: 'key_1', protocol: 'rest', status: 502, code: 'upstream_error' }),
      );
      expect((await store.queryAudit({ workspaceId: 'other', limit: 10 })).records.map((r) => r.operation)).toEqual(['other']);
      expect((await store.queryAudit({ workspaceId: 'nobody', limit: 10 })).records).toEqual([]);
    });

    it('narrows by each filter, and by several at once', async () => {
      const store = await seeded();
      expect(await ops(store, { service: 'slack' })).toEqual(['a5', 'a2']);
      expect(await ops(store, { operation: 'a3' })).toEqual(['a3']);
      expect(await ops(store, { protocol: 'mcp' })).toEqual(['a3', 'a2']);
      expect(await ops(store, { status: 429 })).toEqual(['a2']);
      expect(await ops(store, { status: '2xx' })).toEqual(['a6', 'a4', 'a1']);
      expect(await ops(store, { status: '4xx' })).toEqual(['a3', 'a2']);
      expect(await ops(store, { status: '5xx' })).toEqual(['a5']);
      expect(await ops(store, { code: 'not_found' })).toEqual(['a3']);
      expect(await ops(store, { keyId: 'key_1' })).toEqual(['a6', 'a5', 'a1']);
      expect(await ops(store, { service: 'notion', keyId: 'key_2' })).toEqual(['a3']);
      expect(await ops(store, { service: 'notion', protocol: 'rest', status: '2xx' })).toEqual(['a6', 'a1']);
      expect(await ops(store, { service: 'nosuch' })).toEqual([]);
    });

    it('takes since as inclusive and until as exclusive', async () => {
      const store = await seeded();
      expect(await ops(store, { since: T2 })).toEqual(['a6', 'a5', 'a4', 'a3']);
      expect(await ops(store, { until: T2 })).toEqual(['a2', 'a1']);
      expect(await ops(store, { since: T2, until: T3 })).toEqual(['a4', 'a3']);
      expect(await ops(store, { since: '2026-01-03T12:00:00.000Z' })).toEqual(['a6']);
      expect(await ops(store, { since: T3, until: T3 })).toEqual([]);
    });

    it('pages with the cursor: no record twice, none skipped, also while records are written', async () => {
      const store = await seeded();
      const first = await query(store, { limit: 4 });
      expect(first.records.map((r) => r.operation)).toEqual(['a6', 'a5', 'a4', 'a3']);
      expect(first.next).toBe(first.records[3]?.id);
      // written between two pages: newer than the cursor, so on no later page
      await store.appendAudit([audit('late')]);
      const second = await query(store, { limit: 4, before: first.next as string });
      expect(second.records.map((r) => r.operation)).toEqual(['a2', 'a1']);
      expect(second.next).toBeNull();
      // an exactly full last page says so only when there is more
      const exact = await query(store, { limit: 2, before: first.next as string });
      expect(exact.records.map((r) => r.operation)).toEqual(['a2', 'a1']);
      expect(exact.next).toBeNull();
      // filters and the cursor together
      const slack = await query(store, { service: 'slack', limit: 1 });
      expect(slack.records.map((r) => r.operation)).toEqual(['a5']);
      expect(await ops(store, { service: 'slack', limit: 1, before: slack.next as string })).toEqual(['a2']);
      expect((await query(store, { limit: 10 })).records[0]?.operation).toBe('late');
    });

    it('pages through a large batch in its order', async () => {
      const store = await fresh();
      await store.appendAudit(Array.from({ length: 250 }, (_, i) => audit(`op${i}`)));
      const seen: string[] = [];
      let before: string | undefined;
      for (let page = 0; page < 10; page++) {
        const result = await query(store, { limit: 100, ...(before ? { before } : {}) });
        seen.push(...result.records.map((r) => r.operation));
        if (!result.next) break;
        before = result.next;
      }
      expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => `op${249 - i}`));
    });
  });

  describe('audit series (the dashboard chart)', () => {
    it('counts calls, errors and the exact p95 per service and minute or hour, of one workspace, calls only', async () => {
      const store = await fresh();
      const at = (minute: number, second = 0) => `2026-01-05T10:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}.000Z`;
      // notion at 10:01: twenty calls of 1..20 ms, two of them errors: p95 by nearest rank is the 19th value, 19 ms
      const durations = Array.from({ length: 20 }, (_, i) => i + 1);
      await store.appendAudit(
        durations.map((ms, i) =>
          audit(`n${i}`, { at: at(1, i), durationMs: ms, ...(i < 2 ? { status: 502, code: 'upstream_error' } : {}) }),
        ),
      );
      await store.appendAudit([
        audit('s1', { at: at(1, 5), service: 'slack', protocol: 'mcp', durationMs: 7 }),
        audit('s2', { at: at(2), service: 'slack', protocol: 'dashboard', status: 404, code: 'not_found', durationMs: 3 }),
        audit('old', { at: '2026-01-05T09:59:59.999Z', durationMs: 900 }),
        audit('event', { at: at(2), protocol: 'admin', durationMs: 0 }),
        audit('other', { at: at(2), workspaceId: 'other' }),
      ]);
      const since = '2026-01-05T10:00:00.000Z';
      const minutes = await store.auditSeries({ workspaceId: DEFAULT_WORKSPACE, since, bucket: 'minute' });
      expect(minutes).toEqual([
        { service: 'notion', at: '2026-01-05T10:01:00.000Z', calls: 20, errors: 2, p95Ms: 19 },
        { service: 'slack', at: '2026-01-05T10:01:00.000Z', calls: 1, errors: 0, p95Ms: 7 },
        { service: 'slack', at: '2026-01-05T10:02:00.000Z', calls: 1, errors: 1, p95Ms: 3 },
      ]);
      const hours = await store.auditSeries({ workspaceId: DEFAULT_WORKSPACE, since: '2026-01-05T00:00:00.000Z', bucket: 'hour' });
      expect(hours).toEqual([
        { service: 'notion', at: '2026-01-05T09:00:00.000Z', calls: 1, errors: 0, p95Ms: 900 },
        { service: 'notion', at: '2026-01-05T10:00:00.000Z', calls: 20, errors: 2, p95Ms: 19 },
        { service: 'slack', at: '2026-01-05T10:00:00.000Z', calls: 2, errors: 1, p95Ms: 7 },
      ]);
      expect(await store.auditSeries({ workspaceId: 'nobody', since, bucket: 'hour' })).toEqual([]);
    });
  });

  describe('audit retention', () => {
    const OLD = '2020-01-01T00:00:00.000Z';
    const CUTOFF = '2026-01-01T00:00:00.000Z';

    it('deletes only the records written before the cutoff, in every workspace', async () => {
      const store = await fresh();
      await store.appendAudit([
        audit('old1', { at: OLD }),
        audit('new1', { at: CUTOFF }),
        audit('old2', { at: '2025-12-31T23:59:59.999Z', workspaceId: 'other' }),
        audit('new2', { at: T3, workspaceId: 'other' }),
      ]);
      expect(await store.pruneAudit(CUTOFF, { batchSize: 100, maxBatches: 10 })).toEqual({ deleted: 2, more: false });
      expect(await ops(store)).toEqual(['new1']);
      expect((await store.queryAudit({ workspaceId: 'other', limit: 10 })).records.map((r) => r.operation)).toEqual(['new2']);
      expect(await store.pruneAudit(CUTOFF, { batchSize: 100, maxBatches: 10 })).toEqual({ deleted: 0, more: false });
    });

    it('stops after maxBatches batches and says that older records remain', async () => {
      const store = await fresh();
      await store.appendAudit([...Array.from({ length: 5 }, (_, i) => audit(`old${i}`, { at: OLD })), audit('kept', { at: T3 })]);
      expect(await store.pruneAudit(CUTOFF, { batchSize: 2, maxBatches: 2, pauseMs: 1 })).toEqual({ deleted: 4, more: true });
      expect(await ops(store)).toEqual(['kept', 'old4']);
      expect(await store.pruneAudit(CUTOFF, { batchSize: 2, maxBatches: 2 })).toEqual({ deleted: 1, more: false });
      expect(await ops(store)).toEqual(['kept']);
    });
  });
}
