import { Registry } from '@portico/core';
import { createFixtureHarness, type FixtureHarness, type OperationFixture } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockFixtures } from './fixtures/blocks.js';
import { catalogTypeFixtures, optionalParamFixtures } from './fixtures/catalog.js';
import { databaseFixtures } from './fixtures/databases.js';
import { upstreamErrorFixtures } from './fixtures/errors.js';
import { invalidInputFixtures } from './fixtures/invalid.js';
import { pageFixtures, searchFixtures, versionFixture } from './fixtures/pages.js';
import { commentFixtures, userFixtures } from './fixtures/people.js';
import { notionPlugin } from './index.js';
import { inspectNotionResponse, notionHeaders } from './upstream.js';

const successFixtures: OperationFixture[] = [
  ...searchFixtures,
  ...pageFixtures,
  ...databaseFixtures,
  ...blockFixtures,
  ...userFixtures,
  ...commentFixtures,
  ...catalogTypeFixtures,
];

const label = (fixture: OperationFixture) => fixture.name ?? fixture.operation;

describe('notion operations through the fixture harness', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(notionPlugin, {
      authHeaders: { authorization: 'Bearer fixture-token' },
      headers: { 'notion-version': '2022-06-28' },
    });
  });
  afterAll(() => harness.close());

  describe('requests and responses', () => {
    it.each(successFixtures.map((f) => [label(f), f] as const))('%s', (_, fixture) => harness.check(fixture));
  });

  describe('upstream errors', () => {
    it.each(upstreamErrorFixtures.map((f) => [label(f), f] as const))('%s', (_, fixture) => harness.check(fixture));
  });

  describe('parameters the catalog makes optional reach Notion, whose own validation answers', () => {
    it.each(optionalParamFixtures.map((f) => [label(f), f] as const))('%s', (_, fixture) => harness.check(fixture));
  });

  describe('invalid input is refused before any upstream call', () => {
    it.each(invalidInputFixtures.map((f) => [label(f), f] as const))('%s', (_, fixture) => harness.check(fixture));
  });
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

describe('fixture coverage', () => {
  it('has a success fixture for every operation of the plugin', () => {
    const covered = new Set(successFixtures.filter((f) => 'output' in f.expect).map((f) => f.operation));
    const missing = notionPlugin.operations.map((o) => o.name).filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
  });

  it('has a refused-input fixture for every operation of the plugin', () => {
    const covered = new Set(invalidInputFixtures.map((f) => f.operation));
    expect(notionPlugin.operations.map((o) => o.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  it('names no operation the plugin does not have', () => {
    const names = new Set(notionPlugin.operations.map((o) => o.name));
    const all = [...successFixtures, ...upstreamErrorFixtures, ...optionalParamFixtures, ...invalidInputFixtures];
    expect(all.map((f) => f.operation).filter((name) => !names.has(name))).toEqual([]);
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

  it.each(notionPlugin.operations.map((o) => [o.name, o] as const))(
    '%s has a valid example and documented parameters',
    (name, operation) => {
      const registered = integration.operations.get(name);
      expect(registered).toBeDefined();
      expect(operation.summary).not.toMatch(/\n/);
      expect(operation.description.length).toBeGreaterThan(80);
      expect(operation.example).toBeDefined();
      expect(registered?.validator.problems(operation.example)).toEqual([]);
      expect(operation.check?.(operation.example as never)).toBeUndefined();
      const properties = (operation.params.properties ?? {}) as Record<string, { description?: string }>;
      for (const [param, schema] of Object.entries(properties)) {
        expect(schema.description, `${name}.${param} has a description`).toBeTruthy();
      }
    },
  );
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
