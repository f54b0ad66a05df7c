import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite.js';
import { DEFAULT_WORKSPACE } from './types.js';

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function open(path = ':memory:') {
  const store = new SqliteStore(path);
  stores.push(store);
  await store.migrate();
  return store;
}

const connection = (secret: string) => ({
  workspaceId: DEFAULT_WORKSPACE,
  service: 'notion',
  kind: 'token' as const,
  secret,
  meta: { a: 1 },
  status: 'active' as const,
  expiresAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('SqliteStore', () => {
  it('migrates a file database idempotently and keeps data across reopen', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'portico-store-')), 'p.db');
    const first = await open(path);
    await first.putConnection(connection('enc1:x'));
    await first.close();
    stores.splice(0);
    const second = await open(path);
    expect((await second.getConnection(DEFAULT_WORKSPACE, 'notion'))?.secret).toBe('enc1:x');
    expect(await second.getWorkspace(DEFAULT_WORKSPACE)).toMatchObject({ id: DEFAULT_WORKSPACE });
  });

  it('bumps the version on every write and swaps only from the expected version', async () => {
    const store = await open();
    const v1 = await store.putConnection(connection('enc1:a'));
    expect(v1.version).toBe(1);
    const v2 = await store.putConnection(connection('enc1:b'));
    expect(v2.version).toBe(2);
    expect(await store.swapConnection(connection('enc1:c'), 1)).toBeUndefined();
    const v3 = await store.swapConnection(connection('enc1:c'), 2);
    expect(v3).toMatchObject({ version: 3, secret: 'enc1:c' });
    expect(await store.deleteConnection(DEFAULT_WORKSPACE, 'notion')).toBe(true);
    expect(await store.getConnection(DEFAULT_WORKSPACE, 'notion')).toBeUndefined();
  });

  it('finds keys by hash only, revokes once, and stores integration settings', async () => {
    const store = await open();
    await store.createApiKey({
      id: 'key_1',
      workspaceId: DEFAULT_WORKSPACE,
      name: 'k',
      hash: 'a'.repeat(64),
      prefix: 'portico_abcd',
      scopes: { admin: true, services: ['notion'], readOnly: false },
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    expect((await store.findApiKeyByHash('a'.repeat(64)))?.scopes.services).toEqual(['notion']);
    expect(await store.findApiKeyByHash('b'.repeat(64))).toBeUndefined();
    expect(await store.revokeApiKey(DEFAULT_WORKSPACE, 'key_1', 'now')).toBe(true);
    expect(await store.revokeApiKey(DEFAULT_WORKSPACE, 'key_1', 'now')).toBe(false);
    await store.putIntegration({
      workspaceId: DEFAULT_WORKSPACE,
      service: 'notion',
      mcpEnabled: false,
      restEnabled: true,
      baseUrl: null,
      settings: { v: '1' },
      updatedAt: 'now',
    });
    expect(await store.getIntegration(DEFAULT_WORKSPACE, 'notion')).toMatchObject({
      mcpEnabled: false,
      restEnabled: true,
      settings: { v: '1' },
    });
  });
});
