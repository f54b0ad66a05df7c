import { createHmac } from 'node:crypto';
import { DEFAULT_WORKSPACE, type Logger, type SandboxServer } from '@portico/core';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../cli/index.js';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * The Clio webhooks a gateway registers itself: a plain gateway (not in sandbox mode) whose Clio integration points at
 * the Clio sandbox on loopback. Connecting Clio registers one webhook per model at the workspace's delivery URL, each
 * naming its model; a model's deliveries, signed with the secret Clio returned for its webhook, become events, and no
 * other webhook's secret is accepted for them; renewal extends every webhook before it expires (the clock is moved,
 * not waited for), a failure is logged once and tried again without holding up the other models, one instance at a
 * time renews each, and disconnecting deletes them all at Clio.
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

/** The models whose webhooks the gateway registers (a Clio webhook is one model). */
const MODELS = ['activity', 'bill', 'calendar_entry', 'communication', 'contact', 'matter', 'task'];
const key = (topic: string) => ({ workspaceId: DEFAULT_WORKSPACE, service: 'clio', topic });
const registration = (topic = 'matter') => gateway.runtime.store.registrations.get(key(topic));
const registrations = () => gateway.runtime.store.registrations.list(DEFAULT_WORKSPACE, 'clio');
const linesSince = (mark: number, msg: string) => logged.slice(mark).filter((l) => l.msg.startsWith(msg));
const hookOf = async (model: string) => (await clioWebhooks()).find((hook) => hook.model === model) as ClioWebhook;
const soonest = (hooks: ClioWebhook[]) => Math.min(...hooks.map((hook) => Date.parse(hook.expires_at)));
const renewedBy = (hook: ClioWebhook | undefined) => Date.parse(hook?.expires_at as string) > Date.now() + 29 * DAY;
/** Every secret and setup token the gateway was given: none of them may be in its log. */
const secretsSeen = new Set<string>();

async function events(type: string): Promise<Array<{ id: string; type: string; record_id: string }>> {
  const listed = await gateway.rest('GET', `/api/v1/events?service=clio&type=${type}`);
  return (listed.body as { events: Array<{ id: string; type: string; record_id: string }> }).events;
}

describe('the Clio webhooks the gateway registers', () => {
  it('connecting Clio registers one webhook per model at the workspace’s delivery URL, each enabled by its handshake', async () => {
    expect(await clioWebhooks()).toEqual([]);
    const connected = await gateway.rest('PUT', '/api/admin/connections/clio', { body: { token: sandbox.token } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    // the save answers once each model's registration is recorded; Clio is asked in the background
    expect((await registrations()).map((r) => r.topic).sort()).toEqual(MODELS);
    await gateway.runtime.engine.webhooks.settled();

    const hooks = await clioWebhooks();
    expect(hooks.map((hook) => hook.model).sort()).toEqual(MODELS);
    for (const hook of hooks) {
      expect(hook.url.startsWith(`${gateway.url}/api/events/${DEFAULT_WORKSPACE}/clio?model=${hook.model}&setup=`)).toBe(true);
      expect(hook.events).toEqual(expect.arrayContaining(['created', 'updated', 'deleted']));
      const expires = Date.parse(hook.expires_at);
      expect(expires).toBeGreaterThan(Date.now() + 29 * DAY);
      expect(expires).toBeLessThanOrEqual(Date.now() + 31 * DAY);
      secretsSeen.add(hook.shared_secret);
      secretsSeen.add(new URL(hook.url).searchParams.get('setup') as string);
    }
    expect((await hookOf('matter')).events).toEqual(expect.arrayContaining(['matter_opened', 'matter_closed']));
    expect(new Set(hooks.map((hook) => hook.shared_secret)).size).toBe(MODELS.length); // a secret of its own each
    await expect.poll(async () => (await clioWebhooks()).filter((hook) => hook.status === 'enabled').length).toBe(MODELS.length);
    for (const hook of hooks) {
      expect(await registration(hook.model)).toMatchObject({ upstreamId: String(hook.id), expiresAt: hook.expires_at });
    }
    // the workspace was given no signing secret by hand: the webhooks' own are the ones kept, and the admin API says so
    const sources = ((await gateway.rest('GET', '/api/admin/events')).body as { sources: unknown[] }).sources;
    expect(sources).toMatchObject([{ service: 'clio', configured: true }]);
    const listed = (sources[0] as { registered_webhooks: Array<{ topic: string; id: string; expires_at: string }> }).registered_webhooks;
    expect(listed.map((w) => w.topic)).toEqual(MODELS);
    for (const hook of hooks) expect(listed).toContainEqual({ topic: hook.model, id: String(hook.id), expires_at: hook.expires_at });
    expect(await gateway.runtime.engine.events.revealSecret(DEFAULT_WORKSPACE, 'clio')).toBeUndefined();

    // and so does the command line, on the gateway's host
    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: () => {}, stdin: () => '' };
    const env = { PORTICO_DATA_DIR: gateway.runtime.config.dataDir, PORTICO_LOG_LEVEL: 'silent' };
    expect(await main(['events', 'list'], env, io)).toBe(0);
    const line = out.find((l) => l.startsWith('clio\t')) as string;
    for (const hook of hooks) expect(line).toContain(`${hook.model} ${hook.id}`);
    expect(line).toContain(`first expires ${hooks.map((hook) => hook.expires_at).sort()[0]}`);
  });

  it('a delivery signed with the secret Clio returned becomes an event; one signed with another secret is refused', async () => {
    const sent = await control('/__sandbox/emit', { model: 'matter', event: 'updated' });
    const delivery = sent.body.delivery as { url: string; status: number; answer: { stored?: number; events?: string[] } };
    expect(delivery.url).toBe((await hookOf('matter')).url);
    expect(delivery.status, JSON.stringify(delivery.answer)).toBe(200);
    expect(delivery.answer.stored).toBe(1);
    const stored = (await events('matter.updated')).filter((e) => delivery.answer.events?.includes(e.id));
    expect(stored.map((e) => e.type)).toEqual(['matter.updated']);

    const forged = await control('/__sandbox/emit', { model: 'matter', secret: 'a-secret-of-someone-else' });
    expect(forged.body.delivery).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
  });

  it('a contact created in Clio arrives as contact.created through the contact webhook, checked with its secret', async () => {
    const created = await fetch(`${sandbox.url}/contacts.json?fields=id`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { type: 'Person', name: 'Ines Haddad', first_name: 'Ines', last_name: 'Haddad' } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = String(((await created.json()) as { data: { id: number } }).data.id);
    // no secret saved by hand, and only the contact webhook's is tried for ?model=contact: it arrived checked with it
    await expect.poll(async () => (await events('contact.created')).filter((e) => e.record_id === id).length).toBe(1);

    // a bill changed goes to the bill webhook, signed with its own secret
    const bill = await control('/__sandbox/emit', { model: 'bill', event: 'updated' });
    expect(bill.body.delivery).toMatchObject({ url: (await hookOf('bill')).url, status: 200, answer: { stored: 1 } });
    const billed = (bill.body.delivery as { answer: { events: string[] } }).answer.events;
    expect((await events('bill.updated')).filter((e) => billed.includes(e.id))).toHaveLength(1);
  });

  it('a delivery to ?model=contact signed with the matter webhook’s secret is refused', async () => {
    const matter = await hookOf('matter');
    const contact = await hookOf('contact');
    const mark = logged.length;
    // the contact webhook's own URL (its setup token spent), and the workspace's URL naming the model
    for (const url of [contact.url, `${gateway.url}/api/events/${DEFAULT_WORKSPACE}/clio`]) {
      const sent = await control('/__sandbox/emit', { model: 'contact', event: 'updated', url, secret: matter.shared_secret });
      expect(sent.body.delivery).toMatchObject({ status: 401, answer: { error: true, code: 'unauthorized' } });
      expect(new URL((sent.body.delivery as { url: string }).url).searchParams.getAll('model')).toContain('contact');
    }
    expect(linesSince(mark, 'webhook delivery refused')).toHaveLength(2);
    const signed = await control('/__sandbox/emit', { model: 'contact', event: 'updated', secret: contact.shared_secret });
    expect(signed.body.delivery).toMatchObject({ url: contact.url, status: 200 });
  });

  it('a model Portico does not register (folder) is checked with the workspace’s saved secret, never a webhook’s', async () => {
    const saved = 'a-secret-saved-by-hand';
    const put = await gateway.rest('PUT', '/api/admin/events/clio/secret', { body: { secret: saved } });
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    const post = async (secret: string, event: string) => {
      const body = JSON.stringify({ data: { id: 812, updated_at: new Date().toISOString() }, meta: { event, webhook_id: 9 } });
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      const response = await fetch(`${gateway.url}/api/events/${DEFAULT_WORKSPACE}/clio?model=folder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hook-signature': signature },
        body,
      });
      return response.status;
    };
    expect(await post((await hookOf('matter')).shared_secret, 'created')).toBe(401);
    expect(await post(saved, 'created')).toBe(200);
    expect((await events('folder.created')).filter((e) => e.record_id === '812')).toHaveLength(1);
    expect((await gateway.rest('DELETE', '/api/admin/events/clio/secret')).status).toBeLessThan(300);
    expect(await post(saved, 'updated')).toBe(404); // nothing to check it with: not set up
  });

  it('every model’s webhook is renewed when fewer than seven days remain, and not before', async () => {
    const before = await clioWebhooks();
    await gateway.runtime.engine.webhooks.tick();
    expect(await clioWebhooks()).toEqual(before);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(soonest(before) - 6 * DAY);
    const mark = logged.length;
    await gateway.runtime.engine.webhooks.tick();
    const after = await clioWebhooks();
    expect(after.map((hook) => hook.id).sort()).toEqual(before.map((hook) => hook.id).sort());
    for (const hook of after) {
      expect(renewedBy(hook), hook.model).toBe(true);
      expect((await registration(hook.model))?.expiresAt).toBe(hook.expires_at);
    }
    expect(linesSince(mark, 'webhook subscription renewed upstream')).toHaveLength(MODELS.length);
    // deliveries still verify with the secrets Clio returned when they were made
    for (const model of ['matter', 'task']) {
      const sent = await control('/__sandbox/emit', { model });
      expect(sent.body.delivery).toMatchObject({ url: (await hookOf(model)).url, status: 200 });
    }
  });

  it('a renewal that fails is logged once and tried again at the next check, the other models renewed meanwhile', async () => {
    const before = await clioWebhooks();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(soonest(before) - 3 * DAY);
    // the first renewal of each of the next two checks fails: the first model's (they go in the order of their names)
    await control('/__sandbox/fail-next', { status: 503 });
    const mark = logged.length;
    await gateway.runtime.engine.webhooks.tick();
    await control('/__sandbox/fail-next', { status: 503 });
    await gateway.runtime.engine.webhooks.tick();
    const first = MODELS[0] as string;
    expect((await hookOf(first)).expires_at).toBe(before.find((hook) => hook.model === first)?.expires_at);
    for (const model of MODELS.slice(1)) expect(renewedBy(await hookOf(model)), model).toBe(true);
    const failed = linesSince(mark, 'could not renew the webhook subscription upstream');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.text).toContain(`"topic":"${first}"`);

    await gateway.runtime.engine.webhooks.tick();
    expect(renewedBy(await hookOf(first))).toBe(true);
    expect(linesSince(mark, 'webhook subscription renewed upstream')).toHaveLength(MODELS.length);
    for (const line of logged.map((l) => l.text)) for (const secret of secretsSeen) expect(line).not.toContain(secret);
  });

  it('one instance at a time renews: while another holds a model’s lease, this one leaves that webhook alone', async () => {
    const before = await clioWebhooks();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(soonest(before) - DAY);
    const { registrations: table } = gateway.runtime.store;
    const now = Date.now();
    const until = new Date(now + 60_000).toISOString();
    expect(await table.lease(key('matter'), 'another-instance', until, new Date(now).toISOString())).toBe(true);
    await gateway.runtime.engine.webhooks.tick();
    expect((await hookOf('matter')).expires_at).toBe(before.find((hook) => hook.model === 'matter')?.expires_at);
    expect(renewedBy(await hookOf('contact'))).toBe(true);

    await table.release(key('matter'), 'another-instance');
    await gateway.runtime.engine.webhooks.tick();
    expect(renewedBy(await hookOf('matter'))).toBe(true);
  });

  it('a webhook gone at Clio is registered anew at the next check, the others kept', async () => {
    const before = await clioWebhooks();
    const gone = before.find((hook) => hook.model === 'contact') as ClioWebhook;
    const deleted = await fetch(`${sandbox.url}/webhooks/${gone.id}.json`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${sandbox.token}` },
    });
    expect(deleted.status).toBe(204);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(soonest(before) - DAY);
    await gateway.runtime.engine.webhooks.tick();
    const after = await clioWebhooks();
    const made = after.find((hook) => hook.model === 'contact');
    expect(made?.id).not.toBe(gone.id);
    expect(after.filter((hook) => hook.model !== 'contact').map((hook) => hook.id)).toEqual(
      before.filter((hook) => hook.model !== 'contact').map((hook) => hook.id),
    );
    expect((await registration('contact'))?.upstreamId).toBe(String(made?.id));
    secretsSeen.add(made?.shared_secret as string);
    await expect.poll(async () => (await hookOf('contact')).status).toBe('enabled');
    const sent = await control('/__sandbox/emit', { model: 'contact' });
    expect(sent.body.delivery).toMatchObject({ url: made?.url, status: 200 });
    // the secret of the webhook Clio deleted checks nothing any more
    const stale = await control('/__sandbox/emit', { model: 'contact', secret: gone.shared_secret });
    expect(stale.body.delivery).toMatchObject({ status: 401 });
  });

  it('disconnecting Clio deletes every webhook at Clio', async () => {
    expect(await clioWebhooks()).toHaveLength(MODELS.length);
    const mark = logged.length;
    const res = await gateway.rest('DELETE', '/api/admin/connections/clio');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await clioWebhooks()).toEqual([]);
    expect(await registrations()).toEqual([]);
    expect(linesSince(mark, 'webhook subscription removed upstream')).toHaveLength(MODELS.length);
    for (const model of ['matter', 'contact']) {
      const url = `${gateway.url}/api/events/${DEFAULT_WORKSPACE}/clio`;
      const sent = await control('/__sandbox/emit', { model, url });
      expect(sent.body.delivery).toMatchObject({ status: 404 });
    }
  });

  it('disconnecting at once after connecting lets the registrations under way end, and leaves no webhook at Clio', async () => {
    const connected = await gateway.rest('PUT', '/api/admin/connections/clio', { body: { token: sandbox.token } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    const res = await gateway.rest('DELETE', '/api/admin/connections/clio');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await gateway.runtime.engine.webhooks.settled();
    expect(await clioWebhooks()).toEqual([]);
    expect(await registrations()).toEqual([]);
  });

  it('deleting a workspace deletes the webhooks it registered at Clio, and leaves another workspace’s', async () => {
    const created = await gateway.rest('POST', '/api/admin/workspaces', { body: { id: 'branch-office', name: 'Branch office' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const home = await gateway.rest('PUT', '/api/admin/connections/clio', { body: { token: sandbox.token } });
    expect(home.status, JSON.stringify(home.body)).toBe(200);
    const branch = await gateway.rest('PUT', '/api/admin/workspaces/branch-office/connections/clio', { body: { token: sandbox.token } });
    expect(branch.status, JSON.stringify(branch.body)).toBe(200);
    await gateway.runtime.engine.webhooks.settled();
    const of = (hooks: ClioWebhook[], workspace: string) => hooks.filter((hook) => hook.url.includes(`/api/events/${workspace}/clio?`));
    expect(of(await clioWebhooks(), 'branch-office')).toHaveLength(MODELS.length);

    const deleted = await gateway.rest('DELETE', '/api/admin/workspaces/branch-office', { body: { confirm: 'branch-office' } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const left = await clioWebhooks();
    expect(of(left, 'branch-office')).toEqual([]);
    expect(of(left, DEFAULT_WORKSPACE)).toHaveLength(MODELS.length);
    const res = await gateway.rest('DELETE', '/api/admin/connections/clio');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await clioWebhooks()).toEqual([]);
  });

  it('without a public URL, connecting Clio registers nothing', async () => {
    gateway.runtime.engine.webhooks.baseUrl = undefined;
    const connected = await gateway.rest('PUT', '/api/admin/connections/clio', { body: { token: sandbox.token } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    await gateway.runtime.engine.webhooks.tick();
    expect(await clioWebhooks()).toEqual([]);
    expect(await registrations()).toEqual([]);
  });
});
