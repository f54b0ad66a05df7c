import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { MemoryProvider } from './oauth-client.test-support.js';

/**
 * The official MCP SDK client's own OAuth support, unmodified, against the built-in authorization server: discovery
 * from the 401, Dynamic Client Registration, consent (a signed-in admin posting the consent form), token exchange,
 * calls on both doors within the grant, refresh after expiry, revocation.
 */
const REDIRECT = 'http://127.0.0.1:9/callback';

const CLIENT_METADATA: OAuthClientMetadata = {
  client_name: 'SDK test client',
  redirect_uris: [REDIRECT],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};
/** A DCR client (no metadata document URL): the SDK registers it. */
const newProvider = () => new MemoryProvider(REDIRECT, CLIENT_METADATA);

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_OAUTH_ACCESS_TOKEN_SECONDS: '2' } });
});
afterAll(async () => {
  await gateway?.close();
});

const form = (path: string, fields: Record<string, string>, cookie?: string) =>
  fetch(`${gateway.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });

async function signIn(): Promise<string> {
  const response = await form('/dashboard/sign-in', { key: gateway.key });
  expect(response.status).toBe(303);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

/** The admin's part: opens the authorization URL signed in, checks what the page says, and answers the form. */
async function consent(url: URL, choices: Record<string, string>, decision = 'approve'): Promise<URL> {
  const cookie = await signIn();
  const page = await fetch(url, { redirect: 'manual', headers: { cookie } });
  expect(page.status).toBe(200);
  const text = await page.text();
  expect(text).toContain('Allow SDK test client to use this gateway?');
  expect(text).toContain('127.0.0.1:9');
  expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] as string;
  const hidden = Object.fromEntries([...text.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
  expect(hidden.code_challenge).toBe(url.searchParams.get('code_challenge'));
  const answer = await form('/dashboard/authorize', { ...hidden, _csrf: csrf, decision, ...choices }, cookie);
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location') as string);
}

async function authorizedClient(provider: MemoryProvider, choices: Record<string, string>): Promise<Client> {
  const url = new URL(`${gateway.url}/api/mcp`);
  const first = new Client({ name: 'oauth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(first.connect(transport)).rejects.toThrow(/Unauthorized/);
  expect(provider.authorizationUrl).toBeDefined();
  const back = await consent(provider.authorizationUrl as URL, choices);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('state-42');
  await transport.finishAuth(back.searchParams.get('code') as string);
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

describe('connecting with the MCP SDK client’s own OAuth support', () => {
  it('a 401 on either door names the protected-resource metadata and the read scopes; both documents list the scopes', async () => {
    const services = gateway.runtime.registry.list().map((i) => i.service);
    const reads = services.map((s) => `${s}:read`).join(' ');
    const mcp = await fetch(`${gateway.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(
      `Bearer realm="portico", resource_metadata="${gateway.url}/.well-known/oauth-protected-resource/api/mcp", scope="${reads}"`,
    );
    const rest = await gateway.rest('GET', '/api/v1/clio/matters', { key: 'portico_at_nothing' });
    expect(rest.headers.get('www-authenticate')).toBe(
      `Bearer realm="portico", resource_metadata="${gateway.url}/.well-known/oauth-protected-resource/api/v1", scope="${reads}", error="invalid_token"`,
    );
    const everyScope = services.flatMap((s) => [`${s}:read`, `${s}:write`]);
    const resource = (await (await fetch(`${gateway.url}/.well-known/oauth-protected-resource/api/mcp`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({
      resource: `${gateway.url}/api/mcp`,
      authorization_servers: [gateway.url],
      scopes_supported: everyScope,
    });
    const server = (await (await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({ issuer: gateway.url, code_challenge_methods_supported: ['S256'], scopes_supported: everyScope });
    expect(JSON.stringify(server.scopes_supported)).not.toContain('admin');
  });

  it('registers, is authorized by the admin, calls within its grant on both doors, refreshes after expiry, and ends on revoke', async () => {
    const provider = newProvider();
    const client = await authorizedClient(provider, { access_clio: 'read', expires: '1' });
    expect(provider.client?.client_id).toMatch(/^client_/);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('call_clio');
    const read = await client.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } });
    expect(read.isError, JSON.stringify(read.structuredContent)).toBeFalsy();
    // A write beyond the grant is an HTTP 403 step-up challenge; the SDK refreshes (which keeps the grant's scopes)
    // and, refused again, gives up: a new authorization is needed (the browser test steps up).
    await expect(
      client.callTool({ name: 'call_clio', arguments: { method: 'create_contact', params: { body: { name: 'X', type: 'Person' } } } }),
    ).rejects.toThrow(/403/);

    const token = provider.saved?.access_token as string;
    expect(token).toMatch(/^portico_at_/);
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: token })).status).toBe(200);
    const refused = await gateway.rest('POST', '/api/v1/clio/contacts', { key: token, body: { name: 'X', type: 'Person' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: true, code: 'forbidden' });
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(refused.headers.get('www-authenticate')).toContain('scope="clio:read clio:write"');
    expect((await gateway.rest('GET', '/api/v1/lawmatics/contacts', { key: token })).status).toBe(403);

    // The access token lives 2 s: after that the SDK meets a 401, refreshes, and retries on its own.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: token })).status).toBe(401);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const renewed = provider.saved?.access_token as string;
    expect(renewed).not.toBe(token);

    // Nothing issued is stored in plaintext.
    for (const file of readdirSync(gateway.runtime.config.dataDir)) {
      const bytes = readFileSync(join(gateway.runtime.config.dataDir, file));
      for (const secret of [renewed, provider.saved?.refresh_token as string]) expect(bytes.includes(secret)).toBe(false);
    }

    const revoke = await form('/oauth/revoke', {
      token: provider.saved?.refresh_token as string,
      client_id: provider.client?.client_id as string,
    });
    expect(revoke.status).toBe(200);
    const after = await gateway.rest('GET', '/api/v1/clio/matters', { key: renewed });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await client.close();
  });

  it('a grant is listed in the dashboard; revoking it there ends the client’s access at once, and it can be authorized again', async () => {
    const provider = newProvider();
    const client = await authorizedClient(provider, { access_clio: 'write', expires: '7' });
    expect((await client.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } })).isError).toBeFalsy();
    const cookie = await signIn();
    const list = await (await fetch(`${gateway.url}/dashboard/grants`, { headers: { cookie } })).text();
    const row = /<tr data-grant="(grant_[a-z0-9]+)">\s*<td data-label="Client"><strong>SDK test client<\/strong>/.exec(list);
    expect(row).not.toBeNull();
    expect(list).toContain('clio');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(list)?.[1] as string;
    const revoked = await form(`/dashboard/grants/${row?.[1]}/revoke`, { _csrf: csrf }, cookie);
    expect(revoked.status).toBe(303);

    const token = provider.saved?.access_token as string;
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: token })).status).toBe(401);
    // The SDK meets the 401, its refresh is refused (the grant is gone), and it starts a new authorization.
    provider.authorizationUrl = undefined;
    await expect(client.listTools()).rejects.toThrow(/Unauthorized/);
    expect(provider.authorizationUrl).toBeDefined();
    const again = await authorizedClient(provider, { access_clio: 'read', expires: '1' });
    expect((await again.listTools()).tools.map((t) => t.name)).toContain('call_clio');
    await again.close();
    await client.close();
  });

  it('a signed-out browser is sent to sign in, and back to the consent page afterwards', async () => {
    const provider = newProvider();
    const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/api/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'x', version: '1' }).connect(transport)).rejects.toThrow(/Unauthorized/);
    const url = provider.authorizationUrl as URL;
    const signedOut = await fetch(url, { redirect: 'manual' });
    expect(signedOut.status).toBe(303);
    const signInAt = signedOut.headers.get('location') as string;
    const next = new URL(signInAt, gateway.url).searchParams.get('next') as string;
    expect(next).toBe(url.pathname + url.search);
    const page = await (await fetch(new URL(signInAt, gateway.url))).text();
    expect(page).toContain('name="next"');
    const signedIn = await form('/dashboard/sign-in', { key: gateway.key, next });
    expect(signedIn.headers.get('location')).toBe(next);
    const evil = await form('/dashboard/sign-in', { key: gateway.key, next: 'https://evil.example/' });
    expect(evil.headers.get('location')).toBe('/dashboard/integrations');
  });

  it('a denied request goes back to the client with access_denied and its state', async () => {
    const provider = newProvider();
    const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/api/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'x', version: '1' }).connect(transport)).rejects.toThrow(/Unauthorized/);
    const back = await consent(provider.authorizationUrl as URL, {}, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-42');
    expect(back.searchParams.get('code')).toBeNull();
  });
});
