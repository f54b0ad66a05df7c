import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKSPACE, type Store } from './types.js';

/**
 * Store contract, webhook registrations: one per workspace, service and topic, to be registered until its upstream id
 * is written; due when unregistered or expiring before a time; one holder of each one's lease at a time, and only the
 * holder writes; a handshake takes the secret only with the pending setup token of its topic; deleting its workspace
 * deletes them. What is done to one topic leaves the others as they were.
 */
export function registrationsContract(fresh: () => Promise<Store>): void {
  const AT = '2026-01-01T10:00:00.000Z';
  const SOON = '2026-01-01T10:01:00.000Z';
  const LATER = '2026-01-01T10:05:00.000Z';
  const MATTER = { workspaceId: DEFAULT_WORKSPACE, service: 'clio', topic: 'matter' };
  const CONTACT = { ...MATTER, topic: 'contact' };
  const BILL = { ...MATTER, topic: 'bill' };

  describe('webhook registrations', () => {
    it('adds one per workspace, service and topic, due until registered, then due only when expiring before the time asked', async () => {
      const store = await fresh();
      const { registrations } = store;
      expect(await registrations.add(MATTER, AT)).toBe(true);
      expect(await registrations.add(MATTER, LATER)).toBe(false);
      expect(await registrations.add(CONTACT, LATER)).toBe(true);
      expect(await registrations.get(MATTER)).toMatchObject({ topic: 'matter', upstreamId: null, secret: null, createdAt: AT });
      expect(await registrations.get(CONTACT)).toMatchObject({ topic: 'contact', createdAt: LATER });
      expect(await registrations.get(BILL)).toBeUndefined();
      expect(await registrations.due(AT, 10)).toEqual([CONTACT, MATTER]);
      expect(await registrations.due(AT, 1)).toEqual([CONTACT]);

      expect(await registrations.lease(MATTER, 'me', SOON, AT)).toBe(true);
      const stored = await registrations.get(MATTER);
      const registered = {
        ...(stored as NonNullable<typeof stored>),
        upstreamId: '42',
        secret: 'sealed',
        expiresAt: '2026-01-31T10:00:00.000Z',
      };
      expect(await registrations.save(registered, 'me')).toBe(true);
      expect(await registrations.get(CONTACT)).toMatchObject({ upstreamId: null, secret: null });
      expect(await registrations.due('2026-01-20T00:00:00.000Z', 10)).toEqual([CONTACT]);
      expect(await registrations.due('2026-02-01T00:00:00.000Z', 10)).toEqual([CONTACT, MATTER]);
      expect(await registrations.all()).toMatchObject([
        { topic: 'contact', upstreamId: null },
        { topic: 'matter', upstreamId: '42', secret: 'sealed' },
      ]);
      expect((await registrations.list(DEFAULT_WORKSPACE, 'clio')).map((r) => r.topic)).toEqual(['contact', 'matter']);
      expect(await registrations.list(DEFAULT_WORKSPACE, 'notion')).toEqual([]);
    });

    it('lets one owner hold a topic’s lease until it expires or is given up, and only the holder write', async () => {
      const store = await fresh();
      const { registrations } = store;
      await registrations.add(MATTER, AT);
      await registrations.add(CONTACT, AT);
      const stored = (await registrations.get(MATTER)) as NonNullable<Awaited<ReturnType<typeof registrations.get>>>;
      expect(await registrations.lease(MATTER, 'a', SOON, AT)).toBe(true);
      expect(await registrations.lease(MATTER, 'b', SOON, AT)).toBe(false);
      expect(await registrations.lease(CONTACT, 'b', SOON, AT)).toBe(true); // another topic: a lease of its own
      expect(await registrations.save({ ...stored, upstreamId: 'from-b' }, 'b')).toBe(false);
      expect(await registrations.lease(MATTER, 'b', LATER, SOON)).toBe(true); // a's lease ran out
      expect(await registrations.save({ ...stored, upstreamId: 'from-a' }, 'a')).toBe(false);
      await registrations.release(MATTER, 'a'); // not a's any more: changes nothing
      expect(await registrations.lease(MATTER, 'a', LATER, SOON)).toBe(false);
      await registrations.release(MATTER, 'b');
      expect(await registrations.lease(MATTER, 'a', LATER, SOON)).toBe(true);
      expect(await registrations.lease(CONTACT, 'a', LATER, AT)).toBe(false); // b still holds the contact one
      expect(await registrations.get(MATTER)).toMatchObject({ upstreamId: null });
    });

    it('takes a handshake’s secret only with its topic’s pending setup token, once; swaps a secret only if unchanged', async () => {
      const store = await fresh();
      const { registrations } = store;
      await registrations.add(MATTER, AT);
      await registrations.add(CONTACT, AT);
      await registrations.lease(MATTER, 'me', SOON, AT);
      await registrations.lease(CONTACT, 'me', SOON, AT);
      const stored = (await registrations.get(MATTER)) as NonNullable<Awaited<ReturnType<typeof registrations.get>>>;
      await registrations.save({ ...stored, setupHash: 'digest-of-token' }, 'me');
      const contact = (await registrations.get(CONTACT)) as NonNullable<Awaited<ReturnType<typeof registrations.get>>>;
      await registrations.save({ ...contact, setupHash: 'digest-of-contact-token' }, 'me');
      expect(await registrations.takeHandshake(MATTER, 'another-digest', 'sealed-x', SOON)).toBe(false);
      expect(await registrations.takeHandshake(MATTER, 'digest-of-contact-token', 'sealed-x', SOON)).toBe(false);
      expect(await registrations.takeHandshake(MATTER, 'digest-of-token', 'sealed-1', SOON)).toBe(true);
      expect(await registrations.takeHandshake(MATTER, 'digest-of-token', 'sealed-2', SOON)).toBe(false);
      expect(await registrations.get(MATTER)).toMatchObject({ secret: 'sealed-1', setupHash: null });
      expect(await registrations.get(CONTACT)).toMatchObject({ secret: null, setupHash: 'digest-of-contact-token' });
      expect(await registrations.swapSecret(MATTER, 'resealed', 'sealed-0')).toBe(false);
      expect(await registrations.swapSecret(CONTACT, 'resealed', 'sealed-1')).toBe(false);
      expect(await registrations.swapSecret(MATTER, 'resealed', 'sealed-1')).toBe(true);
      expect((await registrations.get(MATTER))?.secret).toBe('resealed');
    });

    it('goes with its workspace, and when deleted, one topic at a time', async () => {
      const store = await fresh();
      await store.createWorkspace({ id: 'ws_other', name: 'Other', createdAt: AT });
      await store.registrations.add({ ...MATTER, workspaceId: 'ws_other' }, AT);
      await store.registrations.add({ ...CONTACT, workspaceId: 'ws_other' }, AT);
      await store.registrations.add(MATTER, AT);
      await store.registrations.add(BILL, AT);
      await store.deleteWorkspace('ws_other');
      expect(await store.registrations.list('ws_other', 'clio')).toEqual([]);
      expect(await store.registrations.delete(MATTER)).toBe(true);
      expect(await store.registrations.delete(MATTER)).toBe(false);
      expect((await store.registrations.all()).map((r) => r.topic)).toEqual(['bill']);
      expect(await store.registrations.delete(BILL)).toBe(true);
      expect(await store.registrations.all()).toEqual([]);
    });
  });
}
