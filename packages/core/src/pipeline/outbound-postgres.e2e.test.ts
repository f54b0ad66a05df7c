// Outbound deliveries by several instances on one PostgreSQL (one instance: outbound-events.test.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import { Registry } from '../contract/registry.js';
import { POSTGRES_REQUIRED, postgresProblem, storesOnOneSchema } from '../store/postgres.test-support.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { Engine } from './engine.js';
import { INBOUND_SECRET, receive, Subscriber, signed, until, verified } from './outbound.test-support.js';

const problem = await postgresProblem();
if (problem !== undefined && POSTGRES_REQUIRED) throw new Error(`PostgreSQL is required and not reachable: ${problem}`);

describe.skipIf(problem !== undefined)(`outbound deliveries shared on PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`, () => {
  const shared = storesOnOneSchema('outbound');
  const engines: Engine[] = [];
  const subscriber = new Subscriber();
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.events.outbound.delivery.stop();
    await subscriber.close().catch(() => {});
  });
  afterAll(() => shared.close());

  it('three instances, one restarted midway, deliver each event once, in order, one at a time', async () => {
    const key = parseEncryptionKey(randomBytes(32).toString('base64')); // the cluster's key: each instance opens the secrets
    const [a, b, c] = (await shared.open(3)).map((store) => {
      const registry = new Registry();
      registry.register(signed);
      const engine = new Engine({ registry, store, encryptor: new Encryptor(key) });
      engine.events.outbound.configure({
        egress: { allowPrivate: ['127.0.0.1'] },
        delivery: { timeoutMs: 2_000, retryFirstMs: 20, retryMaxMs: 80, pollMs: 20 },
      });
      engines.push(engine);
      return engine;
    }) as [Engine, Engine, Engine];
    await a.events.setSecret(DEFAULT_WORKSPACE, 'example', INBOUND_SECRET);
    subscriber.delayMs = 15;
    await subscriber.listen();
    const sub = await a.events.outbound.subscribe(DEFAULT_WORKSPACE, { url: subscriber.url, types: ['example.*'] });
    a.events.outbound.delivery.start();
    b.events.outbound.delivery.start();

    const sent: string[] = [];
    for (let n = 1; n <= 40; n++) {
      const id = `ev-${n}`;
      await receive(n % 2 ? a : b, id); // received by either instance; both deliver
      sent.push(id);
      if (n === 20) {
        // a rolling restart: one instance stops (finishing what it has in flight), a new one starts
        await a.events.outbound.delivery.stop();
        c.events.outbound.delivery.start();
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await until('every event', () => subscriber.received.length >= sent.length, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more arrives
    const ids = subscriber.received.map((r) => verified(sub.secret, r).data.payload.id);
    expect(ids).toEqual(sent);
    expect(subscriber.maxInFlight).toBe(1);
    const delivered = async () =>
      (await c.events.outbound.deliveries(DEFAULT_WORKSPACE, sub.id, 100)).attempts.filter((x) => x.outcome === 'delivered');
    await until('every delivery logged', async () => (await delivered()).length === 40);
  });
});
