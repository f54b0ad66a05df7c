import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEncryptionKey } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresProblem, startTestGateway, TEST_POSTGRES_URL, type TestGateway } from '../gateway.test-support.js';
import { MULTI_PROCESS_TIMEOUT, root, runPortico, schemas } from './cluster.test-support.js';

/**
 * An instance that cannot open what the cluster sealed says so on `/readyz` (a balancer keeps calls away from it)
 * instead of answering ready and failing every upstream call; on PostgreSQL an instance without a key refuses to start.
 */
const problem = await postgresProblem();
const made = schemas('portico_probe');
const running: TestGateway[] = [];

afterAll(async () => {
  await Promise.all(running.map((g) => g.close(1000, 0)));
  if (!problem) await made.dropAll();
});

const newKey = () => randomBytes(32).toString('base64');

async function start(schema: string, env: Record<string, string>): Promise<TestGateway> {
  const gateway = await startTestGateway({
    plugins: [examplePlugin],
    env: { PORTICO_DATABASE_URL: TEST_POSTGRES_URL, PORTICO_DATABASE_SCHEMA: schema, ...env },
  });
  running.push(gateway);
  return gateway;
}

async function readyz(gateway: TestGateway): Promise<{ status: number; body: { failing?: string[]; message?: string; code?: string } }> {
  const response = await fetch(`${gateway.url}/readyz`);
  return { status: response.status, body: (await response.json()) as { failing?: string[]; message?: string } };
}

describe.skipIf(problem !== undefined)(`an instance that cannot decrypt${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('answers /readyz 503 naming credentials while its key differs from the cluster’s, and is ready with the right key', async () => {
    const schema = made.fresh();
    const clusterKey = newKey();
    const first = await start(schema, { PORTICO_ENCRYPTION_KEY: clusterKey });
    // (each instance's LISTEN connection takes a moment after the start: readiness waits for it too)
    await expect.poll(() => readyz(first), { timeout: 10_000, interval: 50 }).toEqual({ status: 200, body: { status: 'ready' } });

    const wrongKey = newKey();
    const wrong = await start(schema, { PORTICO_ENCRYPTION_KEY: wrongKey });
    await expect.poll(() => readyz(wrong).then((r) => r.body.failing), { timeout: 10_000, interval: 50 }).toEqual(['credentials']);
    const answer = await readyz(wrong);
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('not_ready');
    expect(answer.body.failing).toEqual(['credentials']);
    expect(answer.body.message).toContain(`sealed with key ${parseEncryptionKey(clusterKey).id}`);
    expect(answer.body.message).toContain('set PORTICO_ENCRYPTION_KEY');
    expect(JSON.stringify(answer.body)).not.toContain(clusterKey);
    expect(JSON.stringify(answer.body)).not.toContain(wrongKey);
    // The wrong instance did not overwrite the probe: the first is still ready.
    expect((await readyz(first)).status).toBe(200);

    // Restarted with the cluster's key as a previous key (a rotation staged): ready.
    const staged = await start(schema, { PORTICO_ENCRYPTION_KEY: wrongKey, PORTICO_ENCRYPTION_PREVIOUS_KEYS: clusterKey });
    await expect.poll(() => readyz(staged), { timeout: 10_000, interval: 50 }).toEqual({ status: 200, body: { status: 'ready' } });
    await wrong.close(1000, 0);
  });

  it('refuses to start on PostgreSQL without an encryption key, naming the variable to set, and makes no key file', {
    timeout: MULTI_PROCESS_TIMEOUT,
  }, async () => {
    const schema = made.fresh();
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-probe-'));
    const serve = runPortico(['serve'], {
      PORTICO_DATA_DIR: dataDir,
      PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
      PORTICO_DATABASE_SCHEMA: schema,
      PORTICO_PLUGINS: join(root, 'packages/core/dist/testing/example-plugin.js'),
      PORTICO_PORT: '0',
    });
    expect(await serve.exited).toBe(1);
    expect(serve.output()).toContain('PORTICO_ENCRYPTION_KEY is not set and the database is PostgreSQL');
    expect(serve.output()).toContain('Set PORTICO_ENCRYPTION_KEY');
    expect(existsSync(join(dataDir, 'encryption.key'))).toBe(false);
  });
});
