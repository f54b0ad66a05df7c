import { DEFAULT_WORKSPACE } from '@portico/core';
import { FIRM, FIRM_PEOPLE } from '@portico/core/testing';
import { quickbooksPlugin } from '@portico/plugin-accounting';
import { notionPlugin } from '@portico/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';
import { signedInMember } from '../members.test-support.js';

/**
 * In sandbox mode people connect their own QuickBooks and Notion from the dashboard: each sandbox plays its
 * application's login (a page of the firm's people) and OAuth, and the connection then acts as the person who signed
 * in — Intuit's userinfo names them beside the company, Notion's bot of their authorization is owned by them. The
 * workspace's shared connections, the sandboxes' own tokens, still act as the firm's account holder and integration.
 */
let gateway: TestGateway;

interface Member {
  id: string;
  cookie: string;
  csrf: string;
}

interface Listed {
  connections: Array<{
    service: string;
    acting_as?: { account?: { id: string; name: string }; user?: { id: string; name: string; email?: string } };
    personal?: { status: string; acting_as?: { account?: { id: string; name: string }; user?: { name: string; email?: string } } };
  }>;
}

const holder = FIRM_PEOPLE[0] as (typeof FIRM_PEOPLE)[number];
const bookkeeper = FIRM_PEOPLE.find((p) => p.role === 'bookkeeper') as (typeof FIRM_PEOPLE)[number];
const associate = FIRM_PEOPLE.find((p) => p.role === 'associate') as (typeof FIRM_PEOPLE)[number];

const member = (email: string, name: string) => signedInMember(gateway, email, name);

/** The dashboard's hand-off to the application's authorize page, for a person connecting their own account. */
async function authorizeLink(person: Member, service: string): Promise<string> {
  const handOff = await fetch(`${gateway.url}/dashboard/connections/${service}/oauth`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: person.cookie },
    body: new URLSearchParams({ _csrf: person.csrf }).toString(),
  });
  expect(handOff.status).toBe(200);
  return (/href="([^"]+)" data-follow/.exec(await handOff.text())?.[1] ?? '').replaceAll('&amp;', '&');
}

/** Connects a person's own account, choosing `email` on the sandbox's login page. */
async function connectOwn(person: Member, service: 'quickbooks' | 'notion', email: string, application: string): Promise<void> {
  const authorize = await authorizeLink(person, service);
  expect(authorize.startsWith(new URL(gateway.sandboxes[service]?.url as string).origin)).toBe(true);
  const login = await fetch(authorize, { redirect: 'manual' });
  expect(login.status).toBe(200);
  const page = await login.text();
  expect(page).toContain(`Sign in to ${application}`);
  const choice = new RegExp(`href="([^"]+)" data-person="${email.replaceAll('.', '\\.')}"`).exec(page)?.[1] as string;
  const signedIn = await fetch(new URL(choice.replaceAll('&amp;', '&'), authorize), { redirect: 'manual' });
  expect(signedIn.status).toBe(302);
  const back = await fetch(signedIn.headers.get('location') as string);
  expect(back.status).toBe(200);
  expect(await back.text()).toMatch(/account is connected/);
}

const listed = async (key?: string) => {
  const response = await gateway.rest('GET', '/api/v1/connections', key ? { key } : {});
  expect(response.status).toBe(200);
  return Object.fromEntries((response.body as Listed).connections.map((c) => [c.service, c]));
};

let nora: Member;
let priya: Member;

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, plugins: [quickbooksPlugin, notionPlugin] });
  [nora, priya] = await Promise.all([member(bookkeeper.email, bookkeeper.name), member(associate.email, associate.name)]);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

describe('people connect their own QuickBooks and Notion at the sandboxes’ logins', () => {
  it('the shared connections, the sandboxes’ own tokens, act as the account holder and the firm’s integration', async () => {
    const byKey = await listed();
    expect(byKey.quickbooks?.acting_as).toEqual({
      account: { id: String(gateway.sandboxes.quickbooks?.connection?.realmId), name: FIRM.name },
      user: { id: expect.stringMatching(/\S/), name: holder.name, email: holder.email },
    });
    expect(byKey.notion?.acting_as).toMatchObject({ user: { name: 'Portico' }, account: { name: FIRM.name } });
  });

  it('Nora connects her own QuickBooks: her connection reads the same company and names her', async () => {
    await connectOwn(nora, 'quickbooks', bookkeeper.email, 'QuickBooks');
    const stored = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'quickbooks', nora.id);
    expect(stored?.meta.acting_as).toEqual({
      account: { id: String(gateway.sandboxes.quickbooks?.connection?.realmId), name: FIRM.name },
      user: { id: expect.stringMatching(/\S/), name: bookkeeper.name, email: bookkeeper.email },
    });
    // her assistant's token sees her own connection in use, the shared one still the account holder's
    const token = (await obtainGrant(gateway.url, { cookie: nora.cookie }, { access_quickbooks: 'read', expires: '1' })).accessToken;
    const hers = await listed(token);
    expect(hers.quickbooks?.personal).toMatchObject({ status: 'connected', acting_as: { user: { name: bookkeeper.name } } });
    expect(hers.quickbooks?.acting_as?.user?.name).toBe(holder.name);
    const company = await gateway.rest('GET', '/api/v1/quickbooks/company-info', { key: token });
    expect(company.status, JSON.stringify(company.body)).toBe(200);
    expect((company.body as { CompanyInfo: { CompanyName: string } }).CompanyInfo.CompanyName).toBe(FIRM.name);
  });

  it('Priya connects her own Notion: her connection is a bot she owns, and what her assistant creates names it', async () => {
    await connectOwn(priya, 'notion', associate.email, 'Notion');
    const stored = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'notion', priya.id);
    expect(stored?.meta.acting_as).toMatchObject({
      user: { name: associate.name, email: associate.email },
      account: { name: FIRM.name },
    });
    const token = (await obtainGrant(gateway.url, { cookie: priya.cookie }, { access_notion: 'write', expires: '1' })).accessToken;
    const me = await gateway.rest('GET', '/api/v1/notion/users/me', { key: token });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    const bot = me.body as { id: string; bot: { owner: { user: { name: string } } } };
    expect(bot.bot.owner.user.name).toBe(associate.name);
    // a page her assistant writes: Notion names her bot as its creator; the firm's key writes as the firm's bot
    const parent = (await gateway.rest('POST', '/api/v1/notion/search', { body: { query: FIRM.name, page_size: 1 } })).body as {
      results: Array<{ id: string }>;
    };
    const body = (title: string) => ({
      parent: { page_id: parent.results[0]?.id },
      properties: { title: { title: [{ type: 'text', text: { content: title } }] } },
    });
    const created = await gateway.rest('POST', '/api/v1/notion/pages', { key: token, body: body('Priya’s research notes') });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    expect((created.body as { created_by: { id: string } }).created_by.id).toBe(bot.id);
    const firm = await gateway.rest('POST', '/api/v1/notion/pages', { body: body('Firm memo') });
    expect((firm.body as { created_by: { id: string } }).created_by.id).not.toBe(bot.id);
  });

  it('someone the firm does not know is refused at the login, and nothing is connected', async () => {
    const authorize = new URL(await authorizeLink(nora, 'notion'));
    authorize.searchParams.delete('prompt');
    authorize.searchParams.set('login_hint', 'someone@else.example');
    const refused = await fetch(authorize, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'notion', nora.id)).toBeUndefined();
  });
});
