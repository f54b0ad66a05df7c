import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKSPACE, type Store } from './types.js';

/**
 * Store contract, webhook registrations: one per workspace and service, to be registered until its upstream id is
 * written; due when unregistered or expiring before a time; one holder of its lease at a time, and only the holder
 * writes; a handshake takes the secret only with the pending setup token; deleting its workspace deletes it.
 */
export function registrationsContract(fresh: () => Promise<Store>): void {
  const AT = '2026-01-01T10:00:00.000Z';
  const SOON = '2026-01-01T10:01:00.000Z';
  const LATER = '2026-01-01T10:05:00.000Z';

  describe('webhook registrations', () => {
    it('adds one per workspace and service, due until registered, then due only when expiring before the time asked', async () => {
      const store = await fresh();
      const { registrations } = store;
      expect(await registrations.add(DEFAULT_WORKSPACE, 'clio', AT)).toBe(true);
      expect(await registrations.add(DEFAULT_WORKSPACE, 'clio', LATER)).toBe(false);
      expect(await registrations.get(DEFAULT_WORKSPACE, 'clio')).toMatchObject({ upstreamId: null, secret: null, createdAt: AT });
      expect(await registrations.due(AT, 10)).toEqual([{ workspaceId: DEFAULT_WORKSPACE, service: 'clio' }]);

      expect(await registrations.lease(DEFAULT_WORKSPACE, 'clio', 'me', SOON, AT)).toBe(true);
      const stored = await registrations.get(DEFAULT_WORKSPACE, 'clio');
      const registered = {
        ...(stored as NonNullable<typeof stored>),
        upstreamId: '42',
        secret: 'sealed',
        expiresAt: '2026-01-31T10:00:00.000Z',
      };
      expect(await registrations.save(registered, 'me')).toBe(true);
      expect(await registrations.due('2026-01-20T00:00:00.000Z', 10)).toEqual([]);
      expect(await registrations.due('2026-02-01T00:00:00.000Z', 10)).toEqual([{ workspaceId: DEFAULT_WORKSPACE, service: 'clio' }]);
      expect(await registrations.all()).toMatchObject([{ upstreamId: '42', secret: 'sealed' }]);
    });

    it('lets one owner hold the lease until it expires or is given up, and only the holder write', async () => {
      const store = await fresh();
      const { registrations } = store;
      await registrations.add(DEFAULT_WORKSPACE, 'clio', AT);
      const stored = (await registrations.get(DEFAULT_WORKSPACE, 'clio')) as NonNullable<Awaited<ReturnType<typeof registrations.get>>>;
      expect(await registrations.lease(DEFAULT_WORKSPACE, 'clio', 'a', SOON, AT)).toBe(true);
      expect(await registrations.lease(DEFAULT_WORKSPACE, 'clio', 'b', SOON, AT)).toBe(false);
      expect(await registrations.save({ ...stored, upstreamId: 'from-b' }, 'b')).toBe(false);
      expect(await registrations.lease(DEFAULT_WORKSPACE, 'clio', 'b', LATER, SOON)).toBe(true); // a's lease ran out
      expect(await registrations.save({ ...stored, upstreamId: 'from-a' }, 'a')).toBe(false);
      await registrations.release(DEFAULT_WORKSPACE, 'clio', 'a'); // not a's any more: changes nothing
      expect(await registrations.lease(DEFAULT_WORKSPACE, 'clio', 'a', LATER, SOON)).toBe(false);
      await registrations.release(DEFAULT_WORKSPACE, 'clio', 'b');
      expect(await registrations.lease(DEFAULT_WORKSPACE, 'clio', 'a', LATER, SOON)).toBe(true);
      expect(await registrations.get(DEFAULT_WORKSPACE, 'clio')).toMatchObject({ upstreamId: null });
    });

    it('takes a handshake’s secret only with the pending setup token, once; swaps a secret only if unchanged', async () => {
      const store = await fresh();
      const { registrations } = store;
      await registrations.add(DEFAULT_WORKSPACE, 'clio', AT);
      await registrations.lease(DEFAULT_WORKSPACE, 'clio', 'me', SOON, AT);
      const stored = (await registrations.get(DEFAULT_WORKSPACE, 'clio')) as NonNullable<Awaited<ReturnType<typeof registrations.get>>>;
      await registrations.save({ ...stored, setupHash: 'digest-of-token' }, 'me');
      expect(await registrations.takeHandshake(DEFAULT_WORKSPACE, 'clio', 'another-digest', 'sealed-x', SOON)).toBe(false);
      expect(await registrations.takeHandshake(DEFAULT_WORKSPACE, 'clio', 'digest-of-token', 'sealed-1', SOON)).toBe(true);
      expect(await registrations.takeHandshake(DEFAULT_WORKSPACE, 'clio', 'digest-of-token', 'sealed-2', SOON)).toBe(false);
      expect(await registrations.get(DEFAULT_WORKSPACE, 'clio')).toMatchObject({ secret: 'sealed-1', setupHash: null });
      expect(await registrations.swapSecret(DEFAULT_WORKSPACE, 'clio', 'resealed', 'sealed-0')).toBe(false);
      expect(await registrations.swapSecret(DEFAULT_WORKSPACE, 'clio', 'resealed', 'sealed-1')).toBe(true);
      expect((await registrations.get(DEFAULT_WORKSPACE, 'clio'))?.secret).toBe('resealed');
    });

    it('goes with its workspace, and when deleted', async () => {
      const store = await fresh();
      await store.createWorkspace({ id: 'ws_other', name: 'Other', createdAt: AT });
      await store.registrations.add('ws_other', 'clio', AT);
      await store.registrations.add(DEFAULT_WORKSPACE, 'clio', AT);
      await store.deleteWorkspace('ws_other');
      expect(await store.registrations.get('ws_other', 'clio')).toBeUndefined();
      expect(await store.registrations.delete(DEFAULT_WORKSPACE, 'clio')).toBe(true);
      expect(await store.registrations.all()).toEqual([]);
    });
  });
}
