import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import { Registry } from '../contract/registry.js';
import { GatewayError } from '../errors.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { Engine } from './engine.js';
import { INBOUND_SECRET, receive as receiveEvent, Subscriber, signed, until, verified } from './outbound.test-support.js';

const stores: SqliteStore[] = [];
const engines: Engine[] = [];
const subscribers: Subscriber[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.events.outbound.delivery.stop();
  for (const s of subscribers.splice(0)) await s.close().catch(() => {});
  for (const store of stores.splice(0)) await store.close();
});

async function setUp(delivery: { retryFirstMs?: number; retryForMs?: number; timeoutMs?: number } = {}) {
  const store = new SqliteStore(':memory:');
  stores.push(store);
  await store.migrate();
  const registry = new Registry();
  registry.register(signed);
  const engine = new Engine({ registry, store, encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))) });
  engines.push(engine);
  engine.events.outbound.configure({
    egress: { allowPrivate: ['127.0.0.1'] },
    delivery: { timeoutMs: 2_000, retryFirstMs: 20, retryMaxMs: 80, retryForMs: 60_000, pollMs: 50, ...delivery },
  });
  await engine.events.setSecret(DEFAULT_WORKSPACE, 'example', INBOUND_SECRET);
  const subscriber = new Subscriber();
  subscribers.push(subscriber);
  await subscriber.listen();
  const receive = (id: string, type = 'call.completed') => receiveEvent(engine, id, type);
  return { store, engine, outbound: engine.events.outbound, subscriber, receive };
}

describe('outbound event subscriptions', () => {
  it('delivers every event in order, signed per Standard Webhooks, to a subscriber that was down for a while', async () => {
    const { outbound, subscriber, receive } = await setUp();
    const sub = await outbound.subscribe(DEFAULT_WORKSPACE, { url: subscriber.url, types: ['example.*'] });
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await outbound.list(DEFAULT_WORKSPACE)).toEqual([
      { id: sub.id, url: subscriber.url, types: ['example.*'], created_at: sub.created_at },
    ]);
    await subscriber.close();
    outbound.delivery.start();
    for (let n = 1; n <= 5; n++) await receive(`up-${n}`);
    // refused connections are retried with back-off, and each attempt is in the log, without the secret
    await until('three failed attempts', async () => (await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).attempts.length >= 3);
    const failing = await outbound.deliveries(DEFAULT_WORKSPACE, sub.id);
    expect(failing.attempts[0]).toMatchObject({ outcome: 'failed', status: null, error: expect.stringContaining('ECONNREFUSED') });
    expect(new Set(failing.attempts.map((a) => a.event_id)).size).toBe(1); // the first event holds the others back
    // the next delivery is that event, failing since its first attempt, with the time of its next retry
    expect(failing.next_delivery).toMatchObject({ event_id: failing.attempts[0]?.event_id, failing_since: expect.any(String) });
    expect(failing.next_delivery?.attempts).toBeGreaterThanOrEqual(3);
    expect(Date.parse(failing.next_delivery?.retry_at ?? '')).toBeGreaterThan(Date.parse(failing.next_delivery?.failing_since ?? ''));
    expect(JSON.stringify(failing)).not.toContain(sub.secret.slice(6));

    await subscriber.listen(); // back, on the same port
    await until('five deliveries', () => subscriber.received.length >= 5);
    const bodies = subscriber.received.map((r) => verified(sub.secret, r));
    expect(bodies.map((b) => b.data.payload.id)).toEqual(['up-1', 'up-2', 'up-3', 'up-4', 'up-5']);
    expect(bodies[0]).toMatchObject({ type: 'call.completed', data: { type: 'call.completed', service: 'example' } });
    expect(subscriber.received[0]?.headers['webhook-id']).toBe(bodies[0]?.data.id);
    // another secret does not verify it
    expect(() => verified(`whsec_${randomBytes(32).toString('base64')}`, subscriber.received[0] as never)).toThrow();
    const delivered = async () => (await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).attempts.filter((a) => a.outcome === 'delivered');
    await until('five deliveries logged', async () => (await delivered()).length === 5); // the answer reaches the log just after
    const log = (await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).attempts;
    expect(log[0]).toMatchObject({ outcome: 'delivered', status: 204, error: null });
  });

  it('sends only the types subscribed to, and nothing stored before the subscription', async () => {
    const { outbound, subscriber, receive } = await setUp();
    await receive('before');
    const sub = await outbound.subscribe(DEFAULT_WORKSPACE, { url: subscriber.url, types: ['text.received'] });
    outbound.delivery.start();
    await receive('call', 'call.completed');
    await receive('text', 'text.received');
    await until('one delivery', () => subscriber.received.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(subscriber.received.map((r) => verified(sub.secret, r).data.payload.id)).toEqual(['text']);
  });

  it('makes a dead letter after the retry period, goes on with the next event, and redelivers it on request', async () => {
    const { outbound, subscriber, receive } = await setUp({ retryForMs: 150 });
    const sub = await outbound.subscribe(DEFAULT_WORKSPACE, { url: subscriber.url, types: ['*'] });
    subscriber.status = 503;
    outbound.delivery.start();
    await receive('doomed');
    await until('a dead letter', async () => (await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).dead_letters.length === 1);
    const dead = await outbound.deliveries(DEFAULT_WORKSPACE, sub.id);
    expect(dead.attempts[0]).toMatchObject({ outcome: 'dead', status: 503, error: 'HTTP 503' });
    expect(dead.dead_letters[0]).toMatchObject({ event: { payload: { id: 'doomed' } } });
    subscriber.status = 200;
    await receive('next');
    await until('the next event', () => subscriber.received.some((r) => verified(sub.secret, r).data.payload.id === 'next'));
    const tries = subscriber.received.length;

    await expect(outbound.redeliver(DEFAULT_WORKSPACE, sub.id, 'evt_unknown')).rejects.toMatchObject({ code: 'not_found' });
    expect(await outbound.redeliver(DEFAULT_WORKSPACE, sub.id)).toEqual({ queued: 1 });
    await until('the redelivery', () => subscriber.received.length > tries);
    expect(verified(sub.secret, subscriber.received.at(-1) as never).data.payload.id).toBe('doomed');
    expect((await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).dead_letters).toEqual([]);
  });

  it('counts a subscriber that does not answer within the timeout as failed, and tries again', async () => {
    const { outbound, subscriber, receive } = await setUp({ timeoutMs: 100 });
    const sub = await outbound.subscribe(DEFAULT_WORKSPACE, { url: subscriber.url, types: ['*'] });
    subscriber.delayMs = 400;
    outbound.delivery.start();
    await receive('late');
    await until('a timed-out attempt', async () => (await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).attempts.length > 0);
    const [first] = (await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).attempts;
    expect(first).toMatchObject({ outcome: 'failed', status: null, error: 'no answer within 100 ms' });
    expect(first?.duration_ms).toBeLessThan(400);
    subscriber.delayMs = 0;
    await until('the delivery', async () => (await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).attempts[0]?.outcome === 'delivered');
  });

  it('lets a delivery in flight finish when it stops', async () => {
    const { outbound, subscriber, receive } = await setUp();
    const sub = await outbound.subscribe(DEFAULT_WORKSPACE, { url: subscriber.url, types: ['*'] });
    subscriber.delayMs = 300;
    outbound.delivery.start();
    await receive('slow');
    await until('the request', () => subscriber.received.length === 1);
    await outbound.delivery.stop();
    expect((await outbound.deliveries(DEFAULT_WORKSPACE, sub.id)).attempts).toMatchObject([{ outcome: 'delivered', status: 204 }]);
  });

  it('refuses subscriber URLs that are not https or point inside, and types that are not event types', async () => {
    const { outbound } = await setUp();
    const refused = async (input: { url?: unknown; types?: unknown }) => {
      const error = await outbound.subscribe(DEFAULT_WORKSPACE, input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayError);
      return (error as GatewayError).message;
    };
    const types = ['*'];
    expect(await refused({ url: 'http://hooks.example.com/x', types })).toMatch(/must be https/);
    expect(await refused({ url: 'https://10.1.2.3/x', types })).toMatch(/internal address/);
    expect(await refused({ url: 'https://[::1]:8080/x', types })).toMatch(/internal address/);
    expect(await refused({ url: 'https://localhost/x', types })).toMatch(/internal address/);
    expect(await refused({ url: 'https://169.254.169.254/latest', types })).toMatch(/internal address/);
    expect(await refused({ url: 'https://user:pw@hooks.example.com/x', types })).toMatch(/user name/);
    expect(await refused({ url: 'ftp://hooks.example.com/x', types })).toMatch(/must be https/);
    expect(await refused({ url: 'https://hooks.example.com/x', types: [] })).toMatch(/types/);
    expect(await refused({ url: 'https://hooks.example.com/x', types: ['Call Completed'] })).toMatch(/not an event type/);
    const ok = await outbound.subscribe(DEFAULT_WORKSPACE, { url: 'https://hooks.example.com/x', types: ['callrail.*', 'message.posted'] });
    await outbound.unsubscribe(DEFAULT_WORKSPACE, ok.id);
    await expect(outbound.unsubscribe(DEFAULT_WORKSPACE, ok.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
