import type { SandboxServer } from '@portico/core/plugin';
import { pinSandboxClock } from '@portico/core/testing/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENTITY_NAMES } from './company.js';
import { AUTHORED_TODAY, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, SANDBOX_REALM_ID, SANDBOX_TOKEN, startSandbox } from './index.js';

// The assertions below name days of the calendar the books were written on: the sandbox clock is pinned to it.
pinSandboxClock(AUTHORED_TODAY);

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in tests
type Body = Record<string, any>;

let sandbox: SandboxServer;

async function get(
  path: string,
  token = SANDBOX_TOKEN,
  realm = SANDBOX_REALM_ID,
): Promise<{ status: number; body: Body; headers: Headers }> {
  const response = await fetch(`${sandbox.url}/v3/company/${realm}${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  return { status: response.status, body: (await response.json()) as Body, headers: response.headers };
}

const query = (statement: string, token?: string) => get(`/query?query=${encodeURIComponent(statement)}&minorversion=75`, token);

async function rows(statement: string): Promise<Body[]> {
  const { status, body } = await query(statement);
  expect(status, JSON.stringify(body)).toBe(200);
  const [entity] = Object.keys(body.QueryResponse).filter((k) => !['startPosition', 'maxResults', 'totalCount'].includes(k));
  return entity ? body.QueryResponse[entity] : [];
}

async function control(path: string, body: unknown = {}): Promise<Body> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Body;
}

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox?.close());
beforeEach(() => control('/__sandbox/reset'));

describe('query endpoint', () => {
  it('answers QueryResponse pages with startPosition and maxResults, and nothing but {} when empty', async () => {
    const { body } = await query('SELECT * FROM Customer');
    expect(body.QueryResponse.Customer).toHaveLength(16);
    expect(body.QueryResponse).toMatchObject({ startPosition: 1, maxResults: 16 });
    expect(body.time).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+-07:00$/);
    const empty = await query("SELECT * FROM Customer WHERE DisplayName = 'Nobody'");
    expect(empty.body.QueryResponse).toEqual({});
  });

  it('filters with =, <, >, <=, >= on numbers, dates and references', async () => {
    expect((await rows("SELECT * FROM Invoice WHERE DocNumber = '1001'")).map((i) => i.Id)).toEqual(['1']);
    const big = await rows('SELECT * FROM Invoice WHERE TotalAmt > 4000');
    expect(big.length).toBeGreaterThan(0);
    expect(big.every((i) => i.TotalAmt > 4000)).toBe(true);
    const small = await rows('SELECT * FROM Invoice WHERE TotalAmt <= 4000 MAXRESULTS 1000');
    expect(small.length + big.length).toBe(40);
    const early = await rows("SELECT * FROM Invoice WHERE TxnDate < '2025-02-01'");
    expect(early.length).toBeGreaterThan(0);
    expect(early.every((i) => i.TxnDate < '2025-02-01')).toBe(true);
    const fromMarch = await rows("SELECT * FROM Invoice WHERE TxnDate >= '2025-03-01' AND TxnDate <= '2025-03-31'");
    expect(fromMarch.length).toBeGreaterThan(3);
    expect(fromMarch.every((i) => i.TxnDate.startsWith('2025-03'))).toBe(true);
    const changed = await rows("SELECT * FROM Invoice WHERE MetaData.LastUpdatedTime > '2025-06-01T00:00:00-07:00'");
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(40);
    expect(changed.every((i) => Date.parse(i.MetaData.LastUpdatedTime) > Date.parse('2025-06-01T00:00:00-07:00'))).toBe(true);
    const forCustomer = await rows("SELECT * FROM Invoice WHERE CustomerRef = '2' AND Balance > '0'");
    expect(forCustomer.length).toBeGreaterThan(0);
    expect(forCustomer.every((i) => i.CustomerRef.value === '2' && i.Balance > 0)).toBe(true);
    expect(await rows('SELECT * FROM Customer WHERE Active = false')).toHaveLength(1);
  });

  it('supports IN, LIKE with % (case-insensitive), escaped quotes and case-insensitive keywords and entities', async () => {
    expect((await rows("SELECT * FROM Vendor WHERE Id IN ('1', '3', '99')")).map((v) => v.Id)).toEqual(['1', '3']);
    expect((await rows("select * from customer where DisplayName like 'ros%'")).map((c) => c.DisplayName)).toEqual(['Rosa Delgado']);
    expect((await rows("SELECT * FROM Customer WHERE DisplayName LIKE '%logistics'")).map((c) => c.Id)).toEqual(['9']);
    expect((await rows("SELECT * FROM Customer WHERE DisplayName LIKE '%Family%'")).map((c) => c.Id)).toEqual(['5']);
    expect((await rows("SELECT * FROM Customer WHERE DisplayName = 'O\\'Connell Family Trust'")).map((c) => c.Id)).toEqual(['5']);
    const sparse = await rows("SELECT Id, DisplayName FROM Customer WHERE Id = '1'");
    expect(sparse).toEqual([{ domain: 'QBO', sparse: true, Id: '1', DisplayName: 'Northwind Traders', SyncToken: '0' }]);
  });

  it('orders by one or more fields, ASC or DESC', async () => {
    const names = (await rows('SELECT * FROM Customer ORDERBY DisplayName')).map((c) => c.DisplayName);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const totals = (await rows('SELECT * FROM Invoice ORDERBY TotalAmt DESC MAXRESULTS 1000')).map((i) => i.TotalAmt);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const byCustomer = await rows('SELECT * FROM Invoice ORDERBY CustomerRef ASC, TxnDate DESC MAXRESULTS 1000');
    for (let i = 1; i < byCustomer.length; i++) {
      const [a, b] = [byCustomer[i - 1] as Body, byCustomer[i] as Body];
      const ca = Number(a.CustomerRef.value);
      const cb = Number(b.CustomerRef.value);
      expect(ca < cb || (ca === cb && a.TxnDate >= b.TxnDate)).toBe(true);
    }
  });

  it('pages with STARTPOSITION and MAXRESULTS to the end, and counts', async () => {
    const seen: string[] = [];
    for (let start = 1; ; start += 7) {
      const { body } = await query(`SELECT * FROM Invoice ORDERBY Id STARTPOSITION ${start} MAXRESULTS 7`);
      const page = body.QueryResponse.Invoice ?? [];
      if (page.length === 0) {
        expect(body.QueryResponse).toEqual({});
        break;
      }
      expect(body.QueryResponse.startPosition).toBe(start);
      expect(body.QueryResponse.maxResults).toBe(page.length);
      seen.push(...page.map((i: Body) => i.Id));
    }
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
    expect((await query('SELECT COUNT(*) FROM Invoice')).body.QueryResponse).toEqual({ totalCount: 40 });
    expect((await query("SELECT count(*) FROM Invoice WHERE Balance = '0'")).body.QueryResponse.totalCount).toBe(27);
    expect(await rows('SELECT * FROM Invoice')).toHaveLength(40);
    expect(await rows('SELECT * FROM JournalEntry MAXRESULTS 2')).toHaveLength(2);
  });

  it('seeds every entity QuickBooks can query', async () => {
    const counts: Record<string, number> = {};
    for (const entity of ENTITY_NAMES) counts[entity] = (await query(`SELECT COUNT(*) FROM ${entity}`)).body.QueryResponse.totalCount;
    expect(Object.values(counts).every((n) => n > 0)).toBe(true);
    expect(counts).toMatchObject({ Customer: 16, Vendor: 8, Invoice: 40, Account: 31, CompanyInfo: 1, Preferences: 1 });
  });

  it('answers QuickBooks ValidationFaults for parse errors, MAXRESULTS over 1000, unknown entities and fields', async () => {
    const parse = await query('SELECT * FRM Invoice');
    expect(parse.status).toBe(400);
    expect(parse.body.Fault.type).toBe('ValidationFault');
    expect(parse.body.Fault.Error[0]).toMatchObject({ Message: 'Error parsing query', code: '4000' });
    expect(parse.body.Fault.Error[0].Detail).toMatch(/^QueryParserError: Encountered "FRM" at line 1, column 10/);
    for (const bad of [
      "SELECT * FROM Invoice WHERE Id = '1' OR Id = '2'",
      "SELECT * FROM Invoice WHERE DocNumber = '1001",
      'SELECT * FROM Invoice MAXRESULTS',
      'SELECT FROM Invoice',
      '',
    ]) {
      const { status, body } = await query(bad);
      expect(status, bad).toBe(400);
      expect(body.Fault.Error[0].code, bad).toBe('4000');
    }
    const tooMany = await query('SELECT * FROM Invoice MAXRESULTS 1001');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.Fault).toMatchObject({ type: 'ValidationFault', Error: [{ code: '4001' }] });
    const entity = await query('SELECT * FROM Invoices');
    expect(entity.status).toBe(400);
    expect(entity.body.Fault.Error[0].Detail).toContain('Invoices');
    const field = await query("SELECT * FROM Invoice WHERE Colour = 'red'");
    expect(field.status).toBe(400);
    expect(field.body.Fault.Error[0]).toMatchObject({ Message: 'Invalid query', code: '4001' });
    expect(field.body.Fault.Error[0].Detail).toContain("'Colour'");
  });
});

describe('single reads', () => {
  it('reads an entity by id, company info and preferences', async () => {
    const invoice = await get('/invoice/3?minorversion=75');
    expect(invoice.status).toBe(200);
    expect(invoice.body.Invoice).toMatchObject({ Id: '3', DocNumber: '1003' });
    expect((await get('/customer/5')).body.Customer.DisplayName).toBe("O'Connell Family Trust");
    expect((await get('/billpayment/1')).body.BillPayment.Id).toBe('1');
    const info = await get(`/companyinfo/${SANDBOX_REALM_ID}`);
    expect(info.body.CompanyInfo).toMatchObject({ CompanyName: 'Harlow & Pike LLP', Country: 'US' });
    expect((await get('/preferences')).body.Preferences.ReportPrefs.ReportBasis).toBe('Accrual');
  });

  it('answers 400 Object Not Found (610) for an unknown id and 404 for an unknown path', async () => {
    const missing = await get('/invoice/9999');
    expect(missing.status).toBe(400);
    expect(missing.body.Fault).toMatchObject({ type: 'ValidationFault', Error: [{ Message: 'Object Not Found', code: '610' }] });
    expect((await get('/nothing-here/1/2')).status).toBe(404);
  });
});

describe('change data capture', () => {
  it('returns the records of each entity changed since a moment, and refuses more than 30 days back', async () => {
    const { status, body } = await get(`/cdc?entities=Invoice,Customer&changedSince=${encodeURIComponent('2025-06-01T00:00:00-07:00')}`);
    expect(status).toBe(200);
    const [invoices, customers] = body.CDCResponse[0].QueryResponse;
    expect(invoices.Invoice.length).toBeGreaterThan(0);
    expect(invoices.Invoice.every((i: Body) => i.MetaData.LastUpdatedTime > '2025-06-01')).toBe(true);
    expect(invoices.Invoice.length).toBe(
      (await rows("SELECT * FROM Invoice WHERE MetaData.LastUpdatedTime > '2025-06-01T00:00:00-07:00'")).length,
    );
    expect(customers).toEqual({});
    for (const bad of [
      'entities=Invoice&changedSince=2025-04-01T00:00:00Z',
      'entities=Nope&changedSince=2025-06-20T00:00:00Z',
      'entities=Invoice',
    ]) {
      const refused = await get(`/cdc?${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.Fault.type).toBe('ValidationFault');
    }
  });
});

describe('extra records', () => {
  it('adds records of an entity beyond the seeded ones until reset, replacing earlier extras', async () => {
    const set = await control('/__sandbox/settings', { extra_records: { Customer: 2500 } });
    expect(set.records.Customer).toBe(2516);
    expect((await query('SELECT COUNT(*) FROM Customer')).body.QueryResponse.totalCount).toBe(2516);
    const page = await rows('SELECT * FROM Customer STARTPOSITION 2001 MAXRESULTS 1000');
    expect(page).toHaveLength(516);
    expect(page[0]).toMatchObject({ Id: '2001', Balance: 0 });
    expect(page[0]?.DisplayName).toMatch(/ #\d+$/);
    expect((await control('/__sandbox/settings', { extra_records: { Customer: 10 } })).records.Customer).toBe(26);
    // The books do not change: extra names post nothing.
    expect((await query('SELECT COUNT(*) FROM Invoice')).body.QueryResponse.totalCount).toBe(40);
    await control('/__sandbox/reset');
    expect((await query('SELECT COUNT(*) FROM Customer')).body.QueryResponse.totalCount).toBe(16);
    for (const bad of [{ extra_records: { Invoice: 5 } }, { extra_records: { Customer: -1 } }, { extra_records: 5 }]) {
      const response = await fetch(`${sandbox.url}/__sandbox/settings`, { method: 'POST', body: JSON.stringify(bad) });
      expect(response.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('can be given at start, and are there again after a reset', async () => {
    const big = await startSandbox({ extraRecords: { TimeActivity: 1200 } });
    try {
      const count = async () => {
        const response = await fetch(
          `${big.url}/v3/company/${SANDBOX_REALM_ID}/query?query=${encodeURIComponent('SELECT COUNT(*) FROM TimeActivity')}`,
          {
            headers: { authorization: `Bearer ${SANDBOX_TOKEN}` },
          },
        );
        return ((await response.json()) as Body).QueryResponse.totalCount;
      };
      expect(await count()).toBe(1212);
      await fetch(`${big.url}/__sandbox/reset`, { method: 'POST' });
      expect(await count()).toBe(1212);
    } finally {
      await big.close();
    }
    await expect(startSandbox({ extraRecords: { Invoice: 3 } as never })).rejects.toThrow(/extra_records/);
  });
});

describe('authentication', () => {
  it('refuses a wrong token and a token for another realm with an AuthenticationFault', async () => {
    for (const { status, body, headers } of [
      await get('/preferences', 'not-a-token'),
      await get('/preferences', SANDBOX_TOKEN, '123145'),
    ]) {
      expect(status).toBe(401);
      expect(headers.get('www-authenticate')).toContain('Bearer');
      expect(body.Fault.type).toBe('AuthenticationFault');
      expect(body.Fault.Error[0]).toMatchObject({
        Message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401',
        code: '3200',
      });
    }
    const none = await fetch(`${sandbox.url}/v3/company/${SANDBOX_REALM_ID}/preferences`);
    expect(none.status).toBe(401);
  });
});

const basic = `Basic ${Buffer.from(`${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}`).toString('base64')}`;
const REDIRECT = 'https://gateway.example/oauth/callback';

async function tokens(form: Record<string, string>, authorization = basic): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${sandbox.url}/oauth2/v1/tokens/bearer`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function authorizeCode(): Promise<URL> {
  const params = new URLSearchParams({
    client_id: SANDBOX_CLIENT_ID,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'com.intuit.quickbooks.accounting',
    state: 'st-42',
  });
  const response = await fetch(`${sandbox.url}/oauth2/authorize?${params}`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') as string);
}

describe('OAuth', () => {
  it('connects, calls, refreshes with a rotated refresh token, refuses the old one, and calls again', async () => {
    const redirect = await authorizeCode();
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe('st-42');
    expect(redirect.searchParams.get('realmId')).toBe(SANDBOX_REALM_ID);
    const code = redirect.searchParams.get('code') as string;

    const first = await tokens({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, x_refresh_token_expires_in: 8726400 });
    expect((await tokens({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).body).toEqual({ error: 'invalid_grant' });
    expect((await query('SELECT COUNT(*) FROM Customer', first.body.access_token)).body.QueryResponse.totalCount).toBe(16);

    const second = await tokens({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    const stale = await tokens({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(stale).toEqual({ status: 400, body: { error: 'invalid_grant' } });
    expect((await get('/preferences', second.body.access_token)).status).toBe(200);

    // An access token that expires answers 401 until the client refreshes.
    expect(await control('/__sandbox/expire-tokens', { access_token: second.body.access_token })).toEqual({ ok: true, expired: 1 });
    const expired = await get('/preferences', second.body.access_token);
    expect(expired.status).toBe(401);
    expect(expired.body.Fault.Error[0].Detail).toMatch(/^Token expired/);
    const third = await tokens({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token });
    expect((await get('/preferences', third.body.access_token)).status).toBe(200);

    // Revoking ends the grant: its tokens stop working.
    const revoked = await fetch(`${sandbox.url}/v2/oauth2/tokens/revoke`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token: third.body.refresh_token }),
    });
    expect(revoked.status).toBe(200);
    expect((await get('/preferences', third.body.access_token)).status).toBe(401);
    expect((await tokens({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token })).status).toBe(400);
  });

  it('issues short-lived tokens when told, and refuses bad clients, grants and authorize requests', async () => {
    await control('/__sandbox/settings', { access_token_ttl: 0 });
    const code = (await authorizeCode()).searchParams.get('code') as string;
    const issued = await tokens({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(issued.body.expires_in).toBe(0);
    expect((await get('/preferences', issued.body.access_token)).status).toBe(401);

    expect(await tokens({ grant_type: 'refresh_token', refresh_token: 'x' }, 'Basic bm9wZTpub3Bl')).toEqual({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await tokens({ grant_type: 'client_credentials' })).toEqual({ status: 400, body: { error: 'unsupported_grant_type' } });
    expect((await tokens({ grant_type: 'authorization_code', code: 'nope', redirect_uri: REDIRECT })).body).toEqual({
      error: 'invalid_grant',
    });
    const badScope = await fetch(
      `${sandbox.url}/oauth2/authorize?client_id=${SANDBOX_CLIENT_ID}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&state=s`,
      { redirect: 'manual' },
    );
    expect(new URL(badScope.headers.get('location') as string).searchParams.get('error')).toBe('invalid_scope');
  });

  it('signs any of the firm’s people in; their token reads the company, and Intuit’s userinfo names them', async () => {
    const base = `${sandbox.url}/oauth2/authorize?${new URLSearchParams({
      client_id: SANDBOX_CLIENT_ID,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'com.intuit.quickbooks.accounting openid email profile',
      state: 'st-7',
    })}`;
    // asked for a sign-in, the sandbox's login lists the firm's people, each a link carrying the request on
    const login = await fetch(`${base}&prompt=login`, { redirect: 'manual' });
    expect(login.status).toBe(200);
    const page = await login.text();
    expect(page).toContain('Sign in to QuickBooks');
    const link = /href="([^"]+)" data-person="tom@harlowpike\.example"/.exec(page)?.[1] as string;
    const chosen = await fetch(new URL(link.replaceAll('&amp;', '&'), sandbox.url), { redirect: 'manual' });
    expect(chosen.status).toBe(302);
    const redirect = new URL(chosen.headers.get('location') as string);
    expect(redirect.searchParams.get('state')).toBe('st-7');
    const code = redirect.searchParams.get('code') as string;
    const tom = (await tokens({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).body.access_token as string;
    expect((await get('/preferences', tom)).status).toBe(200);

    const userinfo = async (token: string) => {
      const response = await fetch(`${sandbox.url}/v1/openid_connect/userinfo`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      return { status: response.status, body: (await response.json()) as Body };
    };
    const tomInfo = await userinfo(tom);
    expect(tomInfo).toMatchObject({
      status: 200,
      body: { givenName: 'Tom', familyName: 'Becker', email: 'tom@harlowpike.example', emailVerified: true },
    });
    // the sandbox's own token is the firm's account holder, under another subject than Tom's
    const holder = await userinfo(SANDBOX_TOKEN);
    expect(holder.body).toMatchObject({ givenName: 'Margaret', familyName: 'Harlow', email: 'margaret@harlowpike.example' });
    expect(holder.body.sub).toMatch(/\S/);
    expect(holder.body.sub).not.toBe(tomInfo.body.sub);
    // a hint names who signs in at once; the same person keeps their subject
    const hinted = await fetch(`${base}&login_hint=Tom@harlowpike.example`, { redirect: 'manual' });
    const again = new URL(hinted.headers.get('location') as string).searchParams.get('code') as string;
    const second = (await tokens({ grant_type: 'authorization_code', code: again, redirect_uri: REDIRECT })).body.access_token;
    expect((await userinfo(second)).body.sub).toBe(tomInfo.body.sub);

    // someone who is not of the firm is told so, and no code is issued
    const stranger = await fetch(`${base}&login_hint=someone@else.example`, { redirect: 'manual' });
    expect(stranger.status).toBe(400);
    expect(stranger.headers.get('location')).toBeNull();
    expect(await stranger.text()).toContain('No one at Harlow &amp; Pike LLP signs in as someone@else.example');

    // a token granted the accounting scope alone may not ask who it is; an unknown or revoked one is not a token
    const accountingOnly = (await authorizeCode()).searchParams.get('code') as string;
    const plain = (await tokens({ grant_type: 'authorization_code', code: accountingOnly, redirect_uri: REDIRECT })).body.access_token;
    expect(await userinfo(plain)).toEqual({ status: 403, body: { error: 'insufficient_scope' } });
    expect(await userinfo('not-a-token')).toEqual({ status: 401, body: { error: 'invalid_token' } });
    await fetch(`${sandbox.url}/v2/oauth2/tokens/revoke`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ token: tom }),
    });
    expect((await userinfo(tom)).status).toBe(401);
    // an unknown scope is refused at the authorize step
    const odd = await fetch(`${base.replace('profile', 'profile%20com.example.other')}`, { redirect: 'manual' });
    expect(new URL(odd.headers.get('location') as string).searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('throttling, fault injection and reset', () => {
  it('injects a 429 in QuickBooks’ throttle format with Retry-After', async () => {
    await control('/__sandbox/fail-next', { status: 429, retry_after: 7 });
    const throttled = await get('/preferences');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('7');
    expect(throttled.body.Fault.Error[0]).toMatchObject({
      Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429',
      code: '3001',
    });
    expect((await get('/preferences')).status).toBe(200);
    await control('/__sandbox/fail-next', { status: 429 });
    expect((await get('/preferences')).headers.get('retry-after')).toBe('60');
  });

  it('answers 429 above 10 requests in flight per realm and reports the peak', async () => {
    await control('/__sandbox/settings', { latency_ms: 150 });
    const burst = await Promise.all(Array.from({ length: 14 }, () => get('/preferences')));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as Body;
    expect(stats.realms[SANDBOX_REALM_ID]).toMatchObject({ requests: 14, throttled: 4, peak_in_flight: 10 });
    const calm = await Promise.all(Array.from({ length: 10 }, () => get('/preferences')));
    expect(calm.every((r) => r.status === 200)).toBe(true);
  });

  it('reset drops queued failures, settings and issued tokens', async () => {
    await control('/__sandbox/fail-next', { status: 500, count: 3 });
    await control('/__sandbox/settings', { latency_ms: 0, max_concurrent: 1 });
    await control('/__sandbox/reset');
    expect((await get('/preferences')).status).toBe(200);
    const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as Body;
    expect(stats.settings).toEqual({ latency_ms: 2, max_concurrent: 10, access_token_ttl: 3600 });
  });
});
