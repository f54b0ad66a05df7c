import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import { defineOperation } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { Params } from '../contract/schema.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { examplePlugin } from '../testing/example-plugin.js';
import { Engine, type Principal } from './engine.js';
import { invokeResultJson } from './pipeline.js';

/**
 * A door may send an answer's JSON as the upstream's bytes (the REST door does) only when the body is exactly what
 * those bytes say: an object or array, changed by no transform. Against a loopback upstream answering as told.
 */

let answer = { type: 'application/json; charset=utf-8', text: '{}' };
let server: Server;
let engine: Engine;
const PRINCIPAL: Principal = { keyId: null, workspaceId: DEFAULT_WORKSPACE, scopes: { admin: true, services: '*', readOnly: false } };

/** A plugin whose one operation reshapes the upstream's answer. */
const countPlugin = definePlugin({
  service: 'counts',
  displayName: 'Counts',
  version: '0.0.0',
  description: 'Test: an operation with a transform.',
  contract: 1,
  upstream: { baseUrl: 'https://counts.invalid/api' },
  auth: { token: { description: 'a token' } },
  operations: [
    defineOperation({
      name: 'count_items',
      method: 'GET',
      path: '/items',
      summary: 'Count the items',
      description: 'Lists the items and answers with their number only.',
      params: Params({}),
      upstream: { method: 'GET', path: '/items' },
      transform: (body) => ({ count: (body as { items: unknown[] }).items.length }),
    }),
  ],
});

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': answer.type });
      res.end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const registry = new Registry();
  registry.register(examplePlugin);
  registry.register(countPlugin);
  engine = new Engine({
    registry,
    store,
    encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))),
    egress: { workspaceHosts: ['127.0.0.1'] },
  });
  for (const service of ['example', 'counts']) {
    await engine.connectToken(DEFAULT_WORKSPACE, service, 'upstream-token');
    await engine.configureIntegration(DEFAULT_WORKSPACE, service, { baseUrl: origin, restEnabled: true });
  }
});

afterAll(async () => {
  await engine.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const invoke = (service: string, operation: string) =>
  engine.invoke({ principal: PRINCIPAL, protocol: 'rest', service, operation, params: {} });

describe("an answer's JSON bytes", () => {
  it('are the upstream’s own, byte for byte, when the body is an object passed on unchanged', async () => {
    // spacing and escapes a serialiser would change: the bytes say the same as the body, as the upstream wrote them
    answer = { type: 'application/json', text: '{ "items" : [ { "id": "caf\\u00e9" } ],\n  "next_cursor": null }' };
    const result = await invoke('example', 'list_items');
    expect(result.body).toEqual({ items: [{ id: 'café' }], next_cursor: null });
    expect(invokeResultJson(result)?.toString('utf8')).toBe(answer.text);
    answer = { type: 'application/json', text: '[1, 2 ,3]' };
    expect(invokeResultJson(await invoke('example', 'list_items'))?.toString('utf8')).toBe('[1, 2 ,3]');
  });

  it('are not offered for a body a transform made, a JSON string, or text', async () => {
    answer = { type: 'application/json', text: '{"items": [1, 2, 3]}' };
    const counted = await invoke('counts', 'count_items');
    expect(counted.body).toEqual({ count: 3 });
    expect(invokeResultJson(counted)).toBeUndefined();
    answer = { type: 'application/json', text: '"a string"' };
    const string = await invoke('example', 'list_items');
    expect(string.body).toBe('a string');
    expect(invokeResultJson(string)).toBeUndefined();
    answer = { type: 'text/plain', text: 'plain text' };
    const text = await invoke('example', 'list_items');
    expect(text.body).toBe('plain text');
    expect(invokeResultJson(text)).toBeUndefined();
  });
});
