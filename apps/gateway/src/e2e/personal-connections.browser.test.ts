import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRM_DOMAIN, type FirmIdentityProvider, firmIdentityProvider } from '../firm-identity-provider.test-support.js';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { callbackServer, MemoryProvider } from './oauth-client.test-support.js';

/**
 * People acting as themselves, as a firm would see it: the firm's identity provider is oidc-provider on loopback, each
 * person a Chromium context, each assistant the official MCP SDK client with its own OAuth. Two people sign in, connect
 * their own Clio and Slack accounts from the dashboard (the sandboxes' sign-in pages, where each picks themselves), then
 * their assistants log time in Clio and post in Slack: Clio and Slack name each as the author. A third person, with no
 * account of their own, acts as the firm's shared one by default, and is told how to connect under the `personal`
 * policy. Skipped where no Chromium is installed; mandatory with PORTICO_REQUIRE_CHROMIUM=1 (CI).
 */
const CHROMIUM = process.env.PORTICO_CHROMIUM ?? '/usr/bin/chromium';
const problem = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set PORTICO_CHROMIUM)`;
if (problem && process.env.PORTICO_REQUIRE_CHROMIUM === '1')
  throw new Error(`${problem}, and PORTICO_REQUIRE_CHROMIUM=1 makes these tests mandatory`);

const SSO = 'Harlow & Pike SSO';
const PEOPLE = [
  { login: 'priya', name: 'Priya Raman', groups: ['staff'] },
  { login: 'daniel', name: 'Daniel Pike', groups: ['staff'] },
  { login: 'sofia', name: 'Sofia Alvarez', groups: ['staff'] },
];

describe.skipIf(problem)(`each person acts as themselves upstream, in Chromium${problem ? ` (skipped: ${problem})` : ''}`, () => {
  let idp: FirmIdentityProvider;
  let gateway: TestGateway;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  const mcpUrl = () => new URL(`${gateway.url}/api/mcp`);

  beforeAll(async () => {
    idp = await firmIdentityProvider(PEOPLE);
    callback = await callbackServer();
    gateway = await startTestGateway({
      sandbox: true,
      env: {
        PORTICO_OIDC_ISSUER: idp.issuer,
        PORTICO_OIDC_CLIENT_ID: idp.clientId,
        PORTICO_OIDC_CLIENT_SECRET: idp.clientSecret,
        PORTICO_OIDC_NAME: SSO,
        PORTICO_OIDC_ROLE_GROUPS: 'member=staff',
      },
    });
    idp.attach(gateway.url);
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
  });

  /** A person signed in to the dashboard through the firm's provider (their first sign-in makes them a member). */
  async function signedIn(login: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${gateway.url}/dashboard/sign-in`);
    await page.getByRole('link', { name: `Sign in with ${SSO}` }).click();
    await page.waitForURL((at) => at.origin === idp.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL((at) => at.origin === idp.issuer && at.pathname.startsWith('/interaction/'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((at) => at.pathname === '/dashboard/grants');
    return page;
  }

  /** From "Your accounts": connect the person's own account, picking themselves on the application's sign-in page. */
  async function connectOwn(page: Page, name: string, application: string, person: string): Promise<void> {
    await page.goto(`${gateway.url}/dashboard/connections`);
    await page.getByRole('button', { name: new RegExp(`^Connect your ${application} account`) }).click();
    // the hand-off page goes on to the application by itself: its sign-in (the sandbox's: the firm's people)
    await page.getByRole('heading', { name: `Sign in to ${application}` }).waitFor();
    await page.getByRole('link', { name: person }).click();
    await page.waitForURL((at) => at.pathname.startsWith(`/api/connect/${name}/callback`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Your ${application} account is connected`);
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await page.waitForURL((at) => at.pathname === '/dashboard/connections');
  }

  /** The person's assistant: the MCP SDK client, authorized on the consent page to read and write Clio and Slack. */
  async function assistant(page: Page, who: string): Promise<Client> {
    const provider = new MemoryProvider(callback.url, {
      client_name: `${who}’s assistant`,
      redirect_uris: [callback.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    await expect(
      new Client({ name: who, version: '1' }).connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider })),
    ).rejects.toThrow(/Unauthorized/);
    await page.goto(provider.opened().href); // signed in: straight to the consent page
    for (const service of ['Clio', 'Slack']) {
      await page.getByRole('group', { name: service }).getByRole('radio', { name: 'Read and write' }).check();
    }
    const before = callback.received.length;
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((at) => at.href.startsWith(callback.url));
    await new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }).finishAuth(
      callback.received[before]?.get('code') as string,
    );
    const client = new Client({ name: who, version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    return client;
  }

  /** Logs half an hour on the firm's first matter; the Clio user Clio records as its author. */
  async function logTime(client: Client, note: string): Promise<string> {
    const params = { type: 'TimeEntry', date: '2026-11-27', matter: { id: 3001 }, quantity: 1800, note, fields: 'id' };
    const logged = await client.callTool({ name: 'call_clio', arguments: { method: 'create_activity', params } });
    expect(logged.isError, JSON.stringify(logged.structuredContent)).toBeFalsy();
    const id = (logged.structuredContent as { data: { id: number } }).data.id;
    const read = await gateway.rest('GET', `/api/v1/clio/activities/${id}?fields=id,user{id,name}`); // the admin key
    return (read.body as { data: { user: { name: string } } }).data.user.name;
  }

  /** Posts in #general; the Slack user Slack names as the message's author. */
  async function post(client: Client, text: string): Promise<string> {
    const sent = await client.callTool({
      name: 'call_slack',
      arguments: { method: 'send_message', params: { channel: 'C05GENERAL1', text } },
    });
    expect(sent.isError, JSON.stringify(sent.structuredContent)).toBeFalsy();
    const user = (sent.structuredContent as { message: { user: string } }).message.user;
    const info = await gateway.rest('GET', `/api/v1/slack/users/${user}`);
    return (info.body as { user: { real_name: string } }).user.real_name;
  }

  it('two people connect their own Clio and Slack; their assistants write as them; a third acts as the firm or is told to connect', async () => {
    const priya = await signedIn('priya');
    const daniel = await signedIn('daniel');
    const sofia = await signedIn('sofia');
    expect(await priya.locator('nav a').allTextContents()).toEqual(['Your accounts', 'Connected clients']);
    for (const [page, name] of [
      [priya, 'Priya Raman'],
      [daniel, 'Daniel Pike'],
    ] as const) {
      await connectOwn(page, 'clio', 'Clio Manage', name);
      await connectOwn(page, 'slack', 'Slack', name);
    }
    // the page says whom each account is
    await priya.goto(`${gateway.url}/dashboard/connections`);
    expect(await priya.locator('[data-service="clio"] [data-acting-as]').textContent()).toContain('Priya Raman');
    expect(await priya.locator('[data-service="clio"] [data-in-use]').textContent()).toContain('your own account');
    expect(
      await sofia
        .goto(`${gateway.url}/dashboard/connections`)
        .then(() => sofia.locator('[data-service="clio"] [data-in-use]').textContent()),
    ).toContain('the workspace’s account');

    const priyas = await assistant(priya, 'Priya');
    const daniels = await assistant(daniel, 'Daniel');
    const sofias = await assistant(sofia, 'Sofia');
    expect(await logTime(priyas, 'Drafted the demand letter')).toBe('Priya Raman');
    expect(await logTime(daniels, 'Call with opposing counsel')).toBe('Daniel Pike');
    expect(await post(priyas, 'The demand letter went out')).toBe('Priya Raman');
    expect(await post(daniels, 'I will call Rosa back today')).toBe('Daniel Pike');
    // no account of her own: the firm's shared ones act for her by default
    expect(await logTime(sofias, 'Intake call')).toBe('Margaret Harlow');
    expect(await post(sofias, 'Two new leads this morning')).toBe('Portico');

    // list_connections tells each assistant whom it acts as
    const listed = await priyas.callTool({ name: 'list_connections', arguments: {} });
    const clio = (listed.structuredContent as { connections: Array<Record<string, unknown>> }).connections.find(
      (c) => c.service === 'clio',
    );
    expect(clio).toMatchObject({ in_use: 'personal', personal: { status: 'connected', acting_as: { user: { name: 'Priya Raman' } } } });

    // Clio set to each person's own account: Sofia's assistant is told how to connect hers, the others go on
    const policy = await gateway.rest('PATCH', '/api/admin/integrations/clio', { body: { connection_policy: 'personal' } });
    expect(policy.status).toBe(200);
    const refused = await sofias.callTool({ name: 'call_clio', arguments: { method: 'get_current_user', params: {} } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.structuredContent ?? refused.content)).toMatch(/not_connected.*connect it under Connections/);
    expect(await logTime(priyas, 'Reviewed exhibits')).toBe('Priya Raman');

    // the audit names each person and which connection acted
    const audit = await gateway.rest('GET', '/api/admin/audit?operation=create_activity');
    const members = (await gateway.rest('GET', '/api/admin/members')).body as { members: Array<{ id: string; email: string }> };
    const idOf = (login: string) => members.members.find((m) => m.email === `${login}@${FIRM_DOMAIN}`)?.id;
    const records = (audit.body as { records: Array<{ memberId?: string; connection?: string }> }).records;
    expect(records.filter((r) => r.memberId === idOf('priya')).every((r) => r.connection === 'personal')).toBe(true);
    expect(records.find((r) => r.memberId === idOf('sofia'))?.connection).toBe('shared');
    for (const client of [priyas, daniels, sofias]) await client.close();
  }, 120_000);
});
