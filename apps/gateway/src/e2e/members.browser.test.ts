import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRM_DOMAIN, type FirmIdentityProvider, firmIdentityProvider } from '../firm-identity-provider.test-support.js';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { callbackServer, MemoryProvider } from './oauth-client.test-support.js';

/**
 * A firm's people connecting their own assistants, as they would: the firm's identity provider is oidc-provider on
 * loopback, each person is a Chromium context, the assistant is the official MCP SDK client with its own OAuth
 * support. A member signs in through the provider from the authorization request, consents for herself, reads, is
 * refused a write with a step-up challenge, steps up and writes; an admin revokes her grant. Skipped where no
 * Chromium is installed; mandatory with PORTICO_REQUIRE_CHROMIUM=1 (CI).
 */
const CHROMIUM = process.env.PORTICO_CHROMIUM ?? '/usr/bin/chromium';
const problem = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set PORTICO_CHROMIUM)`;
if (problem && process.env.PORTICO_REQUIRE_CHROMIUM === '1')
  throw new Error(`${problem}, and PORTICO_REQUIRE_CHROMIUM=1 makes these tests mandatory`);

const SSO = 'Harlow & Pike SSO';
const PEOPLE = [
  { login: 'priya', name: 'Priya Raman', groups: ['associates'] },
  { login: 'margaret', name: 'Margaret Harlow', groups: ['partners'] },
  { login: 'nobody', name: 'Not Invited', groups: [] },
];

describe.skipIf(problem)(`members and their own assistants, in Chromium${problem ? ` (skipped: ${problem})` : ''}`, () => {
  let idp: FirmIdentityProvider;
  let gateway: TestGateway;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  let otherSite: { url: string; close(): Promise<void> };
  const contexts: BrowserContext[] = [];

  const metadata = {
    client_name: 'Priya’s assistant',
    redirect_uris: [] as string[],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  const mcpUrl = () => new URL(`${gateway.url}/api/mcp`);

  beforeAll(async () => {
    idp = await firmIdentityProvider(PEOPLE);
    callback = await callbackServer();
    metadata.redirect_uris = [callback.url];
    otherSite = await linkSite();
    gateway = await startTestGateway({
      sandbox: true,
      env: {
        PORTICO_OIDC_ISSUER: idp.issuer,
        PORTICO_OIDC_CLIENT_ID: idp.clientId,
        PORTICO_OIDC_CLIENT_SECRET: idp.clientSecret,
        PORTICO_OIDC_NAME: SSO,
        PORTICO_OIDC_ROLE_GROUPS: 'admin=partners',
      },
    });
    idp.attach(gateway.url);
    const invited = await gateway.rest('POST', '/api/admin/members', {
      body: { email: `priya@${FIRM_DOMAIN}`, name: 'Priya Raman', role: 'member' },
    });
    expect(invited.status).toBe(201);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await idp?.close();
    await callback?.close();
    await otherSite?.close();
  });

  async function person(): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  }

  /** At the provider's own pages: its login form (any password), then its consent to share the claims. */
  async function signInAtProvider(page: Page, login: string): Promise<void> {
    await page.waitForURL((at) => at.origin === idp.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL((at) => at.origin === idp.issuer && at.pathname.startsWith('/interaction/'));
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  /** The person allows what is ticked (changing `set` first), and the client's callback receives the code. */
  async function allow(page: Page, set: Record<string, 'No access' | 'Read' | 'Read and write'> = {}): Promise<string> {
    const before = callback.received.length;
    for (const [service, access] of Object.entries(set)) {
      await page.getByRole('group', { name: service }).getByRole('radio', { name: access, exact: true }).check();
    }
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((at) => at.href.startsWith(callback.url));
    return callback.received[before]?.get('code') as string;
  }

  it('a member signs in with the firm’s provider, consents for herself, reads, steps up to write, and an admin revokes', async () => {
    const provider = new MemoryProvider(callback.url, metadata);
    await expect(
      new Client({ name: 'priya', version: '1' }).connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider })),
    ).rejects.toThrow(/Unauthorized/);
    const first = provider.opened();
    // the first authorization asks to read: the 401's scope
    expect(first.searchParams.get('scope')?.split(' ')).toContain('clio:read');
    expect(first.searchParams.get('scope')).not.toContain(':write');

    const priya = await person();
    await priya.goto(first.href);
    expect(new URL(priya.url()).pathname).toBe('/dashboard/sign-in');
    expect(await priya.locator('[data-waiting]').textContent()).toContain('Priya’s assistant');
    await priya.getByRole('link', { name: `Sign in with ${SSO}` }).click();
    await signInAtProvider(priya, 'priya');
    await priya.waitForURL((at) => at.pathname === '/dashboard/authorize');
    expect(await priya.getByRole('heading', { level: 1 }).textContent()).toBe('Allow Priya’s assistant to use this gateway?');
    expect(await priya.locator('.lead').textContent()).toContain('as you');
    // pre-ticked from the request: read; a member of the workspace may also write, so the choice is offered
    expect(await priya.getByRole('group', { name: 'Clio' }).getByRole('radio', { name: 'Read', exact: true }).isChecked()).toBe(true);
    expect(await priya.getByRole('group', { name: 'Clio' }).getByRole('radio', { name: 'Read and write' }).count()).toBe(1);
    // "until revoked" is for admins
    expect(await priya.locator('#expires option[value="never"]').count()).toBe(0);
    expect(await priya.locator('#expires').inputValue()).toBe('90');
    const code = await allow(priya);

    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await transport.finishAuth(code);
    expect(provider.saved?.scope?.split(' ')).toContain('clio:read');
    let client = new Client({ name: 'priya', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const read = await client.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } });
    expect(read.isError, JSON.stringify(read.structuredContent)).toBeFalsy();

    // a write: HTTP 403 with the scope that would let it through (the SDK refreshes, keeps the scopes, gives up)
    const contact = { name: 'Ada Lovelace', type: 'Person' };
    await expect(client.callTool({ name: 'call_clio', arguments: { method: 'create_contact', params: contact } })).rejects.toThrow(/403/);
    const refused = await gateway.rest('POST', '/api/v1/clio/contacts', { key: provider.saved?.access_token as string, body: contact });
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get('www-authenticate') as string;
    expect(challenge).toContain('error="insufficient_scope"');
    const wanted = /scope="([^"]+)"/.exec(challenge)?.[1] as string;
    expect(wanted.split(' ')).toEqual(expect.arrayContaining(['clio:read', 'clio:write']));

    // step up: a new authorization for the challenge's scope, which the SDK's auth() starts
    provider.invalidateCredentials('tokens');
    provider.authorizationUrl = undefined;
    expect(await auth(provider, { serverUrl: mcpUrl(), scope: wanted })).toBe('REDIRECT');
    await priya.goto(provider.opened().href); // still signed in: straight to the consent page
    expect(new URL(priya.url()).pathname).toBe('/dashboard/authorize');
    expect(await priya.getByRole('group', { name: 'Clio' }).getByRole('radio', { name: 'Read and write' }).isChecked()).toBe(true);
    const second = await allow(priya);
    await new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }).finishAuth(second);
    expect(provider.saved?.scope?.split(' ')).toContain('clio:write');
    await client.close();
    client = new Client({ name: 'priya', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const written = await client.callTool({ name: 'call_clio', arguments: { method: 'create_contact', params: contact } });
    expect(written.isError, JSON.stringify(written.structuredContent)).toBeFalsy();

    // the audit names the person behind the call
    const audit = await gateway.rest('GET', '/api/admin/audit?operation=create_contact&status=2xx');
    const [record] = (audit.body as { records: Array<{ keyId: string; memberId?: string }> }).records;
    const members = (await gateway.rest('GET', '/api/admin/members')).body as { members: Array<{ id: string; email: string }> };
    const priyaId = members.members.find((m) => m.email === `priya@${FIRM_DOMAIN}`)?.id;
    expect(record?.memberId).toBe(priyaId);
    expect(record?.keyId).toMatch(/^grant_/);

    // a member sees only her own part of the dashboard
    await priya.goto(`${gateway.url}/dashboard/keys`);
    expect(await priya.getByRole('heading', { level: 1 }).textContent()).toBe('Refused');
    await priya.goto(`${gateway.url}/dashboard/grants`);
    expect(await priya.locator('nav a').allTextContents()).toEqual(['Your accounts', 'Connected clients']);
    expect(await priya.locator('tr[data-grant]').count()).toBe(2);

    // an admin signed in with the firm's provider revokes her grants
    const margaret = await person();
    await margaret.goto(`${gateway.url}/dashboard/sign-in`);
    await margaret.getByRole('link', { name: `Sign in with ${SSO}` }).click();
    await signInAtProvider(margaret, 'margaret');
    await margaret.waitForURL((at) => at.pathname === '/dashboard/integrations');
    expect(await margaret.locator('nav a').allTextContents()).toContain('Members');
    await margaret.goto(`${gateway.url}/dashboard/grants`);
    for (const row of await margaret.locator('tr[data-grant]').all()) {
      if ((await row.textContent())?.includes('Priya Raman') && (await row.getByRole('button', { name: 'Revoke' }).count()) > 0) {
        await row.getByRole('button', { name: 'Revoke' }).click();
        await margaret.waitForURL((at) => at.pathname === '/dashboard/grants');
      }
    }
    await expect(client.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } })).rejects.toThrow();
    await client.close();
  });

  it('a signed-in person follows a link from another site to the consent page; a post from there is refused', async () => {
    const provider = new MemoryProvider(callback.url, metadata);
    await expect(
      new Client({ name: 'x', version: '1' }).connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider })),
    ).rejects.toThrow(/Unauthorized/);
    const priya = await person();
    await priya.goto(`${gateway.url}/dashboard/sign-in`);
    await priya.getByRole('link', { name: `Sign in with ${SSO}` }).click();
    await signInAtProvider(priya, 'priya');
    await priya.waitForURL((at) => at.pathname === '/dashboard/grants');

    // another site (localhost is not 127.0.0.1's site) links to the authorization request
    await priya.goto(`${otherSite.url}/link?to=${encodeURIComponent(provider.opened().href)}`);
    await priya.getByRole('link', { name: 'Connect' }).click();
    await priya.waitForURL((at) => at.pathname === '/dashboard/authorize');
    expect(await priya.getByRole('heading', { level: 1 }).textContent()).toBe('Allow Priya’s assistant to use this gateway?');

    // an incomplete form is shown again with the reason, and the client keeps waiting
    for (const radio of await priya.getByRole('radio', { name: 'No access' }).all()) await radio.check();
    const before = callback.received.length;
    await priya.getByRole('button', { name: 'Allow' }).click();
    expect(await priya.getByRole('alert').textContent()).toContain('Choose at least one service');
    expect(new URL(priya.url()).pathname).toBe('/dashboard/authorize');
    expect(callback.received.length).toBe(before);

    // the same form posted from the other site carries no session (SameSite=Lax) and approves nothing
    const fields = await priya
      .locator('form[action="/dashboard/authorize"] input[type="hidden"]')
      .evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value]));
    await priya.goto(
      `${otherSite.url}/post?to=${encodeURIComponent(`${gateway.url}/dashboard/authorize`)}&fields=${encodeURIComponent(JSON.stringify([...fields, ['access_clio', 'write'], ['expires', '90'], ['decision', 'approve']]))}`,
    );
    await priya.waitForURL((at) => at.origin === gateway.url);
    expect(callback.received.length).toBe(before);
    expect(new URL(priya.url()).pathname).not.toBe('/callback');
  });

  it('a person the provider knows but nobody invited is refused, with what to do', async () => {
    const page = await person();
    await page.goto(`${gateway.url}/dashboard/sign-in`);
    await page.getByRole('link', { name: `Sign in with ${SSO}` }).click();
    await signInAtProvider(page, 'nobody');
    await page.waitForURL((at) => at.pathname === '/dashboard/sign-in/callback');
    expect(await page.getByRole('alert').textContent()).toContain(`nobody@${FIRM_DOMAIN} is not a member here`);
  });
});

/** Another site (localhost, where the gateway is on 127.0.0.1): a page with a link, and a page that posts a form. */
async function linkSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const to = url.searchParams.get('to') ?? '';
    const attr = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
    if (url.pathname === '/link') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Chat</title><a href="${attr(to)}">Connect</a>`);
      return;
    }
    const fields = JSON.parse(url.searchParams.get('fields') ?? '[]') as Array<[string, string]>;
    const inputs = fields.map(([name, value]) => `<input type="hidden" name="${attr(name)}" value="${attr(value)}">`).join('');
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><title>Post</title><form method="post" action="${attr(to)}">${inputs}</form><script>document.forms[0].submit()</script>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
