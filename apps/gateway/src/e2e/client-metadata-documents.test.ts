import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { MemoryProvider, metadataDocumentHost } from './oauth-client.test-support.js';

/**
 * Client ID Metadata Documents with the gateway's default policy (no PORTICO_OAUTH_CIMD_ALLOW_HOSTS): the official
 * SDK client offers its https client_id, and an admin who opens the authorization URL is shown why it was refused;
 * the document host never hears from the gateway. mcp-authorization.browser.test.ts runs the accepted path.
 */
const REDIRECT = 'http://127.0.0.1:9/callback';
const metadata: OAuthClientMetadata = {
  client_name: 'Document client',
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: 'none',
};

let gateway: TestGateway;
let host: Awaited<ReturnType<typeof metadataDocumentHost>>;
let cookie: string;
beforeAll(async () => {
  host = await metadataDocumentHost(metadata);
  gateway = await startTestGateway({ sandbox: true });
  const signIn = await fetch(`${gateway.url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key: gateway.key }).toString(),
  });
  cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
});
afterAll(async () => {
  await gateway?.close();
  await host?.close();
});

/** What the signed-in admin sees on opening an authorization URL naming `clientId`. */
async function consentPage(clientId: string): Promise<{ status: number; text: string }> {
  const url = new URL(`${gateway.url}/dashboard/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 's',
  })) {
    url.searchParams.set(name, value);
  }
  const page = await fetch(url, { redirect: 'manual', headers: { cookie } });
  return { status: page.status, text: await page.text() };
}

describe('Client ID Metadata Documents under the default policy', () => {
  it('the SDK client takes the metadata-document path, and the admin is told the loopback document was refused', async () => {
    const server = (await (await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server.client_id_metadata_document_supported).toBe(true);

    const provider = new MemoryProvider(REDIRECT, metadata, host.clientId);
    const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/api/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'x', version: '1' }).connect(transport)).rejects.toThrow(/Unauthorized/);
    const opened = provider.opened();
    expect(opened.searchParams.get('client_id')).toBe(host.clientId);
    const page = await fetch(opened, { redirect: 'manual', headers: { cookie } });
    expect(page.status).toBe(400);
    const text = await page.text();
    expect(text).toContain('This authorization request is not valid');
    expect(text).toContain('127.0.0.1 is not a public address');
    expect(text).not.toContain('name="decision"');
    expect(host.fetched).toBe(0);
  });

  it.each([
    ['IPv6 loopback', 'https://[::1]:8443/client.json', /::1 is not a public address/],
    ['link-local', 'https://169.254.1.2/client.json', /169\.254\.1\.2 is not a public address/],
    ['private 10/8', 'https://10.20.30.40/client.json', /10\.20\.30\.40 is not a public address/],
    ['private 172.16/12', 'https://172.16.0.9/client.json', /172\.16\.0\.9 is not a public address/],
    ['private 192.168/16', 'https://192.168.0.9/client.json', /192\.168\.0\.9 is not a public address/],
    [
      'a name resolving to loopback',
      'https://localhost:8443/client.json',
      /localhost resolves to (127\.0\.0\.1|::1), which is not a public address/,
    ],
    ['http', 'http://app.example.com/client.json', /must be https/],
  ])('refused: %s', async (_, clientId, message) => {
    const page = await consentPage(clientId);
    expect(page.status, page.text.slice(0, 3000)).toBe(400);
    expect(page.text).toMatch(message);
  });
});
