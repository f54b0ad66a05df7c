import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, type SandboxServer } from '@portico/core';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOAuthGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Connecting Clio with OAuth, end to end: the Clio sandbox plays Clio's authorization server (`/oauth/authorize`,
 * `/oauth/token`, `/oauth/deauthorize` at its origin) and its API; the gateway is a plain one pointed at it by
 * configuration, so the only credential it has is what the flow stores. Clio Manage access tokens last 30 days and
 * its refresh tokens are reusable: a refresh answer carries no new refresh token, and the stored one must serve again.
 */
let sandbox: SandboxServer;
let gateway: TestGateway;
let client: Client;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  ({ sandbox, gateway, client } = await startOAuthGateway(clioPlugin, { revokePath: '/oauth/deauthorize' }));
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await sandbox?.close();
});

async function whoAmI() {
  const rest = await gateway.rest('GET', '/api/v1/clio/users/who_am_i?fields=id,name');
  const mcp = await client.callTool({ name: 'call_clio', arguments: { method: 'get_current_user', params: { fields: 'id,name' } } });
  return { rest, mcp };
}

describe('Clio OAuth: connect, call, refresh after 30 days with the same refresh token, disconnect', () => {
  it('connects through Clio’s authorize and token endpoints and calls with the stored token', async () => {
    const start = await fetch(`${gateway.url}/api/connect/clio`, {
      headers: { authorization: `Bearer ${gateway.key}` },
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location') as string);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${new URL(sandbox.url).origin}/oauth/authorize`);
    const atClio = await fetch(authorize, { redirect: 'manual' });
    expect(atClio.status).toBe(302);
    const back = await fetch(new URL(atClio.headers.get('location') as string));
    expect(back.status).toBe(200);

    const stored = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'clio');
    expect(stored).toMatchObject({ kind: 'oauth2', status: 'active' });
    const lifetime = Date.parse(stored?.expiresAt as string) - Date.now();
    expect(lifetime).toBeGreaterThan(29 * DAY);
    expect(lifetime).toBeLessThanOrEqual(30 * DAY);
    expect(stored?.secret).toMatch(/^enc1:/);
    // whom the authorization acts as, asked of Clio when it was stored
    expect(stored?.meta.acting_as).toMatchObject({ user: { id: '1001', name: 'Margaret Harlow' } });

    const { rest, mcp } = await whoAmI();
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ data: { id: 1001, name: 'Margaret Harlow' } });
    expect(mcp.structuredContent).toEqual(rest.body);
  });

  it('refreshes once the 30 days are over, and again 30 days later with the refresh token it kept', async () => {
    const first = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'clio');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * DAY);
    expect((await whoAmI()).rest.status).toBe(200);
    const second = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'clio');
    expect(Date.parse(second?.expiresAt as string)).toBeGreaterThan(Date.parse(first?.expiresAt as string));
    // Clio sent no new refresh token: the second refresh works only if the first one's was kept.
    vi.setSystemTime(Date.now() + 31 * DAY);
    const { rest, mcp } = await whoAmI();
    expect(rest.status).toBe(200);
    expect(mcp.structuredContent).toEqual(rest.body);
    const third = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'clio');
    expect(Date.parse(third?.expiresAt as string)).toBeGreaterThan(Date.parse(second?.expiresAt as string));
  });

  it('disconnecting deauthorizes the app at Clio', async () => {
    const res = await gateway.rest('DELETE', '/api/admin/connections/clio');
    expect(res.status).toBe(200);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ deleted: true, revoked: true });
    expect((await whoAmI()).rest.status).toBe(424);
  });
});
