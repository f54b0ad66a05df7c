import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxServer } from '@portico/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.js';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Event subscriptions through the admin API: a gateway in sandbox mode whose CallRail sandbox sends a webhook; the
 * event reaches a subscriber on this host, signed per Standard Webhooks with the secret shown once at subscription.
 */
let gateway: TestGateway;
let subscriber: Server;
let subscriberUrl: string;
const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_EGRESS_ALLOW_PRIVATE: '127.0.0.1' } });
  subscriber = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => subscriber.listen(0, '127.0.0.1', resolve));
  subscriberUrl = `http://127.0.0.1:${(subscriber.address() as AddressInfo).port}/portico`;
});
afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => subscriber?.close(resolve));
});

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('event subscriptions (admin API)', () => {
  it('refuses a subscriber URL inside the network or not https, and types that are not event types, with the error body', async () => {
    const refusals = [
      [{ url: 'https://10.0.0.8/hook', types: ['*'] }, /internal address/],
      [{ url: 'http://hooks.example.com/hook', types: ['*'] }, /must be https/],
      [{ url: 'https://hooks.example.com/hook', types: ['not a type'] }, /not an event type/],
      [{ url: 'https://hooks.example.com/hook' }, /types/],
    ] as const;
    for (const [body, message] of refusals) {
      const answer = await gateway.rest('POST', '/api/admin/events/subscriptions', { body });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: true, code: 'bad_request', message: expect.stringMatching(message) });
    }
    // a subscriber sees every application's events: a key limited to some services (or not an admin) manages none
    const limited = await gateway.rest('POST', '/api/admin/keys', {
      body: { name: 'callrail admin', admin: true, services: ['callrail'] },
    });
    const narrow = (limited.body as { key: string }).key;
    const forbidden = await gateway.rest('GET', '/api/admin/events/subscriptions', { key: narrow });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: true, code: 'forbidden', message: expect.stringContaining('limited to callrail') });
    const plain = await gateway.rest('POST', '/api/admin/keys', { body: { name: 'reader' } });
    const notAdmin = await gateway.rest('POST', '/api/admin/events/subscriptions', {
      key: (plain.body as { key: string }).key,
      body: { url: 'https://hooks.example.com/hook', types: ['*'] },
    });
    expect(notAdmin.status).toBe(403);
    const missing = await gateway.rest('GET', '/api/admin/events/subscriptions/sub_nothere/deliveries');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: true, code: 'not_found' });
  });

  it('delivers a webhook received from CallRail to the subscriber, signed with the secret shown once', async () => {
    const created = await gateway.rest('POST', '/api/admin/events/subscriptions', {
      body: { url: subscriberUrl, types: ['callrail.*'] },
    });
    expect(created.status).toBe(201);
    const sub = created.body as { id: string; secret: string; url: string; types: string[] };
    expect(sub).toMatchObject({ url: subscriberUrl, types: ['callrail.*'], secret: expect.stringMatching(/^whsec_/) });
    const listed = await gateway.rest('GET', '/api/admin/events/subscriptions');
    expect(listed.body).toEqual({
      subscriptions: [{ id: sub.id, url: subscriberUrl, types: ['callrail.*'], created_at: expect.any(String) }],
    });

    const sandbox = gateway.sandboxes.callrail as SandboxServer;
    const emitted = await fetch(`${sandbox.url}/__sandbox/emit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: 'post_call' }),
    });
    expect(emitted.status).toBe(200);
    await until('the delivery', () => received.length === 1);
    const delivered = new Webhook(sub.secret).verify(received[0]?.body ?? '', received[0]?.headers as Record<string, string>) as {
      type: string;
      data: { id: string; service: string };
    };
    expect(delivered).toMatchObject({ type: 'call.completed', data: { service: 'callrail', type: 'call.completed' } });
    expect(received[0]?.headers['webhook-id']).toBe(delivered.data.id);

    await until('the log', async () => {
      const log = await gateway.rest('GET', `/api/admin/events/subscriptions/${sub.id}/deliveries`);
      return (log.body as { attempts: unknown[] }).attempts.length === 1;
    });
    const log = await gateway.rest('GET', `/api/admin/events/subscriptions/${sub.id}/deliveries`);
    expect(log.body).toMatchObject({
      attempts: [{ event_id: delivered.data.id, attempt: 1, status: 200, outcome: 'delivered' }],
      dead_letters: [],
      next_delivery: null,
    });
    expect(JSON.stringify(log.body)).not.toContain(sub.secret.slice(6));
    expect((await gateway.rest('POST', `/api/admin/events/subscriptions/${sub.id}/redeliver`)).body).toEqual({ queued: 0 });

    expect((await gateway.rest('DELETE', `/api/admin/events/subscriptions/${sub.id}`)).body).toEqual({ id: sub.id, removed: true });
    expect((await gateway.rest('DELETE', `/api/admin/events/subscriptions/${sub.id}`)).status).toBe(404);
  });
});

describe('event subscriptions from the command line', () => {
  async function cli(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const env = {
      PORTICO_DATA_DIR: gateway.runtime.config.dataDir,
      PORTICO_LOG_LEVEL: 'silent',
      PORTICO_EGRESS_ALLOW_PRIVATE: '127.0.0.1',
    };
    const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l), stdin: () => '' });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('subscribes, lists and unsubscribes; the running gateway delivers to a subscription made by the command', async () => {
    const refused = await cli(['events', 'subscribe', 'http://hooks.example.com/x', '--types', '*']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/must be https/);
    const made = await cli(['events', 'subscribe', subscriberUrl, '--types', 'call.completed, text.received']);
    expect(made.code).toBe(0);
    const id = /Subscribed (sub_\S+):/.exec(made.out)?.[1] as string;
    const secret = /(whsec_\S+)/.exec(made.out)?.[1] as string;
    expect((await cli(['events', 'subscriptions'])).out).toContain(`${id}\t${subscriberUrl}\tcall.completed,text.received`);

    const before = received.length;
    const sandbox = gateway.sandboxes.callrail as SandboxServer;
    await fetch(`${sandbox.url}/__sandbox/emit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: 'post_call' }),
    });
    await until('the delivery', () => received.length > before);
    const last = received.at(-1) as (typeof received)[number];
    expect(new Webhook(secret).verify(last.body, last.headers as Record<string, string>)).toMatchObject({ type: 'call.completed' });

    expect((await cli(['events', 'unsubscribe', id])).code).toBe(0);
    expect((await cli(['events', 'subscriptions'])).out).not.toContain(id);
  });
});
