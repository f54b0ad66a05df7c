import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { connectionsOverview } from '../doors/connections-overview.js';
import { Engine } from '../pipeline/engine.js';
import { SqliteStore } from '../store/sqlite.js';
import { examplePlugin } from '../testing/example-plugin.js';
import { Encryptor, generateEncryptionKey, parseEncryptionKey } from './crypto.js';

// Whom a connection acts as: asked of the application when the connection is stored, kept with its facts, shown by
// list_connections; an application that cannot answer leaves the connection usable and unidentified.

let upstream: Server;
let engine: Engine;
let upstreamDown = false;
const logged: Array<{ obj: object; msg: string | undefined }> = [];
const admin = { keyId: null, workspaceId: 'default', scopes: { admin: true, services: '*' as const, readOnly: false } };

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (upstreamDown || req.url !== '/api/me') {
      res.writeHead(upstreamDown ? 503 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'unavailable' }));
      return;
    }
    const token = (req.headers.authorization ?? '').replace('Bearer ', '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ id: `u-${token.length}`, name: token === 'token-of-ada' ? 'Ada Lovelace' : 'Someone else', team: 'Analytical' }),
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const registry = new Registry();
  registry.register(
    definePlugin({
      ...examplePlugin,
      async identify(client) {
        const body = (await client.send({ method: 'GET', path: '/me' })).body as { id: string; name: string; team: string };
        return { account: { id: 'team-1', name: body.team }, user: { id: body.id, name: body.name } };
      },
    }),
  );
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const capture = (obj: object, msg?: string) => logged.push({ obj, msg });
  engine = new Engine({
    registry,
    store,
    encryptor: new Encryptor(parseEncryptionKey(generateEncryptionKey())),
    baseUrlOverrides: { example: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api` },
    upstream: { retryLimit: 0 },
    logger: { debug: capture, info: capture, warn: capture, error: capture },
  });
});

afterAll(async () => {
  await engine.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('whom a connection acts as', () => {
  it('is asked when a token is stored and listed as acting_as, apart from the connection facts', async () => {
    upstreamDown = false;
    const record = await engine.connectToken('default', 'example', 'token-of-ada', { region: 'eu' });
    expect(record.meta.acting_as).toEqual({ account: { id: 'team-1', name: 'Analytical' }, user: { id: 'u-12', name: 'Ada Lovelace' } });
    const [listed] = (await connectionsOverview(engine, admin)).connections;
    expect(listed?.acting_as?.user?.name).toBe('Ada Lovelace');
    expect(listed?.account).toEqual({ region: 'eu' });
  });

  it('is asked again when another token replaces the connection', async () => {
    upstreamDown = false;
    const record = await engine.connectToken('default', 'example', 'token-of-bob');
    expect(record.meta.acting_as).toMatchObject({ user: { name: 'Someone else' } });
  });

  it('is filled in by a listing when the connection has none and the application answers again', async () => {
    upstreamDown = false;
    // a connection stored before identities existed (or by another instance whose ask failed long ago)
    const record = await engine.store.getConnection('default', 'example');
    if (!record) throw new Error('no connection');
    const { version, ...rest } = record;
    await engine.store.swapConnection({ ...rest, meta: {} }, version);
    const [listed] = (await connectionsOverview(engine, admin)).connections;
    expect(listed?.acting_as?.user).toEqual({ id: 'u-12', name: 'Someone else' });
    expect((await engine.store.getConnection('default', 'example'))?.meta.acting_as).toBeDefined();
  });

  it('does not fail the connect when the application cannot answer: the failure is logged without the token', async () => {
    upstreamDown = true;
    logged.length = 0;
    const record = await engine.connectToken('default', 'example', 'secret-token-xyz');
    expect(record.status).toBe('active');
    expect(record.meta).not.toHaveProperty('acting_as');
    const stored = await engine.store.getConnection('default', 'example');
    expect(stored?.meta).not.toHaveProperty('acting_as');
    const warning = logged.find((l) => l.msg?.includes('whom the connection acts as'));
    expect(warning?.obj).toMatchObject({ service: 'example', workspaceId: 'default' });
    expect(JSON.stringify(logged)).not.toContain('secret-token-xyz');
    // listing still answers, without an identity, and does not ask again right away
    const [listed] = (await connectionsOverview(engine, admin)).connections;
    expect(listed?.status).toBe('connected');
    expect(listed?.acting_as).toBeUndefined();
  });
});
