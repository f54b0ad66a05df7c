import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Logger, SandboxServer } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.js';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Inbound events end to end: a gateway in sandbox mode, whose sandboxes (Slack, CallRail, QuickBooks, Clio, Notion,
 * Lawmatics) send webhooks signed as the applications sign them to its delivery endpoint. A signed delivery becomes exactly one event, readable over REST
 * and MCP; a forged, a replayed and a stale one are refused with the error body and one log line without secrets.
 */
let gateway: TestGateway;
let client: Client;
const logged: Array<{ level: string; msg: string | undefined; text: string }> = [];
const record =
  (level: string) =>
  (obj: object, msg?: string): void => {
    logged.push({ level, msg, text: JSON.stringify({ ...obj, msg }) });
  };
const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };

beforeAll(async () => {
  // loopback is the trusted proxy: a test names another client address with X-Forwarded-For
  gateway = await startTestGateway({ sandbox: true, logger, env: { PORTICO_TRUST_PROXY: '127.0.0.1' } });
  client = await connectMcp(gateway.url, gateway.key);
});
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

interface Delivery {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  answer: { error?: boolean; code?: string; message?: string; stored?: number; events?: string[]; challenge?: string };
}

/** Asks a sandbox to send a webhook (to the gateway it was started with); what it sent and what the gateway answered. */
async function emit(service: string, spec: Record<string, unknown> = {}): Promise<Delivery> {
  const sandbox = gateway.sandboxes[service] as SandboxServer;
  const response = await fetch(`${sandbox.url}/__sandbox/emit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  const answer = (await response.json()) as { ok: boolean; delivery: Delivery; error?: string };
  expect(answer.ok, answer.error).toBe(true);
  return answer.delivery;
}

/** Sends a delivery again, byte for byte, as someone who recorded it would. */
async function replay(delivery: Delivery) {
  const response = await fetch(delivery.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...delivery.headers },
    body: delivery.body,
  });
  return {
    status: response.status,
    body: (await response.json()) as Delivery['answer'],
    challenge: response.headers.get('www-authenticate'),
  };
}

interface EventView {
  id: string;
  service: string;
  type: string;
  record_id: string | null;
  cursor: string;
  payload: Record<string, unknown>;
}

async function restEvents(query: string): Promise<EventView[]> {
  const answer = await gateway.rest('GET', `/api/v1/events${query}`);
  expect(answer.status).toBe(200);
  return (answer.body as { events: EventView[] }).events;
}

async function mcpEvents(args: Record<string, unknown>): Promise<EventView[]> {
  const result = await client.callTool({ name: 'list_events', arguments: args });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { events: EventView[] }).events;
}

/** The refusals logged since `from`: one line each, naming the reason, never the secret or the signature. */
function refusalsSince(from: number, secret: string, signature: string) {
  const lines = logged.slice(from).filter((l) => l.msg === 'webhook delivery refused');
  for (const line of lines) {
    expect(line.text).not.toContain(secret);
    expect(line.text).not.toContain(signature);
  }
  return lines.map((l) => JSON.parse(l.text).reason as string);
}

describe('Slack events from the sandbox', () => {
  it('answers the url_verification handshake with its challenge', async () => {
    const delivery = await emit('slack', { event: 'url_verification' });
    expect(delivery.status).toBe(200);
    expect(delivery.answer).toEqual({ challenge: JSON.parse(delivery.body).challenge });
  });

  it('stores a signed message event once, readable over REST and MCP, and refuses a replay, a forgery and a stale one', async () => {
    const text = 'Rosa Delgado called back about invoice 1029';
    const delivery = await emit('slack', { text });
    expect(delivery.status).toBe(200);
    expect(delivery.answer).toMatchObject({ stored: 1 });
    const sent = JSON.parse(delivery.body);

    const rest = (await restEvents('?service=slack&type=message.posted')).filter((e) => e.payload.event_id === sent.event_id);
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({ service: 'slack', type: 'message.posted', record_id: `${sent.event.channel}/${sent.event.ts}` });
    expect(rest[0]?.payload.event).toMatchObject({ text, type: 'message' });
    expect(rest[0]?.payload).not.toHaveProperty('token'); // the deprecated verification token is not kept
    const mcp = (await mcpEvents({ service: 'slack', type: 'message.posted' })).filter((e) => e.payload.event_id === sent.event_id);
    expect(mcp.map((e) => e.id)).toEqual([rest[0]?.id]);

    const mark = logged.length;
    const replayed = await replay(delivery);
    expect(replayed).toEqual({
      status: 400,
      body: { error: true, code: 'bad_request', message: expect.stringContaining('replay') },
      challenge: null,
    });
    // a signature made for another body: forged, and no OAuth discovery in the challenge (a token would not help)
    const other = await replay({ ...delivery, body: delivery.body.replace(text, 'Someone else called') });
    expect(other).toMatchObject({ status: 401, body: { error: true, code: 'unauthorized' } });
    expect(other.challenge).not.toContain('resource_metadata');
    const forged = await emit('slack', { secret: 'not-the-signing-secret' });
    expect(forged.status).toBe(401);
    expect(forged.answer).toMatchObject({ error: true, code: 'unauthorized' });
    const stale = await emit('slack', { at: new Date(Date.now() - 6 * 60_000).toISOString() });
    expect(stale.status).toBe(401);
    expect(stale.answer).toMatchObject({ error: true, code: 'unauthorized', message: expect.stringContaining('300 seconds') });
    const signature = delivery.headers['x-slack-signature'] as string;
    expect(refusalsSince(mark, 'sandbox-slack-signing-secret', signature)).toEqual(['replayed', 'forged', 'forged', 'stale']);

    // none of the refused deliveries became an event
    const after = await restEvents('?service=slack');
    const ids = new Set([forged, stale].map((d) => JSON.parse(d.body).event_id));
    expect(after.filter((e) => ids.has(e.payload.event_id))).toEqual([]);
    expect(after.filter((e) => e.payload.event_id === sent.event_id)).toHaveLength(1);
  });

  it('a message posted through the gateway comes back as its message event', async () => {
    const channel = 'C05LAUNCH01';
    const posted = await gateway.rest('POST', `/api/v1/slack/channels/${channel}/messages`, {
      body: { text: 'Conflict check done for Jordan Ellis' },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const ts = (posted.body as { ts: string }).ts;
    await expect
      .poll(async () => (await restEvents('?service=slack&type=message.posted')).filter((e) => e.record_id === `${channel}/${ts}`).length)
      .toBe(1);
  });
});

describe('CallRail events from the sandbox', () => {
  it('stores a signed post-call webhook once as call.completed, and refuses a replay, a forgery and a stale one', async () => {
    const delivery = await emit('callrail');
    expect(delivery.status).toBe(200);
    expect(delivery.answer).toMatchObject({ stored: 1 });
    const call = JSON.parse(delivery.body) as { id: string; customer_name: string };

    const rest = (await restEvents('?service=callrail')).filter((e) => e.record_id === call.id);
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({ type: 'call.completed', payload: { id: call.id, customer_name: call.customer_name } });
    const mcp = (await mcpEvents({ service: 'callrail', type: 'call.completed' })).filter((e) => e.record_id === call.id);
    expect(mcp.map((e) => e.id)).toEqual([rest[0]?.id]);

    const mark = logged.length;
    expect(await replay(delivery)).toMatchObject({ status: 400, body: { error: true, code: 'bad_request' } });
    const forged = await emit('callrail', { key: 'not-the-signing-key' });
    expect(forged.status).toBe(401);
    expect(forged.answer).toMatchObject({ error: true, code: 'unauthorized' });
    const stale = await emit('callrail', { at: new Date(Date.now() - 2 * 24 * 3_600_000).toISOString() });
    expect(stale.status).toBe(401);
    expect(stale.answer).toMatchObject({ error: true, code: 'unauthorized' });
    expect(refusalsSince(mark, 'sandbox-callrail-signing-key', delivery.headers.signature as string)).toEqual([
      'replayed',
      'forged',
      'stale',
    ]);

    const calls = new Set([forged, stale].map((d) => JSON.parse(d.body).id));
    expect((await restEvents('?service=callrail')).filter((e) => calls.has(e.record_id))).toEqual([]);
  });
});

describe('QuickBooks events from the sandbox', () => {
  it('stores a signed entity change once as invoice.updated, and refuses a replay, a forgery and a stale one', async () => {
    const delivery = await emit('quickbooks');
    expect(delivery.status).toBe(200);
    expect(delivery.answer).toMatchObject({ stored: 1 });
    const [change] = JSON.parse(delivery.body).eventNotifications[0].dataChangeEvent.entities as Array<{ id: string; lastUpdated: string }>;

    const rest = (await restEvents('?service=quickbooks&type=invoice.updated')).filter(
      (e) => e.payload.lastUpdated === change?.lastUpdated,
    );
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({ record_id: change?.id, payload: { name: 'Invoice', operation: 'Update' } });
    const mcp = (await mcpEvents({ service: 'quickbooks' })).filter((e) => e.payload.lastUpdated === change?.lastUpdated);
    expect(mcp.map((e) => e.id)).toEqual([rest[0]?.id]);

    const mark = logged.length;
    expect(await replay(delivery)).toMatchObject({ status: 400, body: { error: true, code: 'bad_request' } });
    const forged = await emit('quickbooks', { token: 'not-the-verifier-token' });
    expect(forged).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
    const stale = await emit('quickbooks', { at: new Date(Date.now() - 2 * 24 * 3_600_000).toISOString() });
    expect(stale).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
    const signature = delivery.headers['intuit-signature'] as string;
    expect(refusalsSince(mark, 'sandbox-quickbooks-verifier-token', signature)).toEqual(['replayed', 'forged', 'stale']);
  });
});

/** Posts to the gateway's delivery URL of a service as an application's setup request would, unsigned. */
async function setupRequest(service: string, query: string, headers: Record<string, string>, body = '{}') {
  const response = await fetch(`${gateway.url}/api/events/default/${service}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Delivery['answer'], headers: response.headers };
}

async function saveSecret(service: string, secret: string) {
  const saved = await gateway.rest('PUT', `/api/admin/events/${service}/secret`, { body: { secret } });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
}

describe('Clio events from the sandbox', () => {
  it('in sandbox mode the gateway registers its webhooks, one per model, with the Clio sandbox, which delivers to them', async () => {
    const registered = () => gateway.runtime.store.registrations.get({ workspaceId: 'default', service: 'clio', topic: 'matter' });
    await expect.poll(async () => (await registered())?.upstreamId ?? null).not.toBeNull();
    const topics = (await gateway.runtime.store.registrations.list('default', 'clio')).map((r) => r.topic);
    expect(topics).toEqual(['activity', 'bill', 'calendar_entry', 'communication', 'contact', 'matter', 'task']);
    const id = (await registered())?.upstreamId;
    const status = async () =>
      ((await gateway.rest('GET', `/api/v1/clio/webhooks/${id}?fields=id,status`)).body as { data: { status: string } }).data.status;
    await expect.poll(status).toBe('enabled');
    const delivery = await emit('clio', { model: 'matter', event: 'updated' });
    expect(delivery.url).toContain('/api/events/default/clio?model=matter&setup=');
    expect(delivery.status, JSON.stringify(delivery.answer)).toBe(200);
  });

  it('stores a signed matter webhook once as matter.updated, and refuses a replay, a forgery and a stale one', async () => {
    const delivery = await emit('clio', { model: 'matter', event: 'updated' });
    expect(delivery.status, JSON.stringify(delivery.answer)).toBe(200);
    expect(delivery.answer).toMatchObject({ stored: 1 });
    const sent = JSON.parse(delivery.body) as { data: { id: number; display_number: string; updated_at: string } };
    const mine = (e: EventView) =>
      e.record_id === String(sent.data.id) && (e.payload.data as { updated_at?: string }).updated_at === sent.data.updated_at;

    const rest = (await restEvents('?service=clio&type=matter.updated')).filter(mine);
    expect(rest).toHaveLength(1);
    expect(rest[0]?.payload.data).toMatchObject({ display_number: sent.data.display_number });
    const mcp = (await mcpEvents({ service: 'clio', type: 'matter.updated' })).filter(mine);
    expect(mcp.map((e) => e.id)).toEqual([rest[0]?.id]);

    const mark = logged.length;
    expect(await replay(delivery)).toMatchObject({ status: 400, body: { error: true, code: 'bad_request' } });
    const forged = await emit('clio', { secret: 'not-the-webhook-secret' });
    expect(forged).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
    const stale = await emit('clio', { at: new Date(Date.now() - 2 * 24 * 3_600_000).toISOString() });
    expect(stale).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
    const signature = delivery.headers['x-hook-signature'] as string;
    expect(refusalsSince(mark, 'sandbox-clio-webhook-secret', signature)).toEqual(['replayed', 'forged', 'stale']);
  });

  it('a matter created through the gateway comes back as its matter.created event', async () => {
    const created = await gateway.rest('POST', '/api/v1/clio/matters?fields=id', {
      body: { client: { id: 2003 }, description: 'Okafor trust amendment', status: 'open' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String((created.body as { data: { id: number } }).data.id);
    await expect.poll(async () => (await restEvents('?service=clio&type=matter.created')).filter((e) => e.record_id === id).length).toBe(1);
  });

  it('enables a webhook made through the gateway by answering Clio’s handshake at a URL armed with ?setup=', async () => {
    const mark = logged.length;
    await saveSecret('clio', 'clio-one-time-setup-token');
    // a delivery to the workspace's URL signed with the sandbox's secret: refused while armed (the saved secret is the
    // setup token for now); the webhook sandbox mode registered by itself keeps its own secret
    const direct = `${gateway.url}/api/events/default/clio?model=matter`;
    expect((await emit('clio', { url: direct })).status).toBe(401);
    const url = `${gateway.url}/api/events/default/clio?setup=clio-one-time-setup-token&model=matter`;
    const made = await gateway.rest('POST', '/api/v1/clio/webhooks', {
      body: { url, model: 'matter', fields: 'id,etag,display_number,status,created_at,updated_at', events: ['created', 'updated'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = (made.body as { data: { id: number } }).data.id;
    const status = async () =>
      ((await gateway.rest('GET', `/api/v1/clio/webhooks/${id}?fields=id,status`)).body as { data: { status: string } }).data.status;
    await expect.poll(status).toBe('enabled');
    // the secret the handshake brought is the one deliveries are checked with
    const shown = await gateway.rest('GET', `/api/v1/clio/webhooks/${id}?fields=id,shared_secret`);
    const secret = (shown.body as { data: { shared_secret: string } }).data.shared_secret;
    expect((await emit('clio', { url: direct, secret })).status).toBe(200);

    // a setup request at an unarmed URL, or at the spent one, is refused and changes nothing
    const unarmed = await setupRequest('clio', '', { 'x-hook-secret': 'someone-elses-secret' });
    expect(unarmed).toMatchObject({ status: 401, body: { error: true, code: 'unauthorized' } });
    const spent = await setupRequest('clio', '?setup=clio-one-time-setup-token', { 'x-hook-secret': 'someone-elses-secret' });
    expect(spent.status).toBe(401);
    expect(spent.headers.get('x-hook-secret')).toBeNull();
    // Clio repeating its own handshake is answered with the header echoed
    const again = await setupRequest('clio', '', { 'x-hook-secret': secret });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-hook-secret')).toBe(secret);
    expect((await emit('clio', { url: direct, secret })).status).toBe(200);
    const lines = logged.slice(mark).map((l) => l.text);
    expect(lines.some((l) => l.includes('handshake accepted'))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain('sandbox-clio-webhook-secret');
      expect(line).not.toContain('someone-elses-secret');
      expect(line).not.toContain('clio-one-time-setup-token');
    }
    expect(refusalsSince(mark, 'sandbox-clio-webhook-secret', 'someone-elses-secret')).toEqual([
      'forged',
      'handshake_not_armed',
      'handshake_not_armed',
    ]);
  });
});

describe('Notion events from the sandbox', () => {
  it('stores a signed page event once by its event id, and refuses a replay, a forgery and a stale one', async () => {
    const delivery = await emit('notion', { type: 'page.content_updated' });
    expect(delivery.status, JSON.stringify(delivery.answer)).toBe(200);
    expect(delivery.answer).toMatchObject({ stored: 1 });
    const sent = JSON.parse(delivery.body) as { id: string; entity: { id: string } };

    const rest = (await restEvents('?service=notion&type=page.content_updated')).filter((e) => e.payload.id === sent.id);
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({ record_id: sent.entity.id, payload: { entity: { type: 'page' } } });
    const mcp = (await mcpEvents({ service: 'notion' })).filter((e) => e.payload.id === sent.id);
    expect(mcp.map((e) => e.id)).toEqual([rest[0]?.id]);

    const mark = logged.length;
    expect(await replay(delivery)).toMatchObject({ status: 400, body: { error: true, code: 'bad_request' } });
    const forged = await emit('notion', { token: 'secret_not-the-verification-token' });
    expect(forged).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
    const stale = await emit('notion', { at: new Date(Date.now() - 2 * 24 * 3_600_000).toISOString() });
    expect(stale).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
    const signature = delivery.headers['x-notion-signature'] as string;
    expect(refusalsSince(mark, 'secret_sandbox-notion-verification-token', signature)).toEqual(['replayed', 'forged', 'stale']);
  });
  it('a page created through the gateway comes back as its page.created event', async () => {
    const parent = (
      await gateway.rest('POST', '/api/v1/notion/search', { body: { page_size: 1, filter: { property: 'object', value: 'page' } } })
    ).body as { results: Array<{ id: string }> };
    const created = await gateway.rest('POST', '/api/v1/notion/pages', {
      body: {
        parent: { page_id: parent.results[0]?.id },
        properties: { title: { title: [{ type: 'text', text: { content: 'Call notes: Rosa Delgado' } }] } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = (created.body as { id: string }).id;
    await expect.poll(async () => (await restEvents('?service=notion&type=page.created')).filter((e) => e.record_id === id).length).toBe(1);
  });
});

describe('Lawmatics events from the sandbox', () => {
  it('stores a signed matter.converted once, and refuses a replay, a forgery and a stale one', async () => {
    const delivery = await emit('lawmatics');
    expect(delivery.status, JSON.stringify(delivery.answer)).toBe(200);
    expect(delivery.answer).toMatchObject({ stored: 1 });
    const sent = JSON.parse(delivery.body) as { event_id: string; data: { id: string } };

    const rest = (await restEvents('?service=lawmatics&type=matter.converted')).filter((e) => e.payload.event_id === sent.event_id);
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({ record_id: sent.data.id });
    const mcp = (await mcpEvents({ service: 'lawmatics' })).filter((e) => e.payload.event_id === sent.event_id);
    expect(mcp.map((e) => e.id)).toEqual([rest[0]?.id]);

    const mark = logged.length;
    expect(await replay(delivery)).toMatchObject({ status: 400, body: { error: true, code: 'bad_request' } });
    const forged = await emit('lawmatics', { secret: 'not-the-signing-secret' });
    expect(forged).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
    const stale = await emit('lawmatics', { at: new Date(Date.now() - 10 * 60_000).toISOString() });
    expect(stale).toMatchObject({
      status: 401,
      answer: { error: true, code: 'unauthorized', message: expect.stringContaining('300 seconds') },
    });
    const signature = delivery.headers['x-lawmatics-signature'] as string;
    expect(refusalsSince(mark, 'sandbox-lawmatics-signing-secret', signature)).toEqual(['replayed', 'forged', 'stale']);
  });
});

describe('reading events', () => {
  it('pages with the cursor, and a key without the service reads none of its events', async () => {
    const first = await restEvents('?limit=1');
    expect(first).toHaveLength(1);
    const next = await restEvents(`?since=${first[0]?.cursor}&limit=200`);
    expect(next.every((e) => Number(e.cursor) > Number(first[0]?.cursor))).toBe(true);

    const created = await gateway.rest('POST', '/api/admin/keys', { body: { name: 'calls only', services: ['callrail'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = (created.body as { key: string }).key;
    const answer = await gateway.rest('GET', '/api/v1/events?limit=200', { key });
    const services = new Set((answer.body as { events: EventView[] }).events.map((e) => e.service));
    expect([...services]).toEqual(['callrail']);
    expect((await gateway.rest('GET', '/api/v1/events?limit=0')).body).toMatchObject({ error: true, code: 'bad_request' });
  });

  it('refuses deliveries to a workspace or service that is not set up', async () => {
    const answer = await fetch(`${gateway.url}/api/events/default/nosuch`, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: true, code: 'not_found' });
    const elsewhere = await fetch(`${gateway.url}/api/events/nowhere/slack`, { method: 'POST', body: '{}' });
    expect(elsewhere.status).toBe(404);
  });
});

describe('the signing secrets from the command line', () => {
  async function cli(argv: string[], stdin = '') {
    const out: string[] = [];
    const err: string[] = [];
    const env = { PORTICO_DATA_DIR: gateway.runtime.config.dataDir, PORTICO_LOG_LEVEL: 'silent' };
    const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l), stdin: () => stdin });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('lists where each application delivers, and a secret saved from stdin is the one deliveries are checked with', async () => {
    const listed = await cli(['events', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('slack\t/api/events/default/slack\tsecret saved');
    expect(listed.out).not.toContain('sandbox-slack-signing-secret');

    expect((await cli(['events', 'secret', 'slack', '--secret', '-'], 'another-signing-secret\n')).code).toBe(0);
    expect((await emit('slack')).status).toBe(401); // the sandbox still signs with its own
    expect((await emit('slack', { secret: 'another-signing-secret' })).status).toBe(200);
    expect((await cli(['events', 'secret', 'slack', '--secret', 'sandbox-slack-signing-secret'])).code).toBe(0);
    expect((await emit('slack')).status).toBe(200);

    expect((await cli(['events', 'forget', 'callrail'])).code).toBe(0);
    expect((await emit('callrail')).answer).toMatchObject({ error: true, code: 'not_found' });
    expect((await cli(['events', 'forget', 'callrail'])).code).toBe(2);
    expect((await cli(['events', 'list'])).out).toContain('callrail\t/api/events/default/callrail\tno secret');
  });

  it('takes Notion’s verification token at an armed URL, and shows it on the host for Notion’s form', async () => {
    const mark = logged.length;
    expect((await cli(['events', 'secret', 'notion', '--secret', '-'], 'notion-one-time-setup-token\n')).code).toBe(0);
    const token = 'secret_sandbox-notion-verification-token';
    const unarmed = await setupRequest('notion', '', {}, JSON.stringify({ verification_token: 'secret_someone-elses' }));
    expect(unarmed).toMatchObject({ status: 401, body: { error: true, code: 'unauthorized' } });
    expect((await cli(['events', 'show', 'notion'])).out).toBe('notion-one-time-setup-token');

    const armed = await setupRequest('notion', '?setup=notion-one-time-setup-token', {}, JSON.stringify({ verification_token: token }));
    expect(armed.status).toBe(200);
    expect((await cli(['events', 'show', 'notion'])).out).toBe(token);
    expect((await emit('notion')).status).toBe(200);
    const spent = await setupRequest(
      'notion',
      '?setup=notion-one-time-setup-token',
      {},
      JSON.stringify({ verification_token: 'secret_someone-elses' }),
    );
    expect(spent.status).toBe(401);
    expect((await cli(['events', 'show', 'notion'])).out).toBe(token);
    for (const line of logged.slice(mark)) {
      expect(line.text).not.toContain(token);
      expect(line.text).not.toContain('notion-one-time-setup-token');
    }
  });
});

describe('refused deliveries from one address', () => {
  it('answers 429 unread after 60 refusals in a minute, logs none of those, and never counts an accepted delivery', async () => {
    // more accepted deliveries than the limit, from one address (the sandbox's, loopback): none is held back
    for (let i = 0; i < 70; i++) expect((await emit('slack', { text: `accepted ${i}` })).status).toBe(200);

    const recorded = await emit('slack', { text: 'a delivery to forge from' });
    const fromElsewhere = (text: string) =>
      fetch(recorded.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...recorded.headers, 'x-forwarded-for': '203.0.113.7' },
        body: recorded.body.replace('a delivery to forge from', text),
      });
    for (let i = 0; i < 60; i++) expect((await fromElsewhere(`forged ${i}`)).status).toBe(401);
    const mark = logged.length;
    const held = await fromElsewhere('forged once more');
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await held.json()).toMatchObject({
      error: true,
      code: 'rate_limited',
      message: expect.stringContaining('refused webhook deliveries'),
    });
    expect(logged.slice(mark).filter((l) => l.msg === 'webhook delivery refused')).toEqual([]);

    // another address is not held back by that one's refusals
    expect((await emit('slack', { text: 'still accepted' })).status).toBe(200);
  });
});
