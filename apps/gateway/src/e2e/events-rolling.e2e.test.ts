import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, Encryptor, Engine, PostgresStore, parseEncryptionKey, Registry } from '@portico/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { bin, listening, MULTI_PROCESS_TIMEOUT, type PorticoProcess, root, runPortico, schemas, stop } from './cluster.test-support.js';

/**
 * Event subscriptions through a rolling restart: three `portico serve` processes (the built CLI, with the CallRail
 * plugin) on one PostgreSQL schema receive CallRail webhooks, signed as CallRail signs them, round robin, and deliver
 * them to one subscriber on this host. Midway the instance sending a delivery gets SIGTERM while that delivery is in
 * flight (the subscriber holds its answer) and is replaced; the subscriber goes down (refusing connections) and comes
 * back; and the instance sending the backlog is replaced the same way. The subscriber ends up with every event once, in
 * the order the gateway stored them, each signed per Standard Webhooks, never two at a time. Linux only for picking the
 * instance (its sockets in /proc; elsewhere the first in rotation is stopped). Needs `pnpm build` first; skipped without
 * PostgreSQL (mandatory with PORTICO_REQUIRE_POSTGRES=1, as in CI).
 */
const problem = await postgresProblem();
const made = schemas('portico_evroll');
const schema = made.fresh();
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const CALLRAIL_KEY = randomBytes(24).toString('hex'); // the company's webhook signing key, as CallRail shows it
const PER_PHASE = 12;
const EVENTS = PER_PHASE * 3 + 4;
const dataDir = mkdtempSync(join(tmpdir(), 'portico-evroll-'));
const processes: PorticoProcess[] = [];

interface Instance {
  name: string;
  url: string;
  process: PorticoProcess;
}

interface Received {
  id: string;
  body: string;
  headers: IncomingHttpHeaders;
  /** The port the delivery came from: which process sent it (`deliverer`). */
  peerPort: number;
}

/**
 * The workspace's own webhook receiver: answers each delivery after a short while (so that two overlapping deliveries
 * would be seen), counts those in flight, and can go down: it stops listening, lets the deliveries it is answering
 * finish, then closes every connection, so that the gateway's next attempt is refused.
 */
class Subscriber {
  readonly received: Received[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private server: Server | undefined;
  private down = false;
  private port = 0;
  private hold: { at: number; ms: number; arrived: (r: Received) => void } | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/portico`;
  }

  async up(): Promise<void> {
    this.down = false;
    const server = createServer((req, res) => {
      if (this.down) {
        req.socket.destroy(); // on a connection kept alive from before: not received
        return;
      }
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = {
          id: String(req.headers['webhook-id']),
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
          peerPort: req.socket.remotePort ?? 0,
        };
        this.received.push(r);
        const hold = this.hold?.at === this.received.length ? this.hold : undefined;
        if (hold) this.hold = undefined;
        hold?.arrived(r);
        setTimeout(() => {
          this.inFlight--;
          res.writeHead(204).end();
        }, hold?.ms ?? 25);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async goDown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise((resolve) => server.close(resolve)); // no new connection from now on
    this.down = true;
    await until('the subscriber to answer what it received', () => this.inFlight === 0, 10_000);
    server.closeAllConnections();
    await closed;
  }

  /** Answers the `at`-th request received only after `ms`; resolves with it when it arrives (while still in flight). */
  holdAt(at: number, ms: number): Promise<Received> {
    return new Promise((arrived) => {
      this.hold = { at, ms, arrived };
    });
  }

  distinct(): string[] {
    return [...new Set(this.received.map((r) => r.id))];
  }
}

const subscriber = new Subscriber();
let store: PostgresStore;
let engine: Engine;
let apiKey: string;

async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The instance whose connection sent a delivery, read from Linux's /proc (the socket on that port, and the process
 * holding it); undefined elsewhere.
 */
function deliverer(r: Received, instances: readonly Instance[]): Instance | undefined {
  try {
    const local = `0100007F:${r.peerPort.toString(16).toUpperCase().padStart(4, '0')}`;
    const inode = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find((fields) => fields[1] === local)?.[9];
    if (!inode) return undefined;
    return instances.find((instance) =>
      readdirSync(`/proc/${instance.process.child.pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${instance.process.child.pid}/fd/${fd}`) === `socket:[${inode}]`;
        } catch {
          return false; // closed meanwhile
        }
      }),
    );
  } catch {
    return undefined;
  }
}

let started = 0;
async function spawnGateway(): Promise<Instance> {
  const name = `g${++started}`;
  const process = runPortico(['serve'], {
    PORTICO_DATA_DIR: mkdtempSync(join(dataDir, `${name}-`)),
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_ENCRYPTION_KEY: ENCRYPTION_KEY, // the cluster's key: each instance opens the subscription's secret
    PORTICO_PLUGINS: 'calls',
    PORTICO_PORT: '0',
    PORTICO_LOG_LEVEL: 'warn',
    PORTICO_EGRESS_ALLOW_PRIVATE: '127.0.0.1', // the subscriber is on this host, over http
    PORTICO_EVENTS_RETRY_FIRST_SECONDS: '1',
    PORTICO_EVENTS_RETRY_MAX_SECONDS: '1',
    PORTICO_EVENTS_DELIVERY_TIMEOUT_MS: '5000',
  });
  processes.push(process);
  return { name, url: await listening(process), process };
}

const admin = (instance: Instance, method: string, path: string, body?: unknown) =>
  fetch(`${instance.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** A post-call webhook about a new inbound call, as CallRail sends it: the call's fields and the record fields. */
function postCall(callId: string, n: number): string {
  const start = new Date(Date.now() - 94_000).toISOString();
  return JSON.stringify({
    answered: true,
    business_phone_number: '+14155550100',
    customer_city: 'Oakland',
    customer_country: 'US',
    customer_name: `Caller ${n}`,
    customer_phone_number: `+1415555${String(1000 + n).padStart(4, '0')}`,
    customer_state: 'CA',
    direction: 'inbound',
    duration: 94,
    id: callId,
    recording: null,
    start_time: start,
    tracking_phone_number: '+14155550142',
    voicemail: false,
    resource_id: callId,
    company_resource_id: 'COM8154748ae6bd4e278a7cddd38a662f4f',
    created_at: start,
  });
}

/** Sends CallRail webhooks one after another, round robin over the instances in rotation; records the events stored. */
class Sender {
  readonly rotation: Instance[] = [];
  readonly calls: string[] = [];
  readonly stored: string[] = [];
  private current: Promise<unknown> = Promise.resolve();
  private turn = 0;

  async send(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const target = this.rotation[this.turn++ % this.rotation.length] as Instance;
      const sending = this.one(target);
      this.current = sending.catch(() => {});
      await sending;
      await new Promise((resolve) => setTimeout(resolve, 100)); // a steady trickle, not a burst
    }
  }

  /** Takes an instance out of the rotation, once the webhook being sent (maybe to it) is answered. */
  async withdraw(instance: Instance): Promise<void> {
    this.rotation.splice(this.rotation.indexOf(instance), 1);
    await this.current;
  }

  private async one(target: Instance): Promise<void> {
    const n = this.calls.length + 1;
    const callId = `CAL${randomBytes(16).toString('hex')}`;
    this.calls.push(callId);
    const body = postCall(callId, n);
    const answer = await fetch(`${target.url}/api/events/${DEFAULT_WORKSPACE}/callrail?webhook=post_call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', signature: createHmac('sha1', CALLRAIL_KEY).update(body).digest('base64') },
      body,
    });
    const json = (await answer.json()) as { received: number; stored: number; events: string[] };
    expect(answer.status, `webhook ${n} to ${target.name}: ${JSON.stringify(json)}`).toBe(200);
    expect(json).toMatchObject({ received: 1, stored: 1 });
    this.stored.push(json.events[0] as string);
  }
}

/** A rolling restart's step: the instance leaves the rotation, stops gracefully (SIGTERM), and a new one joins. */
async function replace(sender: Sender, instance: Instance) {
  const t0 = performance.now();
  await sender.withdraw(instance);
  const inFlightAtStop = subscriber.inFlight;
  const stopping = performance.now();
  await stop(instance.process);
  const code = await instance.process.exited;
  const stopMs = Math.round(performance.now() - stopping);
  const replacement = await spawnGateway();
  sender.rotation.push(replacement);
  return { stopped: instance.name, replacement, code, inFlightAtStop, stopMs, ms: Math.round(performance.now() - t0) };
}

/**
 * Replaces the instance that sends the delivery held at the subscriber (answered after 3 s), while that delivery is
 * in flight; the first in the rotation where the sender cannot be told (no /proc).
 */
async function replaceDeliverer(sender: Sender, held: Promise<Received>) {
  const delivery = await held;
  const found = deliverer(delivery, sender.rotation);
  if (existsSync('/proc/net/tcp')) expect(found, 'the instance sending the held delivery').toBeDefined();
  return { ...(await replace(sender, found ?? (sender.rotation[0] as Instance))), held: delivery.id };
}

describe.skipIf(problem !== undefined)(
  `event subscriptions through a rolling restart of three instances${problem ? ` (skipped: ${problem})` : ''}`,
  { timeout: MULTI_PROCESS_TIMEOUT },
  () => {
    beforeAll(async () => {
      if (!existsSync(bin) || !existsSync(join(root, 'packages/plugin-calls/dist/index.js')))
        throw new Error('these tests run the built gateway: run `pnpm build` first');
      store = new PostgresStore(TEST_POSTGRES_URL, { schema });
      await store.migrate();
      engine = new Engine({ registry: new Registry(), store, encryptor: new Encryptor(parseEncryptionKey(ENCRYPTION_KEY)) });
      apiKey = (
        await engine.createApiKey({
          workspaceId: DEFAULT_WORKSPACE,
          name: 'events',
          scopes: { admin: true, services: '*', readOnly: false },
        })
      ).key;
    });

    afterAll(async () => {
      for (const p of processes) p.child.kill('SIGKILL');
      await Promise.all(processes.map((p) => p.exited));
      await subscriber.goDown();
      await engine?.close();
      await store?.close();
      await made.dropAll();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('the subscriber gets every event once, in the order stored, signed, one at a time, through restarts and its own outage', async () => {
      const t0 = performance.now();
      const at = () => Math.round(performance.now() - t0);
      const timings: Record<string, number> = {};
      const [a, b, c] = await Promise.all([spawnGateway(), spawnGateway(), spawnGateway()]);
      timings.threeListening = at();
      expect((await admin(a, 'PUT', '/api/admin/events/callrail/secret', { secret: CALLRAIL_KEY })).status).toBe(200);
      await subscriber.up();
      const created = await admin(b, 'POST', '/api/admin/events/subscriptions', { url: subscriber.url, types: ['callrail.*'] });
      expect(created.status).toBe(201);
      const sub = (await created.json()) as { id: string; secret: string };
      const sender = new Sender();
      sender.rotation.push(a as Instance, b as Instance, c as Instance);
      /** The subscription's delivery log, newest attempt first. */
      const deliveries = async () =>
        (await (await admin(sender.rotation[0] as Instance, 'GET', `/api/admin/events/subscriptions/${sub.id}/deliveries`)).json()) as {
          attempts: Array<{ event_id: string; outcome: string; status: number | null }>;
          dead_letters: unknown[];
        };

      // 1. Deliveries flowing: an instance is replaced.
      // The instance sending the seventh delivery gets SIGTERM while it is in flight.
      const [, first] = await Promise.all([sender.send(PER_PHASE), replaceDeliverer(sender, subscriber.holdAt(7, 3_000))]);
      timings.firstReplaced = at();

      // 2. The subscriber is down: webhooks are still received and stored, their deliveries refused and retried.
      await subscriber.goDown();
      const beforeOutage = subscriber.received.length;
      timings.subscriberDown = at();
      await sender.send(PER_PHASE);
      // down for a stretch: until the deliverer was refused three times (one retry a second)
      const refused = async () => (await deliveries()).attempts.filter((x) => x.outcome === 'failed' && x.status === null).length;
      await until('three refused attempts', async () => (await refused()) >= 3);
      expect(subscriber.received.length).toBe(beforeOutage);

      // 3. The subscriber is back; another instance is replaced while the backlog drains and webhooks keep coming.
      await subscriber.up();
      timings.subscriberUp = at();
      // The instance sending the backlog's fourth delivery gets SIGTERM while it is in flight.
      const held = subscriber.holdAt(beforeOutage + 4, 3_000);
      const [, second] = await Promise.all([sender.send(PER_PHASE), replaceDeliverer(sender, held)]);
      timings.secondReplaced = at();
      await sender.send(EVENTS - 3 * PER_PHASE);
      timings.allSent = at();

      await until('every event at the subscriber', () => subscriber.distinct().length >= EVENTS);
      timings.allReceived = at();
      // the delivery log shows each event delivered (nothing left in the queue that could arrive again)
      await until(
        'every delivery logged',
        async () => (await deliveries()).attempts.filter((x) => x.outcome === 'delivered').length >= EVENTS,
      );
      const log = await deliveries();

      const events = (await (await admin(sender.rotation[0] as Instance, 'GET', '/api/v1/events?service=callrail&limit=200')).json()) as {
        events: Array<{ id: string; record_id: string }>;
      };
      const storedOrder = events.events.map((e) => e.id);
      const duplicates = subscriber.received.length - subscriber.distinct().length;
      console.info(
        `events-rolling: ${EVENTS} events, ${subscriber.received.length} requests received, ${duplicates} duplicate(s), ` +
          `${log.attempts.filter((x) => x.outcome === 'failed').length} failed attempt(s) while the subscriber was down, ` +
          `replaced ${first.stopped} (stopped in ${first.stopMs} ms, replaced in ${first.ms} ms, ${first.inFlightAtStop} delivery in flight at SIGTERM) ` +
          `and ${second.stopped} (${second.stopMs} ms, ${second.ms} ms, ${second.inFlightAtStop} in flight), timings ${JSON.stringify(timings)}`,
      );

      // stored in the order sent (each webhook was answered before the next went), and listed so
      expect(storedOrder).toEqual(sender.stored);
      expect(events.events.map((e) => e.record_id)).toEqual(sender.calls);
      // every event, in the order stored, each once
      expect(subscriber.distinct()).toEqual(storedOrder);
      expect(duplicates).toBe(0);
      expect(subscriber.maxInFlight).toBe(1);
      for (const r of subscriber.received) {
        const verified = new Webhook(sub.secret).verify(r.body, r.headers as Record<string, string>) as {
          type: string;
          data: { id: string; service: string; record_id: string };
        };
        expect(verified).toMatchObject({ type: 'call.completed', data: { id: r.id, service: 'callrail' } });
      }
      // the outage was real: attempts refused and retried, none given up on
      expect(log.attempts.some((x) => x.outcome === 'failed' && x.status === null)).toBe(true);
      expect(log.dead_letters).toEqual([]);
      expect(
        log.attempts
          .filter((x) => x.outcome === 'delivered')
          .map((x) => x.event_id)
          .sort(),
      ).toEqual([...storedOrder].sort());
      // the stops were graceful, each while its delivery was in flight, and the held deliveries arrived once
      expect([first.code, second.code]).toEqual([0, 0]);
      expect([first.inFlightAtStop, second.inFlightAtStop]).toEqual([1, 1]);
      expect(subscriber.received.filter((r) => r.id === first.held || r.id === second.held)).toHaveLength(2);
    });
  },
);
