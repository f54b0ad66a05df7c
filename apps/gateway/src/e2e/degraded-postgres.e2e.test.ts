import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  postgresProblem,
  type StubUpstream,
  startStubUpstream,
  startTestGateway,
  TEST_POSTGRES_URL,
  type TestGateway,
} from '../gateway.test-support.js';
import { createLogger } from '../observability/logger.js';
import { schemas } from './cluster.test-support.js';

/**
 * Degraded mode: the gateway on the real PostgreSQL through a TCP proxy this test cuts. While cut, a key the gateway
 * knows keeps working from memory for PORTICO_DEGRADED_SECONDS, a key it has never seen gets 503 `unavailable` with
 * `Retry-After`, the log stays a few lines (not a stack per request), and once the database is back every audit
 * record of the calls answered meanwhile is in it.
 */
const problem = await postgresProblem();
const made = schemas('portico_degraded');
const DEGRADED_SECONDS = 5;
/** The most log lines (besides the access log) the whole cut may write: one per kind of failure per 10 s, and a few more. */
const LOG_LINES_BOUND = 15;

/** A TCP relay to PostgreSQL that can be cut: every open connection is dropped and new ones are closed at once. */
async function cuttableRelay(): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const target = new URL(TEST_POSTGRES_URL);
  const sockets = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((client) => {
    client.on('error', () => {});
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

let gateway: TestGateway | undefined;
let upstream: StubUpstream | undefined;
let relay: Awaited<ReturnType<typeof cuttableRelay>> | undefined;

afterAll(async () => {
  await gateway?.close(1000, 0);
  await upstream?.close();
  await relay?.close();
  if (!problem) await made.dropAll();
});

describe.skipIf(problem !== undefined)(`degraded mode during a database outage${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('serves known keys from memory for the configured time, answers 503 with Retry-After otherwise, logs a few lines, loses no audit record', {
    timeout: 90_000,
  }, async () => {
    const schema = made.fresh();
    relay = await cuttableRelay();
    upstream = await startStubUpstream(() => ({ status: 200, body: { items: [{ id: 1 }] } }));
    const lines: Array<{ msg: string; level: number; err?: unknown; [field: string]: unknown }> = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const url = new URL(TEST_POSTGRES_URL);
    url.host = `127.0.0.1:${relay.port}`;
    gateway = await startTestGateway({
      plugins: [examplePlugin],
      logger: createLogger('info', destination),
      env: {
        PORTICO_DATABASE_URL: url.toString(),
        PORTICO_DATABASE_SCHEMA: schema,
        PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PORTICO_EXAMPLE_BASE_URL: upstream.url,
        PORTICO_AUDIT_SPOOL_DIR: mkdtempSync(join(tmpdir(), 'portico-degraded-spool-')),
        PORTICO_DEGRADED_SECONDS: String(DEGRADED_SECONDS),
      },
    });
    const { engine } = gateway.runtime;
    await engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
    await engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    // A valid key this instance has never been shown: while the database is cut it cannot tell it from a forged one.
    const unseen = await engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'unseen',
      scopes: { admin: false, services: '*', readOnly: false },
    });
    let answered200 = 0;
    const call = async (key: string = gateway!.key) => {
      const response = await fetch(`${gateway!.url}/api/v1/example/items`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await response.json()) as { code?: string };
      if (response.status === 200) answered200++;
      return { status: response.status, code: body.code, retryAfter: response.headers.get('retry-after') };
    };
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
    await engine.flushAudit();

    relay.cut();
    const cutAt = Date.now();
    const linesBefore = lines.length;
    // Degraded mode starts with the first read the database does not answer (as the 5-second caches expire) and
    // lasts DEGRADED_SECONDS from there: until then the known key keeps getting 200, past the caches' 5 seconds.
    const startedAt = () => {
      const line = lines.find((l) => l.msg.startsWith('the database does not answer: serving known keys'));
      return line === undefined ? undefined : typeof line.time === 'number' ? line.time : Date.parse(String(line.time));
    };
    const during: number[] = [];
    let lastAt = 0;
    for (;;) {
      const started = startedAt();
      if (started !== undefined && Date.now() > started + (DEGRADED_SECONDS - 0.5) * 1000) break;
      expect(Date.now() - cutAt).toBeLessThan(15_000);
      during.push((await call()).status);
      lastAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(lastAt - cutAt).toBeGreaterThan(6_000);
    expect(during.length).toBeGreaterThan(50);
    expect(during.filter((status) => status !== 200)).toEqual([]);
    const unknown = await call(unseen.key);
    expect(unknown).toEqual({ status: 503, code: 'unavailable', retryAfter: expect.stringMatching(/^\d+$/) });
    // What needs the database itself (the list of connections) is 503 too, not 500 with a stack trace.
    const listing = await fetch(`${gateway.url}/api/v1/connections`, { headers: { authorization: `Bearer ${gateway.key}` } });
    expect([listing.status, ((await listing.json()) as { code?: string }).code, listing.headers.get('retry-after')]).toEqual([
      503,
      'unavailable',
      '5',
    ]);

    // Once degraded mode has lasted its time, the known key gets 503 too.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, (startedAt() as number) + (DEGRADED_SECONDS + 1) * 1000 - Date.now())));
    const after = await call();
    expect(after).toEqual({ status: 503, code: 'unavailable', retryAfter: expect.stringMatching(/^\d+$/) });
    for (let i = 0; i < 100; i++) expect((await call()).status).toBe(503);

    // Besides the access log's one line per request: a few lines for the whole cut, none with a stack.
    const cutLines = lines.slice(linesBefore).filter((l) => l.msg !== 'request');
    expect(cutLines.length, JSON.stringify(cutLines.map((l) => l.msg))).toBeLessThanOrEqual(LOG_LINES_BOUND);
    expect(cutLines.filter((l) => l.msg === 'unhandled error' || l.msg === 'operation failed')).toEqual([]);
    expect(JSON.stringify(cutLines)).not.toContain('    at '); // no stack trace

    relay.restore();
    await expect.poll(() => fetch(`${gateway!.url}/readyz`).then((r) => r.status), { timeout: 20_000, interval: 200 }).toBe(200);
    expect((await call()).status).toBe(200);
    await engine.flushAudit();
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM audit WHERE service = 'example' AND operation = 'list_items' AND status = 200",
      );
      expect(Number(rows[0]?.n)).toBe(answered200);
    } finally {
      await client.end();
    }
  });
});
