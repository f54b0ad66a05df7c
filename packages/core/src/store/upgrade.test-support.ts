// A database as the previous release left it, and the checks that it upgrades whole (upgrade.test.ts, upgrade-postgres.e2e.test.ts).
import { expect } from 'vitest';
import { ApiKeys } from '../access/api-keys.js';
import { displayPrefix, generateApiKey, hashApiKey } from '../access/key-format.js';
import { silentLogger } from '../logger.js';
import { MIGRATIONS } from './migrations.js';
import type { Store } from './types.js';

/**
 * Upgrade in place: a database made by the previous release (schema version 4, before workspaces could be managed
 * and before tool sets) holding keys, settings, connections, OAuth states and audit records is opened by this code.
 * Nothing may be lost, and the keys must keep working with the powers they had.
 */
const PREVIOUS_VERSION = 4;

type Exec = (sql: string, args?: unknown[]) => Promise<void>;

const keys = { admin: generateApiKey(), reader: generateApiKey(), revoked: generateApiKey() };
const AT = '2026-03-01T10:00:00.000Z';

/** What the previous release wrote, through the previous release's schema (its migrations 1-4 and its row shapes). */
export async function previousRelease(exec: Exec, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const migration of MIGRATIONS.filter((m) => m.version <= PREVIOUS_VERSION)) {
    for (const sql of migration[dialect]) await exec(sql);
    await exec('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [migration.version, migration.name, AT]);
  }
  await exec('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)', ['default', 'Default workspace', AT]);
  const key = (id: string, secret: string, scopes: unknown, revokedAt: string | null) =>
    exec(
      `INSERT INTO api_keys (id, workspace_id, name, hash, prefix, scopes, created_at, last_used_at, expires_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, 'default', `key ${id}`, hashApiKey(secret), displayPrefix(secret), JSON.stringify(scopes), AT, AT, null, revokedAt],
    );
  await key('key_admin', keys.admin, { admin: true, services: '*', readOnly: false }, null);
  await key('key_reader', keys.reader, { admin: false, services: ['notion'], readOnly: true }, null);
  await key('key_revoked', keys.revoked, { admin: true, services: '*', readOnly: false }, AT);
  await exec(
    `INSERT INTO integrations (workspace_id, service, mcp_enabled, rest_enabled, base_url, settings, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ['default', 'notion', 1, 1, 'http://127.0.0.1:9/notion', JSON.stringify({ notion_version: '2022-06-28' }), AT],
  );
  await exec(
    `INSERT INTO connections (workspace_id, service, kind, secret, meta, status, expires_at, version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ['default', 'notion', 'token', 'enc1:k1:abc', JSON.stringify({ workspace_name: 'Firm' }), 'active', null, 3, AT, AT],
  );
  await exec(
    `INSERT INTO oauth_states (state_hash, workspace_id, service, key_id, verifier, redirect_uri, created_at, expires_at, used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ['state-1', 'default', 'clio', 'key_admin', null, 'http://localhost/cb', AT, '2026-03-01T10:10:00.000Z', null],
  );
  for (let i = 0; i < 25; i++) {
    await exec(
      `INSERT INTO audit (at, workspace_id, key_id, service, operation, protocol, status, code, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [AT, 'default', 'key_reader', 'notion', `op_${i}`, i % 2 ? 'rest' : 'mcp', 200, null, i],
    );
  }
}

export async function checkUpgraded(store: Store): Promise<void> {
  await store.migrate();
  // every record is still there, as it was
  const listed = await store.listApiKeys('default');
  expect(listed.map((k) => [k.id, k.revokedAt])).toEqual([
    ['key_admin', null],
    ['key_reader', null],
    ['key_revoked', AT],
  ]);
  expect(listed.find((k) => k.id === 'key_reader')).toMatchObject({
    hash: hashApiKey(keys.reader),
    prefix: displayPrefix(keys.reader),
    scopes: { admin: false, services: ['notion'], readOnly: true },
    lastUsedAt: AT,
  });
  expect(listed.find((k) => k.id === 'key_reader')?.scopes.operator).toBeUndefined();
  expect(await store.getIntegration('default', 'notion')).toMatchObject({
    mcpEnabled: true,
    restEnabled: true,
    baseUrl: 'http://127.0.0.1:9/notion',
    settings: { notion_version: '2022-06-28' },
  });
  expect(await store.getConnection('default', 'notion')).toMatchObject({
    secret: 'enc1:k1:abc',
    meta: { workspace_name: 'Firm' },
    version: 3,
  });
  const audit = await store.queryAudit({ workspaceId: 'default', limit: 100 });
  expect(audit.records.map((r) => r.operation)).toEqual(Array.from({ length: 25 }, (_, i) => `op_${24 - i}`));
  // records written before client addresses were kept (migration 10) have none
  expect(audit.records.map((r) => r.clientAddress)).toEqual(Array.from({ length: 25 }, () => null));
  expect((await store.consumeOAuthState('state-1', AT))?.keyId).toBe('key_admin');
  expect(await store.workspaceUsage('default')).toEqual({ keys: 3, connections: 1, integrations: 1, toolSets: 0, auditRecords: 25 });

  // the keys still work, each with the powers it had: the admin key administers the whole gateway as before (operator)
  const apiKeys = new ApiKeys(store, silentLogger);
  expect(await apiKeys.authenticate(keys.admin)).toEqual({
    keyId: 'key_admin',
    workspaceId: 'default',
    scopes: { admin: true, operator: true, services: '*', readOnly: false },
    via: 'key',
  });
  expect(await apiKeys.authenticate(keys.reader)).toEqual({
    keyId: 'key_reader',
    workspaceId: 'default',
    scopes: { admin: false, services: ['notion'], readOnly: true },
    via: 'key',
  });
  await expect(apiKeys.authenticate(keys.revoked)).rejects.toMatchObject({ code: 'unauthorized' });

  // the new tables work, and a second start changes nothing
  await store.createWorkspace({ id: 'smith-law', name: 'Smith Law', createdAt: AT });
  await store.putToolSet({ workspaceId: 'smith-law', id: 'intake', name: 'Intake', rules: [], createdAt: AT, updatedAt: AT });
  // and a record written now keeps its client address
  const after = { at: AT, workspaceId: 'default', keyId: null, service: 'notion', operation: 'after_upgrade' };
  await store.appendAudit([{ ...after, protocol: 'rest', status: 200, code: null, durationMs: 1, clientAddress: '203.0.113.7' }]);
  expect((await store.listAudit('default', 1))[0]).toMatchObject({ operation: 'after_upgrade', clientAddress: '203.0.113.7' });
  await store.migrate();
  expect((await store.listWorkspaces()).map((w) => w.id)).toEqual(['default', 'smith-law']);
  expect((await store.listApiKeys('default')).find((k) => k.id === 'key_admin')?.scopes.operator).toBe(true);
}
