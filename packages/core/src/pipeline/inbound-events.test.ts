import { createHmac, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import type { InboundDelivery } from '../contract/events.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { examplePlugin } from '../testing/example-plugin.js';
import { Engine } from './engine.js';

/** The example plugin with webhooks: `x-sig` is the hex HMAC-SHA256 of `{x-time}.{body}`, within 60 s. */
const signed = definePlugin({
  ...examplePlugin,
  events: {
    toleranceSeconds: 60,
    secretHint: 'the example app’s secret',
    verify: (delivery, secret) => {
      const time = delivery.headers['x-time'] ?? '';
      const mac = createHmac('sha256', secret).update(`${time}.`).update(delivery.body).digest('hex');
      return mac === delivery.headers['x-sig']
        ? { outcome: 'signed', signedAt: Number(time) * 1000, replayKey: mac }
        : { outcome: 'forged', message: 'bad signature' };
    },
    normalise: (body) => {
      const { id, type } = body as { id: string; type: string };
      return { events: [{ type, upstreamId: id, recordId: id, payload: body }] };
    },
    // a setup request brings the secret in `x-hook-secret`, unsigned, and expects it echoed
    handshake: (delivery) => {
      const secret = delivery.headers['x-hook-secret'];
      return secret === undefined ? undefined : { secret, reply: { headers: { 'x-hook-secret': secret }, body: { ok: true } } };
    },
  },
});

const SECRET = 'example-signing-secret';
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function engine() {
  const store = new SqliteStore(':memory:');
  stores.push(store);
  await store.migrate();
  const registry = new Registry();
  registry.register(signed);
  return {
    store,
    engine: new Engine({ registry, store, encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))) }),
  };
}

function delivery(body: object, at = Date.now(), secret = SECRET): InboundDelivery {
  const text = JSON.stringify(body);
  const time = String(Math.floor(at / 1000));
  const sig = createHmac('sha256', secret).update(`${time}.${text}`).digest('hex');
  return { body: Buffer.from(text), headers: { 'x-time': time, 'x-sig': sig }, query: {} };
}

describe('inbound events', () => {
  it('keeps the signing secret sealed, and refuses one that is not a secret or a service without events', async () => {
    const { store, engine: e } = await engine();
    await e.events.setSecret(DEFAULT_WORKSPACE, 'example', SECRET);
    const stored = await store.events.getSecret(DEFAULT_WORKSPACE, 'example');
    expect(stored?.secret).toMatch(/^enc1:/);
    expect(stored?.secret).not.toContain(SECRET);
    await expect(e.events.setSecret(DEFAULT_WORKSPACE, 'example', 'short')).rejects.toMatchObject({ code: 'bad_request' });
    await expect(e.events.setSecret(DEFAULT_WORKSPACE, 'nosuch', SECRET)).rejects.toMatchObject({ code: 'not_found' });
    expect(await e.events.configured(DEFAULT_WORKSPACE)).toEqual([
      { service: 'example', configured: true, secret_hint: 'the example app’s secret' },
    ]);
  });

  it('accepts within the window either way and refuses outside it', async () => {
    const { engine: e } = await engine();
    await e.events.setSecret(DEFAULT_WORKSPACE, 'example', SECRET);
    const now = Date.now();
    await expect(
      e.events.receive(DEFAULT_WORKSPACE, 'example', delivery({ id: 'a', type: 'item.created' }, now - 50_000), now),
    ).resolves.toMatchObject({ stored: 1 });
    await expect(
      e.events.receive(DEFAULT_WORKSPACE, 'example', delivery({ id: 'b', type: 'item.created' }, now + 50_000), now),
    ).resolves.toMatchObject({ stored: 1 });
    await expect(
      e.events.receive(DEFAULT_WORKSPACE, 'example', delivery({ id: 'c', type: 'item.created' }, now - 70_000), now),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(
      e.events.receive(DEFAULT_WORKSPACE, 'example', delivery({ id: 'd', type: 'item.created' }, now + 70_000), now),
    ).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('refuses what a normaliser makes that readers could not filter by', async () => {
    const { engine: e } = await engine();
    await e.events.setSecret(DEFAULT_WORKSPACE, 'example', SECRET);
    await expect(e.events.receive(DEFAULT_WORKSPACE, 'example', delivery({ id: 'n1', type: 'Item Created' }))).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('is not {record}.{what}'),
    });
    await expect(e.events.receive(DEFAULT_WORKSPACE, 'example', delivery({ id: '', type: 'item.created' }))).rejects.toMatchObject({
      code: 'bad_request',
    });
  });

  it('deletes the events older than the retention period as deliveries arrive', async () => {
    const { engine: e } = await engine();
    await e.events.setSecret(DEFAULT_WORKSPACE, 'example', SECRET);
    const day = 86_400_000;
    const now = Date.now();
    const at = (ms: number, id: string) => e.events.receive(DEFAULT_WORKSPACE, 'example', delivery({ id, type: 'item.created' }, ms), ms);
    await at(now - 40 * day, 'old');
    await at(now - 10 * day, 'recent');
    const ids = async () =>
      (await e.events.list({ workspaceId: DEFAULT_WORKSPACE, after: 0, services: '*', limit: 10 })).map((r) => r.recordId);
    expect(await ids()).toEqual(['old', 'recent']);
    await at(now, 'new');
    expect(await ids()).toEqual(['recent', 'new']);
    e.events.retentionDays = 0;
    await at(now + 60 * day, 'later');
    expect(await ids()).toEqual(['recent', 'new', 'later']);
  });

  it('accepts the same delivery again when it could not be stored the first time', async () => {
    const { store, engine: e } = await engine();
    await e.events.setSecret(DEFAULT_WORKSPACE, 'example', SECRET);
    const once = delivery({ id: 'x1', type: 'item.updated' });
    vi.spyOn(store.events, 'append').mockRejectedValueOnce(new Error('the database is down'));
    await expect(e.events.receive(DEFAULT_WORKSPACE, 'example', once)).rejects.toThrow('the database is down');
    await expect(e.events.receive(DEFAULT_WORKSPACE, 'example', once)).resolves.toMatchObject({ stored: 1 });
    await expect(e.events.receive(DEFAULT_WORKSPACE, 'example', once)).rejects.toMatchObject({ code: 'bad_request' });
    const listed = await e.events.list({ workspaceId: DEFAULT_WORKSPACE, after: 0, services: '*', limit: 10 });
    expect(listed.map((r) => [r.type, r.recordId])).toEqual([['item.updated', 'x1']]);
  });

  it('takes a handshake’s secret only at a URL armed with the saved secret, once, and answers it as the plugin says', async () => {
    const { engine: e } = await engine();
    const setupToken = 'one-time-setup-token';
    await e.events.setSecret(DEFAULT_WORKSPACE, 'example', setupToken);
    const hook = (query: Record<string, string>, secret = 'the-hook-secret-of-the-app'): InboundDelivery => ({
      body: Buffer.from('{}'),
      headers: { 'x-hook-secret': secret },
      query,
    });
    const refused = { code: 'unauthorized', message: expect.stringContaining('?setup=') };
    await expect(e.events.reply(DEFAULT_WORKSPACE, 'example', hook({}))).rejects.toMatchObject(refused);
    await expect(e.events.reply(DEFAULT_WORKSPACE, 'example', hook({ setup: 'a-guessed-token' }))).rejects.toMatchObject(refused);
    await expect(e.events.reply(DEFAULT_WORKSPACE, 'example', hook({ setup: setupToken }, 'short'))).rejects.toMatchObject({
      code: 'bad_request',
    });
    expect(await e.events.revealSecret(DEFAULT_WORKSPACE, 'example')).toBe(setupToken);

    await expect(e.events.reply(DEFAULT_WORKSPACE, 'example', hook({ setup: setupToken }))).resolves.toEqual({
      body: { ok: true },
      headers: { 'x-hook-secret': 'the-hook-secret-of-the-app' },
    });
    expect(await e.events.revealSecret(DEFAULT_WORKSPACE, 'example')).toBe('the-hook-secret-of-the-app');
    // the deliveries after it are checked with the secret it brought
    await expect(
      e.events.receive(
        DEFAULT_WORKSPACE,
        'example',
        delivery({ id: 'h1', type: 'item.created' }, Date.now(), 'the-hook-secret-of-the-app'),
      ),
    ).resolves.toMatchObject({ stored: 1 });
    // the setup token is spent: another handshake at the same URL cannot replace the secret
    await expect(e.events.reply(DEFAULT_WORKSPACE, 'example', hook({ setup: setupToken }, 'an-attacker-secret'))).rejects.toMatchObject(
      refused,
    );
    // the application repeating its handshake is answered, and changes nothing
    await expect(e.events.reply(DEFAULT_WORKSPACE, 'example', hook({}))).resolves.toMatchObject({ body: { ok: true } });
    expect(await e.events.revealSecret(DEFAULT_WORKSPACE, 'example')).toBe('the-hook-secret-of-the-app');
  });
});
