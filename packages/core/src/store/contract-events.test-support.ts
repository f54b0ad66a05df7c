import { describe, expect, it } from 'vitest';
import type { EventRecord } from './event-types.js';
import { DEFAULT_WORKSPACE, type Store } from './types.js';

/**
 * Store contract, inbound events: each upstream event stored once, read in the order received after a cursor and
 * within the reader's services; a delivery's replay key accepted once until it expires; one secret per service.
 */
export function eventsContract(fresh: () => Promise<Store>): void {
  const AT = '2026-01-01T10:00:00.000Z';
  const event = (id: string, service: string, upstreamId: string, type = 'call.completed'): Omit<EventRecord, 'seq'> => ({
    id,
    workspaceId: DEFAULT_WORKSPACE,
    service,
    type,
    upstreamId,
    recordId: `rec-${upstreamId}`,
    occurredAt: null,
    receivedAt: AT,
    payload: { upstream: upstreamId, nested: { n: 1 } },
  });

  describe('events', () => {
    it('stores an upstream event once and pages the events after a cursor, within services and by type', async () => {
      const store = await fresh();
      const first = await store.events.append([event('evt_1', 'callrail', 'u1'), event('evt_2', 'slack', 'u2', 'message.posted')]);
      expect(first.map((e) => e.id)).toEqual(['evt_1', 'evt_2']);
      expect(first[0]).toMatchObject({ recordId: 'rec-u1', payload: { upstream: 'u1', nested: { n: 1 } }, occurredAt: null });
      // the same upstream event again (an upstream retry) is not stored twice; the same id in another service is
      const again = await store.events.append([event('evt_3', 'callrail', 'u1'), event('evt_4', 'slack', 'u1', 'message.posted')]);
      expect(again.map((e) => e.id)).toEqual(['evt_4']);
      const all = await store.events.list({ workspaceId: DEFAULT_WORKSPACE, after: 0, services: '*', limit: 10 });
      expect(all.map((e) => e.id)).toEqual(['evt_1', 'evt_2', 'evt_4']);
      const after = await store.events.list({ workspaceId: DEFAULT_WORKSPACE, after: all[0]?.seq ?? 0, services: '*', limit: 1 });
      expect(after.map((e) => e.id)).toEqual(['evt_2']);
      const slack = { workspaceId: DEFAULT_WORKSPACE, after: 0, limit: 10 };
      expect((await store.events.list({ ...slack, services: ['callrail'] })).map((e) => e.id)).toEqual(['evt_1']);
      expect((await store.events.list({ ...slack, services: [] })).map((e) => e.id)).toEqual([]);
      expect((await store.events.list({ ...slack, services: '*', service: 'slack' })).map((e) => e.id)).toEqual(['evt_2', 'evt_4']);
      expect((await store.events.list({ ...slack, services: '*', type: 'call.completed' })).map((e) => e.id)).toEqual(['evt_1']);
      expect(await store.events.list({ ...slack, workspaceId: 'elsewhere', services: '*' })).toEqual([]);
      // newest first, and the older page before a cursor
      const newest = await store.events.list({ ...slack, services: '*', newestFirst: true, limit: 2 });
      expect(newest.map((e) => e.id)).toEqual(['evt_4', 'evt_2']);
      const older = await store.events.list({ ...slack, services: '*', newestFirst: true, before: newest[1]?.seq ?? 0 });
      expect(older.map((e) => e.id)).toEqual(['evt_1']);

      // retention: of the oldest events, those received before the cutoff go; newer ones and other workspaces' stay
      await store.events.append([{ ...event('evt_5', 'slack', 'u5'), receivedAt: '2026-01-02T10:00:00.000Z' }]);
      expect(await store.events.prune(DEFAULT_WORKSPACE, '2026-01-02T00:00:00.000Z', 2)).toBe(2);
      expect(await store.events.prune(DEFAULT_WORKSPACE, '2026-01-02T00:00:00.000Z', 2)).toBe(1);
      expect(await store.events.prune(DEFAULT_WORKSPACE, '2026-01-02T00:00:00.000Z', 2)).toBe(0);
      expect((await store.events.list({ ...slack, services: '*' })).map((e) => e.id)).toEqual(['evt_5']);
    });

    it('accepts a replay key once until it expires', async () => {
      const store = await fresh();
      const until = '2026-01-01T10:05:00.000Z';
      expect(await store.events.remember(DEFAULT_WORKSPACE, 'slack', 'k1', until, AT)).toBe(true);
      expect(await store.events.remember(DEFAULT_WORKSPACE, 'slack', 'k1', until, AT)).toBe(false);
      expect(await store.events.remember(DEFAULT_WORKSPACE, 'callrail', 'k1', until, AT)).toBe(true);
      await store.events.forget(DEFAULT_WORKSPACE, 'callrail', 'k1');
      expect(await store.events.remember(DEFAULT_WORKSPACE, 'callrail', 'k1', until, AT)).toBe(true);
      expect(await store.events.remember(DEFAULT_WORKSPACE, 'slack', 'k1', until, AT)).toBe(false);
      // once expired, the key is forgotten (the timestamp window refuses such a delivery before it gets here)
      expect(await store.events.remember(DEFAULT_WORKSPACE, 'slack', 'k1', '2026-01-01T10:10:00.000Z', until)).toBe(true);
    });

    it('keeps one signing secret per workspace and service, and deletes it with the workspace', async () => {
      const store = await fresh();
      const secret = { workspaceId: DEFAULT_WORKSPACE, service: 'slack', secret: 'sealed-1', createdAt: AT, updatedAt: AT };
      await store.events.putSecret(secret);
      await store.events.putSecret({ ...secret, secret: 'sealed-2', updatedAt: '2026-01-02T00:00:00.000Z' });
      expect(await store.events.getSecret(DEFAULT_WORKSPACE, 'slack')).toEqual({
        ...secret,
        secret: 'sealed-2',
        updatedAt: '2026-01-02T00:00:00.000Z',
      });
      expect(await store.events.listSecretServices(DEFAULT_WORKSPACE)).toEqual(['slack']);
      // re-encryption swaps a ciphertext only while it is still the one read
      const [read] = await store.events.allSecrets();
      expect(await store.events.swapSecret({ ...(read as typeof secret), secret: 'sealed-3' }, 'sealed-1')).toBe(false);
      expect(await store.events.swapSecret({ ...(read as typeof secret), secret: 'sealed-3' }, 'sealed-2')).toBe(true);
      expect((await store.events.allSecrets()).map((s) => s.secret)).toEqual(['sealed-3']);
      expect(await store.events.deleteSecret(DEFAULT_WORKSPACE, 'slack')).toBe(true);
      expect(await store.events.getSecret(DEFAULT_WORKSPACE, 'slack')).toBeUndefined();

      await store.createWorkspace({ id: 'ws_b', name: 'B', createdAt: AT });
      await store.events.putSecret({ ...secret, workspaceId: 'ws_b' });
      await store.events.append([{ ...event('evt_b', 'slack', 'u9'), workspaceId: 'ws_b' }]);
      await store.events.remember('ws_b', 'slack', 'k', '2026-01-01T10:05:00.000Z', AT);
      await store.deleteWorkspace('ws_b');
      expect(await store.events.getSecret('ws_b', 'slack')).toBeUndefined();
      expect(await store.events.list({ workspaceId: 'ws_b', after: 0, services: '*', limit: 10 })).toEqual([]);
    });
  });
}
