import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, MIGRATIONS, PostgresStore } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { SEMI_SPACE_FLAG } from '../runtime/v8-flags.js';
import { listening, type PorticoProcess, root, runPortico, schemas, stop } from './cluster.test-support.js';

/**
 * `portico serve --workers 2` (the built CLI): one port, two worker processes, the upstream limits of a
 * connection and the per-address sign-in and registration limits shared by both (held by the primary), a worker killed mid-load and replaced, a drain on SIGTERM, and one
 * migration run and one operator key on an empty database. The upstream is a loopback server that counts the
 * requests it has in flight and when each arrived. Needs `pnpm build` first.
 */
const pgProblem = await postgresProblem();
const made = schemas('workers_e2e');
const running: PorticoProcess[] = [];

/** The example plugin's upstream: answers `{ limit }` (the call's own query) after `delayMs`, or when released. */
class Upstream {
  server!: Server;
  url = '';
  inFlight = 0;
  maxInFlight = 0;
  arrivals: number[] = [];
  delayMs = 100;
  private held: Array<() => void> | undefined;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      this.arrivals.push(Date.now());
      let open = true;
      const done = () => {
        if (!open) return;
        open = false;
        this.inFlight--;
      };
      response.on('close', done);
      const answer = () => {
        const limit = new URL(request.url ?? '/', 'http://x').searchParams.get('limit');
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ limit: Number(limit) }));
      };
      if (this.held) this.held.push(answer);
      else setTimeout(answer, this.delayMs);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const answer of held) answer();
  }

  reset(): void {
    this.maxInFlight = this.inFlight;
    this.arrivals = [];
  }

  async until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what} (in flight: ${this.inFlight})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/** One call on a connection of its own (so that the primary hands it to the next worker in turn). */
function call(url: string, key: string, limit: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${url}/api/v1/example/items?limit=${limit}`,
      { agent: false, headers: { authorization: `Bearer ${key}` } },
      (response: IncomingMessage) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function admin(url: string, key: string, method: string, path: string, body: unknown): Promise<void> {
  const answer = await fetch(`${url}/api/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

interface Started {
  process: PorticoProcess;
  url: string;
  key: string;
}

function gatewayEnv(upstream: Upstream, extra: Record<string, string>): Record<string, string> {
  return {
    PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-workers-')),
    PORTICO_PLUGINS: join(root, 'packages/core/dist/testing/example-plugin.js'),
    PORTICO_EXAMPLE_BASE_URL: upstream.url,
    PORTICO_PORT: '0',
    PORTICO_LOG_LEVEL: 'info',
    PORTICO_UPSTREAM_RETRIES: '0',
    PORTICO_RATE_LIMIT_PER_MINUTE: '0',
    ...extra,
  };
}

/** `serve --workers 2`, connected to the upstream with REST on, through the admin API (each call to either worker). */
async function startWorkers(upstream: Upstream, extra: Record<string, string> = {}): Promise<Started> {
  const process = runPortico(['serve', '--workers', '2'], gatewayEnv(upstream, extra));
  running.push(process);
  const url = await listening(process);
  await upstream.until(() => process.output().includes('Stop with Ctrl-C.'), 'the whole banner');
  const key = /API key \(admin[^\n]*\n\s+(\S+)/.exec(process.output())?.[1] as string;
  expect(key).toMatch(/^portico_/);
  await admin(url, key, 'PUT', '/connections/example', { token: 'upstream-token' });
  await admin(url, key, 'PATCH', '/integrations/example', { rest_enabled: true });
  return { process, url, key };
}

interface LogLine {
  msg?: string;
  pid?: number;
  path?: string;
  status?: number;
  pids?: number[];
  migration?: number;
}

function logLines(process: PorticoProcess): LogLine[] {
  return process
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The pids of the workers that answered calls of the example service. */
function servingPids(process: PorticoProcess): Set<number> {
  return new Set(
    logLines(process)
      .filter((line) => line.msg === 'request' && line.path === '/api/v1/example/items')
      .map((line) => line.pid as number),
  );
}

/** A request on `agent`'s kept-alive connection (so that the same worker answers each), or on a connection of its own. */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, { method, agent: agent ?? false, headers }, (response: IncomingMessage) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body: text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * One kept-alive connection to each worker: fresh connections are opened (the primary deals each to a worker) until
 * the sign-in page was answered on each by another worker, told by the pid of its access line.
 */
async function connectionsToEachWorker(gateway: Started): Promise<Agent[]> {
  const byPid = new Map<number, Agent>();
  for (let attempt = 0; attempt < 40 && byPid.size < 2; attempt++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const seen = () => logLines(gateway.process).filter((line) => line.msg === 'request' && line.path === '/dashboard/sign-in');
    const before = seen().length;
    expect((await send(gateway.url, 'GET', '/dashboard/sign-in', {}, undefined, agent)).status).toBe(200);
    await upstream.until(() => seen().length > before, 'the access line of the sign-in page');
    const pid = seen()[before]?.pid as number;
    if (byPid.has(pid)) agent.destroy();
    else byPid.set(pid, agent);
  }
  expect(byPid.size).toBe(2);
  return [...byPid.values()];
}

function workerPids(process: PorticoProcess): number[] {
  return logLines(process).find((line) => line.msg === 'workers listening')?.pids ?? [];
}

const upstream = new Upstream();
/** Two workers start in a few seconds here, but this machine is shared with other test runs. */
const SLOW = 90_000;

beforeAll(async () => {
  await upstream.start();
});

afterAll(async () => {
  await Promise.all(running.map(stop));
  upstream.server.close();
  if (!pgProblem) await made.dropAll();
});

describe('portico serve --workers 2', () => {
  it(
    '3 in flight and 5 a minute across both workers: the 6th call and later in that minute get 429 with Retry-After',
    async () => {
      const gateway = await startWorkers(upstream, { PORTICO_EXAMPLE_UPSTREAM_LIMITS: 'concurrency=3,per_minute=5' });
      upstream.reset();
      upstream.delayMs = 300;
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => call(gateway.url, gateway.key, i + 1)));
      upstream.delayMs = 100;
      // Per worker, each would have let 3 in flight and 5 through: the upstream would have seen 6 and 10.
      expect(upstream.maxInFlight).toBe(3);
      expect(upstream.arrivals).toHaveLength(5);
      const ok = answers.filter((a) => a.status === 200);
      expect(ok).toHaveLength(5);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(7);
      for (const answer of refused) {
        expect(Number(answer.retryAfter)).toBeGreaterThan(30); // the window frees about a minute after the first call
        expect(JSON.parse(answer.body).message).toMatch(/at most 5 requests a minute/);
      }
      expect(servingPids(gateway.process).size).toBe(2); // both workers answered calls
      // Each worker started with the young generation's size fixed (runtime/v8-flags.ts); node's command line is the
      // only place V8 reads it from.
      const pids = workerPids(gateway.process);
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(SEMI_SPACE_FLAG);
      // One migration run (by the primary), one operator key, on the empty SQLite database.
      expect(logLines(gateway.process).filter((line) => line.msg === 'applied a schema migration')).toHaveLength(MIGRATIONS.length);
      const keys = await fetch(`${gateway.url}/api/admin/keys`, { headers: { authorization: `Bearer ${gateway.key}` } });
      expect(((await keys.json()) as { keys: unknown[] }).keys).toHaveLength(1);
      await stop(gateway.process);
    },
    SLOW,
  );

  it(
    'a worker killed mid-load: no answered call is wrong, its slots are released, and a replacement serves',
    async () => {
      const gateway = await startWorkers(upstream, {
        PORTICO_EXAMPLE_UPSTREAM_LIMITS: 'concurrency=3',
        PORTICO_UPSTREAM_QUEUE_WAIT_MS: '20000',
      });
      const [first, second] = workerPids(gateway.process);
      upstream.reset();
      upstream.hold();
      // Three calls on three connections, one at a time: the primary deals connections in turn, so each worker holds a slot.
      const calls: Array<Promise<Answer | Error>> = [];
      for (let i = 1; i <= 3; i++) {
        calls.push(call(gateway.url, gateway.key, i).catch((error: Error) => error));
        await upstream.until(() => upstream.inFlight === i, `${i} in flight`);
      }
      // Three more wait for a slot in the primary's queue.
      for (let i = 4; i <= 6; i++) calls.push(call(gateway.url, gateway.key, i).catch((error: Error) => error));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(upstream.inFlight).toBe(3);
      process.kill(first as number, 'SIGKILL');
      await upstream.until(() => gateway.process.output().includes('a worker exited unexpectedly'), 'the primary to see the death');
      // Its requests to the upstream die with it; the slots it held go to calls waiting on the other worker, or to the
      // next calls (the primary deals connections to the first free worker, so which calls wait where varies).
      for (let i = 7; i <= 9; i++) calls.push(call(gateway.url, gateway.key, i).catch((error: Error) => error));
      await upstream.until(() => upstream.inFlight === 3 && upstream.arrivals.length > 3, 'the dead worker’s slots taken by other calls');
      const exit = logLines(gateway.process).find((line) => line.msg === 'a worker exited unexpectedly: starting a replacement');
      expect(exit).toMatchObject({ pid: first, signal: 'SIGKILL' });
      expect((exit as { releasedSlots: number }).releasedSlots).toBeGreaterThanOrEqual(1);
      upstream.release();
      const settled = await Promise.all(calls);
      const answered = settled.filter((a): a is Answer => !(a instanceof Error));
      for (const [i, answer] of settled.entries()) {
        if (answer instanceof Error) continue; // a call the killed worker had: its connection closed, no answer
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toEqual({ limit: i + 1 }); // its own answer, not another call's
      }
      expect(answered.length).toBeGreaterThanOrEqual(calls.length - 5); // at most the dead worker's 2 in flight and 3 waiting
      expect(upstream.maxInFlight).toBe(3);

      // Replaced, and the replacement serves; every slot is free again: three calls at once all go through.
      await upstream.until(() => gateway.process.output().includes('replacement worker listening'), 'a replacement');
      const replacement = logLines(gateway.process).find((line) => line.msg === 'replacement worker listening')?.pid as number;
      expect(gateway.process.output()).toContain('a worker exited unexpectedly: starting a replacement');
      expect([first, second]).not.toContain(replacement);
      upstream.reset();
      for (let round = 0; round < 5 && !servingPids(gateway.process).has(replacement); round++) {
        const again = await Promise.all([20, 21, 22].map((n) => call(gateway.url, gateway.key, n)));
        expect(again.map((a) => a.status)).toEqual([200, 200, 200]);
      }
      expect(servingPids(gateway.process).has(replacement)).toBe(true);
      // All three slots are free: three held calls are in flight at the upstream together.
      upstream.hold();
      const held = [10, 11, 12].map((n) => call(gateway.url, gateway.key, n));
      await upstream.until(() => upstream.inFlight === 3, 'three calls in flight after the kill');
      upstream.release();
      expect((await Promise.all(held)).map((a) => a.status)).toEqual([200, 200, 200]);
      await stop(gateway.process);
    },
    SLOW,
  );

  it(
    'SIGTERM to the primary under load: every call already started is answered, and it exits cleanly',
    async () => {
      const gateway = await startWorkers(upstream);
      upstream.reset();
      upstream.delayMs = 500;
      const calls = Array.from({ length: 10 }, (_, i) => call(gateway.url, gateway.key, i + 1));
      await upstream.until(() => upstream.inFlight === 10, 'ten calls in flight');
      gateway.process.child.kill('SIGTERM');
      const answers = await Promise.all(calls);
      upstream.delayMs = 100;
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(answers.map((a) => JSON.parse(a.body).limit)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await gateway.process.exited).toBe(0);
      expect(gateway.process.output()).toContain('every worker stopped');
      expect(gateway.process.output()).not.toContain('a worker exited unexpectedly');
    },
    SLOW,
  );

  it(
    'a worker that keeps dying is replaced after a growing back-off',
    async () => {
      const gateway = await startWorkers(upstream);
      let victim = workerPids(gateway.process)[0] as number;
      for (let death = 1; death <= 3; death++) {
        process.kill(victim, 'SIGKILL');
        await upstream.until(
          () => logLines(gateway.process).filter((line) => line.msg === 'replacement worker listening').length === death,
          `replacement ${death}`,
          30_000,
        );
        victim = logLines(gateway.process).filter((line) => line.msg === 'replacement worker listening')[death - 1]?.pid as number;
      }
      const deaths = logLines(gateway.process).filter(
        (line) => line.msg === 'a worker exited unexpectedly: starting a replacement',
      ) as Array<LogLine & { restartInMs: number; crashesInARow: number }>;
      expect(deaths).toHaveLength(3);
      // Replacements that die within 10 s of their start count as a crash loop: each waits twice as long as the last.
      const [, second, third] = deaths as [
        unknown,
        { restartInMs: number; crashesInARow: number },
        { restartInMs: number; crashesInARow: number },
      ];
      expect(third.crashesInARow).toBe(second.crashesInARow + 1);
      expect(third.restartInMs).toBeGreaterThanOrEqual(250);
      expect(third.restartInMs).toBe(second.restartInMs === 0 ? 250 : second.restartInMs * 2);
      expect((await call(gateway.url, gateway.key, 1)).status).toBe(200);
      await stop(gateway.process);
    },
    SLOW,
  );

  it(
    'on SQLite the workers are one instance: a key revoked through one worker is refused by both at once',
    async () => {
      const gateway = await startWorkers(upstream);
      const created = await fetch(`${gateway.url}/api/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'short-lived', admin: false }),
      });
      expect(created.status).toBe(201);
      const { id, key } = (await created.json()) as { id: string; key: string };
      // One call at a time on fresh connections: the workers take turns, and each caches the key (for 5 s).
      for (let n = 1; n <= 4; n++) expect((await call(gateway.url, key, n)).status).toBe(200);
      expect(servingPids(gateway.process).size).toBe(2);
      const revoked = await fetch(`${gateway.url}/api/admin/keys/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${gateway.key}` },
      });
      expect(revoked.status).toBe(204);
      // The worker that revoked it told the primary, which told the other: neither serves the key from its cache.
      for (let n = 1; n <= 4; n++) expect((await call(gateway.url, key, n)).status).toBe(401);
      await stop(gateway.process);
    },
    SLOW,
  );

  it(
    'the sign-in and registration limits hold for the instance: 10 spread over both workers, the 11th gets 429',
    async () => {
      const gateway = await startWorkers(upstream);
      const workers = await connectionsToEachWorker(gateway);
      const on = (i: number) => workers[i % 2] as Agent;
      const signIn = (key: string, i: number) =>
        send(
          gateway.url,
          'POST',
          '/dashboard/sign-in',
          { 'content-type': 'application/x-www-form-urlencoded', origin: gateway.url },
          new URLSearchParams({ key }).toString(),
          on(i),
        );
      // Five failures through each worker: per worker, each would allow ten, twenty in all.
      for (let i = 0; i < 10; i++) expect((await signIn('portico_wrong', i)).status).toBe(401);
      for (let i = 0; i < 2; i++) {
        const refused = await signIn(gateway.key, i); // the right key too, while the address is at its limit
        expect(refused.status).toBe(429);
        expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(50);
      }
      const registration = JSON.stringify({ client_name: 'Assistant', redirect_uris: ['https://assistant.example/callback'] });
      const register = (i: number) =>
        send(gateway.url, 'POST', '/oauth/register', { 'content-type': 'application/json' }, registration, on(i));
      for (let i = 0; i < 10; i++) expect((await register(i)).status).toBe(201);
      for (let i = 0; i < 2; i++) {
        const refused = await register(i);
        expect(refused.status).toBe(429);
        expect(JSON.parse(refused.body)).toMatchObject({ error: 'too_many_registrations' });
        expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(50);
      }
      // each worker answered half of them
      const pids = (path: string) =>
        logLines(gateway.process)
          .filter((line) => line.msg === 'request' && line.path === path && line.status !== 200)
          .map((line) => line.pid);
      for (const path of ['/dashboard/sign-in', '/oauth/register']) {
        await upstream.until(() => pids(path).length === 12, `the access lines of ${path}`); // written a little later
        expect(new Set(pids(path)).size).toBe(2);
      }
      for (const agent of workers) agent.destroy();
      await stop(gateway.process);
    },
    SLOW,
  );

  it(
    'refuses a bad worker count with a clear error',
    async () => {
      const refused = runPortico(['serve', '--workers', '0'], gatewayEnv(upstream, {}));
      expect(await refused.exited).toBe(2); // a configuration error, as for any other bad setting
      expect(refused.output()).toContain('PORTICO_WORKERS (serve --workers) must be auto or a whole number from 1 to 64 (got "0")');
    },
    SLOW,
  );
});

describe.skipIf(pgProblem !== undefined)(`portico serve --workers 2 on PostgreSQL${pgProblem ? ` (skipped: ${pgProblem})` : ''}`, () => {
  it(
    'an empty database: one migration run and one operator key, printed once, accepted by both workers',
    async () => {
      const schema = made.fresh();
      const gateway = await startWorkers(upstream, {
        PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
        PORTICO_DATABASE_SCHEMA: schema,
        PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PORTICO_DATABASE_POOL_SIZE: '2',
        PORTICO_DATABASE_LOCK_POOL_SIZE: '2',
      });
      const migrations = logLines(gateway.process).filter((line) => line.msg === 'applied a schema migration');
      expect(migrations.map((line) => line.migration)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(gateway.process.output().match(/API key \(admin, named "initial-admin"/g)).toHaveLength(1);
      const store = new PostgresStore(TEST_POSTGRES_URL, { schema });
      try {
        expect((await store.listApiKeys(DEFAULT_WORKSPACE)).map((k) => k.name)).toEqual(['initial-admin']);
      } finally {
        await store.close();
      }
      // One at a time: the primary deals each new connection to the next free worker.
      for (let n = 1; n <= 4; n++) expect((await call(gateway.url, gateway.key, n)).status).toBe(200);
      expect(servingPids(gateway.process).size).toBe(2);
      await stop(gateway.process);
    },
    SLOW,
  );
});
