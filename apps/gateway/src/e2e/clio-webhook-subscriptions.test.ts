import { DEFAULT_WORKSPACE, type Logger, type SandboxServer } from '@portico/core';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * The Clio webhook a gateway registers itself: a plain gateway (not in sandbox mode) whose Clio integration points at
 * the Clio sandbox on loopback. Connecting Clio registers a webhook for matters at the workspace's delivery URL; its
 * deliveries, signed with the secret Clio returned, become events; renewal extends it before it expires (the clock is
 * moved, not waited for), failures are logged once and tried again, one instance at a time renews it, and
 * disconnecting deletes it at Clio.
 */
const DAY = 86_400_000;
let sandbox: SandboxServer;
let gateway: TestGateway;
const logged: Array<{ level: string; msg: string; text: string }> = [];
const record =
  (level: string) =>
  (obj: object, msg?: string): void => {
    logged.push({ level, msg: msg ?? '', text: JSON.stringify({ ...obj, msg }) });
  };
const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };

beforeAll(async () => {
  sandbox = await (await (clioPlugin.sandbox as NonNullable<typeof clioPlugin.sandbox>)()).startSandbox();
  gateway = await startTestGateway({ plugins: [clioPlugin], env: { PORTICO_CLIO_BASE_URL: sandbox.url }, logger });
  // the address the gateway gives Clio: its public URL (PORTICO_PUBLIC_URL), here the loopback one it listens on
  gateway.runtime.engine.webhooks.baseUrl = gateway.url;
});
afterAll(async () => {
  await gateway?.close();
  await sandbox?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

interface ClioWebhook {
  id: number;
  url: string;
  model: string;
  status: string;
  events: string[];
  expires_at: string;
  shared_secret: string;
}

/** The webhooks Clio (the sandbox) holds for this gateway, as its API lists them (the firm has others). */
async function clioWebhooks(): Promise<ClioWebhook[]> {
  const response = await fetch(`${sandbox.url}/webhooks.json?fields=id,url,model,status,events,expires_at,shared_secret`, {
    headers: { authorization: `Bearer ${sandbox.token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: ClioWebhook[] }).data.filter((hook) => hook.url?.startsWith(`${gateway.url}/`));
}

async function control(path: string, body: Record<string, unknown> = {}) {
  const response = await fetch(`${new URL(sandbox.url).origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const registration = () => gateway.runtime.store.registrations.get(DEFAULT_WORKSPACE, 'clio');
const linesSince = (mark: number, msg: string) => logged.slice(mark).filter((l) => l.msg.startsWith(msg));

describe('the Clio webhook the gateway registers', () => {
  it('connecting Clio registers a matter webhook at the workspace’s delivery URL, enabled by Clio’s handshake', async () => {
    expect(await clioWebhooks()).toEqual([]);
    const connected = await gateway.rest('PUT', '/api/admin/connections/clio', { body: { token: sandbox.token } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);

    const [hook, ...others] = await clioWebhooks();
    expect(others).toEqual([]);
    expect(hook?.url.startsWith(`${gateway.url}/api/events/${DEFAULT_WORKSPACE}/clio?setup=`)).toBe(true);
    expect(hook).toMatchObject({ model: 'matter', events: expect.arrayContaining(['created', 'updated', 'deleted']) });
    const expires = Date.parse(hook?.expires_at as string);
    expect(expires).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(expires).toBeLessThanOrEqual(Date.now() + 31 * DAY);
    await expect.poll(async () => (await clioWebhooks())[0]?.status).toBe('enabled');
    expect(await registration()).toMatchObject({ upstreamId: String(hook?.id), expiresAt: hook?.expires_at });
    // the workspace was given no signing secret by hand: the webhook's own is the one kept, and the admin API says so
    expect((await gateway.rest('GET', '/api/admin/events')).body).toMatchObject({
      sources: [{ service: 'clio', configured: true, registered_webhook: { id: String(hook?.id), expires_at: hook?.expires_at } }],
    });
    expect(await gateway.runtime.engine.events.revealSecret(DEFAULT_WORKSPACE, 'clio')).toBeUndefined();
  });

  it('a delivery signed with the secret Clio returned becomes an event; one signed with another secret is refused', async () => {
    const sent = await control('/__sandbox/emit', { model: 'matter', event: 'updated' });
    const delivery = sent.body.delivery as { url: string; status: number; answer: { stored?: number; events?: string[] } };
    expect(delivery.url).toBe((await clioWebhooks())[0]?.url);
    expect(delivery.status, JSON.stringify(delivery.answer)).toBe(200);
    expect(delivery.answer.stored).toBe(1);
    const events = (await gateway.rest('GET', '/api/v1/events?service=clio')).body as { events: Array<{ id: string; type: string }> };
    expect(events.events.filter((e) => delivery.answer.events?.includes(e.id)).map((e) => e.type)).toEqual(['matter.updated']);

    const forged = await control('/__sandbox/emit', { model: 'matter', secret: 'a-secret-of-someone-else' });
    expect(forged.body.delivery).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
  });

  it('is renewed when fewer than seven days remain, and not before', async () => {
    const before = (await clioWebhooks())[0] as ClioWebhook;
    await gateway.runtime.engine.webhooks.tick();
    expect((await clioWebhooks())[0]?.expires_at).toBe(before.expires_at);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(before.expires_at) - 6 * DAY);
    const mark = logged.length;
    await gateway.runtime.engine.webhooks.tick();
    const after = (await clioWebhooks())[0] as ClioWebhook;
    expect(after.id).toBe(before.id);
    expect(Date.parse(after.expires_at)).toBeGreaterThan(Date.now() + 29 * DAY);
    expect((await registration())?.expiresAt).toBe(after.expires_at);
    expect(linesSince(mark, 'webhook subscription renewed upstream')).toHaveLength(1);
    // deliveries still verify with the secret Clio returned when it was made
    const sent = await control('/__sandbox/emit', { model: 'matter' });
    expect(sent.body.delivery).toMatchObject({ status: 200 });
  });

  it('a renewal that fails is logged once and tried again at the next check, without secrets in the log', async () => {
    const before = (await clioWebhooks())[0] as ClioWebhook;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(before.expires_at) - 3 * DAY);
    await control('/__sandbox/fail-next', { status: 503 });
    await control('/__sandbox/fail-next', { status: 503 });
    const mark = logged.length;
    await gateway.runtime.engine.webhooks.tick();
    await gateway.runtime.engine.webhooks.tick();
    expect((await clioWebhooks())[0]?.expires_at).toBe(before.expires_at);
    expect(linesSince(mark, 'could not renew the webhook subscription upstream')).toHaveLength(1);

    await gateway.runtime.engine.webhooks.tick();
    expect(Date.parse((await clioWebhooks())[0]?.expires_at as string)).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(linesSince(mark, 'webhook subscription renewed upstream')).toHaveLength(1);
    const token = new URL(before.url).searchParams.get('setup') as string;
    for (const line of logged.map((l) => l.text)) {
      expect(line).not.toContain(before.shared_secret);
      expect(line).not.toContain(token);
    }
  });

  it('one instance at a time renews: while another holds the lease, this one leaves the webhook alone', async () => {
    const before = (await clioWebhooks())[0] as ClioWebhook;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(before.expires_at) - DAY);
    const { registrations } = gateway.runtime.store;
    const now = Date.now();
    const until = new Date(now + 60_000).toISOString();
    expect(await registrations.lease(DEFAULT_WORKSPACE, 'clio', 'another-instance', until, new Date(now).toISOString())).toBe(true);
    await gateway.runtime.engine.webhooks.tick();
    expect((await clioWebhooks())[0]?.expires_at).toBe(before.expires_at);

    await registrations.release(DEFAULT_WORKSPACE, 'clio', 'another-instance');
    await gateway.runtime.engine.webhooks.tick();
    expect(Date.parse((await clioWebhooks())[0]?.expires_at as string)).toBeGreaterThan(Date.now() + 29 * DAY);
  });

  it('a webhook gone at Clio is registered anew at the next check', async () => {
    const gone = (await clioWebhooks())[0] as ClioWebhook;
    const deleted = await fetch(`${sandbox.url}/webhooks/${gone.id}.json`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${sandbox.token}` },
    });
    expect(deleted.status).toBe(204);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(gone.expires_at) - DAY);
    await gateway.runtime.engine.webhooks.tick();
    const [made] = await clioWebhooks();
    expect(made?.id).not.toBe(gone.id);
    expect((await registration())?.upstreamId).toBe(String(made?.id));
    await expect.poll(async () => (await clioWebhooks())[0]?.status).toBe('enabled');
    const sent = await control('/__sandbox/emit', { model: 'matter' });
    expect(sent.body.delivery).toMatchObject({ url: made?.url, status: 200 });
  });

  it('disconnecting Clio deletes the webhook at Clio', async () => {
    expect(await clioWebhooks()).toHaveLength(1);
    const res = await gateway.rest('DELETE', '/api/admin/connections/clio');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await clioWebhooks()).toEqual([]);
    expect(await registration()).toBeUndefined();
    const sent = await control('/__sandbox/emit', { model: 'matter', url: `${gateway.url}/api/events/${DEFAULT_WORKSPACE}/clio` });
    expect(sent.body.delivery).toMatchObject({ status: 404 });
  });

  it('without a public URL, connecting Clio registers nothing', async () => {
    gateway.runtime.engine.webhooks.baseUrl = undefined;
    const connected = await gateway.rest('PUT', '/api/admin/connections/clio', { body: { token: sandbox.token } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    await gateway.runtime.engine.webhooks.tick();
    expect(await clioWebhooks()).toEqual([]);
    expect(await registration()).toBeUndefined();
  });
});
