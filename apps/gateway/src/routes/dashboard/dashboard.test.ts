import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_WORKSPACE, MemoryAttemptWindows, type SandboxServer, SqliteStore } from '@portico/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../gateway.test-support.js';
import { html, jsonScript } from './html.js';
import { DASHBOARD_CSP } from './index.js';
import { formParams } from './operations.js';
import { AttemptLimiter, csrfMatches, SessionStore } from './session.js';

describe('dashboard sessions', () => {
  const options = { idleMs: 120_000, absoluteMs: 600_000 };
  const stores: SqliteStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });
  async function table() {
    const store = new SqliteStore(':memory:');
    stores.push(store);
    await store.migrate();
    return store.sessions;
  }

  it('finds a session by its cookie value only, stores no id, and ends it after idle or absolute time', async () => {
    const sessionTable = await table();
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const sessions = new SessionStore(sessionTable, options, () => now);
    const { id, session } = await sessions.create('key_1', 'default');
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.idHash).toBe(createHash('sha256').update(id).digest('hex'));
    expect(JSON.stringify(await sessionTable.get(session.idHash))).not.toContain(id); // only the hash is stored
    expect(await sessions.get(id)).toEqual(session);
    expect(await sessions.get(`${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(await sessions.get(undefined)).toBeUndefined();
    now += 100_000;
    expect(await sessions.get(id)).toBeDefined(); // used: the idle clock starts again (written once a minute)
    now += 100_000;
    expect(await sessions.get(id)).toBeDefined();
    now += 120_001;
    expect(await sessions.get(id)).toBeUndefined(); // idle for more than two minutes
    expect(await sessionTable.get(session.idHash)).toBeUndefined();

    const long = await sessions.create('key_1', 'default');
    const start = now;
    for (; now < start + 600_000; now += 60_000) expect(await sessions.get(long.id)).toBeDefined();
    now = start + 600_000;
    expect(await sessions.get(long.id)).toBeUndefined(); // the absolute limit, however busy
  });

  it('knows a session made by another instance on the same database (each has its own SessionStore)', async () => {
    const sessionTable = await table();
    const one = new SessionStore(sessionTable, options);
    const other = new SessionStore(sessionTable, options);
    const { id, session } = await one.create('key_1', 'default');
    expect((await other.get(id))?.csrf).toBe(session.csrf);
    await other.destroy(id);
    expect(await one.get(id)).toBeUndefined();
  });

  it('ends a session on sign-out, and every session of a revoked key; flash messages are shown once', async () => {
    const sessions = new SessionStore(await table(), options);
    const a = await sessions.create('key_1', 'default');
    const b = await sessions.create('key_2', 'default');
    const c = await sessions.create('key_2', 'default');
    await sessions.destroy(a.id);
    expect(await sessions.get(a.id)).toBeUndefined();
    await sessions.destroyKey('key_2');
    expect(await sessions.get(b.id)).toBeUndefined();
    expect(await sessions.get(c.id)).toBeUndefined();
    const d = await sessions.create('key_3', 'default');
    sessions.flash(d.session, { kind: 'ok', message: 'saved' });
    expect(sessions.takeFlash(d.session)).toEqual({ kind: 'ok', message: 'saved' });
    expect(sessions.takeFlash(d.session)).toBeUndefined();
  });

  it('accepts only the session’s own CSRF token', async () => {
    const sessions = new SessionStore(await table(), options);
    const { session } = await sessions.create('key_1', 'default');
    const other = (await sessions.create('key_1', 'default')).session;
    expect(session.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrfMatches(session, session.csrf)).toBe(true);
    expect(csrfMatches(session, other.csrf)).toBe(false);
    expect(csrfMatches(session, '')).toBe(false);
    expect(csrfMatches(session, undefined)).toBe(false);
    expect(csrfMatches(session, session.csrf.slice(1))).toBe(false);
  });

  it('limits failed sign-ins per address in a sliding minute, says how long to wait, and a success costs nothing', async () => {
    let now = 0;
    const limiter = new AttemptLimiter(new MemoryAttemptWindows(() => now), 10, 60_000);
    const succeeded = await limiter.reserve('10.0.0.1');
    succeeded.succeeded(); // a right key: taken back
    for (let i = 0; i < 10; i++) expect((await limiter.reserve('10.0.0.1')).wait).toBe(0);
    expect((await limiter.reserve('10.0.0.1')).wait).toBe(60);
    expect((await limiter.reserve('10.0.0.2')).wait).toBe(0); // another address has its own budget
    now = 30_000;
    expect((await limiter.reserve('10.0.0.1')).wait).toBe(30);
    now = 60_000;
    expect((await limiter.reserve('10.0.0.1')).wait).toBe(0); // the failures have left the window
  });
});

describe('dashboard templates', () => {
  it('escapes every interpolated value, nested lists included, and keeps JSON from closing its script element', () => {
    const name = '<img src=x onerror=alert(1)> & "quotes" \'too\'';
    expect(html`<p title="${name}">${[name, html`<b>${name}</b>`]}</p>`.text).toBe(
      '<p title="&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;too&#39;">&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;too&#39;<b>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;too&#39;</b></p>',
    );
    expect(html`${null}${undefined}${false}${0}`.text).toBe('0');
    const script = jsonScript('data', { text: '</script><script>alert(1)</script>' }).text;
    expect(script).not.toContain('</script><script>');
    expect(JSON.parse(script.replace(/^<script[^>]*>/, '').replace(/<\/script>$/, ''))).toEqual({
      text: '</script><script>alert(1)</script>',
    });
  });

  it('reads a try-it form by the schema: numbers, booleans and JSON converted, empty fields left out', () => {
    const schema = {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer' },
        archived: { type: 'boolean' },
        filter: { type: 'object' },
        sort: { type: 'string', enum: ['asc', 'desc'] },
      },
    };
    expect(formParams(schema, { query: 'tasks', limit: '5', archived: 'false', filter: '{"a":1}', sort: '' })).toEqual({
      params: { query: 'tasks', limit: 5, archived: false, filter: { a: 1 } },
    });
    expect(formParams(schema, { filter: '{nope' }).problem).toBe('filter must be JSON (object)');
  });
});

/** A Set-Cookie header's name, value and attributes (attribute names in lower case, as browsers read them). */
function parseSetCookie(header: string | null): { name: string; value: string; attributes: Map<string, string> } {
  const [pair = '', ...attributes] = (header ?? '').split(/;\s*/);
  const [name = '', value = ''] = pair.split(/=(.*)/s);
  return {
    name,
    value,
    attributes: new Map(attributes.map((a) => [(a.split('=')[0] as string).toLowerCase(), a.split(/=(.*)/s)[1] ?? ''])),
  };
}

/** Does this Set-Cookie header remove its cookie (an expiry in the past, or Max-Age=0)? */
function removes(header: string | null): boolean {
  const { value, attributes } = parseSetCookie(header);
  const expires = attributes.get('expires');
  return value === '' && (attributes.get('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now()));
}

describe('dashboard over HTTP', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const get = (path: string, cookie?: string) => fetch(`${gateway.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
  async function signIn(key = gateway.key): Promise<{ cookie: string; csrf: string }> {
    const response = await post('/dashboard/sign-in', { key });
    expect(response.status).toBe(303);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = await (await get('/dashboard/keys', cookie)).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] as string;
    expect(csrf).toBeDefined();
    return { cookie, csrf };
  }

  it('answers every page with the strict CSP, no inline script or style, and sends a signed-out browser to sign-in', async () => {
    const page = await get('/dashboard/integrations');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/dashboard/sign-in');
    expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
    const signIn = await get('/dashboard/sign-in');
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(signIn.headers.get('x-frame-options')).toBe('DENY');
    expect(signIn.headers.get('cache-control')).toBe('no-store');
    const text = await signIn.text();
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*application\/json)/);
    expect(text).not.toMatch(/\sstyle=|<style/);
    expect(text).not.toMatch(/\son[a-z]+=/);
  });

  it('signs in with an admin key into an HttpOnly, SameSite=Lax cookie scoped to /dashboard, which holds no key', async () => {
    const response = await post('/dashboard/sign-in', { key: gateway.key });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/integrations');
    const cookie = response.headers.get('set-cookie') as string;
    const parsed = parseSetCookie(cookie);
    expect(parsed.name).toBe('portico_session');
    expect(parsed.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([...parsed.attributes.keys()].sort()).toEqual(['httponly', 'path', 'samesite']); // no Secure on plain http, no expiry
    expect(parsed.attributes.get('path')).toBe('/dashboard');
    expect(parsed.attributes.get('samesite')?.toLowerCase()).toBe('lax');
    expect(cookie).not.toContain(gateway.key);
    const page = await get('/dashboard/integrations', cookie.split(';')[0]);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Integrations</h1>');
  });

  it('refuses a wrong key (401), a key that is not an admin key (403), and a sign-in posted from another site', async () => {
    expect((await post('/dashboard/sign-in', { key: 'portico_wrong' })).status).toBe(401);
    const reader = await gateway.rest('POST', '/api/admin/keys', { body: { name: 'reader', read_only: true } });
    const refused = await post('/dashboard/sign-in', { key: (reader.body as { key: string }).key });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('not an admin key');
    expect((await post('/dashboard/sign-in', { key: gateway.key }, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('refuses a change without the session’s CSRF token or from another origin (403), and makes it with both', async () => {
    const { cookie, csrf } = await signIn();
    const form = { name: 'from-a-form', access: 'full', expires: 'never' };
    expect((await post('/dashboard/keys', form, { cookie })).status).toBe(403);
    expect((await post('/dashboard/keys', { ...form, _csrf: 'wrong' }, { cookie })).status).toBe(403);
    expect((await post('/dashboard/keys', { ...form, _csrf: csrf }, { cookie, origin: 'https://evil.example' })).status).toBe(403);
    const names = async () =>
      ((await gateway.rest('GET', '/api/admin/keys')).body as { keys: Array<{ name: string }> }).keys.map((k) => k.name);
    expect(await names()).not.toContain('from-a-form');
    const made = await post('/dashboard/keys', { ...form, _csrf: csrf }, { cookie, origin: gateway.url });
    const madeText = await made.text();
    expect(made.status, madeText.slice(0, 2000)).toBe(200);
    expect(await names()).toContain('from-a-form');
    // the secret is in that answer only, and works; no later page has it
    const secret = /id="new-key" type="text" readonly value="(portico_[A-Za-z0-9_-]+)"/.exec(madeText)?.[1] as string;
    // a full key, not an admin key: it authenticates (403, where an unknown key gets 401)
    expect((await gateway.rest('GET', '/api/admin/keys', { key: secret })).status).toBe(403);
    expect(await (await get('/dashboard/keys', cookie)).text()).not.toContain(secret);
  });

  it('ends the session when its admin key is revoked, and on sign-out', async () => {
    const created = await gateway.rest('POST', '/api/admin/keys', { body: { name: 'second-admin', admin: true } });
    const { key, id } = created.body as { key: string; id: string };
    const session = await signIn(key);
    expect((await get('/dashboard/integrations', session.cookie)).status).toBe(200);
    await gateway.rest('DELETE', `/api/admin/keys/${id}`);
    const after = await get('/dashboard/integrations', session.cookie);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/dashboard/sign-in?expired');

    const mine = await signIn();
    const out = await post('/dashboard/sign-out', { _csrf: mine.csrf }, { cookie: mine.cookie });
    expect(out.status).toBe(303);
    expect(removes(out.headers.get('set-cookie'))).toBe(true);
    expect(parseSetCookie(out.headers.get('set-cookie')).attributes.get('path')).toBe('/dashboard');
    expect((await get('/dashboard/keys', mine.cookie)).headers.get('location')).toBe('/dashboard/sign-in?expired');
  });

  it('runs a try-it call through the invoke pipeline, audited with protocol dashboard', async () => {
    const { cookie, csrf } = await signIn();
    const answer = await post('/dashboard/operations/notion/list_users', { _csrf: csrf }, { cookie });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('not_connected'); // no credential in this gateway: the pipeline's answer
    const audit = await gateway.rest('GET', '/api/admin/audit?protocol=dashboard');
    expect((audit.body as { records: Array<{ operation: string; status: number }> }).records[0]).toMatchObject({
      operation: 'list_users',
      status: 424,
    });
  });

  it('shows a key bound to a tool set only the set’s operations, in search, in lists and on an operation’s page', async () => {
    const saved = await gateway.rest('PUT', '/api/admin/tool-sets/dash-readers', {
      body: { name: 'Readers', rules: [{ match: 'notion:list_*' }] },
    });
    expect(saved.status).toBe(201);
    const inSet = (saved.body as { operations: string[] }).operations;
    expect(inSet.length).toBeGreaterThan(0);
    const created = await gateway.rest('POST', '/api/admin/keys', { body: { name: 'set-admin', admin: true, tool_set: 'dash-readers' } });
    expect(created.status).toBe(201);
    const bound = await signIn((created.body as { key: string }).key);
    const full = await signIn();
    const methods = async (cookie: string, query: string) =>
      [
        ...(await (await get(`/dashboard/operations?${query}`, cookie)).text()).matchAll(
          /href="\/dashboard\/operations\/([a-z]+)\/([a-z_]+)"/g,
        ),
      ].map((m) => `${m[1]}:${m[2]}`);
    const boundList = await methods(bound.cookie, 'service=notion');
    expect(boundList.sort()).toEqual([...inSet].sort());
    expect((await methods(full.cookie, 'service=notion')).length).toBeGreaterThan(boundList.length);
    const boundSearch = await methods(bound.cookie, 'q=create+a+page');
    expect(boundSearch.every((m) => inSet.includes(m))).toBe(true);
    expect(await methods(full.cookie, 'q=create+a+page')).toContain('notion:create_page');
    expect((await get('/dashboard/operations/notion/create_page', bound.cookie)).status).toBe(403);
    expect((await get('/dashboard/operations/notion/create_page', full.cookie)).status).toBe(200);
  });

  it('serves its assets under content-hashed names, gzipped, cached for a year, with an ETag', async () => {
    const page = await (await get('/dashboard/sign-in')).text();
    const script = /src="(\/dashboard\/assets\/app\.[0-9a-f]{12}\.js)"/.exec(page)?.[1] as string;
    const style = /href="(\/dashboard\/assets\/style\.[0-9a-f]{12}\.css)"/.exec(page)?.[1] as string;
    for (const path of [script, style]) {
      const response = await fetch(`${gateway.url}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-encoding')).toBe('gzip');
      const etag = response.headers.get('etag') as string;
      expect((await fetch(`${gateway.url}${path}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    }
    expect((await get('/dashboard/assets/app.000000000000.js')).status).toBe(404);
  });

  it('takes hostile field names as plain fields, and refuses a field given twice (400 page)', async () => {
    const { cookie, csrf } = await signIn();
    const body = `__proto__=x&constructor=y&toString=z&_csrf=${encodeURIComponent(csrf)}&name=odd-fields&access=read_only&expires=7`;
    const send = (text: string) =>
      fetch(`${gateway.url}/dashboard/keys`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: text,
      });
    expect((await send(body)).status).toBe(200);
    const twice = await send(`${body}&name=again`);
    expect(twice.status).toBe(400);
    expect(twice.headers.get('content-type')).toContain('text/html');
    expect(await twice.text()).toContain('given once');
  });

  it('stores a base URL for an integration, and clears it with an empty field; refuses one that is not a URL', async () => {
    const { cookie, csrf } = await signIn();
    const state = () => gateway.runtime.engine.integrationState('default', 'notion');
    const save = (value: string) => post('/dashboard/integrations/notion/base-url', { _csrf: csrf, base_url: value }, { cookie });
    expect((await save('https://api.notion.com/v2')).status).toBe(303);
    expect((await state()).baseUrl).toBe('https://api.notion.com/v2');
    const refused = await save('not a url');
    expect(refused.status).toBe(303); // back to the page, which says why
    expect(await (await get(refused.headers.get('location') as string, cookie)).text()).toMatch(/class="flash error"/);
    expect((await state()).baseUrl).toBe('https://api.notion.com/v2');
    expect((await save('')).status).toBe(303);
    expect((await state()).baseUrl).toBeNull();
  });

  it('serves an integration’s OpenAPI document to the signed-in browser (the API’s needs a bearer key)', async () => {
    const { cookie } = await signIn();
    const response = await get('/dashboard/integrations/notion/openapi.json', cookie);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/users');
  });

  it('leaves /api as it was: the session cookie does not authenticate an API call', async () => {
    const { cookie } = await signIn();
    const response = await fetch(`${gateway.url}/api/admin/keys`, { headers: { cookie } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: true, code: 'unauthorized' });
  });
  it('answers every spelling of a page (letter case, trailing slash) as the page itself: a member never gets an admin page', async () => {
    const engine = gateway.runtime.engine;
    const memberId = 'mem_spellings';
    await engine.store.members.create({
      id: memberId,
      workspaceId: DEFAULT_WORKSPACE,
      email: 'spellings@harlowpike.example',
      name: 'Spellings',
      role: 'member',
      narrowing: {},
      issuer: null,
      subject: null,
      source: 'invite',
      createdAt: new Date().toISOString(),
      createdBy: null,
      lastSignInAt: null,
    });
    // a member's session, as the identity provider's sign-in makes it (the same store the dashboard reads)
    const made = await new SessionStore(engine.store.sessions).create(memberId, DEFAULT_WORKSPACE);
    const member = { cookie: `portico_session=${made.id}`, csrf: made.session.csrf };
    const admin = await signIn();
    /** What a browser would notice: the status, where it is sent, the page's heading or the error page's reason. */
    const answer = async (method: 'GET' | 'POST', path: string, who?: { cookie: string; csrf: string }) => {
      const response =
        method === 'GET'
          ? await get(path, who?.cookie)
          : await post(path, who ? { _csrf: who.csrf } : {}, who ? { cookie: who.cookie } : {});
      const text = await response.text();
      const heading = /<h1>([^<]*)<\/h1>/.exec(text)?.[1] ?? '';
      return `${response.status} ${response.headers.get('location') ?? heading}`;
    };
    const spellings = (path: string) => [
      path.toUpperCase(),
      path.replace(/\/([a-z])/g, (_, letter: string) => `/${letter.toUpperCase()}`),
      `${path}/`,
      `${path.toUpperCase()}/`,
    ];
    const adminPages: Array<['GET' | 'POST', string]> = [
      ['GET', '/dashboard/keys'],
      ['GET', '/dashboard/integrations'],
      ['GET', '/dashboard/integrations/notion'],
      ['GET', '/dashboard/integrations/notion/openapi.json'],
      ['GET', '/dashboard/operations'],
      ['GET', '/dashboard/operations/notion/list_users'],
      ['GET', '/dashboard/activity'],
      ['GET', '/dashboard/members'],
      ['POST', '/dashboard/keys'],
      ['POST', '/dashboard/keys/key_none/revoke'],
      ['POST', '/dashboard/members'],
      ['POST', '/dashboard/members/mem_none/remove'],
      ['POST', '/dashboard/integrations/notion/switch'],
      ['POST', '/dashboard/operations/notion/list_users'],
      ['GET', '/dashboard/events'],
      ['GET', '/dashboard/subscriptions'],
      ['GET', '/dashboard/subscriptions/sub_none'],
      ['POST', '/dashboard/subscriptions'],
      ['POST', '/dashboard/subscriptions/sub_none/redeliver'],
      ['POST', '/dashboard/subscriptions/sub_none/delete'],
    ];
    for (const [method, path] of adminPages) {
      const canonical = await answer(method, path, member);
      // refused, or (the integrations, a member's landing after sign-in) sent on to their own connected clients
      expect(canonical, `${method} ${path}`).toMatch(path === '/dashboard/integrations' ? /^303 \/dashboard\/grants$/ : /^403 Refused$/);
      for (const spelling of spellings(path)) expect(await answer(method, spelling, member), `${method} ${spelling}`).toBe(canonical);
      // a percent-encoded letter is no page at all: refused as well
      const encoded = path.replace('/dashboard/', `/dashboard/%${path.charCodeAt(11).toString(16)}`);
      expect(await answer(method, encoded, member), `${method} ${encoded}`).toMatch(/^403 /);
    }
    // the member's own pages answer under every spelling too, and the admin's pages for the admin
    for (const path of ['/dashboard/grants', '/dashboard/connections']) {
      const canonical = await answer('GET', path, member);
      expect(canonical).toMatch(/^200 /);
      for (const spelling of spellings(path)) expect(await answer('GET', spelling, member)).toBe(canonical);
    }
    for (const spelling of spellings('/dashboard/keys')) expect(await answer('GET', spelling, admin)).toBe('200 API keys');
    // signed out: every spelling goes to the sign-in, and an authorization request comes back to its one path
    for (const spelling of spellings('/dashboard/keys')) expect(await answer('GET', spelling)).toBe('303 /dashboard/sign-in');
    expect(await answer('GET', '/DASHBOARD/Authorize?client_id=abc')).toBe(
      `303 /dashboard/sign-in?next=${encodeURIComponent('/dashboard/authorize?client_id=abc')}`,
    );
  });

  it('takes only /dashboard and the paths under it, in any letter case; a path that merely begins so is not its', async () => {
    for (const path of ['/dashboard', '/DASHBOARD/', '/Dashboard/x'])
      expect((await get(path)).headers.get('content-security-policy'), path).toBe(DASHBOARD_CSP);
    for (const path of ['/dashboards', '/DASHBOARDX/keys', '/d', '/']) {
      const response = await get(path);
      expect(response.headers.get('content-security-policy'), path).toBeNull();
      expect(await response.json(), path).toMatchObject({ error: true, code: 'not_found' });
    }
  });

  it('keeps a page’s parameters to [a-z0-9_.-]{1,100}: any other value is no page (404)', async () => {
    const admin = await signIn();
    const noPage = '404 There is no dashboard page here.';
    const answer = async (response: Response) =>
      `${response.status} ${/<p[^>]*>([^<]*)<\/p>/.exec(await response.text())?.[1] ?? response.headers.get('location')}`;
    expect(await answer(await get(`/dashboard/integrations/${'a'.repeat(101)}`, admin.cookie))).toBe(noPage);
    expect(await answer(await get('/dashboard/integrations/no%20tion', admin.cookie))).toBe(noPage);
    expect(await answer(await get('/dashboard/operations/notion/list%21users', admin.cookie))).toBe(noPage);
    expect(await answer(await post('/dashboard/grants/grant%3Cx%3E/revoke', { _csrf: admin.csrf }, { cookie: admin.cookie }))).toBe(noPage);
    // within the rule, the page's own answer (an integration of another name is not found by the engine)
    const within = await get(`/dashboard/integrations/${'a'.repeat(100)}`, admin.cookie);
    expect(within.status).toBe(404);
    expect(await within.text()).not.toContain('There is no dashboard page here.');
  });
});

describe('dashboard events and subscriptions', () => {
  // sandbox mode: the applications' sandboxes send signed webhooks to this gateway. A failed delivery is a dead letter
  // at once (no retry period), and subscribers on this host are allowed.
  let gateway: TestGateway;
  let subscriber: Server;
  let subscriberUrl: string;
  let subscriberStatus = 204;
  const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  beforeAll(async () => {
    gateway = await startTestGateway({
      sandbox: true,
      env: { PORTICO_EGRESS_ALLOW_PRIVATE: '127.0.0.1', PORTICO_EVENTS_RETRY_HOURS: '0' },
    });
    subscriber = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(subscriberStatus).end();
      });
    });
    await new Promise<void>((resolve) => subscriber.listen(0, '127.0.0.1', resolve));
    subscriberUrl = `http://127.0.0.1:${(subscriber.address() as AddressInfo).port}/portico`;
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => subscriber?.close(resolve));
  });

  const get = (path: string, cookie: string) => fetch(`${gateway.url}${path}`, { redirect: 'manual', headers: { cookie } });
  const text = async (path: string, cookie: string) => {
    const response = await get(path, cookie);
    expect(response.status, path).toBe(200);
    return response.text();
  };
  const post = (path: string, form: Record<string, string>, cookie: string) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams(form).toString(),
    });
  async function signIn(key = gateway.key): Promise<{ cookie: string; csrf: string }> {
    const response = await post('/dashboard/sign-in', { key }, '');
    expect(response.status).toBe(303);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await text('/dashboard/events', cookie))?.[1] as string;
    return { cookie, csrf };
  }
  /** The ids of the events a page of the Events table lists, in its order. */
  const listed = (page: string) => [...page.matchAll(/<tr data-event="(evt_[A-Za-z0-9_-]+)">/g)].map((m) => m[1]);
  async function emitCall(): Promise<string> {
    const sandbox = gateway.sandboxes.callrail as SandboxServer;
    const response = await fetch(`${sandbox.url}/__sandbox/emit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: 'post_call' }),
    });
    const answer = (await response.json()) as { ok: boolean; delivery: { answer: { events?: string[] } } };
    expect(answer.ok).toBe(true);
    const id = answer.delivery.answer.events?.[0];
    expect(id).toMatch(/^evt_/);
    return id as string;
  }
  async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
    const end = Date.now() + 10_000;
    while (!(await condition())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  const flashOf = async (response: Response, cookie: string) => {
    expect(response.status).toBe(303);
    const page = await text(response.headers.get('location') as string, cookie);
    return /<div class="flash (ok|error)"[^>]*>([^<]*)<\/div>/.exec(page)?.slice(1).join(': ');
  };

  it('lists an emitted event on the Events page, filters by application and type, and shows each webhook address', async () => {
    const admin = await signIn();
    const id = await emitCall();
    const page = await text('/dashboard/events', admin.cookie);
    expect(page).toContain('aria-current="page">Events</a>');
    const row = new RegExp(`<tr data-event="${id}">[\\s\\S]*?</tr>`).exec(page)?.[0] ?? '';
    expect(row).toContain('callrail');
    expect(row).toContain('<code>call.completed</code>');
    expect(row).toMatch(/<time datetime="[^"]+">/);
    expect(listed(await text('/dashboard/events?service=callrail', admin.cookie))).toContain(id);
    expect(listed(await text('/dashboard/events?service=slack', admin.cookie))).not.toContain(id);
    expect(listed(await text('/dashboard/events?type=call.completed', admin.cookie))).toContain(id);
    expect(listed(await text('/dashboard/events?type=message.posted', admin.cookie))).not.toContain(id);
    const refused = await text('/dashboard/events?type=no%20type', admin.cookie);
    expect(refused).toContain('The type is not valid');
    expect(listed(refused)).toEqual([]);
    // where each application delivers, and whether its secret is saved (sandbox mode saves them)
    const source = /<tr data-source="callrail">[\s\S]*?<\/tr>/.exec(page)?.[0] ?? '';
    expect(source).toContain(`<code id="hook-callrail">${gateway.url}/api/events/default/callrail</code>`);
    expect(source).toContain('data-copy="hook-callrail"');
    expect(source).toContain('>Set</span>');
    expect((await gateway.rest('DELETE', '/api/admin/events/lawmatics/secret')).status).toBe(200);
    const after = await text('/dashboard/events', admin.cookie);
    expect(/<tr data-source="lawmatics">[\s\S]*?<\/tr>/.exec(after)?.[0]).toContain('Not set');
  });

  it('pages back through older events by cursor, newest first', async () => {
    const admin = await signIn();
    const now = Date.now();
    await gateway.runtime.engine.store.events.append(
      Array.from({ length: 55 }, (_, i) => ({
        id: `evt_page${i}`,
        workspaceId: DEFAULT_WORKSPACE,
        service: 'quickbooks',
        type: 'invoice.updated',
        upstreamId: `page-${i}`,
        recordId: `${1000 + i}`,
        occurredAt: null,
        receivedAt: new Date(now + i).toISOString(),
        payload: {},
      })),
    );
    const first = await text('/dashboard/events?service=quickbooks', admin.cookie);
    expect(listed(first)).toEqual(Array.from({ length: 50 }, (_, i) => `evt_page${54 - i}`));
    const older = /<a class="range-link" href="([^"]+)" rel="next">Older events<\/a>/.exec(first)?.[1]?.replaceAll('&amp;', '&');
    expect(older).toMatch(/^\/dashboard\/events\?service=quickbooks&before=\d+$/);
    const second = await text(older as string, admin.cookie);
    expect(listed(second)).toEqual(['evt_page4', 'evt_page3', 'evt_page2', 'evt_page1', 'evt_page0']);
    expect(second).not.toContain('rel="next"');
    expect(second).toContain('>Newest events</a>');
  });

  it('escapes event types and record ids the applications supply', async () => {
    const admin = await signIn();
    await gateway.runtime.engine.store.events.append([
      {
        id: 'evt_hostile',
        workspaceId: DEFAULT_WORKSPACE,
        service: 'slack',
        type: '<script>alert("type")</script>',
        upstreamId: 'hostile-1',
        recordId: '<script>alert("record")</script>',
        occurredAt: null,
        receivedAt: new Date(Date.now() + 60_000).toISOString(),
        payload: {},
      },
    ]);
    const page = await text('/dashboard/events', admin.cookie);
    expect(listed(page)).toContain('evt_hostile');
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('&lt;script&gt;alert(&quot;type&quot;)&lt;/script&gt;');
    expect(page).toContain('&lt;script&gt;alert(&quot;record&quot;)&lt;/script&gt;');
  });

  it('shows an admin limited to some services only their events, and no subscriptions (403)', async () => {
    const created = await gateway.rest('POST', '/api/admin/keys', {
      body: { name: 'callrail-admin', admin: true, services: ['callrail'] },
    });
    const narrow = await signIn((created.body as { key: string }).key);
    const page = await text('/dashboard/events', narrow.cookie);
    expect(listed(page).length).toBeGreaterThan(0);
    expect(listed(page)).not.toContain('evt_hostile'); // a slack event
    const refused = await get('/dashboard/subscriptions', narrow.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('may not manage event subscriptions: it is limited to callrail');
  });

  it('subscribes a URL, shows its secret once, and refuses an internal address or a type that is none with the reason', async () => {
    const admin = await signIn();
    const made = await post(
      '/dashboard/subscriptions',
      { _csrf: admin.csrf, url: subscriberUrl, types: 'callrail.*, message.posted' },
      admin.cookie,
    );
    expect(made.status).toBe(200);
    const madeText = await made.text();
    const secret = /id="new-key" type="text" readonly value="(whsec_[A-Za-z0-9+/=]+)"/.exec(madeText)?.[1] as string;
    expect(secret).toBeDefined();
    expect(madeText).toContain('data-copy="new-key"');
    expect(madeText).toContain('Its signing secret');
    const list = await text('/dashboard/subscriptions', admin.cookie);
    expect(list).toContain(`<code>${subscriberUrl}</code>`);
    expect(list).toContain('<code>callrail.*</code>, <code>message.posted</code>');
    expect(list).not.toContain(secret);
    expect(list).not.toContain(secret.slice(6));
    // the secret signs its deliveries
    const id = await emitCall();
    await until('the delivery', () => received.some((r) => r.headers['webhook-id'] === id));
    const delivery = received.find((r) => r.headers['webhook-id'] === id);
    expect(new Webhook(secret).verify(delivery?.body ?? '', delivery?.headers as Record<string, string>)).toMatchObject({
      type: 'call.completed',
    });

    const metadata = await post(
      '/dashboard/subscriptions',
      { _csrf: admin.csrf, url: 'http://169.254.169.254/latest/meta-data/', types: '*' },
      admin.cookie,
    );
    expect(await flashOf(metadata, admin.cookie)).toMatch(/^error: url points at 169\.254\.169\.254, an internal address/);
    const noType = await post(
      '/dashboard/subscriptions',
      { _csrf: admin.csrf, url: 'https://hooks.example.com/x', types: 'calls' },
      admin.cookie,
    );
    expect(await flashOf(noType, admin.cookie)).toContain('is not an event type');
    const urls = (await gateway.runtime.engine.events.outbound.list(DEFAULT_WORKSPACE)).map((s) => s.url);
    expect(urls).toEqual([subscriberUrl]);
    // as on the admin API: without the session's token nothing is made
    expect((await post('/dashboard/subscriptions', { url: 'https://hooks.example.com/y', types: '*' }, admin.cookie)).status).toBe(403);
  });

  it('shows a dead letter with its attempt, redelivers it on request, and deletes a subscription', async () => {
    const admin = await signIn();
    const outbound = gateway.runtime.engine.events.outbound;
    const [sub] = await outbound.list(DEFAULT_WORKSPACE);
    const subId = sub?.id as string;
    subscriberStatus = 500;
    const id = await emitCall();
    await until('the dead letter', async () => (await outbound.deliveries(DEFAULT_WORKSPACE, subId)).dead_letters.length === 1);
    const list = await text('/dashboard/subscriptions', admin.cookie);
    const row = new RegExp(`<tr data-subscription="${subId}">[\\s\\S]*?</tr>`).exec(list)?.[0] ?? '';
    expect(row).toContain('Dead letters');
    expect(row).toContain('dead</span> 500');
    const detail = await text(`/dashboard/subscriptions/${subId}`, admin.cookie);
    expect(detail).toContain(`<tr data-dead="${id}">`);
    expect(detail).toMatch(/<tr data-attempt="dead">[\s\S]*?500/);

    subscriberStatus = 204;
    const redelivered = await post(`/dashboard/subscriptions/${subId}/redeliver`, { _csrf: admin.csrf, event_id: id }, admin.cookie);
    expect(redelivered.headers.get('location')).toBe(`/dashboard/subscriptions/${subId}`);
    expect(await flashOf(redelivered, admin.cookie)).toBe('ok: 1 dead letter is queued again.');
    await until('the redelivery', () => received.filter((r) => r.headers['webhook-id'] === id).length === 2);
    await until('the log', async () => (await outbound.deliveries(DEFAULT_WORKSPACE, subId)).attempts[0]?.outcome === 'delivered');
    const after = await text(`/dashboard/subscriptions/${subId}`, admin.cookie);
    expect(after).toContain('data-dead-letters="0"');
    expect(after).toMatch(/<tr data-attempt="delivered">[\s\S]*?<code>evt_/);
    const none = await post(`/dashboard/subscriptions/${subId}/redeliver`, { _csrf: admin.csrf }, admin.cookie);
    expect(await flashOf(none, admin.cookie)).toBe('error: There were no dead letters to redeliver.');

    expect(detail).toContain(`data-confirm="Delete the subscription of ${subscriberUrl}?`);
    const deleted = await post(`/dashboard/subscriptions/${subId}/delete`, { _csrf: admin.csrf }, admin.cookie);
    expect(await flashOf(deleted, admin.cookie)).toBe(`ok: The subscription of ${subscriberUrl} is deleted.`);
    expect(await outbound.list(DEFAULT_WORKSPACE)).toEqual([]);
    expect((await get(`/dashboard/subscriptions/${subId}`, admin.cookie)).status).toBe(404);
  });
});

describe('dashboard configuration', () => {
  it('PORTICO_DASHBOARD=off serves no dashboard at all', async () => {
    const gateway = await startTestGateway({ env: { PORTICO_DASHBOARD: 'off' } });
    try {
      const response = await fetch(`${gateway.url}/dashboard/sign-in`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: true, code: 'not_found' });
    } finally {
      await gateway.close();
    }
  });

  it('marks the cookie Secure behind an https public URL, and limits failed sign-ins per address (429 with Retry-After)', async () => {
    const gateway = await startTestGateway({ env: { PORTICO_PUBLIC_URL: 'https://portico.example' } });
    try {
      // gateway.url is the public URL: the test reaches the listening port itself
      const local = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
      const attempt = (key: string) =>
        fetch(`${local}/dashboard/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://portico.example' },
          body: new URLSearchParams({ key }).toString(),
        });
      const ok = await attempt(gateway.key);
      expect(ok.status).toBe(303);
      // the request is plain HTTP (as from a proxy that ends TLS), the browser's is https: the cookie is Secure
      const secureCookie = parseSetCookie(ok.headers.get('set-cookie'));
      expect(secureCookie.name).toBe('portico_session');
      expect(secureCookie.attributes.has('secure')).toBe(true);
      expect(secureCookie.attributes.has('httponly')).toBe(true);
      for (let i = 0; i < 12; i++) expect((await attempt(gateway.key)).status).toBe(303); // successes are not limited
      for (let i = 0; i < 10; i++) expect((await attempt('portico_wrong')).status).toBe(401);
      const limited = await attempt(gateway.key); // ten failures: the address waits, whatever key it sends
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
  });
});

describe('dashboard routing', () => {
  const folder = new URL('.', import.meta.url);
  const sources = readdirSync(folder)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => ({ name, text: readFileSync(new URL(name, folder), 'utf8') }));

  it('routes with @koa/router, declaring who may open a page with its route, never with RegExps of its own', () => {
    expect(sources.map((s) => s.name)).toContain('index.ts');
    for (const { name, text } of sources) {
      expect(text, name).not.toMatch(/\bnew RegExp\s*\(/); // patterns built from paths: the router's work
      expect(text, name).not.toMatch(/MEMBER_PATHS/); // a second list of what members may open, beside the routes
      expect(text, name).not.toMatch(/\/\^\\\/dashboard/); // a RegExp literal over the dashboard's paths
      expect(text, name).not.toMatch(/\bparams\[\d\]/); // positional parameters of a hand-made match
    }
    const index = sources.find((s) => s.name === 'index.ts')?.text ?? '';
    expect(index).toMatch(/from '@koa\/router'/);
    expect(index).toMatch(/new Router</);
    // the path is read once, at the entrance; everything after it is the router's match
    expect(index.match(/ctx\.path\b/g)).toHaveLength(1);
    // cookies through Koa's ctx.cookies (the cookies package), not Set-Cookie written by hand
    expect(index).not.toMatch(/set-cookie/i);
    expect(index).toMatch(/ctx\.cookies\.set\(/);
  });
});
