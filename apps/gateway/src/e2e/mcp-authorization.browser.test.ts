import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { callbackServer, MemoryProvider, metadataDocumentHost } from './oauth-client.test-support.js';

/**
 * The whole connection an assistant makes, with the official MCP SDK client's own OAuth support (its
 * OAuthClientProvider and auth() flow, unmodified) and a person in Debian's Chromium (playwright-core): discovery from
 * the 401, registration by Client ID Metadata Document and, separately, by Dynamic Client Registration, sign-in and
 * consent by clicking, token exchange, tools/list and tools/call, a refresh after the access token expired, a revoke
 * clicked on the dashboard's grants page, the 401 that follows, and a new authorization. Skipped where no Chromium is
 * installed; mandatory with PORTICO_REQUIRE_CHROMIUM=1 (CI).
 */
const CHROMIUM = process.env.PORTICO_CHROMIUM ?? '/usr/bin/chromium';
const problem = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set PORTICO_CHROMIUM)`;
if (problem && process.env.PORTICO_REQUIRE_CHROMIUM === '1')
  throw new Error(`${problem}, and PORTICO_REQUIRE_CHROMIUM=1 makes these tests mandatory`);

const ACCESS_TOKEN_SECONDS = 2;
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
type Access = 'Read' | 'Read and write';

describe.skipIf(problem)(`the MCP SDK client authorized in Chromium${problem ? ` (skipped: ${problem})` : ''}`, () => {
  let gateway: TestGateway;
  let browser: Browser;
  let page: Page;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  let documentHost: Awaited<ReturnType<typeof metadataDocumentHost>>;
  let metadata: OAuthClientMetadata;

  beforeAll(async () => {
    callback = await callbackServer();
    metadata = {
      client_name: 'Chromium test assistant',
      redirect_uris: [callback.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    documentHost = await metadataDocumentHost(metadata);
    gateway = await startTestGateway({
      sandbox: true,
      env: {
        PORTICO_OAUTH_ACCESS_TOKEN_SECONDS: String(ACCESS_TOKEN_SECONDS),
        // The document host is on loopback with the test's own CA: allowed and trusted explicitly, as an operator
        // would for a client on the firm's network. Without these two, the same URL is refused (metadata-documents.test.ts).
        PORTICO_OAUTH_CIMD_ALLOW_HOSTS: '127.0.0.1',
        PORTICO_OAUTH_CIMD_CA_FILE: documentHost.caFile,
      },
    });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    page = await (await browser.newContext()).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await documentHost?.close();
    await callback?.close();
  });

  const mcpUrl = () => new URL(`${gateway.url}/api/mcp`);

  /**
   * The person's part: the browser opens the authorization URL (signing in first when the dashboard asks), reads the
   * consent page, ticks Clio, picks the access, clicks Allow, and lands on the client's callback with the code.
   */
  async function consentInBrowser(url: URL, name: string, access: Access, publisher?: string): Promise<string> {
    const before = callback.received.length;
    await page.goto(url.href);
    if (new URL(page.url()).pathname === '/dashboard/sign-in') {
      await page.getByLabel('Admin API key').fill(gateway.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((at) => at.pathname === '/dashboard/authorize');
    }
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Allow ${name} to use this gateway?`);
    const lead = await page.locator('.lead').textContent();
    expect(lead).toContain(`sent back to ${new URL(callback.url).host}`);
    if (publisher) expect(lead).toContain(`published by ${new URL(publisher).host}`);
    else expect(lead).not.toContain('published by');
    // The consent page is one a person reads and answers: no serious or critical accessibility violation (axe-core).
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      type Rule = { id: string; impact: string };
      const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: Rule[] }> } }).axe;
      return (await axe.run(document)).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(violations).toEqual([]);
    await page.getByRole('group', { name: 'Clio' }).getByRole('radio', { name: access, exact: true }).check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((at) => at.href.startsWith(callback.url));
    const back = callback.received[before] as URLSearchParams;
    expect(back.get('state')).toBe('state-42');
    return back.get('code') as string;
  }

  /** The SDK meets the 401, discovers, registers, and asks for the browser; after consent it exchanges the code. */
  async function authorize(provider: MemoryProvider, access: Access, first?: Client): Promise<Client> {
    provider.authorizationUrl = undefined;
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    if (first) await expect(first.listTools()).rejects.toThrow(/Unauthorized/);
    else await expect(new Client({ name: 'assistant', version: '1.0.0' }).connect(transport)).rejects.toThrow(/Unauthorized/);
    const opened = provider.opened();
    const code = await consentInBrowser(opened, provider.clientMetadata.client_name as string, access, provider.clientMetadataUrl);
    await transport.finishAuth(code);
    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    return client;
  }

  /** tools/list and tools/call within the grant; the token is good on the REST door too. */
  async function works(client: Client, provider: MemoryProvider): Promise<void> {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('call_clio');
    const read = await client.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } });
    expect(read.isError, JSON.stringify(read.structuredContent)).toBeFalsy();
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: provider.saved?.access_token as string })).status).toBe(200);
  }

  /** The admin revokes the grant on the grants page, by clicking; the client's next call is 401. */
  async function revokeInDashboard(provider: MemoryProvider): Promise<void> {
    await page.goto(`${gateway.url}/dashboard/grants`);
    const row = page
      .locator('tr[data-grant]', { hasText: provider.clientMetadata.client_name as string })
      .filter({ hasNot: page.getByText('Revoked') });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL('**/dashboard/grants**');
    await expect.poll(() => row.count()).toBe(0);
    const token = provider.saved?.access_token as string;
    const refused = await gateway.rest('GET', '/api/v1/clio/matters', { key: token });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  }

  async function refreshAfterExpiry(client: Client, provider: MemoryProvider): Promise<void> {
    const token = provider.saved?.access_token as string;
    await new Promise((resolve) => setTimeout(resolve, ACCESS_TOKEN_SECONDS * 1000 + 300));
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: token })).status).toBe(401);
    // The SDK meets the 401, refreshes with its refresh token, and retries on its own.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(provider.saved?.access_token).not.toBe(token);
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: provider.saved?.access_token as string })).status).toBe(200);
  }

  it('registers by Client ID Metadata Document: consent, calls, refresh, revoke on the grants page, and again', async () => {
    const provider = new MemoryProvider(callback.url, metadata, documentHost.clientId);
    const client = await authorize(provider, 'Read');
    expect(provider.client?.client_id).toBe(documentHost.clientId);
    expect(documentHost.fetched).toBeGreaterThan(0);
    expect(await gateway.runtime.store.authorization.getClient(documentHost.clientId)).toMatchObject({ kind: 'cimd' });
    expect(await page.title()).toBe('Done');
    await works(client, provider);
    const write = await client.callTool({
      name: 'call_clio',
      arguments: { method: 'create_contact', params: { body: { name: 'X', type: 'Person' } } },
    });
    expect(write.structuredContent).toMatchObject({ error: true, code: 'forbidden' });
    await refreshAfterExpiry(client, provider);
    await revokeInDashboard(provider);
    // The SDK meets the 401, its refresh is refused (the grant is gone), and it starts a new authorization.
    const again = await authorize(provider, 'Read', client);
    expect(provider.client?.client_id).toBe(documentHost.clientId);
    await works(again, provider);
    await again.close();
    await client.close();
  });

  it('registers by Dynamic Client Registration: consent, calls, refresh, revoke on the grants page, and again', async () => {
    const provider = new MemoryProvider(callback.url, { ...metadata, client_name: 'Chromium DCR assistant' });
    const client = await authorize(provider, 'Read and write');
    expect(provider.client?.client_id).toMatch(/^client_/);
    await works(client, provider);
    const write = await client.callTool({
      name: 'call_clio',
      arguments: { method: 'create_contact', params: { name: 'Y', type: 'Person' } },
    });
    expect(write.isError, JSON.stringify(write.structuredContent)).toBeFalsy();
    await refreshAfterExpiry(client, provider);
    await revokeInDashboard(provider);
    const again = await authorize(provider, 'Read', client);
    await works(again, provider);
    await again.close();
    await client.close();
  });
});
