import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * MCP Inspector's web interface in Debian's Chromium (the package's own built client, served by its own bin), as
 * docs/mcp-authorization.md tells a user to use it: Streamable HTTP, the gateway's URL, Open Auth Settings → Quick
 * OAuth Flow (discovery and registration in the browser, then the dashboard, where the admin signs in and allows, and
 * back to the Inspector, which exchanges the code), then Connect, Directly (the browser calls the gateway, which lists
 * the Inspector's origin in PORTICO_CORS_ORIGINS), and List Tools. Pressing Connect first does not start the flow with
 * this Inspector: it recognises a 401 by the words "401" or "Unauthorized" in the answer's body, which the gateway's
 * error body does not carry. Skipped where no Chromium is installed.
 */
const CHROMIUM = process.env.PORTICO_CHROMIUM ?? '/usr/bin/chromium';
const problem = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set PORTICO_CHROMIUM)`;

const fromInspector = createRequire(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json'));
const clientBin = join(dirname(fromInspector.resolve('@modelcontextprotocol/inspector-client/package.json')), 'bin/client.js');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts one of the Inspector's two processes and waits until it says `ready`. */
async function startProcess(bin: string, env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin], {
    env: { PATH: process.env.PATH, HOST: 'localhost', MCP_AUTO_OPEN_ENABLED: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const started = Date.now();
  while (!output.includes(ready)) {
    if (child.exitCode !== null || Date.now() - started > 20_000) throw new Error(`${bin} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

describe.skipIf(problem)(`MCP Inspector’s browser flow in Chromium${problem ? ` (skipped: ${problem})` : ''}`, () => {
  const processes: ChildProcess[] = [];
  let inspectorUrl: string;
  let gateway: TestGateway;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const clientPort = await freePort();
    processes.push(await startProcess(clientBin, { CLIENT_PORT: String(clientPort) }, 'is up and running'));
    inspectorUrl = `http://localhost:${clientPort}`;
    gateway = await startTestGateway({ sandbox: true, env: { PORTICO_CORS_ORIGINS: inspectorUrl } });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-quic'],
    });
    page = await browser.newPage();
    // the Inspector keeps its connection type in localStorage: Direct, as picked under Connection Type
    await page.addInitScript(() => localStorage.setItem('lastConnectionType', 'direct'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    for (const child of processes) child.kill('SIGTERM');
  });

  it('authorizes with Open Auth Settings → Quick OAuth Flow once the admin allows it, then connects and lists the tools', async () => {
    const serverUrl = `${gateway.url}/api/mcp`;
    await page.goto(`${inspectorUrl}/?transport=streamable-http&serverUrl=${encodeURIComponent(serverUrl)}`);
    await page.getByRole('button', { name: 'Open Auth Settings' }).click();
    await page.getByRole('button', { name: 'Quick OAuth Flow' }).click();

    // discovery and registration in the browser, then the consent page, through sign-in
    await page.waitForURL((at) => at.href.startsWith(gateway.url), { timeout: 20_000 });
    if (new URL(page.url()).pathname === '/dashboard/sign-in') {
      await page.getByLabel('Admin API key').fill(gateway.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((at) => at.pathname === '/dashboard/authorize');
    }
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Allow MCP Inspector to use this gateway?');
    expect(await page.locator('.lead').textContent()).toContain(`sent back to ${new URL(inspectorUrl).host}`);
    await page.getByRole('group', { name: 'Notion' }).getByRole('radio', { name: 'Read', exact: true }).check();
    await page.getByRole('button', { name: 'Allow' }).click();

    // back on the Inspector: it exchanges the code; Connect then uses the token
    await page.waitForURL((at) => at.href.startsWith(inspectorUrl), { timeout: 20_000 });
    await expect.poll(() => page.getByText('Authentication Complete').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => page.getByText('Connected', { exact: true }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Tools' }).click();
    await page.getByRole('button', { name: 'List Tools' }).click();
    await expect.poll(() => page.getByText('call_notion').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  });

  it('starts its OAuth flow from Connect itself: the 401 sends it to consent, and it comes back connected', async () => {
    const fresh = await (await browser.newContext()).newPage();
    await fresh.addInitScript(() => localStorage.setItem('lastConnectionType', 'direct'));
    const serverUrl = `${gateway.url}/api/mcp`;
    await fresh.goto(`${inspectorUrl}/?transport=streamable-http&serverUrl=${encodeURIComponent(serverUrl)}`);
    await fresh.getByRole('button', { name: 'Connect', exact: true }).click();
    await fresh.waitForURL((at) => at.href.startsWith(gateway.url), { timeout: 20_000 });
    if (new URL(fresh.url()).pathname === '/dashboard/sign-in') {
      await fresh.getByLabel('Admin API key').fill(gateway.key);
      await fresh.getByRole('button', { name: 'Sign in' }).click();
      await fresh.waitForURL((at) => at.pathname === '/dashboard/authorize');
    }
    await fresh.getByRole('group', { name: 'Notion' }).getByRole('radio', { name: 'Read', exact: true }).check();
    await fresh.getByRole('button', { name: 'Allow' }).click();
    await fresh.waitForURL((at) => at.href.startsWith(inspectorUrl), { timeout: 20_000 });
    await expect.poll(() => fresh.getByText('Connected', { exact: true }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await fresh.getByRole('tab', { name: 'Tools' }).click();
    await fresh.getByRole('button', { name: 'List Tools' }).click();
    await expect.poll(() => fresh.getByText('call_notion').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  });
});
