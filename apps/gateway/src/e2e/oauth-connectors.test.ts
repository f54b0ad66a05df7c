import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { approveAsAdmin } from '../grants.test-support.js';

/**
 * Registrations as hosted connectors and native clients send them, over HTTP: Claude's (it asks for
 * `client_secret_post`), ChatGPT's, a native client on a loopback port other than the one it registered. Each is
 * registered, approved by an admin signed in to the dashboard, exchanged for tokens the way that client authenticates
 * at the token endpoint, and used on the MCP door.
 */
type Json = Record<string, unknown>;

const CLAUDE = {
  client_name: 'Claude',
  redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_post',
  scope: 'claudeai',
};
const CHATGPT = {
  client_name: 'ChatGPT',
  redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
};
const CHOICES = { access_notion: 'read', expires: '1' };

let gateway: TestGateway;
const clients: Client[] = [];
beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await gateway?.close();
});

async function register(metadata: Json): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${gateway.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

function authorizationUrl(clientId: string, redirectUri: string, extra: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${gateway.url}/dashboard/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'connector-state',
    resource: `${gateway.url}/api/mcp`,
    ...extra,
  })) {
    url.searchParams.set(name, value);
  }
  return { url, verifier };
}

const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function toolsWith(accessToken: string): Promise<string[]> {
  const client = await connectMcp(gateway.url, accessToken);
  clients.push(client);
  return (await client.listTools()).tools.map((tool) => tool.name);
}

describe('registrations shaped like hosted connectors', () => {
  it('Claude: asks for client_secret_post, is registered as public, sends a client_secret at the token endpoint, connects', async () => {
    const registered = await register(CLAUDE);
    expect(registered.status).toBe(201);
    expect(registered.body.token_endpoint_auth_method).toBe('none');
    expect(registered.body).not.toHaveProperty('client_secret');
    const clientId = registered.body.client_id as string;

    const { url, verifier } = authorizationUrl(clientId, CLAUDE.redirect_uris[0] as string);
    const back = await approveAsAdmin(gateway.url, gateway.key, url, CHOICES);
    expect(back.origin + back.pathname).toBe('https://claude.ai/api/mcp/auth_callback');
    expect(back.searchParams.get('state')).toBe('connector-state');

    const exchanged = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') as string,
      code_verifier: verifier,
      redirect_uri: CLAUDE.redirect_uris[0] as string,
      client_id: clientId,
      client_secret: 'a-secret-nobody-issued',
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as Json;
    expect((await toolsWith(tokens.access_token as string)).length).toBeGreaterThan(0);

    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token as string,
      client_id: clientId,
      client_secret: '',
    });
    expect(refreshed.status).toBe(200);
  });

  it('ChatGPT: its callback, and HTTP Basic client credentials with no client_id in the form, connects', async () => {
    const registered = await register(CHATGPT);
    expect(registered.status).toBe(201);
    expect(registered.body.token_endpoint_auth_method).toBe('none');
    const clientId = registered.body.client_id as string;

    const { url, verifier } = authorizationUrl(clientId, CHATGPT.redirect_uris[0] as string);
    const back = await approveAsAdmin(gateway.url, gateway.key, url, CHOICES);
    expect(back.origin + back.pathname).toBe('https://chatgpt.com/connector_platform_oauth_redirect');
    const code = back.searchParams.get('code') as string;
    const fields = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CHATGPT.redirect_uris[0] as string };

    // a Basic client id that is not the form's is refused before the code is looked at (so the code stays good)
    const mismatched = await token({ ...fields, client_id: clientId }, { authorization: basic('client_other', 'x') });
    expect(mismatched.status).toBe(401);
    expect(mismatched.headers.get('www-authenticate')).toBe('Basic realm="portico"');
    expect(((await mismatched.json()) as Json).error).toBe('invalid_client');
    const empty = await token(fields, { authorization: `Basic ${Buffer.from(':x').toString('base64')}` });
    expect(empty.status).toBe(401);

    const exchanged = await token(fields, { authorization: basic(clientId, 'whatever') });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as Json;
    expect((await toolsWith(tokens.access_token as string)).length).toBeGreaterThan(0);

    // the Basic id still names the client: another client's id cannot refresh this grant's token
    const other = (await register({ ...CHATGPT, client_name: 'Other' })).body.client_id as string;
    const stolen = await token(
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
      { authorization: basic(other, '') },
    );
    expect(stolen.status).toBe(400);
    expect(((await stolen.json()) as Json).error).toBe('invalid_grant');

    // revocation (RFC 7009) with the same Basic credentials ends the grant
    const revoked = await fetch(`${gateway.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(clientId, '') },
      body: new URLSearchParams({ token: tokens.access_token as string }).toString(),
    });
    expect(revoked.status).toBe(200);
    const after = await fetch(`${gateway.url}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
  });

  it('a native client registered on one loopback port is sent back to the port it asks for, and redeems there', async () => {
    const registered = await register({ client_name: 'Editor', redirect_uris: ['http://127.0.0.1:33418/callback'] });
    const clientId = registered.body.client_id as string;
    const redirect = 'http://127.0.0.1:50999/callback';
    const { url, verifier } = authorizationUrl(clientId, redirect);
    const back = await approveAsAdmin(gateway.url, gateway.key, url, CHOICES);
    expect(back.origin + back.pathname).toBe(redirect);
    const exchanged = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') as string,
      code_verifier: verifier,
      redirect_uri: redirect,
      client_id: clientId,
    });
    expect(exchanged.status).toBe(200);
  });

  it('an error in a request of a client nobody approved is shown to the signed-in admin, not sent to its redirect URI', async () => {
    const registered = await register({ client_name: 'Lure', redirect_uris: ['https://phish.example/landing'] });
    const { url } = authorizationUrl(registered.body.client_id as string, 'https://phish.example/landing', { response_type: 'token' });
    const signIn = await fetch(`${gateway.url}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: gateway.key }).toString(),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = await fetch(url, { redirect: 'manual', headers: { cookie } });
    expect(page.headers.get('location')).toBeNull();
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('unsupported_response_type');
  });
});
