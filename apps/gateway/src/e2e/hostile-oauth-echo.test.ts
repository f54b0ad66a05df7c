import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * A provider whose token endpoint echoes the request in `error_description` could put `Basic <base64 client id:secret>`
 * on the callback page, and on refresh put the refresh token and the Basic value in a read-only agent's REST and MCP
 * error. Here the token endpoint echoes everything it received — the Authorization
 * header, the form body as sent, URL-decoded, in base64 and URL-encoded — and no form of a secret may reach what the
 * browser or the agent sees.
 */

const CLIENT_ID = 'portico-echo-client';
const CLIENT_SECRET = 'echo-client-secret-Zq9/+x';
const REFRESH_TOKEN = 'rt-echo-refresh-token-7c1d';

let echo: Server;
let echoUrl = '';
let gateway: TestGateway;
let client: Client;
let readOnlyKey = '';
/** How the token endpoint echoes: every form at once, or only the whole request body in one encoding. */
let echoShape: 'everything' | 'base64' | 'hex' = 'everything';

beforeAll(async () => {
  echo = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url?.startsWith('/oauth/token')) {
        const auth = req.headers.authorization ?? '';
        const description =
          echoShape === 'everything'
            ? everything(body, auth)
            : `received ${Buffer.from(body).toString(echoShape === 'hex' ? 'hex' : 'base64')}`;
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_request', error_description: description }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [] }));
    });
  });
  const everything = (body: string, auth: string) => {
    const decoded = decodeURIComponent(body.replace(/\+/g, ' '));
    return [
      `you sent ${auth}`,
      `body ${body}`,
      `decoded ${decoded}`,
      `b64 ${Buffer.from(body).toString('base64')}`,
      `b64 secret ${Buffer.from(CLIENT_SECRET).toString('base64')}`,
      `enc ${encodeURIComponent(decoded)}`,
      `basic-decoded ${Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString()}`,
    ].join('; ');
  };
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  gateway = await startTestGateway({
    plugins: [examplePlugin],
    env: {
      PORTICO_EXAMPLE_BASE_URL: echoUrl,
      PORTICO_EXAMPLE_CLIENT_ID: CLIENT_ID,
      PORTICO_EXAMPLE_CLIENT_SECRET: CLIENT_SECRET,
      PORTICO_EXAMPLE_OAUTH_AUTHORIZE_URL: `${echoUrl}/oauth/authorize`,
      PORTICO_EXAMPLE_OAUTH_TOKEN_URL: `${echoUrl}/oauth/token`,
    },
  });
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
  const key = await gateway.rest('POST', '/api/admin/keys', { body: { name: 'agent', read_only: true } });
  readOnlyKey = (key.body as { key: string }).key;
  client = await connectMcp(gateway.url, readOnlyKey);
}, 30_000);
afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await new Promise<void>((resolve) => echo?.close(() => resolve()));
});

/** Every form in which a secret the gateway sent could come back. */
function secretForms(...values: string[]): string[] {
  const forms: string[] = [];
  for (const value of values) {
    const base64 = Buffer.from(value).toString('base64');
    forms.push(value, encodeURIComponent(value), base64, base64.replace(/=+$/, ''), Buffer.from(value).toString('base64url'));
  }
  return forms;
}

const basic = Buffer.from(`${encodeURIComponent(CLIENT_ID)}:${encodeURIComponent(CLIENT_SECRET)}`).toString('base64');

describe('an OAuth token endpoint echoing the request', () => {
  it('reaches the callback page with no form of the client secret, the Basic value, the code or the verifier', async () => {
    const started = await gateway.rest('POST', '/api/admin/connections/example/authorize');
    const authorize = new URL((started.body as { authorize_url: string }).authorize_url);
    const code = 'code-echo-authorization-9f2';
    const page = await fetch(`${gateway.url}/api/connect/example/callback?state=${authorize.searchParams.get('state')}&code=${code}`);
    const text = await page.text();
    expect(text).toContain('invalid_request'); // the provider's refusal is shown…
    expect(text).toContain('[redacted]'); // …with what it echoed blanked out
    for (const form of [...secretForms(CLIENT_SECRET, `${CLIENT_ID}:${CLIENT_SECRET}`, code), basic])
      expect(text, form).not.toContain(form);
  });

  it('reaches a read-only agent over REST and MCP with no form of the refresh token, the secret or the Basic value', async () => {
    await gateway.runtime.engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', {
      accessToken: 'expired-access-token',
      refreshToken: REFRESH_TOKEN,
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const rest = await gateway.rest('GET', '/api/v1/example/items', { key: readOnlyKey });
    expect(rest.status).toBeGreaterThanOrEqual(400);
    const mcp = await client.callTool({ name: 'call_example', arguments: { method: 'list_items', params: {} } });
    expect(mcp.isError).toBe(true);
    for (const [door, seen] of [
      ['REST', JSON.stringify(rest.body)],
      ['MCP', JSON.stringify(mcp.content)],
    ] as const) {
      expect(seen, door).toContain('invalid_request');
      for (const form of [...secretForms(CLIENT_SECRET, REFRESH_TOKEN, `${CLIENT_ID}:${CLIENT_SECRET}`), basic])
        expect(seen, `${door} ${form}`).not.toContain(form);
    }
  });
});

/** Every run of base64 or hex characters in `text`, decoded at every alignment: what a reader could recover from it. */
function recoverable(text: string): string {
  const decoded: string[] = [];
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    if (/^[0-9a-fA-F]+$/.test(run)) decoded.push(Buffer.from(run.slice(0, run.length - (run.length % 2)), 'hex').toString('latin1'));
    for (let offset = 0; offset < 4; offset++) decoded.push(Buffer.from(run.slice(offset), 'base64').toString('latin1'));
  }
  return decoded.join('\n');
}

describe('an OAuth token endpoint echoing the whole request body, encoded', () => {
  afterAll(() => {
    echoShape = 'everything';
  });

  for (const shape of ['base64', 'hex'] as const) {
    it(`in ${shape}: the callback page and a read-only agent can decode no secret from it`, async () => {
      echoShape = shape;
      const started = await gateway.rest('POST', '/api/admin/connections/example/authorize');
      const authorize = new URL((started.body as { authorize_url: string }).authorize_url);
      const code = `code-echo-${shape}-authorization-4e1`;
      const page = await (
        await fetch(`${gateway.url}/api/connect/example/callback?state=${authorize.searchParams.get('state')}&code=${code}`)
      ).text();
      expect(page).toContain('invalid_request');
      expect(page).toContain('[redacted]');
      expect(recoverable(page)).not.toContain(code);

      await gateway.runtime.engine.saveConnection(DEFAULT_WORKSPACE, 'example', 'oauth2', {
        accessToken: 'expired-access-token',
        refreshToken: REFRESH_TOKEN,
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      const rest = await gateway.rest('GET', '/api/v1/example/items', { key: readOnlyKey });
      const mcp = await client.callTool({ name: 'call_example', arguments: { method: 'list_items', params: {} } });
      for (const [door, seen] of [
        ['REST', JSON.stringify(rest.body)],
        ['MCP', JSON.stringify(mcp.content)],
      ] as const) {
        expect(seen, door).toContain('invalid_request');
        expect(recoverable(seen), door).not.toContain(REFRESH_TOKEN);
      }
    });
  }
});
