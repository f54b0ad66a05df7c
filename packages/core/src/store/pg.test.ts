import type { AddressInfo, Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPg } from './pg.js';
import { PostgresStore } from './postgres.js';

// pg is an optional peer dependency of @portico/core: a project that points the gateway at PostgreSQL without having
// installed it is told what to install, not shown a bare "Cannot find module".
describe('loading node-postgres', () => {
  const missing = (name: string) => {
    throw Object.assign(new Error(`Cannot find module '${name}'\nRequire stack:\n- /app/node_modules/@portico/core`), {
      code: 'MODULE_NOT_FOUND',
    });
  };

  it('says to install pg when it is not installed', () => {
    expect(() => loadPg(missing)).toThrow(/needs the pg package .*npm install pg/);
  });

  it('passes on any other failure of pg itself unchanged', () => {
    const broken = () => {
      throw Object.assign(new Error("Cannot find module 'pg-protocol'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadPg(broken)).toThrow("Cannot find module 'pg-protocol'");
  });

  it('loads the installed pg', () => {
    expect(typeof loadPg().Pool).toBe('function');
  });
});

// A PostgreSQL that takes the TCP connection and never answers (a hung server, a black-holing proxy): the store's
// first query fails after the connect timeout instead of waiting forever.
describe('a database that never answers the connect', () => {
  let server: Server;
  let port: number;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails migrating, a query and a lock within the connect timeout, saying so', async () => {
    const store = new PostgresStore(`postgres://portico@127.0.0.1:${port}/portico`, { connectTimeoutMs: 400, schema: 'hung' });
    try {
      for (const attempt of [() => store.migrate(), () => store.ping(), () => store.withClusterLock('x', async () => 1)]) {
        const started = performance.now();
        await expect(attempt()).rejects.toThrow(/timeout expired/);
        const took = performance.now() - started;
        expect(took).toBeGreaterThanOrEqual(350);
        expect(took).toBeLessThan(3_000);
      }
      expect(sockets.size).toBeGreaterThanOrEqual(3); // each reached the listener, which never answered
    } finally {
      await store.close();
    }
  });
});
