import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, PostgresStore } from '@portico/core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { listening, MULTI_PROCESS_TIMEOUT, type PorticoProcess, runPortico, schemas, stop } from './cluster.test-support.js';

/**
 * Sandbox mode on a cluster: real `portico serve --sandbox` processes on one PostgreSQL schema share one
 * admin key and one set of sandbox upstreams. Needs `pnpm build` first.
 */
const problem = await postgresProblem();
const made = schemas('portico_cluster_sandbox');
const running: PorticoProcess[] = [];
const PAGE = 'b55c9c91-384d-452b-81db-d1ef79372b75'; // a page of the Notion sandbox's seed

afterAll(async () => {
  await Promise.all(running.map(stop));
  if (!problem) await made.dropAll();
});

function sandbox(schema: string, encryptionKey: string): PorticoProcess {
  const process = runPortico(['serve', '--sandbox'], {
    PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-cluster-sandbox-')),
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_ENCRYPTION_KEY: encryptionKey,
    PORTICO_PLUGINS: 'notes',
    PORTICO_PORT: '0',
    PORTICO_LOG_LEVEL: 'info',
  });
  running.push(process);
  return process;
}

async function call(url: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/api/v1/notion${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function comment(url: string, key: string, text: string): Promise<void> {
  const created = await call(url, key, 'POST', '/comments', {
    parent: { page_id: PAGE },
    rich_text: [{ type: 'text', text: { content: text } }],
  });
  expect(created.status).toBe(200);
}

async function commentTexts(url: string, key: string): Promise<string[]> {
  const listed = await call(url, key, 'GET', `/comments?block_id=${PAGE}`);
  expect(listed.status).toBe(200);
  const results = listed.body.results as Array<{ rich_text: Array<{ plain_text?: string; text?: { content: string } }> }>;
  return results.map((c) => c.rich_text.map((t) => t.plain_text ?? t.text?.content ?? '').join(''));
}

/** Ends every database session holding this schema's sandbox members lock, as a database restart would. */
async function terminateLockSessions(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    const lock = JSON.stringify(['portico', schema, 'cluster-session', 'sandbox-members']);
    const ended = await client.query(
      `SELECT pg_terminate_backend(l.pid) AS ended FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
         AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)`,
      [lock],
    );
    expect(ended.rows.length).toBe(2);
  } finally {
    await client.end();
  }
}

const KEY_LINES = /API key \(admin, named "sandbox"[^\n]*\n\s+(portico_\S+)/;
const printedKey = (process: PorticoProcess) => KEY_LINES.exec(process.output())?.[1];

describe.skipIf(problem !== undefined)(
  `sandbox mode on PostgreSQL with several instances${problem ? ` (skipped: ${problem})` : ''}`,
  { timeout: MULTI_PROCESS_TIMEOUT },
  () => {
    it('one key for the cluster and one firm: what one instance writes, the other reads; a survivor takes over', async () => {
      const schema = made.fresh();
      const encryptionKey = randomBytes(32).toString('base64');
      const first = sandbox(schema, encryptionKey);
      const firstUrl = await listening(first);
      await expect.poll(() => first.output()).toMatch(KEY_LINES);
      const key = printedKey(first) as string;
      expect(key).toMatch(/^portico_/);

      const second = sandbox(schema, encryptionKey);
      const secondUrl = await listening(second);
      // The second start printed no key, revoked none, and says whose key to use.
      await expect.poll(() => second.output()).toContain('Joined the sandbox of the instances already running on this database');
      expect(printedKey(second)).toBeUndefined();
      for (const url of [firstUrl, secondUrl]) expect((await call(url, key, 'GET', '/users')).status).toBe(200);

      // One firm: a comment made through either instance is read through the other.
      await comment(secondUrl, key, 'written through the second instance');
      expect(await commentTexts(firstUrl, key)).toContain('written through the second instance');
      await comment(firstUrl, key, 'written through the first instance');
      expect(await commentTexts(secondUrl, key)).toContain('written through the first instance');

      // The instance hosting the upstreams goes: the other takes over with its own (seeded afresh) and keeps serving.
      await stop(first);
      await expect.poll(() => second.output(), { timeout: 15_000 }).toContain('this one does now');
      expect((await call(secondUrl, key, 'GET', '/users')).status).toBe(200);
      await comment(secondUrl, key, 'after the takeover');
      expect(await commentTexts(secondUrl, key)).toContain('after the takeover');

      // A third instance joining the survivor: still no new key, the first one still works, the same firm.
      const third = sandbox(schema, encryptionKey);
      const thirdUrl = await listening(third);
      await expect.poll(() => third.output()).toContain('Joined the sandbox');
      expect(printedKey(third)).toBeUndefined();
      expect(await commentTexts(thirdUrl, key)).toContain('after the takeover');

      // The database ends the sessions holding the cluster's locks (a restart, a network cut): the instances rejoin,

      // one hosts again, and both still serve one firm.

      await terminateLockSessions(schema);

      for (const process of [second, third]) {
        await expect.poll(() => process.output(), { timeout: 15_000 }).toContain('rejoined the sandbox cluster');
      }

      await expect.poll(async () => (await call(thirdUrl, key, 'GET', '/users')).status, { timeout: 15_000 }).toBe(200);

      await expect.poll(async () => (await call(secondUrl, key, 'GET', '/users')).status, { timeout: 15_000 }).toBe(200);

      await comment(thirdUrl, key, 'after the sessions came back');

      await expect.poll(() => commentTexts(secondUrl, key), { timeout: 5_000 }).toContain('after the sessions came back');

      const store = new PostgresStore(TEST_POSTGRES_URL, { schema });
      try {
        const keys = (await store.listApiKeys(DEFAULT_WORKSPACE)).filter((k) => k.name === 'sandbox');
        expect(keys.map((k) => k.revokedAt)).toEqual([null]);
      } finally {
        await store.close();
      }
      await Promise.all([stop(second), stop(third)]);

      // With every instance gone, the next start begins a new sandbox: a fresh key, the previous one revoked.
      const restarted = sandbox(schema, encryptionKey);
      const restartedUrl = await listening(restarted);
      await expect.poll(() => restarted.output()).toMatch(KEY_LINES);
      const fresh = printedKey(restarted) as string;
      expect(fresh).toMatch(/^portico_/);
      expect(fresh).not.toBe(key);
      expect((await call(restartedUrl, key, 'GET', '/users')).status).toBe(401);
      expect((await call(restartedUrl, fresh, 'GET', '/users')).status).toBe(200);
      await stop(restarted);
    });
  },
);
