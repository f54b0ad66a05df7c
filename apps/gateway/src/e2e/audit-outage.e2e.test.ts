import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * The database goes away mid-run: a PostgreSQL the test starts itself (initdb and pg_ctl of the machine's
 * PostgreSQL, on a free port in a temporary directory), stopped while calls go on. Meanwhile `/healthz` answers 200
 * and `/readyz` 503 naming the database; once it is back, every call answered 200 is in the audit trail, counted one
 * by one. Skipped, and listed, without PostgreSQL's server binaries; mandatory with PORTICO_REQUIRE_POSTGRES=1.
 */
function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  for (const version of readdirSync(base).sort().reverse()) {
    const bin = join(base, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

const pgBin = postgresBin();
const problem = pgBin ? undefined : 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)';
if (problem) {
  if (process.env.PORTICO_REQUIRE_POSTGRES === '1') throw new Error(`${problem}, and PORTICO_REQUIRE_POSTGRES=1 makes this test mandatory`);
  console.warn(`skipping the audit outage test: ${problem}`);
}

let dataDir: string;
let port: number;
let upstream: Server;
let gateway: TestGateway | undefined;

/** initdb and postgres refuse to run as root: run them as the postgres user then. */
function pgCommand(tool: string, args: string[]): void {
  const path = join(pgBin as string, tool);
  if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', path, ...args], { stdio: 'pipe' });
  else execFileSync(path, args, { stdio: 'pipe' });
}
const startPostgres = () =>
  pgCommand('pg_ctl', [
    '-D',
    join(dataDir, 'db'),
    '-w',
    '-l',
    join(dataDir, 'log'),
    '-o',
    `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`,
    'start',
  ]);
const stopPostgres = () => pgCommand('pg_ctl', ['-D', join(dataDir, 'db'), '-w', '-m', 'fast', 'stop']);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as AddressInfo;
      server.close(() => resolve(free));
    });
  });
}

beforeAll(async () => {
  if (problem) return;
  dataDir = mkdtempSync(join(tmpdir(), 'portico-pg-'));
  chmodSync(dataDir, 0o700);
  if (process.getuid?.() === 0) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gids = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dataDir, Number(ids), Number(gids));
  }
  port = await freePort();
  pgCommand('initdb', ['-D', join(dataDir, 'db'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  startPostgres();
  upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [] }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
}, 60_000);

afterAll(async () => {
  if (problem) return;
  await gateway?.close(0, 0);
  upstream?.close();
  try {
    stopPostgres();
  } catch {
    // already stopped
  }
}, 30_000);

describe.skipIf(problem !== undefined)(`the audit trail across a database outage${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('holds the records of calls made while the database is down and writes them all once it is back', { timeout: 60_000 }, async () => {
    gateway = await startTestGateway({
      plugins: [examplePlugin],
      env: {
        PORTICO_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
        PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PORTICO_EXAMPLE_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      },
    });
    await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    let answered200 = 0;
    const call = async () => {
      const { status } = await gateway!.rest('GET', '/api/v1/example/items');
      if (status === 200) answered200 += 1;
      return status;
    };
    for (let i = 0; i < 5; i++) expect(await call()).toBe(200);
    await gateway.runtime.engine.flushAudit();

    stopPostgres();
    // Calls go on: those the gateway's caches can still serve are answered 200 and must be audited.
    const during: number[] = [];
    for (let i = 0; i < 10; i++) during.push(await call());
    expect(during.filter((s) => s === 200).length).toBeGreaterThan(0);
    await gateway.runtime.engine.flushAudit(); // fails: the records are held
    expect((await gateway.rest('GET', '/healthz', { key: null })).status).toBe(200);
    const ready = await gateway.rest('GET', '/readyz', { key: null });
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ code: 'not_ready', failing: expect.arrayContaining(['database']) });

    startPostgres();
    await expect
      .poll(() => gateway!.rest('GET', '/readyz', { key: null }).then((r) => r.status), { timeout: 15_000, interval: 200 })
      .toBe(200);
    await gateway.runtime.engine.flushAudit();
    const records = await gateway.runtime.store.listAudit(DEFAULT_WORKSPACE, 1_000);
    const audited200 = records.filter((r) => r.service === 'example' && r.operation === 'list_items' && r.status === 200);
    expect(audited200.length).toBe(answered200);
    const metrics = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${gateway.key}` } })).text();
    const count = (outcome: string) =>
      Number(new RegExp(`portico_audit_records_total\\{outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
    expect(count('held')).toBeGreaterThanOrEqual(during.filter((s) => s === 200).length);
    expect(count('dropped')).toBe(0);
    expect(count('written')).toBeGreaterThanOrEqual(records.length);
  });
  it('keeps the records on disk when the gateway stops during the outage; the next start writes each one once, and the export saw them all', {
    timeout: 90_000,
  }, async () => {
    const spool = mkdtempSync(join(tmpdir(), 'portico-spool-'));
    const exportFile = join(spool, 'export', 'audit.jsonl');
    mkdirSync(dirname(exportFile));
    const env = {
      PORTICO_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
      PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PORTICO_EXAMPLE_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      PORTICO_AUDIT_SPOOL_DIR: spool,
      PORTICO_AUDIT_EXPORT: `file:${exportFile}`,
      // A schema of its own: a fresh database for this gateway (and its own first operator key).
      PORTICO_DATABASE_SCHEMA: 'spool_test',
    };
    const first = await startTestGateway({ plugins: [examplePlugin], env });
    await first.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
    await first.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
    const before = (await first.runtime.store.listAudit(DEFAULT_WORKSPACE, 10_000)).length;
    expect((await first.rest('GET', '/api/v1/example/items')).status).toBe(200);
    await first.runtime.engine.flushAudit();

    stopPostgres();
    let answered = 0;
    for (let i = 0; i < 8; i++) if ((await first.rest('GET', '/api/v1/example/items')).status === 200) answered += 1;
    expect(answered).toBeGreaterThan(0);
    await first.close(0, 0); // stops during the outage: the held records stay in the spool
    const onDisk = readdirSync(spool).filter((name) => name.endsWith('.jsonl'));
    expect(onDisk.length).toBe(1);

    startPostgres();
    const second = await startTestGateway({ plugins: [examplePlugin], env });
    try {
      await second.runtime.engine.flushAudit(); // nothing new: the spool is tried at the first flush
      const records = await second.runtime.store.listAudit(DEFAULT_WORKSPACE, 10_000);
      const calls = records.filter((r) => r.service === 'example' && r.operation === 'list_items' && r.status === 200);
      expect(calls.length).toBe(1 + answered);
      expect(records.length - before).toBeGreaterThanOrEqual(1 + answered);
      expect(readdirSync(spool).filter((name) => name.endsWith('.jsonl'))).toEqual([]);
      // The export received every call as it happened, including those made while the database was down.
      const exported = readFileSync(exportFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(exported.filter((r) => r.operation === 'list_items' && r.status === 200).length).toBe(1 + answered);
      expect(readFileSync(exportFile, 'utf8')).not.toContain('upstream-token');
    } finally {
      await second.close(0, 0);
      rmSync(spool, { recursive: true, force: true });
    }
  });
});
