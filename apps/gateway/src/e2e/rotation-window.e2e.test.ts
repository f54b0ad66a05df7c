import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, Encryptor, Engine, PostgresStore, parseEncryptionKey, Registry } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.js';
import { dropTestSchemas, postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { type FakeProvider, providerEnv, startFakeProvider } from '../oauth-provider.test-support.js';
import { bin, listening, MULTI_PROCESS_TIMEOUT, root, runPortico } from './cluster.test-support.js';

/**
 * The window of an encryption-key rotation, on real gateway processes sharing PostgreSQL: one instance restarted with a new
 * encryption key (the old one as a previous key) while another still runs with the old key only. Were its next refresh
 * to seal the credential with the new key, the other instance would answer 424 until restarted: every
 * instance seals with the newest key all live instances know (their heartbeats in the store), the new key is
 * promoted once the last instance knows it, and `portico encryption rotate` refuses while one does not.
 * Needs `pnpm build` first.
 */
const pluginModule = join(root, 'packages/core/dist/testing/example-plugin.js');
const problem = await postgresProblem();
const schema = `portico_rw_${randomBytes(5).toString('hex')}`;
const OLD = randomBytes(32).toString('base64');
const NEW = randomBytes(32).toString('base64');
const oldId = parseEncryptionKey(OLD).id;
const newId = parseEncryptionKey(NEW).id;
const dataDir = mkdtempSync(join(tmpdir(), 'portico-rw-'));

let provider: FakeProvider;
let store: PostgresStore;
let engine: Engine;
let apiKey: string;
const children: ChildProcess[] = [];

interface Instance {
  url: string;
  child: ChildProcess;
}

const keysEnv = (active: string, previous?: string) => ({
  PORTICO_ENCRYPTION_KEY: active,
  ...(previous ? { PORTICO_ENCRYPTION_PREVIOUS_KEYS: previous } : {}),
});

async function spawnGateway(keys: Record<string, string>): Promise<Instance> {
  const started = runPortico(['serve'], {
    PORTICO_DATA_DIR: mkdtempSync(join(dataDir, 'instance-')),
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_PLUGINS: pluginModule,
    PORTICO_PORT: '0',
    PORTICO_LOG_LEVEL: 'warn',
    PORTICO_UPSTREAM_RETRIES: '0',
    PORTICO_INSTANCE_HEARTBEAT_SECONDS: '1',
    ...keys,
    ...providerEnv(provider),
  });
  children.push(started.child);
  return { url: await listening(started), child: started.child };
}

/** A graceful stop (SIGTERM): the instance removes its heartbeat on the way out, as a rolling restart does. */
function stop(instance: Instance): Promise<void> {
  return new Promise((resolve) => {
    instance.child.once('exit', () => resolve());
    instance.child.kill('SIGTERM');
  });
}

const call = (instance: Instance) =>
  fetch(`${instance.url}/api/v1/example/items`, { headers: { authorization: `Bearer ${apiKey}` } }).then((r) => r.status);

async function connectExpired(): Promise<void> {
  const pair = provider.issue(1);
  await engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    expiresAt: new Date(Date.now() - 1_000).toISOString(),
  });
}

const sealedWith = async () => Encryptor.keyIdOf((await store.getConnection(DEFAULT_WORKSPACE, 'example'))?.secret ?? '');

async function cli(keys: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = {
    PORTICO_DATA_DIR: mkdtempSync(join(dataDir, 'cli-')),
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_PLUGINS: pluginModule,
    PORTICO_LOG_LEVEL: 'silent',
    PORTICO_INSTANCE_HEARTBEAT_SECONDS: '1', // the cluster's period: live means heard from in the last three seconds
    ...keys,
  };
  const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l), stdin: () => '' });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Waits until exactly `count` instances are live in the store. */
async function untilLive(count: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const live = await store.instances.live(new Date(Date.now() - 3_000).toISOString());
    if (live.length === count) return;
    expect(Date.now() - started, JSON.stringify(live)).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the live instances in the store are exactly `count`, all holding key `id`. */
async function untilAllKnow(id: string, count: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const live = await store.instances.live(new Date(Date.now() - 3_000).toISOString());
    if (live.length === count && live.every((i) => i.keyIds.includes(id))) return;
    expect(Date.now() - started, JSON.stringify(live)).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(problem !== undefined)(
  `rotating the encryption key instance by instance${problem ? ` (skipped: ${problem})` : ''}`,
  { timeout: MULTI_PROCESS_TIMEOUT },
  () => {
    beforeAll(async () => {
      if (!existsSync(bin) || !existsSync(pluginModule)) throw new Error('these tests run the built gateway: run `pnpm build` first');
      provider = await startFakeProvider();
      store = new PostgresStore(TEST_POSTGRES_URL, { schema });
      await store.migrate();
      const registry = new Registry();
      registry.register(examplePlugin);
      engine = new Engine({ registry, store, encryptor: new Encryptor(parseEncryptionKey(OLD)) });
      apiKey = (
        await engine.createApiKey({ workspaceId: DEFAULT_WORKSPACE, name: 'rw', scopes: { admin: true, services: '*', readOnly: false } })
      ).key;
      await engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    });

    afterAll(async () => {
      for (const child of children) child.kill('SIGKILL');
      await engine?.close();
      await store?.close();
      await provider?.close();
      await dropTestSchemas(schema);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('no 424 on the old instance after the restarted one refreshes; the key is promoted once all know it', async () => {
      const first = await spawnGateway(keysEnv(OLD));
      let second = await spawnGateway(keysEnv(OLD));
      await connectExpired();

      // Phase 1, staged on one instance: restarted with the new key, the old one kept as a previous key.
      await stop(second);
      second = await spawnGateway(keysEnv(NEW, OLD));
      const refreshes = provider.refreshRequests.length;
      expect(await call(second)).toBe(200); // the expired token is refreshed here, and the credential sealed again
      expect(provider.refreshRequests.length - refreshes).toBe(1);
      expect(await sealedWith()).toBe(oldId); // with the key the other instance knows...
      expect(await call(first)).toBe(200); // ...so it still reads it (before: 424 until it was restarted)

      // rotate refuses while an instance lacks the new key, and says which (once the stopped instance's heartbeat is no
      // longer live: its row goes at its stop, or three seconds after its last beat when a loaded machine cut the stop short)
      await untilLive(2);
      const refused = await cli(keysEnv(NEW, OLD), 'encryption', 'rotate');
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(`1 live instance(s) cannot decrypt with key ${newId}`);
      const status = await cli(keysEnv(NEW, OLD), 'encryption', 'status');
      expect(status.out).toContain(`Sealing with: ${oldId}`);
      expect(status.out).toContain(`(lacks ${newId})`);
      expect(await sealedWith()).toBe(oldId); // nothing was re-encrypted

      // Phase 2: the last instance restarted with the new key; the new key is promoted without another restart.
      await stop(first);
      const third = await spawnGateway(keysEnv(NEW, OLD));
      await untilAllKnow(newId, 2);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // one more heartbeat of the second instance
      await connectExpired();
      expect(await call(second)).toBe(200);
      expect(await sealedWith()).toBe(newId);
      expect(await call(third)).toBe(200);

      const rotated = await cli(keysEnv(NEW, OLD), 'encryption', 'rotate');
      expect(rotated.code, rotated.err).toBe(0);
      expect(rotated.out).toContain(`Active key ${newId}`);
      expect(await call(third)).toBe(200);
      await stop(second);
      await stop(third);
      expect(await store.instances.live(new Date(Date.now() - 60_000).toISOString())).toEqual([]); // stopped instances leave
    });
  },
);
