import type { IdentifyClient, UpstreamRequest, UpstreamResponse } from '@portico/core/plugin';
import { EgressPolicy } from '@portico/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { identify, USERINFO_TIMEOUT_MS } from './identify.js';
import { quickbooksPlugin } from './index.js';
import { PRODUCTION_HOST, SANDBOX_HOST } from './upstream.js';

/**
 * Whom a QuickBooks connection acts as: the company, and the person Intuit's userinfo names. Userinfo lives on another
 * host than the company (accounts.platform.intuit.com): the egress policy lets the token go there and nowhere else, and
 * behind an operator's base URL (a proxy, the sandbox) it is asked at that origin, never at Intuit.
 */
const REALM = '9341453050298464';
const COMPANY = { CompanyInfo: { CompanyName: 'Harlow & Pike LLP' } };
const USER = { sub: 'a1b2', givenName: 'Nora', familyName: 'Quinn', email: 'nora@harlowpike.example', emailVerified: true };

/** A client as the gateway's: each request checked by the egress policy against the base URL, then answered. */
function client(baseUrl: string, answer: (request: UpstreamRequest) => Promise<unknown>) {
  const sent: UpstreamRequest[] = [];
  const policy = new EgressPolicy();
  const identifyClient: IdentifyClient = {
    baseUrl,
    async send(request) {
      policy.assertRequest(quickbooksPlugin, request, baseUrl);
      sent.push(request);
      return { status: 200, headers: {}, body: await answer(request) } as UpstreamResponse;
    },
  };
  return { identifyClient, sent };
}

const byRequest = (userinfo: () => Promise<unknown>) => (request: UpstreamRequest) =>
  request.url?.endsWith('/v1/openid_connect/userinfo') ? userinfo() : Promise.resolve(COMPANY);

afterEach(() => {
  vi.useRealTimers();
});

describe('QuickBooks identify', () => {
  it('names the company and the person, asking Intuit’s userinfo with the token (production and development companies)', async () => {
    for (const [base, environment, host] of [
      [PRODUCTION_HOST, undefined, 'accounts.platform.intuit.com'],
      [SANDBOX_HOST, 'sandbox', 'sandbox-accounts.platform.intuit.com'],
    ] as const) {
      const { identifyClient, sent } = client(
        base,
        byRequest(async () => USER),
      );
      const identity = await identify(identifyClient, { realmId: REALM, ...(environment ? { environment } : {}) });
      expect(identity).toEqual({
        account: { id: REALM, name: 'Harlow & Pike LLP' },
        user: { id: 'a1b2', name: 'Nora Quinn', email: 'nora@harlowpike.example' },
      });
      const asked = sent.find((r) => r.url !== undefined);
      expect(asked).toEqual({ method: 'GET', url: `https://${host}/v1/openid_connect/userinfo`, auth: true });
    }
  });

  it('behind another base URL asks that origin, and the egress policy would refuse Intuit’s host from there', async () => {
    const { identifyClient, sent } = client(
      'http://127.0.0.1:4010',
      byRequest(async () => USER),
    );
    expect((await identify(identifyClient, { realmId: REALM })).user?.name).toBe('Nora Quinn');
    expect(sent.find((r) => r.url !== undefined)?.url).toBe('http://127.0.0.1:4010/v1/openid_connect/userinfo');
    // the userinfo hosts are the plugin's only other hosts: anything else is refused before a connection opens
    const policy = new EgressPolicy();
    expect(() =>
      policy.assertRequest(
        quickbooksPlugin,
        { method: 'GET', url: 'https://accounts.platform.intuit.com.evil.example/x' },
        PRODUCTION_HOST,
      ),
    ).toThrow(/outside the hosts it may hand out/);
  });

  it('keeps the company when userinfo refuses (a token without the openid scope), answers no one, or is slow', async () => {
    const refused = client(
      PRODUCTION_HOST,
      byRequest(() => Promise.reject(new Error('403 insufficient_scope'))),
    );
    expect(await identify(refused.identifyClient, { realmId: REALM })).toEqual({ account: { id: REALM, name: 'Harlow & Pike LLP' } });
    const nobody = client(
      PRODUCTION_HOST,
      byRequest(async () => ({ sub: '' })),
    );
    expect(await identify(nobody.identifyClient, { realmId: REALM })).toEqual({ account: { id: REALM, name: 'Harlow & Pike LLP' } });

    vi.useFakeTimers();
    const slow = client(
      PRODUCTION_HOST,
      byRequest(() => new Promise(() => undefined)),
    );
    const pending = identify(slow.identifyClient, { realmId: REALM });
    await vi.advanceTimersByTimeAsync(USERINFO_TIMEOUT_MS);
    expect(await pending).toEqual({ account: { id: REALM, name: 'Harlow & Pike LLP' } });
  });

  it('names a person by email when userinfo gives no name (no profile scope)', async () => {
    const { identifyClient } = client(
      PRODUCTION_HOST,
      byRequest(async () => ({ sub: 'x9', email: 'tom@harlowpike.example' })),
    );
    expect((await identify(identifyClient, { realmId: REALM })).user).toEqual({
      id: 'x9',
      name: 'tom@harlowpike.example',
      email: 'tom@harlowpike.example',
    });
  });
});
