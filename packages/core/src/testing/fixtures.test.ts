import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineOperation } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { IntegerString, Params, Type } from '../contract/schema.js';
import { createFixtureHarness, type FixtureHarness } from './fixtures.js';

const plugin = definePlugin({
  service: 'things',
  displayName: 'Things',
  version: '0.0.0',
  description: 'A test integration.',
  contract: 1,
  upstream: { baseUrl: 'https://things.invalid/v2' },
  auth: { token: { description: 'a token' } },
  operations: [
    defineOperation({
      name: 'list_things',
      method: 'GET',
      path: '/things',
      summary: 'List things',
      description: 'Lists things.',
      params: Params({
        limit: Type.Optional(IntegerString({ minimum: 1, maximum: 999 })),
        tags: Type.Optional(Type.Array(Type.String())),
        q: Type.Optional(Type.String()),
      }),
      upstream: { method: 'GET', path: '/things' },
    }),
    defineOperation({
      name: 'create_thing',
      method: 'POST',
      path: '/things',
      summary: 'Create a thing',
      description: 'Creates a thing.',
      params: Params({ name: Type.String(), fields: Type.Optional(Type.String()) }),
      locations: { fields: 'query' },
      upstream: { method: 'POST', path: '/things.json' },
    }),
  ],
});

describe('the fixture runner', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(plugin);
  });
  afterAll(async () => harness.close());

  it('sends a string the catalog types as a string identically whether given as "2" or 2, through both doors', async () => {
    for (const limit of ['2', 2]) {
      await harness.check({
        operation: 'list_things',
        params: { limit, tags: ['a', 'b'] },
        exchanges: [
          { request: { method: 'GET', path: '/v2/things', query: { limit: '2', tags: ['a', 'b'] } }, response: { body: { data: [] } } },
        ],
        expect: { output: { data: [] } },
      });
    }
  });

  it('sends a parameter located in the query in the upstream query string too', async () => {
    await harness.check({
      operation: 'create_thing',
      params: { name: 'x', fields: 'id,name' },
      exchanges: [
        {
          request: { method: 'POST', path: '/v2/things.json', query: { fields: 'id,name' }, body: { name: 'x' } },
          response: { status: 201, body: { id: 1 } },
        },
      ],
      expect: { output: { id: 1 } },
    });
  });

  it('fails a fixture whose REST call does not behave as its MCP call', async () => {
    // An object for a string query parameter: refused over MCP, but a query string can only carry it as text.
    const fixture = {
      operation: 'list_things',
      params: { q: { a: 1 } },
      exchanges: [],
      expect: { error: { code: 'bad_request' as const } },
    };
    await expect(harness.check(fixture)).rejects.toThrow(/\[rest GET \/things\]: number of upstream requests/);
    await harness.check({ ...fixture, restSkip: 'a query string carries an object only as its JSON text' });
  });
});
