import { describe, expect, it } from 'vitest';
import { audit, conn, integration, key, T1, T2, T3 } from './samples.test-support.js';
import { DEFAULT_WORKSPACE, type Store } from './types.js';

/**
 * Store contract, records: each kind of record round-trips every field, stays inside its workspace, lists in the
 * documented order, and changes only the way the interface promises (versions, single use, first revocation wins).
 */
export function recordContract(fresh: () => Promise<Store>): void {
  describe('migrate', () => {
    it('creates the default workspace and nothing else', async () => {
      const store = await fresh();
      const workspace = await store.getWorkspace(DEFAULT_WORKSPACE);
      expect(workspace).toMatchObject({ id: DEFAULT_WORKSPACE, name: 'Default workspace' });
      expect(Number.isNaN(Date.parse(workspace?.createdAt ?? ''))).toBe(false);
      expect(await store.getWorkspace('nope')).toBeUndefined();
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('is harmless the second time: data and the default workspace stay as they were', async () => {
      const store = await fresh();
      const before = await store.getWorkspace(DEFAULT_WORKSPACE);
      await store.createApiKey(key('key_1'));
      await store.putConnection(conn('notion'));
      await store.migrate();
      expect(await store.getWorkspace(DEFAULT_WORKSPACE)).toEqual(before);
      expect((await store.listApiKeys(DEFAULT_WORKSPACE)).map((k) => k.id)).toEqual(['key_1']);
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'notion'))?.version).toBe(1);
    });
  });

  describe('API keys', () => {
    it('round-trips every field, with scopes as JSON, and finds a key by its hash only', async () => {
      const store = await fresh();
      const all = key('key_all', { scopes: { admin: true, services: '*', readOnly: false }, expiresAt: '2027-01-01T00:00:00.000Z' });
      const some = key('key_some', { scopes: { admin: false, services: ['notion', 'slack'], readOnly: true } });
      await store.createApiKey(all);
      await store.createApiKey(some);
      expect(await store.findApiKeyByHash(all.hash)).toEqual(all);
      expect(await store.findApiKeyByHash(some.hash)).toEqual(some);
      expect(await store.findApiKeyByHash('f'.repeat(64))).toBeUndefined();
      expect(await store.getApiKey(DEFAULT_WORKSPACE, 'key_some')).toEqual(some);
    });

    it('keeps keys inside their workspace', async () => {
      const store = await fresh();
      await store.createApiKey(key('key_1'));
      expect(await store.getApiKey('other', 'key_1')).toBeUndefined();
      expect(await store.listApiKeys('other')).toEqual([]);
      expect(await store.revokeApiKey('other', 'key_1', T2)).toBe(false);
      expect((await store.getApiKey(DEFAULT_WORKSPACE, 'key_1'))?.revokedAt).toBeNull();
    });

    it('rejects a second key with the same id or the same hash', async () => {
      const store = await fresh();
      await store.createApiKey(key('key_1'));
      await expect(store.createApiKey(key('key_1', { hash: 'e'.repeat(64) }))).rejects.toThrow();
      await expect(store.createApiKey(key('key_2', { hash: key('key_1').hash }))).rejects.toThrow();
      expect(await store.listApiKeys(DEFAULT_WORKSPACE)).toHaveLength(1);
    });

    it('lists keys by creation time, then id', async () => {
      const store = await fresh();
      await store.createApiKey(key('key_b', { createdAt: T2 }));
      await store.createApiKey(key('key_c', { createdAt: T1 }));
      await store.createApiKey(key('key_a', { createdAt: T1 }));
      expect((await store.listApiKeys(DEFAULT_WORKSPACE)).map((k) => k.id)).toEqual(['key_a', 'key_c', 'key_b']);
    });

    it('revokes once: the first revocation wins and its time is kept', async () => {
      const store = await fresh();
      await store.createApiKey(key('key_1'));
      expect(await store.revokeApiKey(DEFAULT_WORKSPACE, 'key_1', T2)).toBe(true);
      expect(await store.revokeApiKey(DEFAULT_WORKSPACE, 'key_1', T3)).toBe(false);
      expect(await store.revokeApiKey(DEFAULT_WORKSPACE, 'missing', T3)).toBe(false);
      expect((await store.findApiKeyByHash(key('key_1').hash))?.revokedAt).toBe(T2);
    });

    it('records the last use', async () => {
      const store = await fresh();
      await store.createApiKey(key('key_1'));
      await store.touchApiKey('key_1', T2);
      expect((await store.getApiKey(DEFAULT_WORKSPACE, 'key_1'))?.lastUsedAt).toBe(T2);
      await store.touchApiKey('key_1', T3);
      expect((await store.getApiKey(DEFAULT_WORKSPACE, 'key_1'))?.lastUsedAt).toBe(T3);
      await expect(store.touchApiKey('missing', T3)).resolves.toBeUndefined();
    });
  });

  describe('integration settings', () => {
    it('round-trips booleans, the base URL and nested settings JSON', async () => {
      const store = await fresh();
      const record = integration('notion', {
        mcpEnabled: false,
        restEnabled: true,
        baseUrl: 'https://api.example.test/v1',
        settings: { region: 'eu', nested: { list: [1, 'two', null, true] }, empty: {} },
      });
      await store.putIntegration(record);
      expect(await store.getIntegration(DEFAULT_WORKSPACE, 'notion')).toEqual(record);
      expect(await store.getIntegration(DEFAULT_WORKSPACE, 'slack')).toBeUndefined();
      expect(await store.getIntegration('other', 'notion')).toBeUndefined();
    });

    it('replaces the record on a second put', async () => {
      const store = await fresh();
      await store.putIntegration(integration('notion', { settings: { a: 1 }, baseUrl: 'https://a.test' }));
      const second = integration('notion', {
        mcpEnabled: true,
        restEnabled: false,
        settings: { b: 2 },
        baseUrl: null,
        connectionPolicy: 'personal',
        updatedAt: T2,
      });
      await store.putIntegration(second);
      expect(await store.getIntegration(DEFAULT_WORKSPACE, 'notion')).toEqual(second);
      expect(await store.listIntegrations(DEFAULT_WORKSPACE)).toEqual([second]);
    });

    it('lists integrations by service', async () => {
      const store = await fresh();
      for (const service of ['slack', 'callrail', 'notion']) await store.putIntegration(integration(service));
      expect((await store.listIntegrations(DEFAULT_WORKSPACE)).map((i) => i.service)).toEqual(['callrail', 'notion', 'slack']);
      expect(await store.listIntegrations('other')).toEqual([]);
    });
  });

  describe('connections', () => {
    it('starts at version 1, bumps it on every put, and keeps the creation time', async () => {
      const store = await fresh();
      const first = await store.putConnection(conn('notion', { meta: { realm: '123', nested: { ok: true } }, expiresAt: T3 }));
      expect(first).toEqual({ ...conn('notion', { meta: { realm: '123', nested: { ok: true } }, expiresAt: T3 }), version: 1 });
      const second = await store.putConnection(
        conn('notion', { secret: 'enc1:b', status: 'needs_reconnect', createdAt: T2, updatedAt: T2 }),
      );
      expect(second).toEqual({ ...conn('notion', { secret: 'enc1:b', status: 'needs_reconnect', updatedAt: T2 }), version: 2 });
      expect(await store.getConnection(DEFAULT_WORKSPACE, 'notion')).toEqual(second);
    });

    it('swaps only from the expected version (compare-and-swap)', async () => {
      const store = await fresh();
      await store.putConnection(conn('notion'));
      const v2 = await store.putConnection(conn('notion', { secret: 'enc1:b' }));
      expect(await store.swapConnection(conn('notion', { secret: 'enc1:stale' }), 1)).toBeUndefined();
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'notion'))?.secret).toBe('enc1:b');
      const swapped = await store.swapConnection(
        conn('notion', { kind: 'oauth2', secret: 'enc1:c', meta: { m: [1] }, expiresAt: T3, updatedAt: T3 }),
        v2.version,
      );
      expect(swapped).toEqual({
        ...conn('notion', { kind: 'oauth2', secret: 'enc1:c', meta: { m: [1] }, expiresAt: T3, updatedAt: T3 }),
        version: 3,
      });
      expect(await store.getConnection(DEFAULT_WORKSPACE, 'notion')).toEqual(swapped);
      // The same expected version cannot win twice.
      expect(await store.swapConnection(conn('notion', { secret: 'enc1:d' }), v2.version)).toBeUndefined();
      expect(await store.swapConnection(conn('slack'), 1)).toBeUndefined();
      expect(await store.getConnection(DEFAULT_WORKSPACE, 'slack')).toBeUndefined();
    });

    it('lets exactly one of several concurrent swaps from the same version win', async () => {
      const store = await fresh();
      const { version } = await store.putConnection(conn('notion'));
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => store.swapConnection(conn('notion', { secret: `enc1:${i}` }), version)),
      );
      const winners = results.filter((r) => r !== undefined);
      expect(winners).toHaveLength(1);
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'notion'))?.secret).toBe(winners[0]?.secret);
    });

    it('deletes once', async () => {
      const store = await fresh();
      await store.putConnection(conn('notion'));
      expect(await store.deleteConnection('other', 'notion')).toBe(false);
      expect(await store.deleteConnection(DEFAULT_WORKSPACE, 'notion')).toBe(true);
      expect(await store.deleteConnection(DEFAULT_WORKSPACE, 'notion')).toBe(false);
      expect(await store.getConnection(DEFAULT_WORKSPACE, 'notion')).toBeUndefined();
      // A new connection after a delete starts over.
      expect((await store.putConnection(conn('notion'))).version).toBe(1);
    });

    it('lists connections by service, per workspace and across workspaces', async () => {
      const store = await fresh();
      for (const service of ['slack', 'callrail', 'notion']) await store.putConnection(conn(service));
      expect((await store.listConnections(DEFAULT_WORKSPACE)).map((c) => c.service)).toEqual(['callrail', 'notion', 'slack']);
      expect(await store.listConnections('other')).toEqual([]);
      const all = await store.allConnections();
      expect(all.map((c) => `${c.workspaceId}/${c.service}`)).toEqual(['default/callrail', 'default/notion', 'default/slack']);
      expect(all[0]).toEqual({ ...conn('callrail'), version: 1 });
    });

    it('keeps each member’s own connection apart from the shared one and from every other member’s', async () => {
      const store = await fresh();
      await store.putConnection(conn('clio', { secret: 'enc1:shared' }));
      await store.putConnection(conn('clio', { memberId: 'mem_priya', secret: 'enc1:priya' }));
      await store.putConnection(conn('slack', { memberId: 'mem_priya', secret: 'enc1:priya-slack' }));
      await store.putConnection(conn('clio', { memberId: 'mem_tom', secret: 'enc1:tom' }));
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'clio'))?.secret).toBe('enc1:shared');
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'clio', null))?.secret).toBe('enc1:shared');
      expect(await store.getConnection(DEFAULT_WORKSPACE, 'clio', 'mem_priya')).toEqual({
        ...conn('clio', { memberId: 'mem_priya', secret: 'enc1:priya' }),
        version: 1,
      });
      expect(await store.getConnection(DEFAULT_WORKSPACE, 'slack', 'mem_tom')).toBeUndefined();
      // the workspace's list is the shared connections; a member's list is theirs alone
      expect((await store.listConnections(DEFAULT_WORKSPACE)).map((c) => c.secret)).toEqual(['enc1:shared']);
      expect((await store.listMemberConnections(DEFAULT_WORKSPACE, 'mem_priya')).map((c) => c.secret)).toEqual([
        'enc1:priya',
        'enc1:priya-slack',
      ]);
      expect(await store.listMemberConnections(DEFAULT_WORKSPACE, '')).toEqual([]);
      expect(await store.listMemberConnections('other', 'mem_priya')).toEqual([]);
      expect(await store.allConnections()).toHaveLength(4);
      // a swap and a delete touch only the row they name
      const priya = (await store.getConnection(DEFAULT_WORKSPACE, 'clio', 'mem_priya')) as NonNullable<
        Awaited<ReturnType<Store['getConnection']>>
      >;
      expect(await store.swapConnection({ ...priya, secret: 'enc1:priya-2' }, priya.version)).toMatchObject({ version: 2 });
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'clio'))?.version).toBe(1);
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'clio', 'mem_tom'))?.secret).toBe('enc1:tom');
      expect(await store.deleteConnection(DEFAULT_WORKSPACE, 'clio', 'mem_priya')).toBe(true);
      expect(await store.getConnection(DEFAULT_WORKSPACE, 'clio', 'mem_priya')).toBeUndefined();
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'clio'))?.secret).toBe('enc1:shared');
      expect((await store.getConnection(DEFAULT_WORKSPACE, 'clio', 'mem_tom'))?.secret).toBe('enc1:tom');
      expect(await store.deleteConnection(DEFAULT_WORKSPACE, 'slack')).toBe(false); // the shared one, which does not exist
    });
  });

  describe('OAuth states', () => {
    const state = (hash: string) => ({
      stateHash: hash,
      workspaceId: DEFAULT_WORKSPACE,
      service: 'notion',
      keyId: 'key_1',
      memberId: null,
      verifier: 'enc1:k:n:t:c',
      redirectUri: 'http://127.0.0.1:8787/api/connect/notion/callback',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:10:00.000Z',
      usedAt: null,
    });

    it('are consumed exactly once, returning what was stored', async () => {
      const store = await fresh();
      await store.createOAuthState(state('h1'));
      const first = await store.consumeOAuthState('h1', '2026-01-01T00:01:00.000Z');
      expect(first).toEqual({ ...state('h1'), usedAt: '2026-01-01T00:01:00.000Z' });
      expect(await store.consumeOAuthState('h1', '2026-01-01T00:02:00.000Z')).toBeUndefined();
      expect(await store.consumeOAuthState('unknown', '2026-01-01T00:02:00.000Z')).toBeUndefined();
    });

    it('let only one of several concurrent consumers win', async () => {
      const store = await fresh();
      await store.createOAuthState(state('h2'));
      const results = await Promise.all(Array.from({ length: 8 }, () => store.consumeOAuthState('h2', '2026-01-01T00:01:00.000Z')));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('audit', () => {
    it('appends batches and lists the newest first, per workspace, up to the limit', async () => {
      const store = await fresh();
      await store.appendAudit([]);
      expect(await store.listAudit(DEFAULT_WORKSPACE, 10)).toEqual([]);
      await store.appendAudit([audit('op1'), audit('op2', { workspaceId: 'other' }), audit('op3', { keyId: null, code: 'not_found' })]);
      await store.appendAudit([audit('op4', { durationMs: 12.6 }), audit('op5', { protocol: 'mcp', status: 502, code: 'upstream_error' })]);
      const listed = await store.listAudit(DEFAULT_WORKSPACE, 10);
      expect(listed.map((r) => r.operation)).toEqual(['op5', 'op4', 'op3', 'op1']);
      expect(listed[0]).toEqual(audit('op5', { protocol: 'mcp', status: 502, code: 'upstream_error' }));
      expect(listed[1]?.durationMs).toBe(13);
      expect(listed[2]).toEqual(audit('op3', { keyId: null, code: 'not_found' }));
      expect((await store.listAudit(DEFAULT_WORKSPACE, 2)).map((r) => r.operation)).toEqual(['op5', 'op4']);
      expect((await store.listAudit('other', 10)).map((r) => r.operation)).toEqual(['op2']);
    });

    it("keeps each record's client address (IPv4 or IPv6), null where none was given, in listAudit and queryAudit", async () => {
      const store = await fresh();
      await store.appendAudit([
        audit('v4', { clientAddress: '203.0.113.7' }),
        audit('v6', { clientAddress: '2001:db8::1' }),
        audit('event'),
      ]);
      const listed = await store.listAudit(DEFAULT_WORKSPACE, 10);
      expect(listed.map((r) => [r.operation, r.clientAddress])).toEqual([
        ['event', null],
        ['v6', '2001:db8::1'],
        ['v4', '203.0.113.7'],
      ]);
      const page = await store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, limit: 10 });
      expect(page.records.map((r) => [r.operation, r.clientAddress])).toEqual([
        ['event', null],
        ['v6', '2001:db8::1'],
        ['v4', '203.0.113.7'],
      ]);
    });

    it('keeps the order of a large batch', async () => {
      const store = await fresh();
      const batch = Array.from({ length: 250 }, (_, i) => audit(`op${i}`, { clientAddress: `192.0.2.${i}` }));
      await store.appendAudit(batch);
      const listed = await store.listAudit(DEFAULT_WORKSPACE, 1000);
      expect(listed.map((r) => r.operation)).toEqual(batch.map((r) => r.operation).reverse());
      // each record's address stays with it across the statements a large batch is written in
      expect(listed.map((r) => r.clientAddress)).toEqual(batch.map((r) => r.clientAddress).reverse());
    });
  });
}
