import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, type SandboxServer } from '@portico/core';
import { slackPlugin } from '@portico/plugin-chat';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';
import { signedInMember } from '../members.test-support.js';
import { callWith } from './hostile.test-support.js';

/**
 * Each person acts as themselves upstream. People of the firm connect their own Clio and Slack accounts from the
 * dashboard (each sandbox's login lets them sign in as themselves); the tokens their assistants were granted then act as
 * each one — Clio names each as the author of the time entry they log, Slack of the message they post — while a person
 * without an account of their own falls back to the workspace's shared connection, or is told how to connect, as the
 * integration's policy says. A call with an API key always acts as the shared connection.
 */
let sandbox: SandboxServer;
let slack: SandboxServer;
let gateway: TestGateway;
let client: Client;
const API = '/api/v1/clio';

interface Person {
  id: string;
  cookie: string;
  csrf: string;
  token: string;
}

/** A member of the workspace, signed in to the dashboard (a session as the identity provider's sign-in makes one). */
const member = (email: string, name: string) => signedInMember(gateway, email, name);

const post = (person: Omit<Person, 'token'>, path: string, form: Record<string, string> = {}) =>
  fetch(`${gateway.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: person.cookie },
    body: new URLSearchParams({ _csrf: person.csrf, ...form }).toString(),
  });

/** Connects a person's own account from the dashboard, signing in at the application's sandbox as `email`. */
async function connectOwn(person: Omit<Person, 'token'>, service: 'clio' | 'slack', email: string): Promise<void> {
  const handOff = await post(person, `/dashboard/connections/${service}/oauth`);
  expect(handOff.status).toBe(200);
  const link = /href="([^"]+)" data-follow/.exec(await handOff.text())?.[1] ?? '';
  const authorize = link.replaceAll('&amp;', '&');
  // Clio's login (the sandbox's): the gateway asks for a sign-in, so the page lists the firm's people
  const login = await fetch(authorize, { redirect: 'manual' });
  expect(login.status).toBe(200);
  const choice = new RegExp(`href="([^"]+)" data-person="${email.replace('.', '\\.')}"`).exec(await login.text())?.[1] as string;
  const signedIn = await fetch(new URL(choice.replaceAll('&amp;', '&'), authorize), { redirect: 'manual' });
  expect(signedIn.status).toBe(302);
  const back = await fetch(signedIn.headers.get('location') as string);
  expect(back.status).toBe(200);
  expect(await back.text()).toMatch(/Your (Clio Manage|Slack) account is connected/);
}

/** Posts in #general through the REST door; the author Slack names on the message. */
async function postInGeneral(token: string, text: string): Promise<string> {
  const sent = await gateway.rest('POST', '/api/v1/slack/channels/C05GENERAL1/messages', { key: token, body: { text } });
  expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
  return (sent.body as { message: { user: string } }).message.user;
}

async function logTime(token: string, note: string): Promise<string> {
  const body = { type: 'TimeEntry', date: '2026-11-27', matter: { id: 3001 }, quantity: 1800, note };
  const created = await gateway.rest('POST', `${API}/activities?fields=id`, { key: token, body });
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
  const id = (created.body as { data: { id: number } }).data.id;
  const read = await gateway.rest('GET', `${API}/activities/${id}?fields=id,user{id,name}`);
  return (read.body as { data: { user: { name: string } } }).data.user.name;
}

async function whoAmI(token: string) {
  return gateway.rest('GET', `${API}/users/who_am_i?fields=id,name`, { key: token });
}

let priya: Person;
let tom: Person;
let sofia: Person;

beforeAll(async () => {
  sandbox = await (await (clioPlugin.sandbox as NonNullable<typeof clioPlugin.sandbox>)()).startSandbox();
  slack = await (await (slackPlugin.sandbox as NonNullable<typeof slackPlugin.sandbox>)()).startSandbox();
  const clioOrigin = new URL(sandbox.url).origin;
  const slackOrigin = new URL(slack.url).origin;
  gateway = await startTestGateway({
    plugins: [clioPlugin, slackPlugin],
    env: {
      PORTICO_CLIO_BASE_URL: sandbox.url,
      PORTICO_CLIO_CLIENT_ID: 'portico-test-app',
      PORTICO_CLIO_CLIENT_SECRET: 'portico-test-secret',
      PORTICO_CLIO_OAUTH_AUTHORIZE_URL: `${clioOrigin}/oauth/authorize`,
      PORTICO_CLIO_OAUTH_TOKEN_URL: `${clioOrigin}/oauth/token`,
      PORTICO_CLIO_OAUTH_REVOKE_URL: `${clioOrigin}/oauth/deauthorize`,
      PORTICO_SLACK_BASE_URL: slack.url,
      PORTICO_SLACK_CLIENT_ID: 'portico-test-app',
      PORTICO_SLACK_CLIENT_SECRET: 'portico-test-secret',
      PORTICO_SLACK_OAUTH_AUTHORIZE_URL: `${slackOrigin}/oauth/v2/authorize`,
      PORTICO_SLACK_OAUTH_TOKEN_URL: `${slack.url}/oauth.v2.access`,
      PORTICO_SLACK_OAUTH_REVOKE_URL: `${slack.url}/auth.revoke`,
    },
  });
  for (const service of ['clio', 'slack']) {
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, service, { restEnabled: true });
  }
  client = await connectMcp(gateway.url, gateway.key);
  // the workspace's shared Slack: the app's bot, as the sandbox's token
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'slack', slack.token);
  // the workspace's shared account, connected by an admin (the sandbox's account holder, Margaret Harlow)
  const start = await fetch(`${gateway.url}/api/connect/clio`, { headers: { authorization: `Bearer ${gateway.key}` }, redirect: 'manual' });
  const atClio = await fetch(start.headers.get('location') as string, { redirect: 'manual' });
  expect((await fetch(atClio.headers.get('location') as string)).status).toBe(200);

  const people = [
    ['priya@harlowpike.example', 'Priya Raman'],
    ['tom@harlowpike.example', 'Tom Becker'],
    ['sofia@harlowpike.example', 'Sofia Alvarez'],
  ] as const;
  const signedIn = await Promise.all(people.map(([email, name]) => member(email, name)));
  await connectOwn(signedIn[0] as Person, 'clio', 'priya@harlowpike.example');
  await connectOwn(signedIn[1] as Person, 'clio', 'tom@harlowpike.example');
  await connectOwn(signedIn[0] as Person, 'slack', 'priya@harlowpike.example');
  // each person's assistant: a grant they approved on the consent page
  const tokens = await Promise.all(
    signedIn.map(
      async (person) =>
        (await obtainGrant(gateway.url, { cookie: person.cookie }, { access_clio: 'write', access_slack: 'write', expires: '1' }))
          .accessToken,
    ),
  );
  [priya, tom, sofia] = signedIn.map((person, i) => ({ ...person, token: tokens[i] as string })) as [Person, Person, Person];
}, 60_000);

afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await sandbox?.close();
  await slack?.close();
});

describe('personal connections', () => {
  it('each person’s assistant acts as that person in Clio: Clio names each as the author of the time they log', async () => {
    expect((await whoAmI(priya.token)).body).toEqual({ data: { id: 1003, name: 'Priya Raman' } });
    expect((await whoAmI(tom.token)).body).toEqual({ data: { id: 1004, name: 'Tom Becker' } });
    expect(await logTime(priya.token, 'Reviewed the overtime records')).toBe('Priya Raman');
    expect(await logTime(tom.token, 'Filed the exhibits')).toBe('Tom Becker');
  });

  it('each person’s message in Slack shows that person as its author; without their own, the firm’s bot posts', async () => {
    expect(await postInGeneral(priya.token, 'Rosa Delgado’s demand letter is out')).toBe('U05DAVID004'); // Priya in the firm's Slack
    expect(await postInGeneral(sofia.token, 'Two new leads this morning')).toBe('U05PORTICO0');
    expect(await postInGeneral(gateway.key, 'Nightly summary')).toBe('U05PORTICO0');
    const whoami = await gateway.rest('GET', '/api/v1/connections', { key: priya.token });
    const own = (whoami.body as { connections: Array<{ service: string; personal?: { acting_as?: unknown } }> }).connections.find(
      (c) => c.service === 'slack',
    );
    expect(own?.personal?.acting_as).toMatchObject({ user: { id: 'U05DAVID004', name: 'Priya Raman', email: 'priya@harlowpike.example' } });
  });

  it('a person without an account of their own acts as the shared one by default; an API key always does', async () => {
    expect((await whoAmI(sofia.token)).body).toEqual({ data: { id: 1001, name: 'Margaret Harlow' } });
    expect((await whoAmI(gateway.key)).body).toEqual({ data: { id: 1001, name: 'Margaret Harlow' } });
    expect(await logTime(gateway.key, 'Partner review')).toBe('Margaret Harlow');
  });

  it('under the personal policy the person without one is told how to connect; under shared everyone acts as the firm', async () => {
    const set = (policy: string) => callWith(gateway, gateway.key, 'PATCH', '/api/admin/integrations/clio', { connection_policy: policy });
    try {
      expect((await set('personal')).body).toMatchObject({ connection_policy: 'personal' });
      const refused = await whoAmI(sofia.token);
      expect(refused.status).toBe(424);
      expect(refused.body).toMatchObject({ error: true, code: 'not_connected' });
      expect((refused.body as { message: string }).message).toMatch(/connect it under Connections/);
      expect((await whoAmI(priya.token)).body).toEqual({ data: { id: 1003, name: 'Priya Raman' } });
      expect((await whoAmI(gateway.key)).body).toEqual({ data: { id: 1001, name: 'Margaret Harlow' } });

      expect((await set('shared')).status).toBe(200);
      expect((await whoAmI(priya.token)).body).toEqual({ data: { id: 1001, name: 'Margaret Harlow' } });
    } finally {
      await set('personal_else_shared');
    }
    expect((await set('everyone')).status).toBe(400);
  });

  it('the audit names the person and which connection acted', async () => {
    await whoAmI(priya.token);
    await whoAmI(sofia.token);
    await gateway.runtime.engine.flushAudit();
    const { records } = await gateway.runtime.store.queryAudit({ workspaceId: DEFAULT_WORKSPACE, service: 'clio', limit: 50 });
    const last = (memberId: string) => records.find((r) => r.memberId === memberId && r.operation === 'get_current_user');
    expect(last(priya.id)).toMatchObject({ connection: 'personal', status: 200 });
    expect(last(sofia.id)).toMatchObject({ connection: 'shared', status: 200 });
    expect(records.find((r) => r.keyId !== null && !r.memberId && r.operation === 'get_current_user')).toMatchObject({
      connection: 'shared',
    });
  });

  it('list_connections names whom each connection acts as, the person’s own and the shared one', async () => {
    const overview = await gateway.rest('GET', '/api/v1/connections', { key: priya.token });
    const clio = (overview.body as { connections: Array<Record<string, unknown>> }).connections.find((c) => c.service === 'clio');
    expect(clio).toMatchObject({
      status: 'connected',
      policy: 'personal_else_shared',
      in_use: 'personal',
      acting_as: { user: { name: 'Margaret Harlow' } },
      personal: { status: 'connected', kind: 'oauth2', acting_as: { user: { id: '1003', name: 'Priya Raman' } } },
    });
    const sofias = (await gateway.rest('GET', '/api/v1/connections', { key: sofia.token })).body as {
      connections: Array<Record<string, unknown>>;
    };
    expect(sofias.connections.find((c) => c.service === 'clio')).toMatchObject({
      in_use: 'shared',
      personal: { status: 'not_connected', next: expect.stringMatching(/dashboard/) },
    });
    // a key is nobody: no personal part
    const byKey = (await gateway.rest('GET', '/api/v1/connections')).body as { connections: Array<Record<string, unknown>> };
    expect(byKey.connections.find((c) => c.service === 'clio')).not.toHaveProperty('personal');
  });

  it('a personal connection the person revoked at Clio shows as needing re-authorization, and their calls say so', async () => {
    const revoke = await fetch(`${new URL(sandbox.url).origin}/__sandbox/revoke-grants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'tom@harlowpike.example' }),
    });
    expect(await revoke.json()).toEqual({ revoked: 1 });
    const refused = await whoAmI(tom.token); // Clio answers 401; the refresh is refused: authorize again
    expect(refused.body).toMatchObject({ error: true, code: 'not_connected' });
    expect((refused.body as { message: string }).message).toMatch(/must be authorized again/);
    expect((await whoAmI(tom.token)).body).toMatchObject({
      code: 'not_connected',
      message: expect.stringMatching(/Your own clio connection/),
    });
    const overview = (await gateway.rest('GET', '/api/v1/connections', { key: tom.token })).body as {
      connections: Array<{ service: string; in_use: string; personal?: { status: string; next?: string } }>;
    };
    expect(overview.connections.find((c) => c.service === 'clio')).toMatchObject({
      in_use: 'personal',
      personal: { status: 'needs_reconnect', next: expect.stringMatching(/connect your own clio account again/) },
    });
    expect((await whoAmI(priya.token)).body).toEqual({ data: { id: 1003, name: 'Priya Raman' } }); // hers is untouched
  });

  it('a person disconnects their own account (revoked at Clio) and acts as the shared one again; others keep theirs', async () => {
    const stored = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'clio', tom.id);
    expect(stored?.secret).toMatch(/^enc1:/);
    const gone = await post(tom, '/dashboard/connections/clio/disconnect');
    expect(gone.status).toBe(303);
    expect(await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'clio', tom.id)).toBeUndefined();
    expect((await whoAmI(tom.token)).body).toEqual({ data: { id: 1001, name: 'Margaret Harlow' } });
    expect((await whoAmI(priya.token)).body).toEqual({ data: { id: 1003, name: 'Priya Raman' } });
  });

  it('a person removed from the workspace takes their own accounts with them', async () => {
    const { engine, store } = gateway.runtime;
    expect((await store.listMemberConnections(DEFAULT_WORKSPACE, priya.id)).map((c) => c.service)).toEqual(['clio', 'slack']);
    await engine.members.remove(DEFAULT_WORKSPACE, priya.id, null);
    expect(await store.listMemberConnections(DEFAULT_WORKSPACE, priya.id)).toEqual([]);
    expect((await whoAmI(priya.token)).status).toBe(401);
  });
});
