import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import { defineOperation } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { Params, Type } from '../contract/schema.js';
import { buildOpenApiDocument } from '../doors/openapi.js';
import { GatewayError } from '../errors.js';
import { Engine, type Principal } from '../pipeline/engine.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { CallKeys, carriesIdempotencyKey, idempotencyKeyProblem } from './idempotency.js';

/**
 * The idempotency keys of a call's upstream writes, through the engine, against a loopback upstream that records every
 * request it gets (and can answer 503 first): which requests carry a key, which key, and that the gateway's own retry
 * of a write sends the key it sent the first time.
 */

interface Seen {
  method: string;
  requestId: string | null;
}
let seen: Seen[] = [];
let failFirst = 0;
let server: Server;
let engine: Engine;

const principal = (keyId: string): Principal => ({
  keyId,
  workspaceId: DEFAULT_WORKSPACE,
  scopes: { admin: true, services: '*', readOnly: false },
});
const ALICE = principal('key_alice');
const BOB = principal('key_bob');

const operations = [
  defineOperation({
    name: 'create_entry',
    method: 'POST',
    path: '/entries',
    summary: 'Create an entry',
    description: 'Creates an entry.',
    params: Params({ name: Type.String() }),
    upstream: { method: 'POST', path: '/entries' },
  }),
  defineOperation({
    name: 'create_other',
    method: 'POST',
    path: '/others',
    summary: 'Create another thing',
    description: 'Creates another thing.',
    params: Params({ name: Type.String() }),
    upstream: { method: 'POST', path: '/others' },
  }),
  defineOperation({
    name: 'list_entries',
    method: 'GET',
    path: '/entries',
    summary: 'List entries',
    description: 'Lists entries.',
    params: Params({}),
    upstream: { method: 'GET', path: '/entries' },
  }),
  defineOperation({
    name: 'create_pair',
    method: 'POST',
    path: '/pairs',
    summary: 'Create two entries',
    description: 'Creates two entries, one request each.',
    params: Params({}),
    run: async (_, ctx) => {
      await ctx.send({ method: 'POST', path: '/entries', body: { name: 'first' } });
      return (await ctx.send({ method: 'POST', path: '/entries', body: { name: 'second' } })).body;
    },
  }),
];

const plugin = (service: string, keyed: boolean) =>
  definePlugin({
    service,
    displayName: service,
    version: '0.0.0',
    description: 'Test: writes.',
    contract: 1,
    upstream: { baseUrl: 'https://ledger.invalid', ...(keyed ? { idempotencyKey: { query: 'requestid', maxLength: 50 } } : {}) },
    auth: { token: { description: 'a token' } },
    operations,
  });

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', requestId: new URL(req.url ?? '/', 'http://x').searchParams.get('requestid') });
      if (failFirst > 0) {
        failFirst--;
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"error":"busy"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const registry = new Registry();
  registry.register(plugin('ledger', true));
  registry.register(plugin('plain', false));
  engine = new Engine({
    registry,
    store,
    encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))),
    egress: { workspaceHosts: ['127.0.0.1'] },
    upstream: { retryLimit: 2 },
  });
  for (const service of ['ledger', 'plain']) {
    await engine.connectToken(DEFAULT_WORKSPACE, service, 'upstream-token');
    await engine.configureIntegration(DEFAULT_WORKSPACE, service, { baseUrl: origin, restEnabled: true });
  }
});

afterAll(async () => {
  await engine.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  failFirst = 0;
});

const create = (who: Principal, idempotencyKey?: string, service = 'ledger', operation = 'create_entry') =>
  engine.invoke({ principal: who, protocol: 'rest', service, operation, params: { name: 'Harborview' }, idempotencyKey });

describe('idempotency keys of upstream writes', () => {
  it('the same caller’s same key sends the same upstream key; another key, caller or operation another one', async () => {
    await create(ALICE, 'order-1');
    await create(ALICE, 'order-1');
    await create(ALICE, 'order-2');
    await create(BOB, 'order-1');
    await create(ALICE, 'order-1', 'ledger', 'create_other');
    const keys = seen.map((s) => s.requestId);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/); // within QuickBooks' 50 characters
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(4);
    expect(keys).not.toContain('order-1'); // never the caller's text itself
  });

  it('without a caller key each call gets its own; reads and applications that document none get no key', async () => {
    await create(ALICE);
    await create(ALICE);
    await engine.invoke({ principal: ALICE, protocol: 'rest', service: 'ledger', operation: 'list_entries', idempotencyKey: 'x' });
    await create(ALICE, 'order-1', 'plain');
    const [first, second, read, plain] = seen;
    expect(first?.requestId).toBeTruthy();
    expect(second?.requestId).toBeTruthy();
    expect(second?.requestId).not.toBe(first?.requestId);
    expect(read).toEqual({ method: 'GET', requestId: null });
    expect(plain).toEqual({ method: 'POST', requestId: null });
  });

  it('a keyed write refused with 503 is retried with the same key; an unkeyed write is not retried', async () => {
    failFirst = 1;
    await create(ALICE);
    expect(seen).toHaveLength(2);
    expect(seen[1]?.requestId).toBe(seen[0]?.requestId);
    seen = [];
    failFirst = 1;
    await expect(create(ALICE, undefined, 'plain')).rejects.toBeInstanceOf(GatewayError);
    expect(seen).toHaveLength(1); // a POST without a key may have been applied: never sent twice
  });

  it('each request of a multi-request call has its own key, and the call sent again with its key sends the same ones', async () => {
    const pair = () =>
      engine.invoke({ principal: ALICE, protocol: 'rest', service: 'ledger', operation: 'create_pair', idempotencyKey: 'pair-1' });
    await pair();
    await pair();
    const keys = seen.map((s) => s.requestId);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(2)).toEqual(keys.slice(0, 2));
  });

  it('refuses a key that is not 1 to 255 visible ASCII characters, before any upstream request', async () => {
    for (const bad of ['', 'two words', 'x'.repeat(256), 'caf\u00e9', 'tab\there', 'a, b']) {
      await expect(create(ALICE, bad)).rejects.toMatchObject({ code: 'bad_request' });
      expect(idempotencyKeyProblem(bad)).toBeDefined();
    }
    expect(seen).toHaveLength(0);
    await create(ALICE, `~!${'k'.repeat(253)}`); // 255 visible characters
    expect(seen).toHaveLength(1);
  });

  it('OpenAPI documents the Idempotency-Key header on the writes of an application that honours a key, only', () => {
    const header = (service: string, path: string, method: string) =>
      (
        (buildOpenApiDocument(engine.registry.get(service) as never).paths as Record<string, Record<string, { parameters?: unknown[] }>>)[
          path
        ]?.[method]?.parameters ?? []
      ).find((p) => (p as { name: string }).name === 'Idempotency-Key');
    expect(header('ledger', '/entries', 'post')).toMatchObject({ in: 'header', required: false, schema: { maxLength: 255 } });
    expect(header('ledger', '/entries', 'get')).toBeUndefined();
    expect(header('plain', '/entries', 'post')).toBeUndefined();
  });

  it('leaves an address the application handed out (a pre-signed URL) as it is', () => {
    const keys = new CallKeys({ query: 'requestid', maxLength: 50 }, { workspaceId: 'w', caller: 'k', service: 's', operation: 'o' }, 'x');
    const upload = { method: 'PUT' as const, url: 'https://uploads.example/f?X-Signature=abc' };
    expect(keys.apply(upload)).toBe(upload);
    expect(carriesIdempotencyKey(upload)).toBe(false);
    const own = keys.apply({ method: 'POST', path: '/entries' });
    expect(own.query?.requestid).toMatch(/^[0-9a-f-]{36}$/);
    expect(carriesIdempotencyKey(own)).toBe(true);
  });
});
