import { createFixtureHarness, describeFixtures, Registry } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { blockFixtures } from './fixtures/blocks.js';
import { commentFixtures } from './fixtures/comments.js';
import { databaseFixtures } from './fixtures/databases.js';
import { pageFixtures, versionFixture } from './fixtures/pages.js';
import { refusedFixtures } from './fixtures/refused.js';
import { searchFixtures } from './fixtures/search.js';
import { upstreamErrorFixtures } from './fixtures/upstream-errors.js';
import { userFixtures } from './fixtures/users.js';
import { notionPlugin } from './index.js';
import { inspectNotionResponse, notionHeaders } from './upstream.js';

describeFixtures(notionPlugin, {
  authHeaders: { authorization: 'Bearer fixture-token' },
  headers: { 'notion-version': '2022-06-28' },
  groups: {
    search: searchFixtures,
    pages: pageFixtures,
    databases: databaseFixtures,
    blocks: blockFixtures,
    users: userFixtures,
    comments: commentFixtures,
    'upstream errors': upstreamErrorFixtures,
  },
  refused: refusedFixtures,
});

describe('the notion_version setting', () => {
  it(versionFixture.name ?? 'version', async () => {
    const harness = await createFixtureHarness(notionPlugin, { authHeaders: { authorization: 'Bearer fixture-token' } });
    try {
      await harness.check(versionFixture);
    } finally {
      await harness.close();
    }
  });
});

describe('operation declarations', () => {
  const integration = new Registry().register(notionPlugin);

  it('treat search, query_database and list_databases as reads', () => {
    const readOnly = [...integration.operations.values()].filter((o) => o.access === 'read').map((o) => o.name);
    expect(readOnly).toEqual(expect.arrayContaining(['search', 'query_database', 'list_databases']));
    expect(integration.operations.get('create_page')?.access).toBe('write');
    expect(integration.operations.get('delete_block')?.access).toBe('delete');
  });
});

describe('upstream settings', () => {
  it('pins Notion-Version from the setting, defaulting to 2022-06-28', () => {
    expect(notionHeaders({})).toEqual({ 'Notion-Version': '2022-06-28' });
    expect(notionHeaders({ notion_version: '2025-09-03' })).toEqual({ 'Notion-Version': '2025-09-03' });
  });

  it('rejects a malformed notion_version setting', () => {
    const integration = new Registry().register(notionPlugin);
    expect(integration.settingsValidator?.check({ notion_version: 'latest' })).toBe(false);
    expect(integration.settingsValidator?.check({ notion_version: '2022-06-28' })).toBe(true);
  });

  it('reads Notion errors into "<code>: <message>" with Retry-After on 429', () => {
    const body = { object: 'error', status: 429, code: 'rate_limited', message: 'Slow down.' };
    expect(inspectNotionResponse({ status: 429, headers: { 'retry-after': '7' }, body })).toEqual({
      status: 429,
      message: 'rate_limited: Slow down.',
      retryAfter: 7,
    });
    expect(inspectNotionResponse({ status: 200, headers: {}, body: { object: 'page' } })).toBeUndefined();
    expect(inspectNotionResponse({ status: 503, headers: { 'retry-after': '7' }, body: 'Service Unavailable' })).toEqual({
      status: 503,
      message: 'Service Unavailable',
    });
  });
});
