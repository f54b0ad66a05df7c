import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, type SandboxServer } from '@portico/core';
import { lawmaticsPlugin } from '@portico/plugin-crm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOAuthGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Connecting Lawmatics with OAuth, end to end: the Lawmatics sandbox plays Lawmatics' authorization server
 * (`GET /oauth/authorize`, `POST /oauth/token` at its origin) and its API; the gateway is a plain one (not in sandbox
 * mode) pointed at it by configuration, so the only credential it has is the token the flow stores.
 */
let sandbox: SandboxServer;
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ sandbox, gateway, client } = await startOAuthGateway(lawmaticsPlugin));
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await sandbox?.close();
});

async function getMe() {
  const rest = await gateway.rest('GET', '/api/v1/lawmatics/users/me');
  const mcp = await client.callTool({ name: 'call_lawmatics', arguments: { method: 'get_me', params: {} } });
  return { rest, mcp };
}

describe('Lawmatics OAuth: connect in the browser, then call', () => {
  it('is not connected before the flow', async () => {
    const { rest, mcp } = await getMe();
    expect(rest.status).toBe(424);
    expect(rest.body).toMatchObject({ error: true, code: 'not_connected' });
    expect(mcp.isError).toBe(true);
    expect(mcp.structuredContent).toEqual(rest.body);
  });

  it('connects through Lawmatics’ authorize and token endpoints, stores a token without expiry, and calls with it', async () => {
    // The admin starts the connection: 302 to Lawmatics' authorize page.
    const start = await fetch(`${gateway.url}/api/connect/lawmatics`, {
      headers: { authorization: `Bearer ${gateway.key}` },
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location') as string);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${new URL(sandbox.url).origin}/oauth/authorize`);
    expect(authorize.searchParams.get('client_id')).toBe('portico-test-app');
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${gateway.url}/api/connect/lawmatics/callback`);
    expect(authorize.searchParams.get('state')).toBeTruthy();

    // The user approves at Lawmatics: 302 back to the gateway's callback with the code and the state.
    const atLawmatics = await fetch(authorize, { redirect: 'manual' });
    expect(atLawmatics.status).toBe(302);
    const callback = new URL(atLawmatics.headers.get('location') as string);
    expect(`${callback.origin}${callback.pathname}`).toBe(`${gateway.url}/api/connect/lawmatics/callback`);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe(authorize.searchParams.get('state'));

    // The gateway exchanges the code (client credentials in the form body) and says so.
    const back = await fetch(callback);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('Lawmatics is connected');

    const stored = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'lawmatics');
    expect(stored).toMatchObject({ kind: 'oauth2', status: 'active', expiresAt: null });
    expect(stored?.secret).toMatch(/^enc1:/);

    // Calls use the stored token (the gateway has no other credential for Lawmatics), over REST and MCP alike.
    const { rest, mcp } = await getMe();
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ data: { id: '11', type: 'user', attributes: { name: 'Margaret Harlow' } } });
    expect(mcp.isError).toBeFalsy();
    expect(mcp.structuredContent).toEqual(rest.body);
  });

  it('keeps working much later: the token does not expire and nothing is refreshed', async () => {
    const before = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'lawmatics');
    expect(before?.expiresAt).toBeNull();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 400 * 24 * 3600 * 1000); // more than a year later
    const { rest, mcp } = await getMe();
    expect(rest.status).toBe(200);
    expect(mcp.structuredContent).toEqual(rest.body);
    const prospects = await gateway.rest('GET', '/api/v1/lawmatics/prospects?filter_by=status&filter_on=lost');
    expect(prospects.status).toBe(200);
    expect((prospects.body as { meta: { total_entries: number } }).meta.total_entries).toBe(2);
    // The stored connection was not rewritten: no refresh happened (Lawmatics issues no refresh token).
    expect(await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'lawmatics')).toEqual(before);
  });
});
