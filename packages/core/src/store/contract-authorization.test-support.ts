import { describe, expect, it } from 'vitest';
import type { AuthorizationCodeRecord, GrantRecord, OAuthTokenRecord } from './authorization-types.js';
import { DEFAULT_WORKSPACE, type Store } from './types.js';

/**
 * Store contract, the authorization server's records: clients and the expiry of unused registrations, grants
 * revoked per workspace, codes and refresh tokens consumed once (a second use is reported as a replay).
 */
export function authorizationContract(fresh: () => Promise<Store>): void {
  const T0 = '2026-01-01T00:00:00.000Z';
  const grant = (id: string, overrides: Partial<GrantRecord> = {}): GrantRecord => ({
    id,
    workspaceId: DEFAULT_WORKSPACE,
    clientId: 'client_1',
    clientName: 'Claude',
    scopes: { admin: false, services: ['clio'], readOnly: true, toolSet: null },
    resource: 'https://gw.example/api/mcp',
    createdBy: 'key_admin',
    memberId: null,
    createdAt: T0,
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  });
  const code = (codeHash: string): AuthorizationCodeRecord => ({
    codeHash,
    grantId: 'grant_1',
    workspaceId: DEFAULT_WORKSPACE,
    clientId: 'client_1',
    redirectUri: 'http://127.0.0.1:3000/callback',
    challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    createdAt: T0,
    expiresAt: '2026-01-01T00:01:00.000Z',
    usedAt: null,
  });
  const token = (hash: string, kind: OAuthTokenRecord['kind']): OAuthTokenRecord => ({
    hash,
    grantId: 'grant_1',
    workspaceId: DEFAULT_WORKSPACE,
    kind,
    createdAt: T0,
    expiresAt: '2026-01-01T01:00:00.000Z',
    usedAt: null,
  });

  describe('authorization server records', () => {
    it('keeps clients, and deletes only the expired registrations that no grant names', async () => {
      const { authorization: a } = await fresh();
      const base = { kind: 'dcr' as const, redirectUris: ['http://127.0.0.1:3000/callback'], createdAt: T0, lastUsedAt: null };
      await a.putClient({ ...base, clientId: 'unused', name: 'Unused', expiresAt: '2026-01-02T00:00:00.000Z' });
      await a.putClient({ ...base, clientId: 'client_1', name: 'Claude', expiresAt: '2026-01-02T00:00:00.000Z' });
      await a.putClient({ ...base, clientId: 'later', name: 'Later', expiresAt: '2026-01-09T00:00:00.000Z' });
      await a.createGrant(grant('grant_1'));
      expect(await a.getClient('client_1')).toEqual({
        ...base,
        clientId: 'client_1',
        name: 'Claude',
        expiresAt: '2026-01-02T00:00:00.000Z',
      });
      expect(await a.pruneClients('2026-01-03T00:00:00.000Z')).toBe(1);
      expect(await a.getClient('unused')).toBeUndefined();
      expect(await a.getClient('later')).toBeDefined();
      await a.touchClient('later', T0);
      expect(await a.getClient('later')).toMatchObject({ lastUsedAt: T0, expiresAt: null });
      expect(await a.pruneClients('2026-02-01T00:00:00.000Z')).toBe(0);
    });

    it('lists grants of one workspace and revokes one once, only in its own workspace', async () => {
      const store = await fresh();
      await store.createWorkspace({ id: 'other', name: 'Other', createdAt: T0 });
      const a = store.authorization;
      await a.createGrant(grant('grant_1'));
      await a.createGrant(grant('grant_2', { createdAt: '2026-01-01T00:05:00.000Z' }));
      await a.createGrant(grant('grant_3', { workspaceId: 'other' }));
      expect((await a.listGrants(DEFAULT_WORKSPACE)).map((g) => g.id)).toEqual(['grant_2', 'grant_1']);
      expect(await a.getGrant('grant_1')).toEqual(grant('grant_1'));
      expect(await a.revokeGrant('other', 'grant_1', T0)).toBe(false);
      expect(await a.revokeGrant(DEFAULT_WORKSPACE, 'grant_1', '2026-01-01T00:10:00.000Z')).toBe(true);
      expect(await a.revokeGrant(DEFAULT_WORKSPACE, 'grant_1', '2026-01-01T00:11:00.000Z')).toBe(false);
      expect((await a.getGrant('grant_1'))?.revokedAt).toBe('2026-01-01T00:10:00.000Z');
      await a.touchGrant('grant_2', '2026-01-01T00:20:00.000Z');
      expect((await a.getGrant('grant_2'))?.lastUsedAt).toBe('2026-01-01T00:20:00.000Z');
    });

    it('consumes a code once; a second use is reported as a replay', async () => {
      const { authorization: a } = await fresh();
      await a.createCode(code('c1'));
      expect(await a.consumeCode('c1', '2026-01-01T00:00:10.000Z')).toEqual({
        record: { ...code('c1'), usedAt: '2026-01-01T00:00:10.000Z' },
        reused: false,
      });
      expect(await a.consumeCode('c1', '2026-01-01T00:00:20.000Z')).toMatchObject({ reused: true });
      expect(await a.consumeCode('unknown', T0)).toBeUndefined();
    });

    it('finds a token with its grant; consumes a refresh token once, and never an access token', async () => {
      const { authorization: a } = await fresh();
      await a.createGrant(grant('grant_1'));
      await a.createToken(token('access_h', 'access'));
      await a.createToken(token('refresh_h', 'refresh'));
      expect(await a.findToken('access_h')).toEqual({ token: token('access_h', 'access'), grant: grant('grant_1') });
      expect(await a.findToken('nothing')).toBeUndefined();
      expect(await a.consumeRefreshToken('access_h', T0)).toBeUndefined();
      expect(await a.consumeRefreshToken('refresh_h', T0)).toMatchObject({ reused: false, record: { usedAt: T0 } });
      expect(await a.consumeRefreshToken('refresh_h', T0)).toMatchObject({ reused: true });
    });

    it('deleting a workspace deletes its grants, codes and tokens', async () => {
      const store = await fresh();
      await store.createWorkspace({ id: 'other', name: 'Other', createdAt: T0 });
      const a = store.authorization;
      await a.createGrant(grant('grant_1', { workspaceId: 'other' }));
      await a.createCode({ ...code('c1'), workspaceId: 'other' });
      await a.createToken({ ...token('t1', 'access'), workspaceId: 'other' });
      await store.deleteWorkspace('other');
      expect(await a.getGrant('grant_1')).toBeUndefined();
      expect(await a.findToken('t1')).toBeUndefined();
      expect(await a.consumeCode('c1', T0)).toBeUndefined();
    });
  });
}
