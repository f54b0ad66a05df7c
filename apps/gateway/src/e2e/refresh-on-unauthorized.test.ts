import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectionAad, DEFAULT_WORKSPACE, type SandboxServer } from '@portico/core';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthGateway, type TestGateway } from '../gateway.test-support.js';
import { keyFile, readKeyFile } from '../runtime/key-file.js';

/**
 * An upstream that refuses an access token before it expires (revoked early, rotated by the provider, or a token the
 * provider gave no lifetime): Clio's sandbox plays the API and its OAuth provider, and its `/__sandbox/fail-next`
 * answers one request with 401. A connection with a refresh token is refreshed once and the call sent again when that
 * is safe; only a refused refresh token ends the connection.
 */
let sandbox: SandboxServer;
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ sandbox, gateway, client } = await startOAuthGateway(clioPlugin, { revokePath: '/oauth/deauthorize' }));
  const start = await fetch(`${gateway.url}/api/connect/clio`, { headers: { authorization: `Bearer ${gateway.key}` }, redirect: 'manual' });
  const atClio = await fetch(new URL(start.headers.get('location') as string), { redirect: 'manual' });
  expect((await fetch(new URL(atClio.headers.get('location') as string))).status).toBe(200);
});
afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await sandbox?.close();
});

const origin = () => new URL(sandbox.url).origin;
const apiPath = () => new URL(sandbox.url).pathname.replace(/\/$/, '');

async function failNext(spec: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${origin()}/__sandbox/fail-next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(response.status).toBe(200);
}

/** The stored connection: its version (one more per refresh), status and decrypted tokens. */
async function stored() {
  const record = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'clio');
  if (!record) throw new Error('clio is not connected');
  const credentials = JSON.parse(
    readKeyFile(keyFile(gateway.runtime.config)).decrypt(record.secret, connectionAad(DEFAULT_WORKSPACE, 'clio')),
  );
  return { version: record.version, status: record.status, credentials };
}

const whoAmIRest = () => gateway.rest('GET', '/api/v1/clio/users/who_am_i?fields=id,name');
const whoAmIMcp = () => client.callTool({ name: 'call_clio', arguments: { method: 'get_current_user', params: { fields: 'id,name' } } });
const refused401 = () => failNext({ status: 401, match: `${apiPath()}/users/who_am_i` });

describe('an upstream 401 on an OAuth connection with a refresh token', () => {
  it('REST: one refresh, the call sent again, and the caller sees only the answer', async () => {
    const before = await stored();
    await refused401();
    const answer = await whoAmIRest();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ data: { id: 1001, name: 'Margaret Harlow' } });
    const after = await stored();
    expect(after.version).toBe(before.version + 1); // exactly one refresh was stored
    expect(after.credentials.accessToken).not.toBe(before.credentials.accessToken);
    expect(after.credentials.refreshToken).toBe(before.credentials.refreshToken); // Clio's refresh tokens are reusable
    expect(after.status).toBe('active');
    expect((await whoAmIRest()).status).toBe(200); // and the next call uses the new token without another refresh
    expect((await stored()).version).toBe(after.version);
  });

  it('MCP: the same, through the tool call', async () => {
    const before = await stored();
    await refused401();
    const answer = await whoAmIMcp();
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
    expect(answer.structuredContent).toEqual({ data: { id: 1001, name: 'Margaret Harlow' } });
    expect((await stored()).version).toBe(before.version + 1);
  });

  it('a POST is not sent twice: the caller is told the credentials were refreshed and to send it again', async () => {
    const notes = async () =>
      ((await gateway.rest('GET', '/api/v1/clio/notes?type=Matter&matter_id=3001')).body as { data: unknown[] }).data.length;
    const count = await notes();
    const before = await stored();
    await failNext({ status: 401, match: `POST ${apiPath()}/notes` });
    const note = { type: 'Matter', matter: { id: 3001 }, contact: { id: 2001 }, subject: 'Call with opposing counsel' };
    const refused = await gateway.rest('POST', '/api/v1/clio/notes', { body: note });
    expect(refused.status, JSON.stringify(refused.body)).toBe(502);
    expect(refused.body).toMatchObject({ error: true, code: 'upstream_unauthorized' });
    expect((refused.body as { message: string }).message).toMatch(/refreshed.*not sent again.*send the call again/);
    expect((await stored()).version).toBe(before.version + 1); // the refresh happened all the same
    expect(await notes()).toBe(count); // nothing was written
    const again = await gateway.rest('POST', '/api/v1/clio/notes', { body: note });
    expect(again.status, JSON.stringify(again.body)).toBeLessThan(300);
    expect(await notes()).toBe(count + 1);
    expect((await stored()).version).toBe(before.version + 1); // the second send needed no refresh
  });

  it('a 401 that persists after the refresh is answered as before: one refresh, no loop', async () => {
    const before = await stored();
    await failNext({ status: 401, match: `${apiPath()}/users/who_am_i`, count: 2 });
    const answer = await whoAmIRest();
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ code: 'upstream_unauthorized' });
    expect((await stored()).version).toBe(before.version + 1);
    expect((await whoAmIRest()).status).toBe(200);
  });

  it('a refresh token the provider refuses marks the connection needs_reconnect: 424 on both doors', async () => {
    const { credentials } = await stored();
    // The firm deauthorizes the app at Clio: the access token and its refresh token are revoked there.
    const revoked = await fetch(`${origin()}/oauth/deauthorize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credentials.accessToken}` },
    });
    expect(revoked.status).toBe(200);
    const answer = await whoAmIRest();
    expect(answer.status).toBe(424);
    expect(answer.body).toMatchObject({ code: 'not_connected' });
    expect((await stored()).status).toBe('needs_reconnect');
    const mcp = await whoAmIMcp();
    expect(mcp.isError).toBe(true);
    expect(JSON.stringify(mcp.content)).toContain('not_connected');
  });
});

describe('an upstream 401 on a connection without a refresh token', () => {
  it('keeps today’s answer: 502 upstream_unauthorized, and the connection is left as it is', async () => {
    await gateway.runtime.engine.saveConnection(DEFAULT_WORKSPACE, 'clio', 'token', { accessToken: 'revoked-or-never-valid' });
    const before = await stored();
    const answer = await whoAmIRest();
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ error: true, code: 'upstream_unauthorized' });
    expect((answer.body as { message: string }).message).toContain('reconnect');
    const after = await stored();
    expect(after.version).toBe(before.version);
    expect(after.status).toBe('active');
  });
});
