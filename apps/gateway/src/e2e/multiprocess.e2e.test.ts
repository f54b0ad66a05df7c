import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectionAad, DEFAULT_WORKSPACE, Encryptor, Engine, PostgresStore, parseEncryptionKey, Registry } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestSchemas, postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { type FakeProvider, providerEnv, startFakeProvider } from '../oauth-provider.test-support.js';
import { MULTI_PROCESS_TIMEOUT } from './cluster.test-support.js';

/**
 * Real gateway processes (the built CLI, `portico serve`) sharing one PostgreSQL schema, against a fake OAuth
 * provider whose refresh tokens rotate. Needs `pnpm build` first (`pnpm test:e2e` does it).
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'apps/gateway/dist/bin.js');
const pluginModule = join(root, 'packages/core/dist/testing/example-plugin.js');
const problem = await postgresProblem();
const schema = `portico_mp_${randomBytes(5).toString('hex')}`;
const encryptionKey = randomBytes(32).toString('base64');

interface GatewayProcess {
  url: string;
  child: ChildProcess;
}

let provider: FakeProvider;
let store: PostgresStore;
let engine: Engine;
let encryptor: Encryptor;
let apiKey: string;
const children: ChildProcess[] = [];

function spawnGateway(): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: {
      PATH: process.env.PATH,
      PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-mp-')),
      PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
      PORTICO_DATABASE_SCHEMA: schema,
      PORTICO_ENCRYPTION_KEY: encryptionKey,
      PORTICO_PLUGINS: pluginModule,
      PORTICO_PORT: '0',
      PORTICO_LOG_LEVEL: 'warn',
      PORTICO_UPSTREAM_RETRIES: '0',
      // 200 concurrent calls with one key: the shared rate limit leases tokens from PostgreSQL without refusing any
      PORTICO_RATE_LIMIT_PER_MINUTE: '6000000',
      PORTICO_RATE_LIMIT_BURST: '100000',
      ...providerEnv(provider),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 15_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is listening on (http:\/\/[0-9.:]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1] as string, child });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`gateway exited (${code}):\n${output}`)));
  });
}

async function storedCredentials() {
  const record = await store.getConnection(DEFAULT_WORKSPACE, 'example');
  if (!record) throw new Error('no connection');
  return { record, credentials: JSON.parse(encryptor.decrypt(record.secret, connectionAad(DEFAULT_WORKSPACE, 'example'))) };
}

async function connectExpired(): Promise<string> {
  const pair = provider.issue(1);
  await engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    expiresAt: new Date(Date.now() - 1_000).toISOString(),
  });
  return pair.refreshToken;
}

const call = (gateway: GatewayProcess) =>
  fetch(`${gateway.url}/api/v1/example/items`, { headers: { authorization: `Bearer ${apiKey}` } }).then((r) => r.status);

describe.skipIf(problem !== undefined)(
  `gateway processes sharing PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`,
  { timeout: MULTI_PROCESS_TIMEOUT },
  () => {
    beforeAll(async () => {
      if (!existsSync(bin) || !existsSync(pluginModule))
        throw new Error('these tests run the built gateway: run `pnpm build` first (`pnpm test:e2e` does)');
      provider = await startFakeProvider();
      store = new PostgresStore(TEST_POSTGRES_URL, { schema });
      await store.migrate();
      const registry = new Registry();
      registry.register(examplePlugin);
      encryptor = new Encryptor(parseEncryptionKey(encryptionKey));
      engine = new Engine({ registry, store, encryptor });
      apiKey = (
        await engine.createApiKey({ workspaceId: DEFAULT_WORKSPACE, name: 'mp', scopes: { admin: true, services: '*', readOnly: false } })
      ).key;
      await engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    });

    afterAll(async () => {
      for (const child of children) child.kill('SIGKILL');
      await engine?.close();
      await store?.close();
      await provider?.close();
      await dropTestSchemas(schema);
    });

    it('200 concurrent calls on an expired token across 3 processes make exactly one token request, and all succeed', async () => {
      const gateways = await Promise.all([spawnGateway(), spawnGateway(), spawnGateway()]);
      await connectExpired();
      provider.behaviour.refreshDelayMs = 300; // keep the refresh in flight while the other calls arrive
      const before = provider.refreshRequests.length;
      const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => call(gateways[i % 3] as GatewayProcess)));
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(provider.refreshRequests.length - before).toBe(1);
      const { credentials, record } = await storedCredentials();
      expect(credentials.refreshToken).toBe(provider.issuedRefreshTokens.at(-1)); // the rotated, newest refresh token
      expect(record.status).toBe('active');
      // what PostgreSQL holds is ciphertext only: no token the provider issued appears in any connection row
      const raw = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await raw.connect();
      const rows = (await raw.query(`SELECT * FROM "${schema}".connections`)).rows;
      await raw.end();
      const dump = JSON.stringify(rows);
      expect(dump).toContain('enc1:');
      for (const token of provider.issuedRefreshTokens) expect(dump).not.toContain(token);
      for (const gateway of gateways) gateway.child.kill('SIGKILL');
    });

    it('an access token revoked early: 2 processes see the 401 at once, make exactly one refresh, and every call succeeds', async () => {
      const gateways = await Promise.all([spawnGateway(), spawnGateway()]);
      const pair = provider.issue(3600);
      await engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', {
        accessToken: pair.accessToken,
        refreshToken: pair.refreshToken,
        expiresAt: new Date(Date.now() + 3600_000).toISOString(), // an hour left: no refresh is due by the clock
      });
      for (const gateway of gateways) expect(await call(gateway)).toBe(200); // both hold the token in their caches
      const before = await storedCredentials();
      provider.revokeAccessTokens();
      provider.behaviour.refreshDelayMs = 300; // keep the refresh in flight while the other 401s arrive
      const refreshes = provider.refreshRequests.length;
      const refusals = provider.apiRefusals;
      const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => call(gateways[i % 2] as GatewayProcess)));
      provider.behaviour.refreshDelayMs = 0;
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(provider.apiRefusals - refusals).toBeGreaterThanOrEqual(2); // the revoked token was refused more than once
      expect(provider.refreshRequests.length - refreshes).toBe(1);
      expect(provider.refreshRequests.at(-1)).toBe(pair.refreshToken);
      const after = await storedCredentials();
      expect(after.record.version).toBe(before.record.version + 1);
      expect(after.credentials.refreshToken).toBe(provider.issuedRefreshTokens.at(-1));
      expect(after.record.status).toBe('active');
      for (const gateway of gateways) gateway.child.kill('SIGKILL');
    });

    it('loses no usable credential when a process dies in the middle of a refresh', async () => {
      const [first, second] = await Promise.all([spawnGateway(), spawnGateway()]);
      const original = await connectExpired();
      const before = await storedCredentials();
      provider.behaviour.holdRefresh = true; // the provider rotates, then the answer never arrives
      const inFlight = call(first as GatewayProcess).catch(() => 'killed');
      const started = Date.now();
      while (provider.refreshRequests.at(-1) !== original) {
        expect(Date.now() - started).toBeLessThan(5_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      first?.child.kill('SIGKILL');
      expect(await inFlight).toBe('killed');
      const after = await storedCredentials();
      expect(after.record.version).toBe(before.record.version); // nothing was half-written
      expect(after.credentials).toEqual(before.credentials);

      // Another instance takes over: the dead process's lock went with its database session, and the stored refresh
      // token is still good (its successor was never used).
      provider.behaviour.holdRefresh = false;
      expect(await call(second as GatewayProcess)).toBe(200);
      const final = await storedCredentials();
      expect(final.credentials.refreshToken).toBe(provider.issuedRefreshTokens.at(-1));
      expect(final.record.version).toBe(before.record.version + 1);
      second?.child.kill('SIGKILL');
    });
    it('a REST switch flipped in one process’s dashboard closes and reopens the REST door of another (the built dashboard)', async () => {
      const [first, second] = (await Promise.all([spawnGateway(), spawnGateway()])) as [GatewayProcess, GatewayProcess];
      expect(await call(second)).toBe(200);
      const signIn = await fetch(`${first.url}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ key: apiKey }).toString(),
      });
      expect(signIn.status).toBe(303);
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const page = await (await fetch(`${first.url}/dashboard/integrations`, { headers: { cookie } })).text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] as string;
      // the built gateway serves the bundled browser assets from dist/public
      const script = /src="(\/dashboard\/assets\/app\.[0-9a-f]{12}\.js)"/.exec(page)?.[1] as string;
      expect((await fetch(`${first.url}${script}`)).status).toBe(200);
      const flip = async (enabled: 'on' | 'off') => {
        const response = await fetch(`${first.url}/dashboard/integrations/example/switch`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          body: new URLSearchParams({ _csrf: csrf, protocol: 'rest', enabled }).toString(),
        });
        expect(response.status).toBe(303);
      };
      const until = async (status: number) => {
        const started = Date.now();
        while ((await call(second)) !== status) {
          expect(Date.now() - started).toBeLessThan(3_000);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await flip('off');
      await until(403);
      await flip('on');
      await until(200);
      first.child.kill('SIGKILL');
      second.child.kill('SIGKILL');
    });
  },
);
