import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type Credentials,
  connectionAad,
  DEFAULT_WORKSPACE,
  Encryptor,
  generateEncryptionKey,
  parseEncryptionKey,
  type SandboxServer,
} from '@portico/core';
import { METHOD_ENUM_LIMIT } from '@portico/core/mcp';
import { FIRM, FIRM_PEOPLE, pinSandboxClock } from '@portico/core/testing';
import quickbooksPlugin from '@portico/plugin-accounting';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectMcp, restoreShortened, startTestGateway, type TestGateway } from '../gateway.test-support.js';

// The report assertions below name days of the calendar the sandbox's books were written on: its clock is pinned there.
pinSandboxClock('2025-06-30');

/**
 * QuickBooks through a real gateway in sandbox mode: the MCP client (call_quickbooks) and REST (/api/v1/quickbooks/…)
 * must give the same answers for searches, paging, fetchAll and its ceiling, the catalog's reports on both bases, and
 * the same refusals — and a refusal the gateway makes itself must cost no request to QuickBooks (the sandbox counts
 * them per company).
 */
let gateway: TestGateway;
let client: Client;
let sandbox: SandboxServer;
let realm: string;

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in tests
type Body = Record<string, any>;

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_PLUGINS: 'accounting' } });
  client = await connectMcp(gateway.url, gateway.key);
  sandbox = gateway.sandboxes.quickbooks as SandboxServer;
  realm = String(sandbox.connection?.realmId);
});
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});
beforeEach(async () => {
  await control('/__sandbox/reset');
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'quickbooks', { settings: { fetch_all_max_rows: '10000' } });
});

const origin = () => new URL(sandbox.url).origin;

async function control(path: string, body: unknown = {}): Promise<Body> {
  const response = await fetch(`${origin()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Body;
}

async function stats(): Promise<{ requests: number; throttled: number; peak_in_flight: number }> {
  const body = (await (await fetch(`${origin()}/__sandbox/stats`)).json()) as Body;
  return body.realms[realm] ?? { requests: 0, throttled: 0, peak_in_flight: 0 };
}

const PATHS: Record<string, string> = {
  find_invoices: '/invoices',
  find_customers: '/customers',
  get_company_info: '/company-info',
  report_item_sales: '/reports/item-sales',
  report_customer_income: '/reports/customer-income',
  report_customer_balance: '/reports/customer-balance',
  report_customer_balance_detail: '/reports/customer-balance-detail',
  report_aged_receivables: '/reports/aged-receivables',
  report_profit_and_loss: '/reports/profit-and-loss',
};

async function rest(method: string, params: Record<string, unknown>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)] as [string, string]));
  const path = `/api/v1/quickbooks${PATHS[method]}${query.size > 0 ? `?${query}` : ''}`;
  return gateway.rest('GET', path);
}

async function mcp(method: string, params: Record<string, unknown>) {
  const result = await client.callTool({ name: 'call_quickbooks', arguments: { method, params } });
  return { isError: Boolean(result.isError), body: result.structuredContent as Body };
}

/** The call over both doors: REST 200 and an MCP success with the same JSON. `mcpParams` may type values differently. */
async function both(method: string, params: Record<string, unknown>, mcpParams: Record<string, unknown> = params): Promise<Body> {
  const viaRest = await rest(method, params);
  const viaMcp = await mcp(method, mcpParams);
  expect(viaRest.status, `${method} over REST: ${JSON.stringify(viaRest.body).slice(0, 300)}`).toBe(200);
  expect(viaMcp.isError, `${method} over MCP: ${JSON.stringify(viaMcp.body).slice(0, 300)}`).toBe(false);
  // Over the MCP result budget the MCP answer is the REST one shortened (restoreShortened checks that faithfully).
  expect(restoreShortened(viaMcp.body, viaRest.body)).toEqual(viaRest.body);
  return viaRest.body as Body;
}

/** The same refusal over both doors: REST's status and body, and an MCP error result with that body. */
async function refusedByBoth(method: string, params: Record<string, unknown>, arm?: () => Promise<unknown>) {
  await arm?.();
  const viaRest = await rest(method, params);
  await arm?.();
  const viaMcp = await mcp(method, params);
  expect(viaRest.status, `${method} ${JSON.stringify(params)}`).not.toBe(200);
  expect(viaMcp.isError, `${method} ${JSON.stringify(params)} over MCP`).toBe(true);
  expect(viaMcp.body).toEqual(viaRest.body);
  return viaRest as { status: number; headers: Headers; body: Body };
}

const records = (body: Body, entity: string): Body[] => body.QueryResponse[entity] ?? [];

describe('call_quickbooks in tools/list', () => {
  it(`names no enum of its 67 operations (more than ${METHOD_ENUM_LIMIT}) and still refuses an unknown one`, async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'call_quickbooks');
    const method = tool?.inputSchema.properties?.method as { enum?: string[]; description: string };
    expect(method.enum).toBeUndefined();
    expect(method.description).toContain('One of 67:');
    expect(method.description).toContain('search_methods');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    const before = await stats();
    // An operation name that does not exist is a tool result with isError, naming the closest operations.
    const unknown = await client.callTool({ name: 'call_quickbooks', arguments: { method: 'find_invoice', params: {} } });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ code: 'not_found', message: expect.stringContaining('"find_invoice"') });
    expect(unknown.structuredContent).toMatchObject({ message: expect.stringContaining('Closest: find_invoices (') });
    // with no enum to point to, the error names the tools that find the operation's name
    expect(unknown.structuredContent).toMatchObject({ message: expect.stringContaining('search_methods') });
    expect(await stats()).toEqual(before);
  });
});

describe('searches', () => {
  it('filters with a comparison and a LIKE, and sorts with ORDERBY', async () => {
    const all = records(await both('find_invoices', { limit: '1000' }), 'Invoice');
    expect(all).toHaveLength(40);
    const where = "TotalAmt > '2500' AND DocNumber LIKE '102%' ORDERBY TotalAmt DESC";
    const body = await both('find_invoices', { where });
    const found = records(body, 'Invoice');
    const expected = all
      .filter((i) => i.TotalAmt > 2500 && String(i.DocNumber).startsWith('102'))
      .sort((a, b) => b.TotalAmt - a.TotalAmt || Number(a.Id) - Number(b.Id));
    expect(found.length).toBeGreaterThan(1);
    expect(found.map((i) => i.Id)).toEqual(expected.map((i) => i.Id));
    expect(body.QueryResponse).toMatchObject({ startPosition: 1, maxResults: expected.length });

    const names = records(await both('find_customers', { where: "DisplayName LIKE '%o%' ORDERBY DisplayName" }), 'Customer').map((c) =>
      String(c.DisplayName),
    );
    expect(names.length).toBeGreaterThan(3);
    expect(names.every((n) => n.toLowerCase().includes('o'))).toBe(true);
    expect(names).toEqual([...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(await both('find_customers', { where: "DisplayName = 'Nobody At All'" })).toMatchObject({ QueryResponse: {} });
  });

  it('pages with limit and offset counted from 0 (limit given as the string "5" over MCP)', async () => {
    const all = records(await both('find_invoices', { where: 'ORDERBY DocNumber' }), 'Invoice');
    const page = await both(
      'find_invoices',
      { where: 'ORDERBY DocNumber', limit: 5, offset: 10 },
      { where: 'ORDERBY DocNumber', limit: '5', offset: '10' },
    );
    expect(records(page, 'Invoice').map((i) => i.DocNumber)).toEqual(all.slice(10, 15).map((i) => i.DocNumber));
    expect(page.QueryResponse).toMatchObject({ startPosition: 11, maxResults: 5 });
    const last = await both('find_invoices', { where: 'ORDERBY DocNumber', limit: '5', offset: '38' });
    expect(records(last, 'Invoice').map((i) => i.DocNumber)).toEqual(['1039', '1040']);
    expect(await both('find_invoices', { limit: '5', offset: '40' })).toMatchObject({ QueryResponse: {} });
  });
});

describe('fetchAll', () => {
  it('reads every page of 1000, one request after another, into one answer (3 pages, with a where and with an offset)', async () => {
    expect((await control('/__sandbox/settings', { extra_records: { Customer: 2500 } })).records.Customer).toBe(2516);
    const before = await stats();
    const viaRest = await rest('find_customers', { where: "DisplayName LIKE '%#%'", fetchAll: 'true' });
    const after = await stats();
    expect(viaRest.status).toBe(200);
    const body = viaRest.body as Body;
    const found = records(body, 'Customer');
    expect(found).toHaveLength(2500);
    expect(new Set(found.map((c) => c.Id)).size).toBe(2500);
    expect(found.every((c) => String(c.DisplayName).includes('#'))).toBe(true);
    expect(body.QueryResponse).toMatchObject({ startPosition: 1, maxResults: 2500 });
    // pages of 1000, 1000 and 500: three requests, never two at once
    expect(after.requests - before.requests).toBe(3);
    expect(after.peak_in_flight).toBe(1);
    const viaMcp = await mcp('find_customers', { where: "DisplayName LIKE '%#%'", fetchAll: 'true' });
    expect(viaMcp.isError).toBe(false);
    expect(restoreShortened(viaMcp.body, body)).toEqual(body);

    const everyone = await both('find_customers', { fetchAll: 'true' });
    expect(everyone.QueryResponse.maxResults).toBe(2516);
    const skipped = await both('find_customers', { fetchAll: 'true', offset: '100' });
    expect(skipped.QueryResponse).toMatchObject({ startPosition: 101, maxResults: 2416 });
    expect(records(skipped, 'Customer')[0]).toEqual(records(everyone, 'Customer')[100]);
  });

  it('refuses above fetch_all_max_rows with a clear 400 rather than a shortened list, and returns exactly the ceiling', async () => {
    await control('/__sandbox/settings', { extra_records: { Customer: 2500 } });
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'quickbooks', { settings: { fetch_all_max_rows: '2000' } });
    const before = await stats();
    const refused = await refusedByBoth('find_customers', { fetchAll: 'true' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: true, code: 'bad_request' });
    expect(refused.body.message).toContain('fetchAll found more than 2000 Customer records (the fetch_all_max_rows ceiling)');
    expect(refused.body.message).toContain('narrow the search with where');
    // per door: two pages of 1000 and one probe for a single record
    expect((await stats()).requests - before.requests).toBe(6);

    await control('/__sandbox/settings', { extra_records: { Customer: 1984 } });
    const exactly = await both('find_customers', { fetchAll: 'true' });
    expect(exactly.QueryResponse.maxResults).toBe(2000);
    expect(records(exactly, 'Customer')).toHaveLength(2000);
  });

  it('keeps QuickBooks’ limit of 10 requests in flight per company with several fetchAll calls at once', async () => {
    await control('/__sandbox/settings', { extra_records: { Customer: 2500 }, latency_ms: 25 });
    // 20 calls at once, each paging three times: the connection's 10 slots (upstream.limits) hold the other pages
    // back in turn, so QuickBooks never sees an 11th request in flight and throttles none.
    const calls = [
      ...Array.from({ length: 10 }, () =>
        rest('find_customers', { fetchAll: 'true' }).then((r) => ({ ok: r.status === 200, body: r.body as Body })),
      ),
      ...Array.from({ length: 10 }, () => mcp('find_customers', { fetchAll: 'true' }).then((r) => ({ ok: !r.isError, body: r.body }))),
    ];
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => !a.ok).map((a) => a.body)).toEqual([]);
    expect(answers.every((a) => a.body.QueryResponse.maxResults === 2516)).toBe(true);
    const seen = await stats();
    expect(seen.requests).toBe(60);
    expect(seen.throttled).toBe(0);
    expect(seen.peak_in_flight).toBeGreaterThan(1);
    expect(seen.peak_in_flight).toBeLessThanOrEqual(10);
  });
});

const CATALOG_REPORTS = [
  'report_item_sales',
  'report_customer_income',
  'report_customer_balance',
  'report_customer_balance_detail',
  'report_aged_receivables',
] as const;
const H1 = { start_date: '2025-01-01', end_date: '2025-06-30' };

/** The TOTAL row's value in a column. */
function grandTotal(report: Body, column: number): number {
  const row = (report.Rows.Row as Body[]).find((r) => r.group === 'GrandTotal');
  return Number(row?.Summary.ColData[column].value);
}

describe('the catalog’s five reports, Cash and Accrual', () => {
  it('answer on both bases over both doors, and differ where the basis changes the figures', async () => {
    const reports: Record<string, Record<string, Body>> = {};
    for (const name of CATALOG_REPORTS) {
      reports[name] = {};
      for (const accounting_method of ['Cash', 'Accrual']) {
        const body = await both(name, { ...H1, accounting_method });
        expect(body.Header, `${name} ${accounting_method}`).toMatchObject({ ReportBasis: accounting_method, Currency: 'USD' });
        expect(body.Columns.Column.length).toBeGreaterThan(1);
        (reports[name] as Record<string, Body>)[accounting_method] = body;
      }
    }
    const [cash, accrual] = [(n: string) => reports[n]?.Cash as Body, (n: string) => reports[n]?.Accrual as Body];
    // Income is recognised when invoiced (accrual) or when paid (cash): unpaid invoices make accrual the larger.
    expect(grandTotal(accrual('report_customer_income'), 1)).toBeGreaterThan(grandTotal(cash('report_customer_income'), 1));
    expect(cash('report_customer_income').Rows).not.toEqual(accrual('report_customer_income').Rows);
    expect(grandTotal(accrual('report_item_sales'), 2)).toBeGreaterThan(grandTotal(cash('report_item_sales'), 2));
    // Receivables exist only on the accrual basis.
    expect(grandTotal(accrual('report_customer_balance'), 1)).toBeGreaterThan(0);
    expect(grandTotal(cash('report_customer_balance'), 1)).toBe(0);
    expect(grandTotal(accrual('report_customer_balance_detail'), 5)).toBeCloseTo(grandTotal(accrual('report_customer_balance'), 1), 2);
    expect(grandTotal(cash('report_customer_balance_detail'), 5)).toBe(0);
    // Aging ages the open invoices whatever the basis, and adds up to the open balance.
    expect(cash('report_aged_receivables').Rows).toEqual(accrual('report_aged_receivables').Rows);
    expect(grandTotal(accrual('report_aged_receivables'), 6)).toBeCloseTo(grandTotal(accrual('report_customer_balance'), 1), 2);
  });

  it('refuses an impossible date (2025-02-30) with a 400 before any request to QuickBooks', async () => {
    const before = await stats();
    for (const name of CATALOG_REPORTS) {
      const refused = await refusedByBoth(name, { start_date: '2025-02-30', end_date: '2025-06-30', accounting_method: 'Cash' });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: true, code: 'bad_request', message: expect.stringContaining('start_date') });
    }
    const other = await refusedByBoth('report_customer_income', { ...H1, accounting_method: 'Modified' });
    expect(other.status).toBe(400);
    const reversed = await refusedByBoth('report_profit_and_loss', { start_date: '2025-06-30', end_date: '2025-01-01' });
    expect(reversed.status).toBe(400);
    expect(await stats()).toEqual(before);
  });
});

/** Filters that try to be more than a filter; each must be refused by the gateway's own parser. */
const HOSTILE_WHERE = [
  "Balance > '0' OR Balance < '0'",
  "Id = '1'; DELETE FROM Invoice",
  "Id = '1' -- and the rest",
  "Id = '1' /* comment */",
  "NOT Balance = '0'",
  "Balance != '0'",
  "Balance <> '0'",
  'Id IN (SELECT Id FROM Customer)',
  "Id = '1' UNION SELECT * FROM Employee",
  "Id = '1' STARTPOSITION 1 MAXRESULTS 1000",
  'DisplayName = "Acme"',
  "DocNumber = '1001",
  "CustomerRef = 'O''Brien'",
  "Memo = 'a\\b'",
  'Balance IS NULL',
  "TxnDate BETWEEN '2025-01-01' AND '2025-06-30'",
  "Balance == '0'",
  "Balance => '0'",
  "(Balance > '0')",
  'ORDER BY TxnDate',
  'ORDERBY TxnDate, DocNumber',
  'DocNumber = Acme',
  "DocNumber = '1001'\u0000",
  'COUNT(*)',
  "Id = '1' FROM Employee",
  "Id = '1' LIMIT 5",
  "Id = '1' AND",
  "SELECT * FROM Invoice WHERE Id = '1'",
  "`Id` = '1'",
  "Id = '1' GROUP BY CustomerRef",
  `Id IN (${Array.from({ length: 201 }, (_, i) => `'${i}'`).join(', ')})`,
  `DocNumber LIKE '${'x'.repeat(4001)}'`,
];

describe('hostile where filters', () => {
  it(`refuses all ${HOSTILE_WHERE.length} with 400 over both doors, without a single request to QuickBooks`, async () => {
    expect(HOSTILE_WHERE.length).toBeGreaterThanOrEqual(20);
    await both('find_invoices', { limit: '1' }); // the company is reachable: the counter exists
    const before = await stats();
    for (const where of HOSTILE_WHERE) {
      const refused = await refusedByBoth('find_invoices', { where });
      expect(refused.status, where).toBe(400);
      expect(refused.body, where).toMatchObject({ error: true, code: 'bad_request', message: expect.stringContaining('where') });
    }
    const or = await rest('find_invoices', { where: HOSTILE_WHERE[0] as string });
    expect((or.body as Body).message).toContain('QuickBooks does not support OR');
    expect(await stats()).toEqual(before);
  });
});

describe('QuickBooks’ own failures', () => {
  it('a 429 from QuickBooks → 429 with Retry-After over both doors', async () => {
    const limited = await refusedByBoth('find_invoices', { limit: '5' }, () =>
      control('/__sandbox/fail-next', { status: 429, retry_after: 7 }),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body).toMatchObject({ error: true, code: 'rate_limited', message: expect.stringContaining('ThrottleExceeded') });
    const noHint = await refusedByBoth('get_company_info', {}, () => control('/__sandbox/fail-next', { status: 429 }));
    expect(noHint.status).toBe(429);
    expect(noHint.headers.get('retry-after')).toBe('60');
  });

  it('a throttled second page fails the whole fetchAll with 429, without a partial answer', async () => {
    await control('/__sandbox/settings', { extra_records: { Customer: 2500 } });
    const statement = encodeURIComponent('SELECT * FROM Customer STARTPOSITION 1 MAXRESULTS 1000');
    const firstPage = await (
      await fetch(`${origin()}/v3/company/${realm}/query?query=${statement}`, { headers: { authorization: `Bearer ${sandbox.token}` } })
    ).json();
    expect(records(firstPage as Body, 'Customer')).toHaveLength(1000);
    // QuickBooks answers the first page, then throttles the second.
    const arm = async () => {
      await control('/__sandbox/fail-next', { status: 200, body: firstPage });
      await control('/__sandbox/fail-next', { status: 429, retry_after: 3 });
    };
    const failed = await refusedByBoth('find_customers', { fetchAll: 'true' }, arm);
    expect(failed.status).toBe(429);
    expect(failed.headers.get('retry-after')).toBe('3');
    expect(failed.body).toMatchObject({ error: true, code: 'rate_limited' });
    expect(JSON.stringify(failed.body)).not.toContain('QueryResponse');
  });

  it('Object Not Found (Fault code 610) → 404', async () => {
    const arm = () => control('/__sandbox/fail-next', { status: 400, code: '610', message: 'Object Not Found' });
    const missing = await refusedByBoth('get_company_info', {}, arm);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: true, code: 'not_found', message: expect.stringContaining('Object Not Found') });
  });
});

/** What the QuickBooks sandbox module exports besides startSandbox (the plugin types only that). */
interface QuickBooksSandboxModule {
  startSandbox(options?: Record<string, unknown>): Promise<SandboxServer>;
  SANDBOX_CLIENT_ID: string;
  SANDBOX_CLIENT_SECRET: string;
  SANDBOX_REALM_ID: string;
}

describe('OAuth against the sandbox’s Intuit endpoints: connect → call → refresh → call', () => {
  let intuit: SandboxServer;
  let oauthGateway: TestGateway;
  let module: QuickBooksSandboxModule;
  const encryptionKey = generateEncryptionKey();

  beforeAll(async () => {
    module = (await quickbooksPlugin.sandbox?.()) as unknown as QuickBooksSandboxModule;
    intuit = await module.startSandbox();
    oauthGateway = await startTestGateway({
      env: {
        PORTICO_PLUGINS: 'accounting',
        PORTICO_ENCRYPTION_KEY: encryptionKey,
        PORTICO_QUICKBOOKS_BASE_URL: intuit.url,
        PORTICO_QUICKBOOKS_CLIENT_ID: module.SANDBOX_CLIENT_ID,
        PORTICO_QUICKBOOKS_CLIENT_SECRET: module.SANDBOX_CLIENT_SECRET,
        PORTICO_QUICKBOOKS_OAUTH_AUTHORIZE_URL: `${intuit.url}/oauth2/authorize`,
        PORTICO_QUICKBOOKS_OAUTH_TOKEN_URL: `${intuit.url}/oauth2/v1/tokens/bearer`,
        PORTICO_QUICKBOOKS_OAUTH_REVOKE_URL: `${intuit.url}/v2/oauth2/tokens/revoke`,
      },
    });
    await oauthGateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'quickbooks', { restEnabled: true });
  });
  afterAll(async () => {
    await oauthGateway?.close();
    await intuit?.close();
  });

  /** The stored credentials, decrypted with the gateway's key (what the engine itself reads). */
  async function stored(): Promise<{ credentials: Credentials; meta: Record<string, unknown>; kind: string }> {
    const record = await oauthGateway.runtime.store.getConnection(DEFAULT_WORKSPACE, 'quickbooks');
    if (!record) throw new Error('no QuickBooks connection');
    const plain = new Encryptor(parseEncryptionKey(encryptionKey)).decrypt(record.secret, connectionAad(DEFAULT_WORKSPACE, 'quickbooks'));
    return { credentials: JSON.parse(plain) as Credentials, meta: record.meta, kind: record.kind };
  }

  async function intuitControl(path: string, body: unknown): Promise<Body> {
    const response = await fetch(`${intuit.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Body;
  }

  /** Intuit's token endpoint, called directly with the app's credentials. */
  async function refreshDirectly(refreshToken: string): Promise<{ status: number; body: Body }> {
    const basic = Buffer.from(`${module.SANDBOX_CLIENT_ID}:${module.SANDBOX_CLIENT_SECRET}`).toString('base64');
    const response = await fetch(`${intuit.url}/oauth2/v1/tokens/bearer`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    });
    return { status: response.status, body: (await response.json()) as Body };
  }

  async function readsWith(accessToken: string): Promise<number> {
    const response = await fetch(`${intuit.url}/v3/company/${module.SANDBOX_REALM_ID}/preferences`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    return response.status;
  }

  /** The browser: the gateway's connect URL → Intuit's consent (already agreed) → the gateway's callback. */
  async function connectViaBrowser(): Promise<void> {
    const start = await fetch(`${oauthGateway.url}/api/connect/quickbooks`, {
      headers: { authorization: `Bearer ${oauthGateway.key}` },
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location') as string);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${intuit.url}/oauth2/authorize`);
    expect(authorize.searchParams.get('client_id')).toBe(module.SANDBOX_CLIENT_ID);
    expect(authorize.searchParams.get('scope')).toBe('com.intuit.quickbooks.accounting openid email profile');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${oauthGateway.url}/api/connect/quickbooks/callback`);
    const consent = await fetch(authorize, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = new URL(consent.headers.get('location') as string);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
    expect(callback.searchParams.get('realmId')).toBe(module.SANDBOX_REALM_ID);
    const page = await fetch(callback);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('QuickBooks is connected');
  }

  it('keeps the realm id, refreshes an expiring token with rotation, stores the new refresh token first, and calls on', async () => {
    // Intuit access tokens last an hour; this one two minutes, so the gateway sees it as expiring (5-minute margin).
    await intuitControl('/__sandbox/settings', { access_token_ttl: 120 });

    await connectViaBrowser();

    const connected = await stored();
    expect(connected.kind).toBe('oauth2');
    // the realm from the redirect, and the company it is, asked of QuickBooks once connected; the person who
    // connected (no sign-in asked for: the firm's account holder), as Intuit's userinfo names them
    const holder = FIRM_PEOPLE[0] as (typeof FIRM_PEOPLE)[number];
    expect(connected.meta).toEqual({
      realmId: module.SANDBOX_REALM_ID,
      acting_as: {
        account: { id: module.SANDBOX_REALM_ID, name: FIRM.name },
        user: { id: expect.stringMatching(/\S/), name: holder.name, email: holder.email },
      },
    });
    const first = connected.credentials;
    expect(first.refreshToken).toMatch(/^AB11/);
    expect(Date.parse(first.expiresAt as string) - Date.now()).toBeLessThan(5 * 60_000);

    // A call: the token expires within the margin, so the gateway refreshes first (Intuit rotates the refresh token).
    const call = await oauthGateway.rest('GET', '/api/v1/quickbooks/customers?where=Active%20%3D%20true&limit=5');
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    expect(records(call.body as Body, 'Customer')).toHaveLength(5);
    const second = (await stored()).credentials;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(await refreshDirectly(first.refreshToken as string)).toEqual({ status: 400, body: { error: 'invalid_grant' } });

    // The access token expires at Intuit: only a refresh gets the next call through.
    expect((await intuitControl('/__sandbox/expire-tokens', {})).expired).toBeGreaterThan(0);
    expect(await readsWith(second.accessToken)).toBe(401);
    const again = await oauthGateway.rest('GET', '/api/v1/quickbooks/company-info');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((again.body as Body).CompanyInfo.CompanyName).toBe('Harlow & Pike LLP');
    const third = (await stored()).credentials;
    expect(third.refreshToken).not.toBe(second.refreshToken);
    expect(await readsWith(third.accessToken)).toBe(200);
    // The stored refresh token is the newest: the old one is refused, the stored one refreshes.
    expect((await refreshDirectly(second.refreshToken as string)).status).toBe(400);
    const direct = await refreshDirectly(third.refreshToken as string);
    expect(direct.status).toBe(200);
    expect(direct.body.refresh_token).not.toBe(third.refreshToken);
  });

  it('disconnecting revokes the grant at Intuit', async () => {
    await intuitControl('/__sandbox/settings', { access_token_ttl: 3600 });
    await connectViaBrowser();
    const { credentials } = await stored();
    expect(await readsWith(credentials.accessToken)).toBe(200);
    const result = await oauthGateway.runtime.engine.disconnect(DEFAULT_WORKSPACE, 'quickbooks');
    expect(result).toMatchObject({ deleted: true, revoked: true });
    expect(await readsWith(credentials.accessToken)).toBe(401);
    expect((await refreshDirectly(credentials.refreshToken as string)).status).toBe(400);
    const after = await oauthGateway.rest('GET', '/api/v1/quickbooks/company-info');
    expect(after.status).toBe(424);
  });
});
