import {
  buildOpenApiDocument,
  createFixtureHarness,
  describeFixtures,
  describeOperation,
  type FixtureHarness,
  Registry,
} from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFixtures } from './fixtures/accounts.js';
import { alertFixtures } from './fixtures/alerts.js';
import { callerIdFixtures } from './fixtures/caller-ids.js';
import { callFixtures } from './fixtures/calls.js';
import { companyFixtures } from './fixtures/companies.js';
import { formFixtures } from './fixtures/forms.js';
import { integrationFixtures } from './fixtures/integrations.js';
import { messagingFixtures } from './fixtures/messaging.js';
import { peopleFixtures } from './fixtures/people.js';
import { refusedFixtures } from './fixtures/refused.js';
import { tagFixtures } from './fixtures/tags.js';
import { upstreamErrorFixtures } from './fixtures/upstream-errors.js';
import { callrailPlugin } from './index.js';
import { authHeaders, inspect } from './upstream.js';

const families = {
  accounts: accountFixtures,
  calls: callFixtures,
  tags: tagFixtures,
  companies: companyFixtures,
  forms: formFixtures,
  integrations: integrationFixtures,
  alerts: alertFixtures,
  'caller ids': callerIdFixtures,
  messaging: messagingFixtures,
  people: peopleFixtures,
};

describeFixtures(callrailPlugin, {
  authHeaders: { authorization: 'Token token="fixture-token"' },
  groups: { ...families, 'upstream errors': upstreamErrorFixtures },
  refused: refusedFixtures,
});

describe('the Request-From setting', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(callrailPlugin, { authHeaders: { authorization: 'Token token="fixture-token"' } });
  });
  afterAll(() => harness.close());

  it('sends the Request-From header when the integration setting is set', () =>
    harness.check({
      operation: 'list_notifications',
      params: { account_id: 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e' },
      settings: { request_from: 'acme_portal' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/v3/a/ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e/notifications.json',
            query: { page: '1', per_page: '25' },
            headers: { 'request-from': 'acme_portal' },
          },
          response: { body: { page: 1, per_page: 25, total_pages: 0, total_records: 0, notifications: [] } },
        },
      ],
      expect: { output: { page: 1, per_page: 25, total_pages: 0, total_records: 0, notifications: [] } },
    }));
});

describe('the operation set', () => {
  const operations = callrailPlugin.operations;

  // The catalog's 23 operations, their methods, paths and parameters: catalog.test.ts.
  it('has 32 operations, each named once', () => {
    expect(operations).toHaveLength(32);
    expect(new Set(operations.map((o) => o.name)).size).toBe(32);
  });

  it('has a success fixture that reaches CallRail for every operation', () => {
    const success = Object.values(families).flat();
    const covered = new Set(success.filter((f) => 'output' in f.expect && f.exchanges.length > 0).map((f) => f.operation));
    const missing = operations.map((o) => o.name).filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
  });

  it('states the one-way rules in the schema: order needs sort, append_tags needs tags, not the other way round', () => {
    const integration = new Registry().register(callrailPlugin);
    const ACC = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';
    const CAL = 'CAL0c8e4d2a6f1b4e7c9a3d5f8b2e6c1a47';
    const openapi = JSON.stringify(buildOpenApiDocument(integration));
    const sorts: Record<string, string> = {
      list_accounts: 'name',
      list_companies: 'name',
      get_tags: 'name',
      list_calls: 'duration',
      list_form_submissions: 'submitted_at',
    };
    for (const [name, sort] of Object.entries(sorts)) {
      const operation = integration.operations.get(name);
      if (!operation) throw new Error(`${name} is not registered`);
      const base = name === 'list_accounts' ? {} : { account_id: ACC };
      expect(operation.validator.problems({ ...base, order: 'asc' }), name).toEqual(['params: order requires sort']);
      expect(operation.validator.problems({ ...base, order: 'asc', sort }), name).toEqual([]);
      expect(operation.validator.problems({ ...base, sort }), name).toEqual([]);
      // describe_method hands out the params schema with the rule; OpenAPI says it in the operation's description.
      const rules = describeOperation(integration, operation).params.dependentRequired as Record<string, string[]>;
      expect(rules.order, name).toEqual(['sort']);
      expect(rules.sort, name).toBeUndefined();
    }
    expect(openapi).toContain('Parameter rules: order requires sort.');
    const update = integration.operations.get('update_call');
    if (!update) throw new Error('update_call is not registered');
    expect(update.validator.problems({ account_id: ACC, call_id: CAL, note: 'x', append_tags: true })).toEqual([
      'params: append_tags requires tags',
    ]);
    expect(update.validator.problems({ account_id: ACC, call_id: CAL, tags: ['New Client Inquiry'] })).toEqual([]);
    expect(describeOperation(integration, update).params.dependentRequired).toEqual({ append_tags: ['tags'] });
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

  it('declares no response schema for the raw passthrough operations and one for the shapes the specification gives', () => {
    const raw = ['get_integration', 'get_integration_filter', 'get_outbound_caller_id'];
    for (const operation of operations) {
      if (raw.includes(operation.name)) expect(operation.response, operation.name).toBeUndefined();
    }
    const thread = operations.find((o) => o.name === 'get_sms_thread')?.response as { properties: Record<string, unknown> };
    expect(Object.keys(thread.properties).sort()).toEqual(['page', 'per_page', 'tags', 'total_pages', 'total_records']);
  });
});

describe('CallRail error reading', () => {
  it('never repeats a credential an upstream echoes back', () => {
    const failure = inspect({ status: 401, headers: {}, body: { error: 'Invalid header Token token="s3cr3t-key"' } });
    expect(failure?.status).toBe(401);
    expect(failure?.message).not.toContain('s3cr3t-key');
  });

  it('passes on a Retry-After header of a 429', () => {
    expect(inspect({ status: 429, headers: { 'retry-after': '12' }, body: { error: 'slow down' } })).toEqual({
      status: 429,
      message: 'slow down',
      retryAfter: 12,
    });
    expect(inspect({ status: 429, headers: {}, body: undefined })).toEqual({ status: 429, message: 'too many requests' });
  });

  it('treats every 2xx as success', () => {
    expect(inspect({ status: 200, headers: {}, body: { error: 'looks like an error but is data' } })).toBeUndefined();
    expect(inspect({ status: 204, headers: {}, body: undefined })).toBeUndefined();
  });
});

describe('CallRail authorization header', () => {
  it('wraps the key as Token token="…"', () => {
    expect(authHeaders({ accessToken: 'abc123' })).toEqual({ authorization: 'Token token="abc123"' });
  });

  it('accepts a pasted header value without wrapping it twice', () => {
    expect(authHeaders({ accessToken: ' Token token="abc123" ' })).toEqual({ authorization: 'Token token="abc123"' });
  });
});
