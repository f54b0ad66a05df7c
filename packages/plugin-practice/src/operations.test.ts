import { GatewayError, Registry } from '@portico/core';
import { createFixtureHarness, type FixtureHarness, type OperationFixture } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from './collections.js';
import { API, invalidInputFixtures, successFixtures, upstreamErrorFixtures } from './fixtures/index.js';
import { clioPlugin } from './index.js';
import { baseUrlFor, clioError, DEFAULT_API_VERSION, inspect, oauth2 } from './upstream.js';

const label = (f: OperationFixture) => f.name ?? f.operation;

describe('Clio operations against recorded Clio exchanges (over MCP and REST)', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(clioPlugin, {
      authHeaders: { authorization: 'Bearer fixture-token' },
      headers: { 'x-api-version': DEFAULT_API_VERSION },
    });
  });
  afterAll(() => harness.close());

  it.each(successFixtures.map((f) => [label(f), f] as const))('%s', (_, fixture) => harness.check(fixture));
  it.each(upstreamErrorFixtures.map((f) => [label(f), f] as const))('upstream error: %s', (_, fixture) => harness.check(fixture));
  it.each(invalidInputFixtures.map((f) => [label(f), f] as const))('refused before any upstream call: %s', (_, fixture) =>
    harness.check(fixture),
  );

  it('sends the X-API-VERSION of the integration setting', () =>
    harness.check({
      operation: 'list_currencies',
      params: {},
      settings: { api_version: '4.0.13' },
      exchanges: [
        {
          request: { method: 'GET', path: `${API}/currencies.json`, query: {}, headers: { 'x-api-version': '4.0.13' } },
          response: { body: { data: [], meta: { paging: {}, records: 0 } } },
        },
      ],
      expect: { output: { data: [], meta: { paging: {}, records: 0 } } },
    }));

  it('pages with the page_token of meta.paging.next', async () => {
    const first = { data: [{ id: 1 }], meta: { paging: { next: 'https://app.clio.com/api/v4/bills.json?limit=1&page_token=BAh7' } } };
    await harness.check({
      operation: 'list_bills',
      params: { limit: 1 },
      exchanges: [{ request: { method: 'GET', path: `${API}/bills.json`, query: { limit: '1' } }, response: { body: first } }],
      expect: { output: first },
    });
    const token = new URL(first.meta.paging.next).searchParams.get('page_token');
    const second = { data: [{ id: 2 }], meta: { paging: {} } };
    await harness.check({
      operation: 'list_bills',
      params: { limit: 1, page_token: token },
      exchanges: [
        {
          request: { method: 'GET', path: `${API}/bills.json`, query: { limit: '1', page_token: 'BAh7' } },
          response: { body: second },
        },
      ],
      expect: { output: second },
    });
  });
});

describe('the operation set', () => {
  const operations = clioPlugin.operations;

  it('has the catalog’s 61 operations and the A–F group’s 102 and the G–Z group’s 119, each named once', () => {
    expect(operations).toHaveLength(61 + 102 + 119);
    expect(new Set(operations.map((o) => o.name)).size).toBe(61 + 102 + 119);
  });

  it('has a success fixture for every operation', () => {
    const covered = new Set(successFixtures.map((f) => f.operation));
    expect(operations.map((o) => o.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  it('registers, and every operation’s schema compiles', () => {
    const integration = new Registry().register(clioPlugin);
    expect(integration.operations.size).toBe(61 + 102 + 119);
  });

  it('says in every list how paging works and that fields must be asked for', () => {
    for (const operation of operations.filter((o) => o.name.startsWith('list_'))) {
      expect(operation.description, operation.name).toMatch(/meta\.paging\.next/);
      expect(operation.description, operation.name).toMatch(/page_token/);
      expect(operation.description, operation.name).toMatch(/only id and etag unless fields/);
    }
    for (const operation of operations.filter((o) => /^(get|create|update)_/.test(o.name))) {
      expect(operation.description, operation.name).toMatch(/only id and etag unless fields/);
    }
  });

  it('keeps fields of create and update in the query string', () => {
    // The webhook writes have a body field named fields; generate_report_from_preset takes no parameter but its id.
    const exceptions = new Set(['create_webhook', 'update_webhook', 'generate_report_from_preset']);
    for (const operation of operations.filter((o) => (o.method === 'POST' || o.method === 'PATCH') && !exceptions.has(o.name))) {
      expect(operation.locations, operation.name).toEqual({ fields: 'query' });
    }
  });

  it('has per-operation descriptions (no two alike)', () => {
    expect(new Set(operations.map((o) => o.description)).size).toBe(operations.length);
  });

  it('builds its table rows into their verbs', () => {
    const verbs = COLLECTIONS.reduce((sum, row) => sum + row.verbs.length, 0);
    expect(verbs + 1).toBe(61); // + preview_matter_docket
  });
});

describe('connection, settings, auth and errors', () => {
  it('chooses the regional host from the connection fact region (us by default)', () => {
    expect(baseUrlFor({})).toBe('https://app.clio.com/api/v4');
    expect(baseUrlFor({ region: 'us' })).toBe('https://app.clio.com/api/v4');
    expect(baseUrlFor({ region: 'eu' })).toBe('https://eu.app.clio.com/api/v4');
    expect(baseUrlFor({ region: 'ca' })).toBe('https://ca.app.clio.com/api/v4');
    expect(baseUrlFor({ region: 'au' })).toBe('https://au.app.clio.com/api/v4');
    expect(() => baseUrlFor({ region: 'uk' })).toThrow(GatewayError);
  });

  it('validates the api_version setting', () => {
    const integration = new Registry().register(clioPlugin);
    expect(integration).toBeDefined();
    const schema = clioPlugin.settings?.properties.api_version as { pattern: string; default: string };
    expect(schema.default).toBe('4.0.10');
    expect(new RegExp(schema.pattern).test('4.0.13')).toBe(true);
    expect(new RegExp(schema.pattern).test('5.0')).toBe(false);
    expect(new RegExp(schema.pattern).test('4.0.x')).toBe(false);
  });

  it('declares Clio’s OAuth endpoints and a pasted token', () => {
    expect(clioPlugin.auth.oauth2).toBe(oauth2);
    expect(oauth2).toMatchObject({
      authorizeUrl: 'https://app.clio.com/oauth/authorize',
      tokenUrl: 'https://app.clio.com/oauth/token',
      revokeUrl: 'https://app.clio.com/oauth/deauthorize',
    });
    expect(clioPlugin.auth.token?.description).toMatch(/region/);
  });

  it('reads Clio’s error body and passes Retry-After of a 429 on', () => {
    expect(clioError({ error: { type: 'ValidationError', message: 'Date is invalid' } })).toBe('ValidationError: Date is invalid');
    expect(clioError({ error: 'nope' })).toBeUndefined();
    expect(inspect({ status: 200, headers: {}, body: {} })).toBeUndefined();
    expect(inspect({ status: 429, headers: { 'retry-after': '12' }, body: '' })).toEqual({
      status: 429,
      message: 'Clio rate limit reached (per access token)',
      retryAfter: 12,
    });
  });
});
