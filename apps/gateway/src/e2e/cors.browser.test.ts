import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Cross-origin calls to the MCP door from a web page, in Debian's Chromium (playwright-core): a page on a loopback port
 * the gateway lists in PORTICO_CORS_ORIGINS reads the 401 and its WWW-Authenticate, then calls with a bearer token (a
 * request the browser preflights); a page on another port, not listed, cannot read anything. Skipped where no Chromium
 * is installed.
 */
const CHROMIUM = process.env.PORTICO_CHROMIUM ?? '/usr/bin/chromium';
const problem = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set PORTICO_CHROMIUM)`;

/** A web site on a loopback port: one empty page. */
async function site(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>App</title><p>App');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Seen {
  status?: number;
  challenge?: string | null;
  server?: string;
  failed?: string;
}

/** What the page's own script sees of a POST /api/mcp it makes (with a token or without). */
function callFromPage(page: Page, url: string, token: string | null): Promise<Seen> {
  return page.evaluate(
    async ({ url, token }) => {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
          }),
        });
        const body = (await response.json()) as { result?: { serverInfo?: { name?: string } } };
        return { status: response.status, challenge: response.headers.get('www-authenticate'), server: body.result?.serverInfo?.name };
      } catch (error) {
        return { failed: String(error) };
      }
    },
    { url, token },
  );
}

describe.skipIf(problem)(`CORS on /api/mcp in Chromium${problem ? ` (skipped: ${problem})` : ''}`, () => {
  let listed: { origin: string; server: Server };
  let unlisted: { origin: string; server: Server };
  let gateway: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    listed = await site();
    unlisted = await site();
    gateway = await startTestGateway({ sandbox: true, env: { PORTICO_CORS_ORIGINS: listed.origin } });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    for (const s of [listed, unlisted]) s?.server.close();
  });

  it('a page of a listed origin reads the 401 and its challenge, then connects with a token', async () => {
    const page = await browser.newPage();
    await page.goto(listed.origin);
    const refused = await callFromPage(page, `${gateway.url}/api/mcp`, null);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain(`resource_metadata="${gateway.url}/.well-known/oauth-protected-resource/api/mcp"`);
    const answered = await callFromPage(page, `${gateway.url}/api/mcp`, gateway.key);
    expect(answered).toMatchObject({ status: 200, server: 'portico' });
    await page.close();
  });

  it('a page of an origin not listed cannot read an answer, with a token or without', async () => {
    const page = await browser.newPage();
    await page.goto(unlisted.origin);
    for (const token of [null, gateway.key]) {
      const seen = await callFromPage(page, `${gateway.url}/api/mcp`, token);
      expect(seen.failed, JSON.stringify(seen)).toMatch(/Failed to fetch/);
    }
    await page.close();
  });
});
