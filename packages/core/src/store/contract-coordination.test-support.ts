import { describe, expect, it } from 'vitest';
import { audit, conn, deferred, integration, key, sleep, T2, T3, within } from './samples.test-support.js';
import { DEFAULT_WORKSPACE, type Store, type StoreChange } from './types.js';

/**
 * Store contract, coordination: what callers coordinate through, the per-connection lock (mutual exclusion, release
 * on failure, independence of other connections) and change notifications (every changing write, nothing else).
 */
export function coordinationContract(fresh: () => Promise<Store>): void {
  describe('withConnectionLock', () => {
    it('never lets critical sections for one connection interleave', async () => {
      const store = await fresh();
      let counter = 0;
      let inside = 0;
      let maxInside = 0;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
            inside += 1;
            maxInside = Math.max(maxInside, inside);
            const seen = counter;
            await sleep(i % 3);
            counter = seen + 1;
            inside -= 1;
            return i;
          }),
        ),
      );
      expect(counter).toBe(20);
      expect(maxInside).toBe(1);
      expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it('releases the lock when fn throws, and passes the error on', async () => {
      const store = await fresh();
      const boom = new Error('boom');
      await expect(
        store.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      await expect(
        within(
          2000,
          store.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => 'again'),
        ),
      ).resolves.toBe('again');
    });

    it('does not block other connections', async () => {
      const store = await fresh();
      const held = deferred();
      const entered = deferred();
      const holder = store.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
        entered.resolve();
        await held.promise;
      });
      await entered.promise;
      await expect(
        within(
          2000,
          store.withConnectionLock(DEFAULT_WORKSPACE, 'slack', async () => 'slack'),
        ),
      ).resolves.toBe('slack');
      await expect(
        within(
          2000,
          store.withConnectionLock('other', 'notion', async () => 'other'),
        ),
      ).resolves.toBe('other');
      let waiterRan = false;
      const waiter = store.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
        waiterRan = true;
      });
      await sleep(100);
      expect(waiterRan).toBe(false);
      held.resolve();
      await holder;
      await within(2000, waiter);
      expect(waiterRan).toBe(true);
    });
  });

  describe('onChange', () => {
    it('reports every write that changes something, and nothing else', async () => {
      const store = await fresh();
      const heard: StoreChange[] = [];
      const unsubscribe = store.onChange((change) => heard.push(change));
      const expected: StoreChange[] = [];
      const expectNow = async (write: () => Promise<unknown>, ...changes: StoreChange[]) => {
        await write();
        expected.push(...changes);
        // Delivered before the write's promise resolves.
        expect(heard).toEqual(expected);
      };
      const w = DEFAULT_WORKSPACE;
      await expectNow(() => store.createApiKey(key('key_1')), { kind: 'api_key', workspaceId: w, id: 'key_1' });
      await expectNow(() => store.touchApiKey('key_1', T2));
      await expectNow(() => store.revokeApiKey(w, 'key_1', T2), { kind: 'api_key', workspaceId: w, id: 'key_1' });
      await expectNow(() => store.revokeApiKey(w, 'key_1', T3));
      await expectNow(() => store.putIntegration(integration('notion')), { kind: 'integration', workspaceId: w, id: 'notion' });
      await expectNow(() => store.putConnection(conn('notion')), { kind: 'connection', workspaceId: w, id: 'notion' });
      await expectNow(() => store.swapConnection(conn('notion'), 1), { kind: 'connection', workspaceId: w, id: 'notion' });
      await expectNow(() => store.swapConnection(conn('notion'), 1));
      await expectNow(() => store.deleteConnection(w, 'notion'), { kind: 'connection', workspaceId: w, id: 'notion' });
      await expectNow(() => store.deleteConnection(w, 'notion'));
      await expectNow(() => store.appendAudit([audit('op')]));
      // Nothing arrives late either (a store that also hears its own writes from elsewhere must not repeat them).
      await sleep(300);
      expect(heard).toEqual(expected);
      unsubscribe();
      await store.putIntegration(integration('slack'));
      expect(heard).toEqual(expected);
    });

    it('keeps delivering to other listeners, and keeps the write, when a listener throws', async () => {
      const store = await fresh();
      const heard: string[] = [];
      store.onChange(() => {
        throw new Error('listener bug');
      });
      store.onChange((change) => heard.push(change.id));
      await expect(store.putIntegration(integration('notion'))).resolves.toBeUndefined();
      expect(heard).toEqual(['notion']);
      expect(await store.getIntegration(DEFAULT_WORKSPACE, 'notion')).toBeDefined();
    });
  });
}
