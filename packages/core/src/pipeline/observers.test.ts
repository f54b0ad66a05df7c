import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Encryptor, generateEncryptionKey, parseEncryptionKey } from '../connections/crypto.js';
import { Registry } from '../contract/registry.js';
import { SqliteStore } from '../store/sqlite.js';
import type { AuditRecord } from '../store/types.js';
import { examplePlugin } from '../testing/example-plugin.js';
import { Engine } from './engine.js';
import type { AuditDetail, UpstreamObservation } from './observers.js';

// The engine's observer hook (what the gateway's metrics subscribe to): every audited outcome, with the upstream
// status behind a failure, and every upstream call with its duration and outcome; a failing observer changes nothing.

let upstream: Server;
let engine: Engine;
const principal = { keyId: 'key_1', workspaceId: 'default', scopes: { admin: false, services: '*' as const, readOnly: false } };

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const [status, body, headers] =
      req.url === '/api/items'
        ? [200, { items: [] }, {}]
        : req.url === '/api/v2/items/busy'
          ? [429, { message: 'slow down' }, { 'retry-after': '120' }]
          : [404, { message: 'no such item' }, {}];
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const registry = new Registry();
  registry.register(examplePlugin);
  const store = new SqliteStore(':memory:');
  await store.migrate();
  engine = new Engine({
    registry,
    store,
    encryptor: new Encryptor(parseEncryptionKey(generateEncryptionKey())),
    baseUrlOverrides: { example: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api` },
    upstream: { retryLimit: 0 },
  });
  await engine.connectToken('default', 'example', 'upstream-token');
});

afterAll(async () => {
  await engine.close();
  await new Promise((resolve) => upstream.close(resolve));
});

function listen() {
  const audited: Array<{ record: AuditRecord; detail: AuditDetail }> = [];
  const calls: UpstreamObservation[] = [];
  const stop = engine.observe({ audited: (record, detail) => audited.push({ record, detail }), upstream: (o) => calls.push(o) });
  return { audited, calls, stop };
}

const call = (operation: string, params: Record<string, unknown> = {}) =>
  engine.invoke({ principal, protocol: 'mcp', service: 'example', operation, params }).catch((error: unknown) => error);

describe('engine observers', () => {
  it('hear each invocation as it is audited and each upstream call with its duration and outcome', async () => {
    const { audited, calls, stop } = listen();
    await call('list_items');
    await call('get_item', { item_id: 'busy' });
    await call('get_item', { item_id: '' }); // refused before any upstream call
    stop();
    expect(
      audited.map(({ record, detail }) => [record.operation, record.protocol, record.status, record.code, detail.upstreamStatus]),
    ).toEqual([
      ['list_items', 'mcp', 200, null, undefined],
      ['get_item', 'mcp', 429, 'rate_limited', 429],
      ['get_item', 'mcp', 400, 'bad_request', undefined],
    ]);
    expect(calls.map((c) => [c.service, c.operation, c.outcome, c.status])).toEqual([
      ['example', 'list_items', 'ok', 200],
      ['example', 'get_item', 'rate_limited', 429],
    ]);
    for (const c of calls) expect(c.durationMs).toBeGreaterThan(0);
    // unsubscribed: nothing more
    await call('list_items');
    expect(audited).toHaveLength(3);
  });

  it('are isolated: one that throws neither fails the call nor keeps the others from hearing it', async () => {
    const stopBroken = engine.observe({
      audited: () => {
        throw new Error('broken observer');
      },
      upstream: () => {
        throw new Error('broken observer');
      },
    });
    const { audited, calls, stop } = listen();
    expect(await call('list_items')).toEqual({ body: { items: [] } });
    stop();
    stopBroken();
    expect(audited).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });
});
