import { GatewayError } from '@portico/core/plugin';
import { createFixtureHarness, describeFixtures, type FixtureHarness, Registry } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, fixtureFiles } from './fixtures/kit.js';
import { COLLECTIONS, clioPlugin, collectionOperations } from './index.js';
import { baseUrlFor, clioError, DEFAULT_API_VERSION, inspect, oauth2 } from './upstream.js';

/** The operations no row builds: actions on a record, singletons without an id, writes with their own body. */
const SPECIAL = [
  'preview_matter_docket',
  'get_current_user',
  'create_webhook',
  'update_webhook',
  'generate_report_from_preset',
  'download_report',
  'copy_task_template_list',
  'get_timer',
  'start_timer',
  'stop_timer',
  'preview_bill',
  'copy_document',
  'download_document',
  'download_document_archive',
  'download_document_template',
  'get_matter_client',
  'get_billing_settings',
  'list_event_metrics',
];

/** Words that start with a vowel letter but a consonant sound ("a user"), or the reverse ("an hourly rate"). */
const CONSONANT_SOUND = /^(?:one|once|UTBMS|URL|us(?:er|ual)|uni(?!n))/;
const VOWEL_SOUND = /^(?:hour|honest|heir)/;
/** The names written as Clio writes them. */
const PROPER = ['clio', 'utbms', 'lauk', 'ledes'];

/** What reads wrong in a summary: a/an against the sound of the next word, an article before a determiner, … */
function summarySlips(summary: string): string[] {
  const slips: string[] = [];
  const words = summary.split(' ');
  words.forEach((word, i) => {
    const next = words[i + 1] ?? '';
    const vowel = (/^[aeiou]/i.test(next) && !CONSONANT_SOUND.test(next)) || VOWEL_SOUND.test(next);
    if (word === 'a' && vowel) slips.push(`"a" before "${next}"`);
    if (word === 'an' && !vowel) slips.push(`"an" before "${next}"`);
    if ((word === 'a' || word === 'an') && /^(?:my|the|a|an|one|this|its)$/.test(next)) slips.push(`an article before "${next}"`);
    if (word === 'one' && /[^s]s$/.test(next)) slips.push(`"one" before the plural "${next}"`);
    if (PROPER.includes(word)) slips.push(`"${word}" written in lower case`);
  });
  if (!/^[A-Z]/.test(summary)) slips.push('starts in lower case');
  if (/\.$/.test(summary)) slips.push('ends with a full stop');
  if (/\s{2}|_/.test(summary)) slips.push('has a double space or a snake_case name');
  return slips;
}

const auth = { authHeaders: { authorization: 'Bearer fixture-token' }, headers: { 'x-api-version': DEFAULT_API_VERSION } };

/** One group per fixtures file: a family's exchanges, Clio's error answers, input refused before any call. */
const TITLES: Record<string, string> = { 'upstream-errors': 'upstream errors', refused: 'refused before any upstream call' };
const files = await fixtureFiles();

describeFixtures(clioPlugin, {
  ...auth,
  groups: Object.fromEntries([...files].map(([file, fixtures]) => [TITLES[file] ?? file.replace(/-/g, ' '), fixtures])),
});

describe('Clio operations against recorded Clio exchanges (over MCP and REST)', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(clioPlugin, auth);
  });
  afterAll(() => harness.close());

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

  it('has the catalog’s 61 operations and the 102 + 119 added from Clio’s document, each named once', () => {
    expect(operations).toHaveLength(61 + 102 + 119);
    expect(new Set(operations.map((o) => o.name)).size).toBe(61 + 102 + 119);
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

  it('builds its table rows into their verbs, beside 18 special operations', () => {
    const verbs = COLLECTIONS.reduce((sum, row) => sum + row.verbs.length, 0);
    expect(verbs + SPECIAL.length).toBe(operations.length);
    expect(SPECIAL).toHaveLength(18);
    const fromRows = new Set(COLLECTIONS.flatMap((row) => collectionOperations(row).map((o) => o.name)));
    expect(operations.filter((o) => !fromRows.has(o.name)).map((o) => o.name)).toEqual(SPECIAL);
  });

  it('writes its summaries in correct English', () => {
    expect(operations.flatMap((o) => summarySlips(o.summary).map((slip) => `${o.name}: ${slip}`))).toEqual([]);
  });

  it('would notice a summary slip (the check is live)', () => {
    expect(summarySlips('Create a activity')).toEqual(['"a" before "activity"']);
    expect(summarySlips('Update an user')).toEqual(['"an" before "user"']);
    expect(summarySlips('Update a my event')).toEqual(['an article before "my"']);
    expect(summarySlips('Get one jurisdictions to trigger')).toEqual(['"one" before the plural "jurisdictions"']);
    expect(summarySlips('List clio payments links')).toEqual(['"clio" written in lower case']);
    expect(summarySlips('list bills.')).toEqual(['starts in lower case', 'ends with a full stop']);
    expect(summarySlips('Create an expense category')).toEqual([]);
    expect(summarySlips('Get a hourly rate')).toEqual(['"a" before "hourly"']);
    expect(summarySlips('Send an URL')).toEqual(['"an" before "URL"']);
    expect(summarySlips('Get an hourly rate for a URL')).toEqual([]);
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
