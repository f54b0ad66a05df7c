import { DEFAULT_WORKSPACE } from '@portico/core';
import { FIRM_PEOPLE, firmPerson } from '@portico/core/testing';
import { callrailPlugin } from '@portico/plugin-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';
import { type SignedInMember, signedInMember } from '../members.test-support.js';

/**
 * CallRail's API keys are each a user's own, but its API cannot say whose: a connection names the account's user whose
 * email is the person's it belongs to — the member's for a personal key, the `user_email` saved with the shared one —
 * and nobody when the account has no such user.
 */
let gateway: TestGateway;

interface Listed {
  connections: Array<{
    service: string;
    acting_as?: { account?: { id: string; name: string }; user?: { id: string; name: string; email?: string } };
    personal?: { status: string; acting_as?: { account?: { id: string; name: string }; user?: { name: string; email?: string } } };
  }>;
}

const callrailOf = async (key?: string) => {
  const response = await gateway.rest('GET', '/api/v1/connections', key ? { key } : {});
  expect(response.status).toBe(200);
  return (response.body as Listed).connections.find((c) => c.service === 'callrail');
};

/** A person pastes their own CallRail API key on the dashboard. */
async function pasteOwnKey(person: SignedInMember): Promise<void> {
  const pasted = await fetch(`${gateway.url}/dashboard/connections/callrail/token`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: person.cookie },
    body: new URLSearchParams({ _csrf: person.csrf, token: gateway.sandboxes.callrail?.token as string }).toString(),
  });
  expect(pasted.status).toBe(303);
}

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, plugins: [callrailPlugin] });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

describe('whom a CallRail key acts as', () => {
  it('the shared key names the user whose email was saved with it', async () => {
    const intake = firmPerson('intake');
    const shared = await callrailOf();
    expect(shared?.acting_as).toMatchObject({ account: { name: 'Harlow & Pike LLP' }, user: { name: intake.name, email: intake.email } });
  });

  it('a person’s own key names them, in the account where CallRail knows them', async () => {
    const associate = firmPerson('associate');
    const partner = FIRM_PEOPLE[0] as (typeof FIRM_PEOPLE)[number];
    const [priya, margaret] = await Promise.all([
      signedInMember(gateway, associate.email, associate.name),
      signedInMember(gateway, partner.email, partner.name),
    ]);
    await pasteOwnKey(priya);
    await pasteOwnKey(margaret);
    const priyas = await callrailOf(await tokenOf(priya));
    expect(priyas?.personal).toMatchObject({
      status: 'connected',
      acting_as: { account: { name: 'Harlow & Pike LLP' }, user: { name: associate.name, email: associate.email } },
    });
    // the managing partner is a user of the estate-planning line's account only
    const margarets = await callrailOf(await tokenOf(margaret));
    expect(margarets?.personal?.acting_as?.user).toMatchObject({ name: partner.name, email: partner.email });
    expect(margarets?.personal?.acting_as?.account?.name).not.toBe('Harlow & Pike LLP');
  });

  it('a person CallRail does not know is named nobody: the account alone', async () => {
    const stranger = await signedInMember(gateway, 'contract.attorney@elsewhere.example', 'Casey Moss');
    await pasteOwnKey(stranger);
    const theirs = await callrailOf(await tokenOf(stranger));
    expect(theirs?.personal?.status).toBe('connected');
    expect(theirs?.personal?.acting_as).toEqual({ account: { id: expect.any(String), name: expect.stringMatching(/^Harlow & Pike/) } });
    const stored = await gateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'callrail', stranger.id);
    expect(stored?.meta).not.toHaveProperty('user_email'); // the member's email is looked up, not written into the connection
  });
});

/** A grant the person approves for their assistant, as its access token. */
async function tokenOf(person: SignedInMember): Promise<string> {
  return (await obtainGrant(gateway.url, { cookie: person.cookie }, { access_callrail: 'read', expires: '1' })).accessToken;
}
