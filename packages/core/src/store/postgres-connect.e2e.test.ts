// No PostgreSQL needed: the "database" is a local listener (e2e lane: the store opens real connections).
import type { AddressInfo, Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from './postgres.js';

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
