import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, silentLogger } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { postgresProblem, type StubUpstream, startStubUpstream, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { openRuntime } from '../runtime/runtime.js';
import { listening, type PorticoProcess, root, runPortico, schemas, stop } from './cluster.test-support.js';

/**
 * Upstream quotas that hold across instances: three `portico serve` processes (the built CLI: `pnpm build`
 * first) on one PostgreSQL schema, in front of one upstream whose limit the operator sets to 50 a minute
 * (`PORTICO_EXAMPLE_UPSTREAM_LIMITS=per_minute=50`). With per-process windows each instance would send up to 50;
 * shared, the upstream sees at most 50 in the minute whichever instances the calls reach, and the others get 429
 * with `Retry-After` at once. Skipped without PostgreSQL unless PORTICO_REQUIRE_POSTGRES=1.
 */
const problem = await postgresProblem();
const made = schemas('quotas_e2e');
const schema = made.fresh();
const encryptionKey = randomBytes(32).toString('base64');
const pluginModule = join(root, 'packages/core/dist/testing/example-plugin.js');
const running: PorticoProcess[] = [];
let upstream: StubUpstream;
let apiKey: string;

beforeAll(async () => {
  if (problem) return;
  upstream = await startStubUpstream(() => ({ status: 200, body: { items: [{ id: 'it_1', name: 'counted' }] } }));
  const config = loadConfig({
    PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-quotas-')),
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_ENCRYPTION_KEY: encryptionKey,
  });
  const runtime = await openRuntime(config, silentLogger, { plugins: [examplePlugin] });
  try {
    await runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
    await runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    apiKey = (
      await runtime.engine.createApiKey({
        workspaceId: DEFAULT_WORKSPACE,
        name: 'quotas',
        scopes: { admin: false, services: '*', readOnly: true },
      })
    ).key;
  } finally {
    await runtime.close();
  }
});

afterAll(async () => {
  await Promise.all(running.map(stop));
  await upstream?.close();
  if (!problem) await made.dropAll();
});

function gateway(): PorticoProcess {
  const process = runPortico(['serve'], {
    PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-quotas-')),
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_ENCRYPTION_KEY: encryptionKey,
    PORTICO_PLUGINS: pluginModule,
    PORTICO_EXAMPLE_BASE_URL: upstream.url,
    PORTICO_EXAMPLE_UPSTREAM_LIMITS: 'per_minute=50',
    PORTICO_PORT: '0',
    PORTICO_LOG_LEVEL: 'warn',
    PORTICO_DASHBOARD: 'off',
    PORTICO_RATE_LIMIT_PER_MINUTE: '0',
  });
  running.push(process);
  return process;
}

interface Answer {
  instance: number;
  status: number;
  retryAfter: number;
  code: unknown;
}

async function list(url: string, instance: number): Promise<Answer> {
  const response = await fetch(`${url}/api/v1/example/items`, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = (await response.json()) as { code?: unknown };
  return { instance, status: response.status, retryAfter: Number(response.headers.get('retry-after')), code: body.code };
}

describe.skipIf(problem !== undefined)(`upstream quotas across instances${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('three instances, 30 then 90 calls, a 50-a-minute upstream: it sees at most 50, the rest are 429 with Retry-After', {
    timeout: 120_000,
  }, async () => {
    const urls = await Promise.all([gateway(), gateway(), gateway()].map(listening));
    const started = performance.now();
    const wave = (calls: number) => Promise.all(Array.from({ length: calls }, (_, i) => list(urls[i % 3] as string, i % 3)));
    // 30 first, 10 through each instance: all within the limit, every instance sends
    const first = await wave(30);
    expect(first.map((a) => a.status)).toEqual(Array(30).fill(200));
    // then 90 more at once: the 20 left of the minute go, whichever instances they reach
    const answers = [...first, ...(await wave(90))];
    const took = performance.now() - started;

    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(upstream.requests.length).toBeLessThanOrEqual(50);
    // what is not spent is at most a lease's batch per instance (2 of 50), given back a second later
    expect(upstream.requests.length).toBeGreaterThanOrEqual(44);
    expect(served).toHaveLength(upstream.requests.length);
    for (const answer of refused) {
      expect(answer).toMatchObject({ status: 429, code: 'rate_limited' });
      // the minute (and the lease's lifetime of a second) to wait, said at once rather than after a queue wait
      expect(answer.retryAfter).toBeGreaterThanOrEqual(50);
      expect(answer.retryAfter).toBeLessThanOrEqual(62);
    }
    expect(took).toBeLessThan(20_000);

    // a second wave a moment later, over REST and MCP on every instance: the window is still spent
    const again = await Promise.all(urls.map((url, i) => list(url as string, i)));
    const mcp = await Promise.all(
      urls.map(async (url) => {
        const response = await fetch(`${url}/api/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'call_example', arguments: { method: 'list_items', params: {} } },
          }),
        });
        return (await response.json()) as { result?: { isError?: boolean; structuredContent?: { code?: string; message?: string } } };
      }),
    );
    expect(upstream.requests.length).toBeLessThanOrEqual(50);
    expect(again.filter((a) => a.status === 429).length + mcp.filter((m) => m.result?.isError).length).toBeGreaterThanOrEqual(
      6 - (50 - served.length),
    );
    for (const m of mcp.filter((m) => m.result?.isError)) {
      expect(m.result?.structuredContent).toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(/at most 50 requests a minute are sent; retry after \d+ s/),
      });
    }
  });
});
