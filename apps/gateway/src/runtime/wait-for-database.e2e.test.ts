import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { dropTestSchemas, postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { createLogger } from '../observability/logger.js';
import { startGateway } from '../server/start.js';

/**
 * A gateway started before its database answers: it retries with backoff (each retry logged) and starts once the
 * database is there; past PORTICO_DATABASE_WAIT_SECONDS it gives up with a message that says so. The "database" is a
 * TCP relay to the test PostgreSQL on a port of its own, opened only after the gateway began trying.
 */
const problem = await postgresProblem();
const schema = `portico_wait_${randomBytes(5).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'portico-wait-'));
const target = new URL(TEST_POSTGRES_URL);

afterAll(async () => {
  await dropTestSchemas(schema);
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function relay(port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

function start(port: number, waitSeconds: string, env: Record<string, string> = {}) {
  const lines: Array<{ msg: string; [field: string]: unknown }> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const url = new URL(TEST_POSTGRES_URL);
  url.host = `127.0.0.1:${port}`;
  const config = loadConfig({
    PORTICO_DATA_DIR: mkdtempSync(join(dir, 'data-')),
    PORTICO_PORT: '0',
    PORTICO_DATABASE_URL: url.toString(),
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_DATABASE_WAIT_SECONDS: waitSeconds,
    PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...env,
  });
  return { lines, started: startGateway({ config, logger: createLogger('info', destination), plugins: [examplePlugin] }) };
}

describe.skipIf(problem !== undefined)(`start while the database is not up yet${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('retries with backoff, logging each retry, and starts once the database answers', async () => {
    const port = await freePort();
    const { lines, started } = start(port, '60');
    const retried = () => lines.filter((l) => l.msg === 'the database cannot be reached yet; retrying');
    while (retried().length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    const database = await relay(port);
    const gateway = await started;
    // Ready once its LISTEN connection is up too, which connects on its own (with its own back-off after a failure):
    // /readyz answered 503 once in a CI run straight after the start, so it is polled here as a balancer polls it.
    const deadline = performance.now() + 10_000;
    let ready = await fetch(`${gateway.url}/readyz`);
    while (ready.status !== 200 && performance.now() < deadline) {
      await ready.text();
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await fetch(`${gateway.url}/readyz`);
    }
    expect({ status: ready.status, body: await ready.text() }).toMatchObject({ status: 200 });
    expect(retried()[0]).toMatchObject({ level: 40, attempt: 1, reason: 'ECONNREFUSED', retryInMs: 250 });
    expect(retried()[1]).toMatchObject({ attempt: 2, retryInMs: 500 }); // backing off
    expect(lines.some((l) => l.msg === 'the database answered')).toBe(true);
    await gateway.close();
    await database.close();
  });

  it('gives up after PORTICO_DATABASE_WAIT_SECONDS with a message that says so', async () => {
    const { lines, started } = start(await freePort(), '1');
    await expect(started).rejects.toThrow(/the database could not be reached within 1 s \(ECONNREFUSED; PORTICO_DATABASE_WAIT_SECONDS\)/);
    expect(lines.filter((l) => l.msg === 'the database cannot be reached yet; retrying').length).toBeGreaterThanOrEqual(1);
  });
});

// No PostgreSQL needed: the "database" takes the connection and never answers.
describe('start while the database takes connections and never answers', () => {
  it('gives up within the wait plus one connect timeout, saying the database did not answer', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = performance.now();
      const { lines, started: starting } = start((silent.address() as AddressInfo).port, '2', {
        PORTICO_DATABASE_CONNECT_SECONDS: '1',
      });
      await expect(starting).rejects.toThrow(
        /the database could not be reached within 2 s \(no answer within PORTICO_DATABASE_CONNECT_SECONDS; PORTICO_DATABASE_WAIT_SECONDS\)/,
      );
      // Two tries of a second each, 250 ms apart: the wait plus at most one connect timeout.
      expect(performance.now() - started).toBeLessThan(4_500);
      expect(lines.find((l) => l.msg === 'the database cannot be reached yet; retrying')).toMatchObject({
        reason: 'no answer within PORTICO_DATABASE_CONNECT_SECONDS',
      });
      expect(sockets.size).toBeGreaterThanOrEqual(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
