// The store contract on PostgreSQL, and what several instances on one database must agree on (on SQLite: contract.test.ts).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { storeContract } from './contract.test-support.js';
import { MIGRATIONS } from './migrations.js';
import { PostgresStore } from './postgres.js';
import {
  dropSchemas,
  TEST_POSTGRES_SHOWN as PG_SHOWN,
  TEST_POSTGRES_URL as PG_URL,
  postgresProblem,
  POSTGRES_REQUIRED as REQUIRE_PG,
} from './postgres.test-support.js';
import { conn, deferred, integration, key, sleep, T1, within } from './samples.test-support.js';
import { DEFAULT_WORKSPACE, type StoreChange } from './types.js';

const pgProblem = await postgresProblem();

if (pgProblem === undefined) {
  const schemas: string[] = [];
  /** A schema no other test (or test run) uses; dropped after the file. */
  const newSchema = (): string => {
    const schema = `portico_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    return schema;
  };
  afterAll(async () => {
    await dropSchemas(...schemas);
  });

  storeContract('PostgresStore (fresh schema)', async () => new PostgresStore(PG_URL, { schema: newSchema() }));

  describe('PostgresStore: several instances on one database', () => {
    const opened: PostgresStore[] = [];
    const children: ChildProcessWithoutNullStreams[] = [];
    afterEach(async () => {
      for (const child of children.splice(0)) child.kill();
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    /** Like separate gateway processes: each store has its own pools and LISTEN connection. */
    async function instances(count: number, schema = newSchema()): Promise<PostgresStore[]> {
      const stores = Array.from({ length: count }, (_, i) => {
        const store = new PostgresStore(PG_URL, { schema, poolSize: 4, applicationName: `portico-test:${schema}:${i}` });
        opened.push(store);
        return store;
      });
      for (const store of stores) await store.migrate();
      return stores;
    }

    it('a connection lock held by one instance blocks the other until released, also when fn throws', async () => {
      const [a, b] = await instances(2);
      if (!a || !b) throw new Error('two stores expected');
      const order: string[] = [];
      const entered = deferred();
      const release = deferred();
      const holder = a.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
        order.push('a:start');
        entered.resolve();
        await release.promise;
        order.push('a:end');
      });
      await entered.promise;
      const waiter = b.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
        order.push('b');
        return 'b done';
      });
      await sleep(500);
      expect(order).toEqual(['a:start']);
      // Another connection's lock is independent.
      await expect(
        within(
          2000,
          b.withConnectionLock(DEFAULT_WORKSPACE, 'slack', async () => 'free'),
        ),
      ).resolves.toBe('free');
      release.resolve();
      await holder;
      await expect(within(2000, waiter)).resolves.toBe('b done');
      expect(order).toEqual(['a:start', 'a:end', 'b']);

      await expect(
        a.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
          throw new Error('refresh failed');
        }),
      ).rejects.toThrow('refresh failed');
      await expect(
        within(
          2000,
          b.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => 'after throw'),
        ),
      ).resolves.toBe('after throw');
    });

    it('serializes a refresh across instances: each re-reads and swaps from the version it saw', async () => {
      const stores = await instances(3);
      await stores[0]?.putConnection(conn('notion'));
      // 12 "refreshes" spread over 3 instances; inside the lock each must see the previous one's write.
      await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const store = stores[i % 3];
          if (!store) throw new Error('store expected');
          await store.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
            const current = await store.getConnection(DEFAULT_WORKSPACE, 'notion');
            if (!current) throw new Error('connection expected');
            await sleep(5);
            const next = await store.swapConnection(conn('notion', { secret: `enc1:${i}` }), current.version);
            if (!next) throw new Error('compare-and-swap lost inside the lock');
          });
        }),
      );
      expect((await stores[1]?.getConnection(DEFAULT_WORKSPACE, 'notion'))?.version).toBe(13);
    });

    it('a change written through one instance is heard by the other within 2 s, and not in another schema', async () => {
      const [a, b] = await instances(2);
      const [stranger] = await instances(1);
      if (!a || !b || !stranger) throw new Error('stores expected');
      const heardByB: StoreChange[] = [];
      const heardByA: StoreChange[] = [];
      const heardByStranger: StoreChange[] = [];
      b.onChange((change) => heardByB.push(change));
      a.onChange((change) => heardByA.push(change));
      stranger.onChange((change) => heardByStranger.push(change));
      await within(5000, Promise.all([a.whenListening(), b.whenListening(), stranger.whenListening()]));

      const started = Date.now();
      await a.putIntegration(integration('notion', { restEnabled: true }));
      await waitFor(() => heardByB.length === 1, 2000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(heardByB).toEqual([{ kind: 'integration', workspaceId: DEFAULT_WORKSPACE, id: 'notion' }]);

      await a.createApiKey(key('key_1'));
      await a.touchApiKey('key_1', '2026-02-01T00:00:00.000Z');
      await a.revokeApiKey(DEFAULT_WORKSPACE, 'key_1', '2026-02-01T00:00:00.000Z');
      const { version } = await a.putConnection(conn('notion'));
      await a.swapConnection(conn('notion'), version + 5);
      await a.swapConnection(conn('notion'), version);
      await a.deleteConnection(DEFAULT_WORKSPACE, 'notion');
      await a.putToolSet({ workspaceId: DEFAULT_WORKSPACE, id: 'intake', name: 'Intake', rules: [], createdAt: T1, updatedAt: T1 });
      await a.deleteToolSet(DEFAULT_WORKSPACE, 'nothing-here');
      await a.createWorkspace({ id: 'smith', name: 'Smith', createdAt: T1 });
      await a.deleteWorkspace('smith');
      const expected: StoreChange[] = [
        { kind: 'integration', workspaceId: DEFAULT_WORKSPACE, id: 'notion' },
        { kind: 'api_key', workspaceId: DEFAULT_WORKSPACE, id: 'key_1' },
        { kind: 'api_key', workspaceId: DEFAULT_WORKSPACE, id: 'key_1' },
        { kind: 'connection', workspaceId: DEFAULT_WORKSPACE, id: 'notion' },
        { kind: 'connection', workspaceId: DEFAULT_WORKSPACE, id: 'notion' },
        { kind: 'connection', workspaceId: DEFAULT_WORKSPACE, id: 'notion' },
        { kind: 'tool_set', workspaceId: DEFAULT_WORKSPACE, id: 'intake' },
        { kind: 'workspace', workspaceId: 'smith', id: 'smith' },
        { kind: 'workspace', workspaceId: 'smith', id: 'smith' },
      ];
      await waitFor(() => heardByB.length >= expected.length, 2000);
      await sleep(300);
      // In commit order, once each; the writer hears its own writes once (not again through LISTEN).
      expect(heardByB).toEqual(expected);
      expect(heardByA).toEqual(expected);
      expect(heardByStranger).toEqual([]);
    });

    it('after the LISTEN connection drops it reconnects, tells listeners to flush everything, and hears again', async () => {
      const schema = newSchema();
      const [a] = await instances(1, schema);
      const applicationName = `portico-test:${schema}:dropped`;
      const b = new PostgresStore(PG_URL, { schema, applicationName });
      opened.push(b);
      if (!a) throw new Error('store expected');
      const heard: StoreChange[] = [];
      b.onChange((change) => heard.push(change));
      await within(5000, b.whenListening());

      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
          `${applicationName}:listen`,
        ]);
        expect(killed.rowCount).toBe(1);
      } finally {
        await admin.end();
      }
      await waitFor(() => heard.length >= 5, 5000);
      expect(heard).toEqual([
        { kind: 'api_key', workspaceId: '*', id: '*' },
        { kind: 'integration', workspaceId: '*', id: '*' },
        { kind: 'connection', workspaceId: '*', id: '*' },
        { kind: 'tool_set', workspaceId: '*', id: '*' },
        { kind: 'workspace', workspaceId: '*', id: '*' },
      ]);
      await within(5000, b.whenListening());
      await a.putIntegration(integration('slack'));
      await waitFor(() => heard.length === 6, 2000);
      expect(heard[5]).toEqual({ kind: 'integration', workspaceId: DEFAULT_WORKSPACE, id: 'slack' });
    });

    it('instances migrating a fresh schema at the same time all succeed and apply each migration once', async () => {
      const schema = newSchema();
      const stores = Array.from({ length: 4 }, () => {
        const store = new PostgresStore(PG_URL, { schema, poolSize: 2 });
        opened.push(store);
        return store;
      });
      await Promise.all(stores.map((store) => store.migrate()));
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        const applied = await admin.query<{ version: number; n: string }>(
          `SELECT version, count(*) AS n FROM "${schema}".schema_migrations GROUP BY version ORDER BY version`,
        );
        expect(applied.rows.map((r) => [r.version, Number(r.n)])).toEqual(MIGRATIONS.map((m) => [m.version, 1]));
        const workspaces = await admin.query(`SELECT id FROM "${schema}".workspaces`);
        expect(workspaces.rows).toEqual([{ id: DEFAULT_WORKSPACE }]);
      } finally {
        await admin.end();
      }
      for (const store of stores) expect(await store.getWorkspace(DEFAULT_WORKSPACE)).toMatchObject({ id: DEFAULT_WORKSPACE });
    });

    it('a separate Node process holding the lock, with the key derived on its own, blocks the store', async () => {
      const schema = newSchema();
      const [store] = await instances(1, schema);
      if (!store) throw new Error('store expected');
      const script = fileURLToPath(new URL('./lock-holder.test-support.mjs', import.meta.url));
      const child = spawn(process.execPath, [script, PG_URL, schema, DEFAULT_WORKSPACE, 'notion']);
      children.push(child);
      let output = '';
      let errors = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        errors += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await waitFor(
        () => output.includes('locked'),
        10_000,
        () => `child did not lock: ${errors}`,
      );

      let entered = false;
      const waiter = store.withConnectionLock(DEFAULT_WORKSPACE, 'notion', async () => {
        entered = true;
      });
      await sleep(500);
      expect(entered).toBe(false);
      child.stdin.write('release\n');
      await within(5000, waiter);
      expect(entered).toBe(true);
      expect(await within(5000, exited)).toBe(0);
    });
  });
} else if (REQUIRE_PG) {
  describe('PostgresStore', () => {
    it('needs PostgreSQL (PORTICO_REQUIRE_POSTGRES=1)', () => {
      throw new Error(`PostgreSQL is required but ${PG_SHOWN} cannot be reached: ${pgProblem}`);
    });
  });
} else {
  console.warn(
    `[store] PostgreSQL tests SKIPPED: ${PG_SHOWN} cannot be reached (${pgProblem}). Set PORTICO_REQUIRE_POSTGRES=1 to fail instead.`,
  );
  describe.skip(`PostgresStore (skipped: PostgreSQL not reachable at ${PG_SHOWN})`, () => {
    it('contract and cross-instance tests', () => {});
  });
}

async function waitFor(condition: () => boolean, ms: number, describeFailure?: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(describeFailure?.() ?? `condition not met within ${ms} ms`);
    await sleep(10);
  }
}
