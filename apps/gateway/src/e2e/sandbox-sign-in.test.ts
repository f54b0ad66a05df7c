import { DEFAULT_WORKSPACE } from '@portico/core';
import { FIRM_PEOPLE, firmPerson } from '@portico/core/testing';
import { clioPlugin } from '@portico/plugin-practice';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Sandbox mode, with no identity provider configured, signs the firm's people in through its own: `pnpm start` is
 * enough to sign in to the dashboard as Priya, an associate, or Margaret, the managing partner, and act as them.
 */
let gateway: TestGateway;

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] as string)
    .filter((c) => !c.endsWith('='));

/** Signs a person of the firm in as a browser would: the dashboard's button, the firm's page, the person's link. */
async function signIn(email: string): Promise<{ session: string; landed: Response }> {
  const started = await fetch(`${gateway.url}/dashboard/sign-in/provider`, { redirect: 'manual' });
  expect(started.status).toBe(303);
  const pending = cookiesOf(started).join('; ');
  const page = await fetch(started.headers.get('location') as string);
  expect(page.status).toBe(200);
  const html = await page.text();
  const link = new RegExp(`href="([^"]+)" data-person="${email.replaceAll('.', '\\.')}"`).exec(html)?.[1] as string;
  expect(link, 'the person is on the firm’s sign-in page').toBeTruthy();
  const chosen = await fetch(new URL(link.replaceAll('&amp;', '&'), page.url), { redirect: 'manual' });
  expect(chosen.status).toBe(302);
  const callback = chosen.headers.get('location') as string;
  const landed = await fetch(callback, { redirect: 'manual', headers: { cookie: pending } });
  const session = cookiesOf(landed).find((c) => c.startsWith('portico_session=')) ?? '';
  return { session, landed };
}

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, plugins: [clioPlugin] });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

describe('signing in as the sandbox firm’s people', () => {
  it('the dashboard offers the firm’s sign-in, which lists its people', async () => {
    expect(gateway.sandboxSignIn?.name).toBe('Harlow & Pike (sandbox)');
    const page = await (await fetch(`${gateway.url}/dashboard/sign-in`)).text();
    expect(page).toContain('Sign in with Harlow &amp; Pike (sandbox)');
    const started = await fetch(`${gateway.url}/dashboard/sign-in/provider`, { redirect: 'manual' });
    const listing = await (await fetch(started.headers.get('location') as string)).text();
    for (const person of FIRM_PEOPLE) expect(listing).toContain(`data-person="${person.email}"`);
  });

  it('an associate signs in as herself, a member who can connect her own Clio', async () => {
    const associate = firmPerson('associate');
    const { session, landed } = await signIn(associate.email);
    expect(landed.status).toBe(303);
    expect(session).toMatch(/^portico_session=/);
    const [member] = await gateway.runtime.store.members.findByEmail(associate.email);
    expect(member).toMatchObject({ workspaceId: DEFAULT_WORKSPACE, role: 'member', name: associate.name, source: 'group' });
    const yours = await fetch(`${gateway.url}/dashboard/connections`, { headers: { cookie: session } });
    expect(yours.status).toBe(200);
    expect(await yours.text()).toContain('Clio');
    // a member is not an admin: the admin pages stay closed to her
    expect((await fetch(`${gateway.url}/dashboard/keys`, { headers: { cookie: session }, redirect: 'manual' })).status).toBe(403);
  });

  it('the managing partner owns the workspace; another partner administers it', async () => {
    const [margaret, daniel] = FIRM_PEOPLE as [(typeof FIRM_PEOPLE)[number], (typeof FIRM_PEOPLE)[number]];
    expect((await signIn(margaret.email)).landed.status).toBe(303);
    expect((await signIn(daniel.email)).landed.status).toBe(303);
    expect((await gateway.runtime.store.members.findByEmail(margaret.email))[0]?.role).toBe('owner');
    expect((await gateway.runtime.store.members.findByEmail(daniel.email))[0]?.role).toBe('admin');
  });

  it('a sign-in sent back a second time is refused, and the provider serves only this machine’s dashboard', async () => {
    const started = await fetch(`${gateway.url}/dashboard/sign-in/provider`, { redirect: 'manual' });
    const pending = cookiesOf(started).join('; ');
    const authorize = new URL(started.headers.get('location') as string);
    authorize.searchParams.set('login_hint', firmPerson('paralegal').email);
    const callback = (await fetch(authorize, { redirect: 'manual' })).headers.get('location') as string;
    expect((await fetch(callback, { redirect: 'manual', headers: { cookie: pending } })).status).toBe(303);
    expect((await fetch(callback, { redirect: 'manual', headers: { cookie: pending } })).status).toBe(403);

    const elsewhere = new URL(authorize);
    elsewhere.searchParams.set('redirect_uri', 'https://attacker.example/dashboard/sign-in/callback');
    expect((await fetch(elsewhere, { redirect: 'manual' })).status).toBe(400);
  });

  it('is a provider a standard OpenID Connect client accepts (discovery, PKCE, ID token, UserInfo)', async () => {
    const issuer = new URL(gateway.sandboxSignIn?.issuer as string);
    const config = await oidc.discovery(issuer, 'portico-sandbox', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const redirect = `${gateway.url}/dashboard/sign-in/callback`;
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      login_hint: firmPerson('bookkeeper').email,
      state: 'st',
    });
    const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location') as string);
    const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: 'st' });
    const claims = tokens.claims();
    expect(claims).toMatchObject({ iss: issuer.origin, aud: 'portico-sandbox', email: firmPerson('bookkeeper').email });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims?.sub));
    expect(info).toMatchObject({ name: firmPerson('bookkeeper').name, groups: ['staff'] });
  });
});
