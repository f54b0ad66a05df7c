import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplePlugin } from '../testing/example-plugin.js';
import { createFixtureHarness, type FixtureHarness } from '../testing/fixtures.js';

describe('invoke pipeline through the fixture harness', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(examplePlugin, {
      authHeaders: { authorization: 'Bearer fixture-token' },
      headers: { 'x-api-version': '2024-01-01' },
    });
  });
  afterAll(() => harness.close());

  it('sends query params with arrays repeated and passes the body through', () =>
    harness.check({
      operation: 'list_items',
      params: { limit: 5, status: 'open', tags: ['a', 'b'] },
      exchanges: [
        {
          request: { method: 'GET', path: '/api/items', query: { limit: '5', status: 'open', tags: ['a', 'b'] } },
          response: { body: { items: [{ id: 1 }] } },
        },
      ],
      expect: { output: { items: [{ id: 1 }] } },
    }));

  it('maps an upstream path with a different shape', () =>
    harness.check({
      operation: 'get_item',
      params: { item_id: 'a&b c' },
      exchanges: [{ request: { method: 'GET', path: '/api/v2/items/a%26b%20c' }, response: { body: { id: 'a&b c' } } }],
      expect: { output: { id: 'a&b c' } },
    }));

  it('puts POST params in the body except declared query params', () =>
    harness.check({
      operation: 'create_item',
      params: { name: 'x', notify: true },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/items', query: { notify: 'true' }, body: { name: 'x' } },
          response: { status: 201, body: { id: 9 } },
        },
      ],
      expect: { output: { id: 9 } },
    }));

  it('refuses invalid params before calling the upstream, naming each problem', async () => {
    await harness.check({
      operation: 'list_items',
      params: { limit: 500, status: 'pending', colour: 'red' },
      exchanges: [],
      expect: { error: { code: 'bad_request', message: 'params.status: must be one of "open", "closed"' } },
    });
    await harness.check({
      operation: 'list_items',
      params: { limit: 500 },
      exchanges: [],
      expect: { error: { code: 'bad_request', message: 'params.limit: must be <= 100' } },
    });
  });

  it.each([
    [400, 'bad_request'],
    [422, 'bad_request'],
    [401, 'upstream_unauthorized'],
    [403, 'upstream_unauthorized'],
    [404, 'not_found'],
    [409, 'conflict'],
    [429, 'rate_limited'],
    [500, 'upstream_error'],
    [503, 'upstream_error'],
  ] as const)('maps upstream %i to %s', (status, code) =>
    harness.check({
      operation: 'delete_item',
      params: { item_id: '7' },
      exchanges: [{ request: { method: 'DELETE', path: '/api/items/7' }, response: { status, body: { message: 'upstream says no' } } }],
      expect: { error: { code, message: 'upstream says no' } },
    }),
  );

  it('keeps the upstream message of a 400', () =>
    harness.check({
      operation: 'create_item',
      params: { name: 'x' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/items', body: { name: 'x' } },
          response: { status: 400, body: { message: 'name taken' } },
        },
      ],
      expect: { error: { code: 'bad_request', message: 'Example rejected the request: name taken' } },
    }));
});

describe('harness catches wrong requests', () => {
  it('fails when the expected path differs', async () => {
    const harness = await createFixtureHarness(examplePlugin);
    await expect(
      harness.check({
        operation: 'get_item',
        params: { item_id: '1' },
        exchanges: [{ request: { method: 'GET', path: '/api/items/1' }, response: { body: {} } }],
        expect: { output: {} },
      }),
    ).rejects.toThrow(/path/);
    await harness.close();
  });
});
