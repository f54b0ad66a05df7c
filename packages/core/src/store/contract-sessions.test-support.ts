import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKSPACE, type SessionRecord, type Store } from './types.js';

/** Store contract, dashboard sessions: found by the hash of their id only, touched, ended one by one, per key, or when stale. */
export function sessionContract(fresh: () => Promise<Store>): void {
  const session = (idHash: string, overrides: Partial<SessionRecord> = {}): SessionRecord => ({
    idHash,
    workspaceId: DEFAULT_WORKSPACE,
    keyId: 'key_1',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-01T12:00:00.000Z',
    ...overrides,
  });

  describe('dashboard sessions', () => {
    it('keeps a session under its hash, touches it, and ends it', async () => {
      const store = await fresh();
      await store.sessions.create(session('h1'));
      expect(await store.sessions.get('h1')).toEqual(session('h1'));
      expect(await store.sessions.get('h2')).toBeUndefined();
      await store.sessions.touch('h1', '2026-01-01T00:10:00.000Z');
      expect((await store.sessions.get('h1'))?.lastSeenAt).toBe('2026-01-01T00:10:00.000Z');
      expect(await store.sessions.delete('h1')).toBe(true);
      expect(await store.sessions.delete('h1')).toBe(false);
      expect(await store.sessions.get('h1')).toBeUndefined();
    });

    it('ends every session of one key, and the stale ones (idle or past their end), and no other', async () => {
      const store = await fresh();
      await store.sessions.create(session('a', { keyId: 'key_1' }));
      await store.sessions.create(session('b', { keyId: 'key_1' }));
      await store.sessions.create(session('c', { keyId: 'key_2' }));
      expect(await store.sessions.deleteOfKey('key_1')).toBe(2);
      expect(await store.sessions.get('c')).toBeDefined();

      await store.sessions.create(session('idle', { lastSeenAt: '2026-01-01T00:00:00.000Z' }));
      await store.sessions.create(session('ended', { lastSeenAt: '2026-01-01T11:59:00.000Z', expiresAt: '2026-01-01T11:59:30.000Z' }));
      await store.sessions.create(session('live', { lastSeenAt: '2026-01-01T11:50:00.000Z' }));
      // at 11:59:30 with a 30-minute idle limit
      expect(await store.sessions.prune('2026-01-01T11:59:30.000Z', '2026-01-01T11:29:30.000Z')).toBe(3); // idle, ended, c
      expect(await store.sessions.get('live')).toBeDefined();
      expect(await store.sessions.get('idle')).toBeUndefined();
      expect(await store.sessions.get('ended')).toBeUndefined();
    });
  });
}
