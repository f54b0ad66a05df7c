import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, MIGRATIONS, PostgresStore } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresProblem, startTestGateway, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { listening, MULTI_PROCESS_TIMEOUT, type PorticoProcess, root, runPortico, schemas, stop } from './cluster.test-support.js';

/**
 * Starting a cluster: real `portico serve` processes on a fresh PostgreSQL schema, and `portico migrate`.
 * Needs `pnpm build` first.
 */
const problem = await postgresProblem();
const made = schemas('portico_cluster_start');
const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));
const running: PorticoProcess[] = [];

afterAll(async () => {
  await Promise.all(running.map(stop));
  if (!problem) await made.dropAll();
});

function env(schema: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-cluster-')),
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PORTICO_PLUGINS: join(root, 'packages/core/dist/testing/example-plugin.js'),
    PORTICO_PORT: '0',
    PORTICO_LOG_LEVEL: 'info',
    ...extra,
  };
}

function serve(schema: string, extra: Record<string, string> = {}): PorticoProcess {
  const process = runPortico(['serve'], env(schema, extra));
  running.push(process);
  return process;
}

/** The versions a process's JSON log says it applied. */
function appliedVersions(output: string): number[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; migration?: number; name?: string; ms?: number })
    .filter((entry) => entry.msg === 'applied a schema migration')
    .map((entry) => {
      expect(typeof entry.name).toBe('string');
      expect(typeof entry.ms).toBe('number');
      return entry.migration as number;
    });
}

async function sql(schema: string, text: string, args: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    await client.query(text, args);
  } finally {
    await client.end();
  }
}

describe.skipIf(problem !== undefined)(
  `starting a cluster on PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`,
  { timeout: MULTI_PROCESS_TIMEOUT },
  () => {
    it('three instances started at once on an empty database: one migration run, one operator key, printed once', async () => {
      const schema = made.fresh();
      const three = [serve(schema), serve(schema), serve(schema)];
      const urls = await Promise.all(three.map(listening));
      expect(new Set(urls).size).toBe(3);

      const applied = three.map((p) => appliedVersions(p.output()));
      // Exactly one instance migrated, every migration once, in order; the others waited and found nothing to do.
      expect(applied.filter((versions) => versions.length > 0)).toEqual([MIGRATIONS.map((m) => m.version)]);
      const printed = three.filter((p) => p.output().includes('API key (admin, named "initial-admin"'));
      expect(printed).toHaveLength(1);

      const store = new PostgresStore(TEST_POSTGRES_URL, { schema });
      try {
        const keys = await store.listApiKeys(DEFAULT_WORKSPACE);
        expect(keys.map((k) => k.name)).toEqual(['initial-admin']);
        // The printed key is the one stored, and every instance accepts it.
        const key = /API key \(admin[^\n]*\n\s+(\S+)/.exec(printed[0]?.output() ?? '')?.[1] as string;
        for (const url of urls) {
          const answer = await fetch(`${url}/api/admin/keys`, { headers: { authorization: `Bearer ${key}` } });
          expect(answer.status).toBe(200);
        }
      } finally {
        await store.close();
      }
      await Promise.all(three.map(stop));
    });

    it('instances starting in one tick (in one process, the tightest race) still make exactly one key', async () => {
      const schema = made.fresh();
      const starting = [1, 2, 3, 4].map(() =>
        startTestGateway({
          plugins: [examplePlugin],
          env: {
            PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
            PORTICO_DATABASE_SCHEMA: schema,
            PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
          },
        }),
      );
      const gateways = await Promise.all(starting);
      try {
        expect(gateways.filter((g) => g.createdKey !== undefined)).toHaveLength(1);
        expect(await gateways[0]?.runtime.store.listApiKeys(DEFAULT_WORKSPACE)).toHaveLength(1);
      } finally {
        await Promise.all(gateways.map((g) => g.close(1000, 0)));
      }
    });

    it('PORTICO_MIGRATE=never refuses to start with pending migrations; migrate status, dry run and up, then it starts', async () => {
      const schema = made.fresh();
      const refused = serve(schema, { PORTICO_MIGRATE: 'never' });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(`needs version ${LATEST}`);
      expect(refused.output()).toContain("Run 'portico migrate up'");

      const status = runPortico(['migrate', 'status'], env(schema));
      expect(await status.exited).toBe(0);
      expect(status.output()).toContain(`Schema version 0; this release knows version ${LATEST}.`);
      for (const m of MIGRATIONS) expect(status.output()).toMatch(new RegExp(`^${m.version}\\s+pending\\s+`, 'm'));

      const dryRun = runPortico(['migrate', 'up', '--dry-run'], env(schema));
      expect(await dryRun.exited).toBe(0);
      // PostgreSQL's text of each migration (the SQLite one differs, e.g. for the audit table's key).
      expect(dryRun.output()).toContain('GENERATED ALWAYS AS IDENTITY');
      expect(dryRun.output()).not.toContain('AUTOINCREMENT');
      for (const m of MIGRATIONS) expect(dryRun.output()).toContain(`-- ${m.version}: ${m.name}`);
      const stillEmpty = runPortico(['migrate', 'status'], env(schema));
      expect(await stillEmpty.exited).toBe(0);
      expect(stillEmpty.output()).toContain('Schema version 0;');

      const up = runPortico(['migrate', 'up'], env(schema));
      expect(await up.exited).toBe(0);
      expect(up.output().match(/^applied \d+ /gm)).toHaveLength(MIGRATIONS.length);
      expect(up.output()).toContain(`The schema is at version ${LATEST}.`);

      const started = serve(schema, { PORTICO_MIGRATE: 'never' });
      await listening(started);
      expect(appliedVersions(started.output())).toEqual([]);
      await stop(started);
    });

    it('refuses to serve a database migrated by a newer release, naming both versions', async () => {
      const schema = made.fresh();
      const first = serve(schema);
      await listening(first);
      await stop(first);
      await sql(schema, 'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        LATEST + 1,
        'from a newer release',
        new Date().toISOString(),
      ]);
      const refused = serve(schema);
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(`schema is at version ${LATEST + 1} ("from a newer release"), newer than this Portico knows`);
      expect(refused.output()).toContain(`(version ${LATEST})`);
      const status = runPortico(['migrate', 'status'], env(schema));
      expect(await status.exited).toBe(0);
      expect(status.output()).toMatch(/by a newer release/);
    });
  },
);
