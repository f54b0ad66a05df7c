import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';
import { callWith, dashboardAs } from './hostile.test-support.js';

/**
 * Consent and revocation within the powers of whoever signs the consent page, over HTTP as a browser sends the forms:
 * a narrowed admin approves nothing wider than itself, a grant never outlives or outgrows the key that approved it,
 * revocation is held to the same rule, and a tool set bound to a live grant cannot be swapped under it.
 */
let gateway: TestGateway;

/** An admin key of the default workspace, narrowed as given. */
async function adminKey(narrowing: Record<string, unknown>): Promise<{ key: string; id: string }> {
  const created = await callWith(gateway, gateway.key, 'POST', '/api/admin/keys', {
    name: `admin-${Date.now()}`,
    admin: true,
    ...narrowing,
  });
  expect(created.status).toBe(201);
  return created.body as { key: string; id: string };
}

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
});

describe('consent within the powers of the person who gives it', () => {
  it('an admin key narrowed to Notion, read-only, approves neither another service nor a write; within itself it may', async () => {
    const narrow = await adminKey({ services: ['notion'], read_only: true });
    await expect(obtainGrant(gateway.url, narrow.key, { access_clio: 'write', access_notion: 'read', expires: '1' })).rejects.toThrow(
      /consent answered 400/,
    );
    await expect(obtainGrant(gateway.url, narrow.key, { access_notion: 'write', expires: '1' })).rejects.toThrow(/consent answered 400/);
    const within = await obtainGrant(gateway.url, narrow.key, { access_notion: 'read', expires: '1' });
    expect((await gateway.rest('GET', '/api/v1/notion/users', { key: within.accessToken })).status).toBe(200);
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: within.accessToken })).status).toBe(403);
  });

  it('the refused form is shown again naming what is wider, and sends the client nothing', async () => {
    const narrow = await adminKey({ services: ['notion'], read_only: true });
    const failure = await obtainGrant(gateway.url, narrow.key, { access_clio: 'write', expires: '1' }).catch((e: Error) => e.message);
    expect(failure).toMatch(/consent answered 400/);
    // the page itself: a tool set alone, with no service, grants nothing (it used to mean every service)
    const session = await dashboardAs(gateway, gateway.key);
    const registered = (await (
      await fetch(`${gateway.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Form test', redirect_uris: ['http://127.0.0.1:9/cb'] }),
      })
    ).json()) as { client_id: string };
    const request = {
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: 'http://127.0.0.1:9/cb',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 's',
    };
    expect((await callWith(gateway, gateway.key, 'PUT', '/api/admin/tool-sets/reads', { rules: ['clio:list_matters'] })).status).toBe(201);
    const answer = await session.post('/dashboard/authorize', { ...request, tool_set: 'reads', expires: '90', decision: 'approve' });
    expect(answer.status).toBe(400);
    const page = await answer.text();
    expect(page).toContain('Choose at least one service the client may use.');
    expect(page).toContain('name="client_id"'); // the form again, with the request it carries
    expect(answer.headers.get('location')).toBeNull();
  });

  it('a grant stops working when the key that approved it is revoked', async () => {
    const approver = await adminKey({});
    const grant = await obtainGrant(gateway.url, approver.key, { access_notion: 'read', expires: '1' });
    expect((await gateway.rest('GET', '/api/v1/notion/users', { key: grant.accessToken })).status).toBe(200);
    expect((await callWith(gateway, gateway.key, 'DELETE', `/api/admin/keys/${approver.id}`)).status).toBeLessThan(300);
    expect((await gateway.rest('GET', '/api/v1/notion/users', { key: grant.accessToken })).status).toBe(401);
  });

  it('a narrowed admin cannot revoke a grant wider than itself; one within itself it can', async () => {
    const wide = await obtainGrant(gateway.url, gateway.key, { access_clio: 'write', expires: '1' }, 'Wide client');
    const small = await obtainGrant(gateway.url, gateway.key, { access_notion: 'read', expires: '1' }, 'Small client');
    const grants = (await gateway.runtime.engine.store.authorization.listGrants('default')).filter((g) => !g.revokedAt);
    const idOf = (name: string) => grants.find((g) => g.clientName === name)?.id as string;
    const narrow = await adminKey({ services: ['notion'], read_only: true });
    const session = await dashboardAs(gateway, narrow.key);
    await session.post(`/dashboard/grants/${idOf('Wide client')}/revoke`, {});
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: wide.accessToken })).status).toBe(200);
    await session.post(`/dashboard/grants/${idOf('Small client')}/revoke`, {});
    expect((await gateway.rest('GET', '/api/v1/notion/users', { key: small.accessToken })).status).toBe(401);
  });

  it('a tool set bound to a live grant cannot be deleted (and saved again with other rules under it)', async () => {
    expect((await callWith(gateway, gateway.key, 'PUT', '/api/admin/tool-sets/intake', { rules: ['clio:list_matters'] })).status).toBe(201);
    const grant = await obtainGrant(gateway.url, gateway.key, { access_clio: 'write', tool_set: 'intake', expires: '1' });
    const deleted = await callWith(gateway, gateway.key, 'DELETE', '/api/admin/tool-sets/intake');
    expect(deleted.status).toBe(409);
    expect((deleted.body as { message: string }).message).toContain('grant');
    expect(
      (await gateway.rest('POST', '/api/v1/clio/contacts', { key: grant.accessToken, body: { name: 'X', type: 'Person' } })).status,
    ).toBe(403);
  });
});
