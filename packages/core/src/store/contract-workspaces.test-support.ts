import { describe, expect, it } from 'vitest';
import { audit, conn, integration, key, T1, T2, T3 } from './samples.test-support.js';
import { DEFAULT_WORKSPACE, type Store, type StoreChange, type ToolSetRecord } from './types.js';

const toolSet = (workspaceId: string, id: string, overrides: Partial<ToolSetRecord> = {}): Omit<ToolSetRecord, 'version'> => ({
  workspaceId,
  id,
  name: `name of ${id}`,
  rules: [{ match: 'notion:list_*', readOnly: false }],
  createdAt: T1,
  updatedAt: T1,
  ...overrides,
});

/** Fills workspace `id` with one record of each kind (two audit records), key ids prefixed with the workspace id. */
async function populate(store: Store, id: string): Promise<void> {
  await store.createApiKey(key(`${id}_key`, { workspaceId: id }));
  await store.putIntegration(integration('notion', { workspaceId: id }));
  await store.putConnection(conn('notion', { workspaceId: id, secret: `enc1:${id}` }));
  await store.putToolSet(toolSet(id, 'intake'));
  await store.appendAudit([audit('list_users', { workspaceId: id }), audit('get_page', { workspaceId: id })]);
  await store.createOAuthState({
    stateHash: `state-${id}`,
    workspaceId: id,
    service: 'notion',
    keyId: null,
    verifier: null,
    redirectUri: 'http://localhost/cb',
    createdAt: T1,
    expiresAt: T2,
    usedAt: null,
  });
  await store.sessions.create({
    idHash: `session-${id}`,
    workspaceId: id,
    keyId: `${id}_key`,
    createdAt: T1,
    lastSeenAt: T1,
    expiresAt: T3,
  });
}

const FULL = { keys: 1, connections: 1, integrations: 1, toolSets: 1, auditRecords: 2 };

/** Store contract, workspaces and tool sets: made, renamed, counted and deleted with all they hold, and nothing more. */
export function workspaceContract(fresh: () => Promise<Store>): void {
  describe('workspaces', () => {
    it('creates, lists (default first) and renames workspaces; an id is taken once', async () => {
      const store = await fresh();
      expect(await store.createWorkspace({ id: 'smith-law', name: 'Smith Law', createdAt: T2 })).toBe(true);
      expect(await store.createWorkspace({ id: 'acme', name: 'Acme', createdAt: T3 })).toBe(true);
      expect(await store.createWorkspace({ id: 'acme', name: 'Other', createdAt: T3 })).toBe(false);
      expect((await store.listWorkspaces()).map((w) => [w.id, w.name])).toEqual([
        [DEFAULT_WORKSPACE, 'Default workspace'],
        ['smith-law', 'Smith Law'],
        ['acme', 'Acme'],
      ]);
      expect(await store.renameWorkspace('acme', 'Acme Corp')).toBe(true);
      expect(await store.renameWorkspace('nope', 'x')).toBe(false);
      expect(await store.getWorkspace('acme')).toEqual({ id: 'acme', name: 'Acme Corp', createdAt: T3 });
    });

    it('counts what a workspace holds, and deletes it with all of it, leaving the other workspaces untouched', async () => {
      const store = await fresh();
      await store.createWorkspace({ id: 'a', name: 'A', createdAt: T1 });
      await store.createWorkspace({ id: 'b', name: 'B', createdAt: T1 });
      await populate(store, 'a');
      await populate(store, 'b');
      expect(await store.workspaceUsage('a')).toEqual(FULL);
      expect(await store.workspaceUsage('nope')).toBeUndefined();
      expect(await store.deleteWorkspace('a')).toEqual(FULL);
      expect(await store.getWorkspace('a')).toBeUndefined();
      expect(await store.deleteWorkspace('a')).toBeUndefined();
      expect(await store.findApiKeyByHash(key('a_key').hash)).toBeUndefined();
      expect(await store.listConnections('a')).toEqual([]);
      expect(await store.listIntegrations('a')).toEqual([]);
      expect(await store.listToolSets('a')).toEqual([]);
      expect((await store.queryAudit({ workspaceId: 'a', limit: 10 })).records).toEqual([]);
      expect(await store.sessions.get('session-a')).toBeUndefined();
      expect(await store.sessions.get('session-b')).toBeDefined();
      expect(await store.consumeOAuthState('state-a', T2)).toBeUndefined();
      // b keeps every record
      expect(await store.workspaceUsage('b')).toEqual(FULL);
      expect((await store.findApiKeyByHash(key('b_key').hash))?.workspaceId).toBe('b');
      expect((await store.getConnection('b', 'notion'))?.secret).toBe('enc1:b');
      expect((await store.consumeOAuthState('state-b', T2))?.workspaceId).toBe('b');
      expect(await store.allConnections()).toHaveLength(1);
    });

    it('reports renames and deletions as workspace changes, and not a deletion of nothing', async () => {
      const store = await fresh();
      const seen: StoreChange[] = [];
      store.onChange((change) => seen.push(change));
      await store.createWorkspace({ id: 'a', name: 'A', createdAt: T1 });
      await store.renameWorkspace('a', 'A2');
      await store.deleteWorkspace('a');
      await store.deleteWorkspace('a');
      expect(seen).toEqual([
        { kind: 'workspace', workspaceId: 'a', id: 'a' },
        { kind: 'workspace', workspaceId: 'a', id: 'a' },
        { kind: 'workspace', workspaceId: 'a', id: 'a' },
      ]);
    });
  });

  describe('tool sets', () => {
    it('round-trips every field; a second save replaces it, keeps its creation time and bumps its version', async () => {
      const store = await fresh();
      const first = await store.putToolSet(toolSet(DEFAULT_WORKSPACE, 'intake'));
      expect(first).toEqual({ ...toolSet(DEFAULT_WORKSPACE, 'intake'), version: 1 });
      const rules = [
        { match: 'clio', readOnly: true },
        { match: 'quickbooks:report_*', readOnly: false },
      ];
      const second = await store.putToolSet(toolSet(DEFAULT_WORKSPACE, 'intake', { name: 'Intake', rules, createdAt: T3, updatedAt: T2 }));
      expect(second).toEqual({
        workspaceId: DEFAULT_WORKSPACE,
        id: 'intake',
        name: 'Intake',
        rules,
        version: 2,
        createdAt: T1,
        updatedAt: T2,
      });
      expect(await store.getToolSet(DEFAULT_WORKSPACE, 'intake')).toEqual(second);
    });

    it('keeps tool sets inside their workspace, lists them by id, and deletes each once', async () => {
      const store = await fresh();
      await store.createWorkspace({ id: 'other', name: 'Other', createdAt: T1 });
      await store.putToolSet(toolSet(DEFAULT_WORKSPACE, 'zeta'));
      await store.putToolSet(toolSet(DEFAULT_WORKSPACE, 'alpha'));
      await store.putToolSet(toolSet('other', 'alpha', { name: 'theirs' }));
      expect((await store.listToolSets(DEFAULT_WORKSPACE)).map((t) => t.id)).toEqual(['alpha', 'zeta']);
      expect((await store.listToolSets('other')).map((t) => t.name)).toEqual(['theirs']);
      expect(await store.getToolSet('other', 'zeta')).toBeUndefined();
      expect(await store.deleteToolSet('other', 'zeta')).toBe(false);
      expect(await store.deleteToolSet(DEFAULT_WORKSPACE, 'alpha')).toBe(true);
      expect(await store.deleteToolSet(DEFAULT_WORKSPACE, 'alpha')).toBe(false);
      expect((await store.getToolSet('other', 'alpha'))?.name).toBe('theirs');
    });

    it('reports saves and deletions, not a deletion of nothing', async () => {
      const store = await fresh();
      const seen: StoreChange[] = [];
      store.onChange((change) => seen.push(change));
      await store.putToolSet(toolSet(DEFAULT_WORKSPACE, 'intake'));
      await store.deleteToolSet(DEFAULT_WORKSPACE, 'intake');
      await store.deleteToolSet(DEFAULT_WORKSPACE, 'intake');
      expect(seen).toEqual([
        { kind: 'tool_set', workspaceId: DEFAULT_WORKSPACE, id: 'intake' },
        { kind: 'tool_set', workspaceId: DEFAULT_WORKSPACE, id: 'intake' },
      ]);
    });
  });
}
