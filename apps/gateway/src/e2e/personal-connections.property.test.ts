import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, type SandboxServer } from '@portico/core';
import { clioPlugin } from '@portico/plugin-practice';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOAuthGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';
import { SessionStore } from '../routes/dashboard/session.js';

/**
 * No one ever acts as another person. Over random sequences of people connecting and disconnecting their own Clio
 * accounts, admins changing the integration's policy and calls made by each person's assistant or by an API key, every
 * call acts upstream as exactly what the model says: the caller's own account, the workspace's shared one, or nothing
 * (not_connected) — never another person's. The Clio sandbox tells whose token a call carried (`who_am_i`).
 */
let sandbox: SandboxServer;
let gateway: TestGateway;
let client: Client;

const SHARED_USER = 1001; // the sandbox's account holder, Margaret Harlow, whose account the workspace connected
const PEOPLE = ['daniel@harlowpike.example', 'priya@harlowpike.example', 'nora@harlowpike.example'] as const;
/** Clio users 1001–1006 by the firm's order; each person's own account is theirs. */
const CLIO_USER: Record<string, number> = {
  'daniel@harlowpike.example': 1002,
  'priya@harlowpike.example': 1003,
  'nora@harlowpike.example': 1006,
};

interface Caller {
  memberId: string;
  token: string;
}
const callers = new Map<string, Caller>();
/** A Clio access token of each person, as their own sign-in at Clio gives it. */
const clioTokens = new Map<string, string>();

/** Signs `email` in at the Clio sandbox and exchanges the code: the access token Clio gives that person. */
async function clioTokenOf(email: string): Promise<string> {
  const origin = new URL(sandbox.url).origin;
  const redirect = 'http://127.0.0.1:9/cb';
  const authorize = new URL(`${origin}/oauth/authorize`);
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: 'portico-test-app', redirect_uri: redirect, login_hint: email }))
    authorize.searchParams.set(k, v);
  const back = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(back.headers.get('location') as string).searchParams.get('code') as string;
  const exchanged = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: 'portico-test-app',
      client_secret: 'portico-test-secret',
    }).toString(),
  });
  return ((await exchanged.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  // many calls a second: neither Clio's pace (the sandbox's own limit is generous) nor the per-key limit is the subject
  ({ sandbox, gateway, client } = await startOAuthGateway(clioPlugin, {
    env: { PORTICO_CLIO_UPSTREAM_LIMITS: 'none', PORTICO_RATE_LIMIT_PER_MINUTE: '0' },
  }));
  const { engine, store } = gateway.runtime;
  await engine.saveConnection(DEFAULT_WORKSPACE, 'clio', 'oauth2', { accessToken: await clioTokenOf('margaret@harlowpike.example') });
  for (const email of PEOPLE) {
    const record = await engine.members.invite(DEFAULT_WORKSPACE, { email, role: 'member' }, null);
    const { id } = await new SessionStore(store.sessions).create(record.id, DEFAULT_WORKSPACE);
    const grant = await obtainGrant(gateway.url, { cookie: `portico_session=${id}` }, { access_clio: 'read', expires: '1' });
    callers.set(email, { memberId: record.id, token: grant.accessToken });
    clioTokens.set(email, await clioTokenOf(email));
  }
}, 60_000);

afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await sandbox?.close();
});

type Step =
  | { kind: 'connect'; person: string }
  | { kind: 'disconnect'; person: string }
  | { kind: 'policy'; policy: 'shared' | 'personal' | 'personal_else_shared' }
  | { kind: 'call'; caller: string | 'key' };

const person = fc.constantFrom(...PEOPLE);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('connect' as const), person }),
  fc.record({ kind: fc.constant('disconnect' as const), person }),
  fc.record({
    kind: fc.constant('policy' as const),
    policy: fc.constantFrom('shared' as const, 'personal' as const, 'personal_else_shared' as const),
  }),
  fc.record({ kind: fc.constant('call' as const), caller: fc.constantFrom<string>(...PEOPLE, 'key') }),
  fc.record({ kind: fc.constant('call' as const), caller: fc.constantFrom<string>(...PEOPLE, 'key') }),
);

it('every call acts as the caller’s own account, the shared one or none, as the policy says — never another person’s', async () => {
  const { engine } = gateway.runtime;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      // the model: who has an account of their own, and the policy
      const own = new Set<string>();
      let policy: 'shared' | 'personal' | 'personal_else_shared' = 'personal_else_shared';
      for (const email of PEOPLE) await engine.disconnect(DEFAULT_WORKSPACE, 'clio', (callers.get(email) as Caller).memberId);
      await engine.configureIntegration(DEFAULT_WORKSPACE, 'clio', { connectionPolicy: policy });
      for (const s of steps) {
        if (s.kind === 'connect') {
          const { memberId } = callers.get(s.person) as Caller;
          await engine.saveConnection(
            DEFAULT_WORKSPACE,
            'clio',
            'oauth2',
            { accessToken: clioTokens.get(s.person) as string },
            {},
            memberId,
          );
          own.add(s.person);
        } else if (s.kind === 'disconnect') {
          await engine.disconnect(DEFAULT_WORKSPACE, 'clio', (callers.get(s.person) as Caller).memberId);
          own.delete(s.person);
        } else if (s.kind === 'policy') {
          policy = s.policy;
          await engine.configureIntegration(DEFAULT_WORKSPACE, 'clio', { connectionPolicy: policy });
        } else {
          const token = s.caller === 'key' ? gateway.key : (callers.get(s.caller) as Caller).token;
          const answer = await gateway.rest('GET', '/api/v1/clio/users/who_am_i?fields=id', { key: token });
          const expected =
            s.caller === 'key' || policy === 'shared'
              ? SHARED_USER
              : own.has(s.caller)
                ? CLIO_USER[s.caller]
                : policy === 'personal'
                  ? 'not_connected'
                  : SHARED_USER;
          if (expected === 'not_connected') {
            expect(answer.body, JSON.stringify(steps)).toMatchObject({ error: true, code: 'not_connected' });
          } else {
            expect(answer.body, `${JSON.stringify(steps)} → ${JSON.stringify(answer.body)}`).toEqual({ data: { id: expected } });
          }
        }
      }
    }),
    { numRuns: 40 },
  );
}, 120_000);

// a secret copied into another person's row is refused: each personal secret is bound to its person
it('a personal token copied into another person’s connection cannot be opened there', async () => {
  const { engine, store } = gateway.runtime;
  const [daniel, priya] = [callers.get(PEOPLE[0]) as Caller, callers.get(PEOPLE[1]) as Caller];
  await engine.configureIntegration(DEFAULT_WORKSPACE, 'clio', { connectionPolicy: 'personal' });
  const stored = await engine.saveConnection(
    DEFAULT_WORKSPACE,
    'clio',
    'oauth2',
    { accessToken: clioTokens.get(PEOPLE[0]) as string },
    {},
    daniel.memberId,
  );
  // someone with the database copies Daniel's row onto Priya's
  await store.putConnection({ ...stored, memberId: priya.memberId });
  const answer = await gateway.rest('GET', '/api/v1/clio/users/who_am_i?fields=id', { key: priya.token });
  expect(answer.body).toMatchObject({ error: true, code: 'not_connected' });
  expect(answer.body).not.toMatchObject({ data: expect.anything() });
  await engine.configureIntegration(DEFAULT_WORKSPACE, 'clio', { connectionPolicy: 'personal_else_shared' });
  // the check above is not a matter of luck: the hash of the two rows' secrets is the same
  expect(createHash('sha256').update(stored.secret).digest('hex')).toBe(
    createHash('sha256')
      .update(((await store.getConnection(DEFAULT_WORKSPACE, 'clio', priya.memberId)) as { secret: string }).secret)
      .digest('hex'),
  );
});
