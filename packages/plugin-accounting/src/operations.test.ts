import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument, describeFixtures, describeOperation, Registry } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { accountFixtures } from './fixtures/accounts.js';
import { companyFixtures } from './fixtures/company.js';
import { currencyFixtures } from './fixtures/currencies.js';
import { employeeFixtures } from './fixtures/employees.js';
import { listFixtures } from './fixtures/lists.js';
import { purchaseFixtures } from './fixtures/purchases.js';
import { invalidInputFixtures } from './fixtures/refused.js';
import { reportFixtures } from './fixtures/reports.js';
import { fetchAllFixtures, salesFixtures } from './fixtures/sales.js';
import { taxFixtures } from './fixtures/taxes.js';
import { upstreamErrorFixtures } from './fixtures/upstream-errors.js';
import { quickbooksPlugin } from './index.js';
import { baseUrlFor, inspect, oauth2, PRODUCTION_HOST, readFault, SANDBOX_HOST } from './upstream.js';

/** The success fixtures, by family (the files of operations/). */
const families = {
  accounts: accountFixtures,
  sales: salesFixtures,
  purchases: purchaseFixtures,
  employees: employeeFixtures,
  lists: listFixtures,
  taxes: taxFixtures,
  currencies: currencyFixtures,
  company: companyFixtures,
  reports: reportFixtures,
};

describeFixtures(quickbooksPlugin, {
  authHeaders: { authorization: 'Bearer fixture-token' },
  groups: {
    ...families,
    'fetchAll: every page of a search': fetchAllFixtures,
    'upstream errors': upstreamErrorFixtures,
    // Not the `refused` option: that asks a refusal of every operation, and these cover the rules, not each operation.
    'refused before any upstream call': invalidInputFixtures,
  },
});

describe('the operation set', () => {
  const operations = quickbooksPlugin.operations;

  it('has 67 operations, each named once, every path once', () => {
    expect(operations).toHaveLength(67);
    expect(new Set(operations.map((o) => o.name)).size).toBe(67);
    expect(new Set(operations.map((o) => `${o.method} ${o.path}`)).size).toBe(67);
    expect(operations.filter((o) => o.name.startsWith('find_'))).toHaveLength(35);
    expect(operations.filter((o) => o.name.startsWith('report_'))).toHaveLength(29);
  });

  it('only reads', () => {
    for (const operation of operations) expect(operation.method, operation.name).toBe('GET');
  });

  it('has a success fixture for every operation, each reaching QuickBooks', () => {
    const covered = new Set(
      Object.values(families)
        .flat()
        .filter((f) => 'output' in f.expect && f.exchanges.length > 0)
        .map((f) => f.operation),
    );
    expect(operations.map((o) => o.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  // That every example passes its own validation and checks is in describeFixtures' declarations, above.
  it('has a valid OpenAPI document with one GET path per operation, and REST examples', async () => {
    const integration = new Registry().register(quickbooksPlugin);
    const document = buildOpenApiDocument(integration) as { paths: Record<string, Record<string, unknown>> };
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    expect(Object.values(document.paths).flatMap((methods) => Object.keys(methods))).toHaveLength(67);
    const find = integration.operations.get('find_invoices');
    if (!find) throw new Error('find_invoices is not registered');
    expect(describeOperation(integration, find).rest_example).toMatchObject({ method: 'GET' });
  });

  it('documents every operation and every parameter', () => {
    for (const operation of operations) {
      expect(operation.summary.length, operation.name).toBeGreaterThan(10);
      expect(operation.description.length, operation.name).toBeGreaterThan(80);
      for (const [param, schema] of Object.entries(operation.params.properties as Record<string, { description?: string }>)) {
        expect(schema.description, `${operation.name}.${param}`).toBeTruthy();
      }
    }
  });
});

describe('connection', () => {
  it('picks the company host from the environment fact', () => {
    expect(baseUrlFor({})).toBe(PRODUCTION_HOST);
    expect(baseUrlFor({ environment: 'production' })).toBe('https://quickbooks.api.intuit.com');
    expect(baseUrlFor({ environment: 'sandbox' })).toBe('https://sandbox-quickbooks.api.intuit.com');
    expect(SANDBOX_HOST).toBe('https://sandbox-quickbooks.api.intuit.com');
  });

  it('keeps the realm id Intuit sends back on the redirect, and nothing else', () => {
    expect(oauth2.connectionFacts?.({ code: 'c', state: 's', realmId: '9130357766900456' }, { access_token: 'a' })).toEqual({
      realmId: '9130357766900456',
    });
    expect(oauth2.connectionFacts?.({ code: 'c', state: 's' }, {})).toEqual({});
    expect(oauth2.connectionFacts?.({ code: 'c', realmId: '12; DROP' }, {})).toEqual({});
  });

  it('uses Intuit’s endpoints with HTTP Basic client authentication and the accounting and OpenID Connect scopes', () => {
    expect(oauth2).toMatchObject({
      authorizeUrl: 'https://appcenter.intuit.com/connect/oauth2',
      tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
      revokeUrl: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke',
      scopes: ['com.intuit.quickbooks.accounting', 'openid', 'email', 'profile'],
      clientAuth: 'basic',
    });
  });
});

describe('QuickBooks error reading', () => {
  it('reads both spellings of a Fault', () => {
    expect(readFault({ Fault: { Error: [{ Message: 'm', Detail: 'd', code: '1' }], type: 'ValidationFault' } })).toEqual({
      type: 'ValidationFault',
      errors: [{ message: 'm', detail: 'd', code: '1' }],
    });
    expect(readFault({ fault: { error: [{ message: 'm', detail: 'd', code: '2' }], type: 'AUTHENTICATION' } })).toEqual({
      type: 'AUTHENTICATION',
      errors: [{ message: 'm', detail: 'd', code: '2' }],
    });
    expect(readFault({ QueryResponse: {} })).toBeUndefined();
  });

  it('treats a 2xx answer without a Fault as success', () => {
    expect(inspect({ status: 200, headers: {}, body: { QueryResponse: {}, time: 't' } })).toBeUndefined();
  });

  it('never repeats a refresh token an answer echoes', () => {
    const failure = inspect({
      status: 400,
      headers: {},
      body: { error: 'invalid_grant', error_description: 'AB11719850542abcdefghijklmnopqrstuvwxyz is expired' },
    });
    expect(failure?.message).not.toContain('AB1171985');
  });
});
