import { describe, expect, it } from 'vitest';
import type { GrantRecord } from './authorization-types.js';
import type { MemberRecord } from './member-types.js';
import { DEFAULT_WORKSPACE, type Store } from './types.js';

/**
 * Store contract, members: one email per workspace, found by email and by the provider's subject once bound, and
 * removal taking the member's grants and sessions with them.
 */
export function membersContract(fresh: () => Promise<Store>): void {
  const T0 = '2026-01-01T00:00:00.000Z';
  const member = (id: string, email: string, overrides: Partial<MemberRecord> = {}): MemberRecord => ({
    id,
    workspaceId: DEFAULT_WORKSPACE,
    email,
    name: null,
    role: 'member',
    narrowing: { services: ['clio'], readOnly: true },
    issuer: null,
    subject: null,
    source: 'invite',
    createdAt: T0,
    createdBy: null,
    lastSignInAt: null,
    ...overrides,
  });

  describe('members', () => {
    it('keeps one member per email in a workspace, and finds them by email and by bound subject', async () => {
      const store = await fresh();
      expect(await store.members.create(member('mem_a', 'priya@harlowpike.example'))).toBe(true);
      expect(await store.members.create(member('mem_b', 'priya@harlowpike.example'))).toBe(false);
      const [found] = await store.members.findByEmail('priya@harlowpike.example');
      expect(found).toMatchObject({ id: 'mem_a', narrowing: { services: ['clio'], readOnly: true }, issuer: null });
      expect(await store.members.findBySubject('https://idp.example', 'sub-1')).toEqual([]);
      await store.members.update({ ...(found as MemberRecord), issuer: 'https://idp.example', subject: 'sub-1', lastSignInAt: T0 });
      expect((await store.members.findBySubject('https://idp.example', 'sub-1')).map((m) => m.id)).toEqual(['mem_a']);
      expect((await store.members.list(DEFAULT_WORKSPACE)).map((m) => m.email)).toEqual(['priya@harlowpike.example']);
      await store.close();
    });

    it('removing a member revokes the grants they consented to and ends their sessions', async () => {
      const store = await fresh();
      await store.members.create(member('mem_a', 'tom@harlowpike.example'));
      const grant: GrantRecord = {
        id: 'grant_1',
        workspaceId: DEFAULT_WORKSPACE,
        clientId: 'client_1',
        clientName: 'Claude',
        scopes: { admin: false, services: ['clio'], readOnly: true, toolSet: null },
        resource: 'https://gw.example/api/mcp',
        createdBy: 'mem_a',
        memberId: 'mem_a',
        createdAt: T0,
        lastUsedAt: null,
        expiresAt: null,
        revokedAt: null,
      };
      await store.authorization.createGrant(grant);
      await store.authorization.createGrant({ ...grant, id: 'grant_2', memberId: null, createdBy: 'key_admin' });
      await store.sessions.create({
        idHash: 'h1',
        workspaceId: DEFAULT_WORKSPACE,
        keyId: 'mem_a',
        createdAt: T0,
        lastSeenAt: T0,
        expiresAt: '2099-01-01T00:00:00.000Z',
      });
      expect(await store.members.remove(DEFAULT_WORKSPACE, 'mem_a', T0)).toBe(true);
      expect(await store.members.get(DEFAULT_WORKSPACE, 'mem_a')).toBeUndefined();
      expect((await store.authorization.getGrant('grant_1'))?.revokedAt).toBe(T0);
      expect((await store.authorization.getGrant('grant_1'))?.memberId).toBe('mem_a');
      expect((await store.authorization.getGrant('grant_2'))?.revokedAt).toBeNull();
      expect(await store.sessions.get('h1')).toBeUndefined();
      await store.close();
    });
  });
}
