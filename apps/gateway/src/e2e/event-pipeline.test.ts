import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxServer } from '@portico/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * A firm's pipeline, as a script would run it: subscribed to the gateway's events, it hears CallRail's webhook of a
 * voicemail from someone who never called, checks the delivery's Standard Webhooks signature, and through the REST
 * door makes them a lead in Lawmatics and tells #intake in Slack. Everything upstream is the sandbox.
 */
let gateway: TestGateway;
let pipeline: Server;
let pipelineUrl: string;
let secret = '';
const handled: Array<{ lead: string; message: string }> = [];
const failures: string[] = [];

interface Delivered {
  type: string;
  data: { service: string; type: string; payload: Record<string, unknown> };
}

/** What the pipeline does with one verified event: a voicemail from a new caller becomes a lead and a post in #intake. */
async function onEvent(event: Delivered): Promise<void> {
  const call = event.data.payload;
  if (event.type !== 'call.completed' || call.voicemail !== true || call.first_call !== true) return;
  const name = String(call.customer_name);
  const phone = String(call.customer_phone_number);
  const [first, ...rest] = name.split(' ');
  const known = await gateway.rest('GET', `/api/v1/lawmatics/prospects/find-by-phone/${encodeURIComponent(phone)}`);
  if (known.status === 200) return; // already a lead: nothing to do
  const created = await gateway.rest('POST', '/api/v1/lawmatics/prospects', {
    body: { first_name: first, last_name: rest.join(' '), phone, case_title: `Voicemail from ${name}` },
  });
  if (created.status !== 200 && created.status !== 201) throw new Error(`create_prospect answered ${created.status}`);
  const lead = String((created.body as { data: { id: string } }).data.id);
  const channels = (await gateway.rest('GET', '/api/v1/slack/channels')).body as { channels: Array<{ id: string; name: string }> };
  const intake = channels.channels.find((c) => c.name === 'intake')?.id as string;
  const text = `New caller ${name} (${phone}) left a voicemail: lead ${lead} in Lawmatics.`;
  const posted = await gateway.rest('POST', `/api/v1/slack/channels/${intake}/messages`, { body: { text } });
  if (posted.status !== 200) throw new Error(`send_message answered ${posted.status}`);
  handled.push({ lead, message: text });
}

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_EGRESS_ALLOW_PRIVATE: '127.0.0.1' } });
  pipeline = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: Delivered;
      try {
        event = new Webhook(secret).verify(body, req.headers as IncomingHttpHeaders as Record<string, string>) as Delivered;
      } catch {
        res.writeHead(401).end();
        return;
      }
      onEvent(event).then(
        () => res.writeHead(204).end(),
        (error: unknown) => {
          failures.push(String(error));
          res.writeHead(500).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => pipeline.listen(0, '127.0.0.1', resolve));
  pipelineUrl = `http://127.0.0.1:${(pipeline.address() as AddressInfo).port}/events`;
  const subscribed = await gateway.rest('POST', '/api/admin/events/subscriptions', {
    body: { url: pipelineUrl, types: ['call.completed'] },
  });
  expect(subscribed.status).toBe(201);
  secret = (subscribed.body as { secret: string }).secret;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => pipeline?.close(resolve));
});

async function until(what: string, condition: () => boolean): Promise<void> {
  const end = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (${failures.join('; ') || 'no failure seen'})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a pipeline driven by events', () => {
  it('a voicemail from a new caller becomes a Lawmatics lead and a post in #intake, through the REST door', async () => {
    const caller = { name: 'Marcus Webb', phone: '+14155550177' };
    const before = await gateway.rest('GET', `/api/v1/lawmatics/prospects/find-by-phone/${encodeURIComponent(caller.phone)}`);
    expect(before.status).toBe(404);

    const sandbox = gateway.sandboxes.callrail as SandboxServer;
    const emitted = await fetch(`${sandbox.url}/__sandbox/emit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: 'post_call', caller }),
    });
    expect(emitted.status).toBe(200);
    await until('the pipeline to handle the voicemail', () => handled.length === 1);
    expect(failures).toEqual([]);

    // Lawmatics has the caller as a lead now, with the case the pipeline gave
    const found = await gateway.rest('GET', `/api/v1/lawmatics/prospects/find-by-phone/${encodeURIComponent(caller.phone)}`);
    expect(found.status).toBe(200);
    const lead = (found.body as { data: { id: string; attributes: Record<string, unknown> } }).data;
    expect(String(lead.id)).toBe(handled[0]?.lead);
    expect(lead.attributes).toMatchObject({ first_name: 'Marcus', last_name: 'Webb' });

    // #intake's newest message is the pipeline's post
    const channels = (await gateway.rest('GET', '/api/v1/slack/channels')).body as { channels: Array<{ id: string; name: string }> };
    const intake = channels.channels.find((c) => c.name === 'intake')?.id as string;
    const read = (await gateway.rest('GET', `/api/v1/slack/channels/${intake}/messages?limit=5`)).body as {
      messages: Array<{ text: string }>;
    };
    expect(read.messages[0]?.text).toBe(handled[0]?.message);

    // a client calling again (answered, not new) is no lead: nothing more is done
    await fetch(`${sandbox.url}/__sandbox/emit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const subscriptionId = async () =>
      (
        (await gateway.rest('GET', '/api/admin/events/subscriptions')).body as {
          subscriptions: Array<{ id: string }>;
        }
      ).subscriptions[0]?.id as string;
    const id = await subscriptionId();
    const delivered = async () =>
      ((await gateway.rest('GET', `/api/admin/events/subscriptions/${id}/deliveries`)).body as { attempts: unknown[] }).attempts.length;
    const end = Date.now() + 15_000;
    while ((await delivered()) < 2 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await delivered()).toBe(2);
    expect(handled).toHaveLength(1);
  });
});
