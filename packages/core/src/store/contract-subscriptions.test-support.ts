import { describe, expect, it } from 'vitest';
import type { EventRecord } from './event-types.js';
import type { DeliveryAttemptRecord, QueuedDelivery } from './subscription-types.js';
import { DEFAULT_WORKSPACE, type Store } from './types.js';

/**
 * Store contract, outbound subscriptions: a stored event is queued for every subscription of its workspace (only
 * those existing then), delivered in order, one deliverer at a time by lease; a failed attempt waits, a dead letter
 * leaves the order and is queued again on request; deleting the subscription or its workspace deletes the rest.
 */
export function subscriptionsContract(fresh: () => Promise<Store>): void {
  const AT = '2026-01-01T10:00:00.000Z';
  const LATER = '2026-01-01T10:01:00.000Z';
  const event = (id: string, workspaceId = DEFAULT_WORKSPACE): Omit<EventRecord, 'seq'> => ({
    id,
    workspaceId,
    service: 'callrail',
    type: 'call.completed',
    upstreamId: `u-${id}`,
    recordId: null,
    occurredAt: null,
    receivedAt: AT,
    payload: { id },
  });
  const sub = (id: string, workspaceId = DEFAULT_WORKSPACE) => ({
    id,
    workspaceId,
    url: `https://hooks.example.com/${id}`,
    types: ['callrail.*'],
    secret: `sealed-${id}`,
    createdAt: AT,
  });
  const attempt = (d: QueuedDelivery, outcome: DeliveryAttemptRecord['outcome'], n = d.attempts + 1): DeliveryAttemptRecord => ({
    subscriptionId: d.subscriptionId,
    workspaceId: d.workspaceId,
    eventId: d.event?.id ?? '',
    eventSeq: d.eventSeq,
    attempt: n,
    at: AT,
    status: outcome === 'delivered' ? 204 : 503,
    error: outcome === 'delivered' ? null : 'HTTP 503',
    durationMs: 12,
    outcome,
  });

  describe('event subscriptions', () => {
    it('queues each stored event for the subscriptions existing then, oldest first, and settles them in order', async () => {
      const store = await fresh();
      await store.events.append([event('evt_before')]);
      await store.subscriptions.create(sub('sub_a'));
      expect(await store.subscriptions.get(DEFAULT_WORKSPACE, 'sub_a')).toEqual(sub('sub_a'));
      expect(await store.subscriptions.get('elsewhere', 'sub_a')).toBeUndefined();
      expect(await store.subscriptions.head('sub_a')).toBeUndefined();
      await store.events.append([event('evt_1'), event('evt_2')]);
      await store.subscriptions.create(sub('sub_b'));
      await store.events.append([event('evt_3')]);
      expect(await store.subscriptions.due(AT, 10)).toEqual(['sub_a', 'sub_b']);

      expect(await store.subscriptions.lease('sub_a', 'me', LATER, AT)).toBe(true);
      const first = await store.subscriptions.head('sub_a');
      expect(first).toMatchObject({ state: 'pending', attempts: 0, retryAt: null, event: { id: 'evt_1', payload: { id: 'evt_1' } } });
      // a failure keeps it at the head, with its attempts and when to try again
      expect(await store.subscriptions.settle(first as QueuedDelivery, 'me', attempt(first as QueuedDelivery, 'failed'), LATER)).toBe(true);
      const again = (await store.subscriptions.head('sub_a')) as QueuedDelivery;
      expect(again).toMatchObject({ attempts: 1, failingSince: AT, retryAt: LATER, event: { id: 'evt_1' } });
      expect(await store.subscriptions.due(AT, 10)).toEqual(['sub_b']);
      expect(await store.subscriptions.settle(again, 'me', attempt(again, 'delivered'), null)).toBe(true);
      expect((await store.subscriptions.head('sub_a'))?.event?.id).toBe('evt_2');
      const log = await store.subscriptions.attempts('sub_a', 10);
      expect(log.map((a) => [a.eventId, a.attempt, a.outcome, a.status])).toEqual([
        ['evt_1', 2, 'delivered', 204],
        ['evt_1', 1, 'failed', 503],
      ]);
      expect((await store.subscriptions.head('sub_b'))?.event?.id).toBe('evt_3');
    });

    it('lets one owner deliver for a subscription until its lease expires or is released', async () => {
      const store = await fresh();
      await store.subscriptions.create(sub('sub_a'));
      await store.events.append([event('evt_1')]);
      expect(await store.subscriptions.lease('sub_a', 'one', LATER, AT)).toBe(true);
      expect(await store.subscriptions.lease('sub_a', 'two', LATER, AT)).toBe(false);
      expect(await store.subscriptions.lease('sub_a', 'one', LATER, AT)).toBe(true);
      // the other owner's writes do not count while it holds no lease
      const head = (await store.subscriptions.head('sub_a')) as QueuedDelivery;
      expect(await store.subscriptions.settle(head, 'two', attempt(head, 'delivered'), null)).toBe(false);
      expect((await store.subscriptions.head('sub_a'))?.event?.id).toBe('evt_1');
      expect(await store.subscriptions.lease('sub_a', 'two', '2026-01-01T10:02:00.000Z', LATER)).toBe(true); // expired
      expect(await store.subscriptions.settle(head, 'one', attempt(head, 'delivered'), null)).toBe(false);
      await store.subscriptions.release('sub_a', 'one'); // not its lease any more: no effect
      expect(await store.subscriptions.lease('sub_a', 'one', LATER, AT)).toBe(false);
      await store.subscriptions.release('sub_a', 'two');
      expect(await store.subscriptions.lease('sub_a', 'one', LATER, AT)).toBe(true);
      expect(await store.subscriptions.attempts('sub_a', 10)).toEqual([]);
    });

    it('turns a delivery given up on into a dead letter out of the order, and queues it again on request', async () => {
      const store = await fresh();
      await store.subscriptions.create(sub('sub_a'));
      await store.events.append([event('evt_1'), event('evt_2')]);
      await store.subscriptions.lease('sub_a', 'me', LATER, AT);
      const head = (await store.subscriptions.head('sub_a')) as QueuedDelivery;
      expect(await store.subscriptions.settle(head, 'me', attempt(head, 'dead', 7), null)).toBe(true);
      expect((await store.subscriptions.head('sub_a'))?.event?.id).toBe('evt_2');
      expect((await store.subscriptions.deadLetters('sub_a', 10)).map((d) => [d.event?.id, d.state, d.attempts])).toEqual([
        ['evt_1', 'dead', 7],
      ]);
      expect(await store.subscriptions.redeliver('sub_a', 'evt_2')).toBe(0); // not a dead letter
      expect(await store.subscriptions.redeliver('sub_a', 'evt_1')).toBe(1);
      expect(await store.subscriptions.head('sub_a')).toMatchObject({ attempts: 0, failingSince: null, event: { id: 'evt_1' } });
      expect(await store.subscriptions.deadLetters('sub_a', 10)).toEqual([]);
      // an event no longer kept is dropped from the queue
      await store.subscriptions.drop('sub_a', head.eventSeq);
      expect((await store.subscriptions.head('sub_a'))?.event?.id).toBe('evt_2');
    });

    it('keeps the newest attempts, swaps a secret only while unchanged, and deletes with the subscription or workspace', async () => {
      const store = await fresh();
      await store.subscriptions.create(sub('sub_a'));
      await store.events.append([event('evt_1')]);
      await store.subscriptions.lease('sub_a', 'me', LATER, AT);
      for (let n = 1; n <= 3; n++) {
        const head = (await store.subscriptions.head('sub_a')) as QueuedDelivery;
        await store.subscriptions.settle(head, 'me', attempt(head, 'failed'), AT);
      }
      await store.subscriptions.trimLog('sub_a', 2);
      expect((await store.subscriptions.attempts('sub_a', 10)).map((a) => a.attempt)).toEqual([3, 2]);
      expect(await store.subscriptions.swapSecret('sub_a', 'sealed-new', 'sealed-old')).toBe(false);
      expect(await store.subscriptions.swapSecret('sub_a', 'sealed-new', 'sealed-sub_a')).toBe(true);
      expect((await store.subscriptions.all()).map((s) => s.secret)).toEqual(['sealed-new']);

      expect(await store.subscriptions.delete('elsewhere', 'sub_a')).toBe(false);
      expect(await store.subscriptions.delete(DEFAULT_WORKSPACE, 'sub_a')).toBe(true);
      expect(await store.subscriptions.head('sub_a')).toBeUndefined();
      expect(await store.subscriptions.attempts('sub_a', 10)).toEqual([]);

      await store.createWorkspace({ id: 'ws_b', name: 'B', createdAt: AT });
      await store.subscriptions.create(sub('sub_b', 'ws_b'));
      await store.events.append([event('evt_b', 'ws_b')]);
      expect(await store.subscriptions.due(AT, 10)).toEqual(['sub_b']);
      await store.deleteWorkspace('ws_b');
      expect(await store.subscriptions.list('ws_b')).toEqual([]);
      expect(await store.subscriptions.due(AT, 10)).toEqual([]);
    });
  });
}
