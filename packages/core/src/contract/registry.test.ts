import { describe, expect, it } from 'vitest';
import { examplePlugin } from '../testing/example-plugin.js';
import { defineOperation, type OperationDefinition } from './operation.js';
import { definePlugin, type PluginDefinition, packageVersion } from './plugin.js';
import { Registry, RegistryError } from './registry.js';
import { Params, Type } from './schema.js';

const op = (overrides: Partial<OperationDefinition> = {}) =>
  defineOperation({
    name: 'get_thing',
    method: 'GET',
    path: '/things/:id',
    summary: 's',
    description: 'd',
    params: Params({ id: Type.String() }),
    upstream: { method: 'GET', path: '/things/:id' },
    ...overrides,
  } as OperationDefinition);

const plugin = (overrides: Partial<PluginDefinition> = {}) =>
  definePlugin({
    service: 'things',
    displayName: 'Things',
    version: '1.0.0',
    description: 'd',
    contract: 1,
    upstream: { baseUrl: 'https://things.invalid' },
    auth: {},
    operations: [op()],
    ...overrides,
  });

describe('Registry', () => {
  it('registers a plugin and matches its routes, statics before parameters', () => {
    const registry = new Registry();
    const integration = registry.register(examplePlugin);
    const current = integration.match('GET', '/items/current');
    expect(current.found && current.operation.name).toBe('get_current_item');
    const byId = integration.match('GET', '/items/a%2Fb');
    expect(byId.found && byId.pathParams).toEqual({ item_id: 'a/b' });
    expect(integration.match('PUT', '/items')).toEqual({ found: false, allowed: ['GET', 'POST'] });
    expect(integration.match('GET', '/nothing')).toEqual({ found: false, allowed: [] });
  });

  it.each([
    ['an object that is not a plugin', { service: 'x' }, /not a Portico plugin/],
    ['an unsupported contract version', plugin({ contract: 2 }), /contract version 2/],
    ['an upper-case service key', plugin({ service: 'Things' }), /service key/],
    ['a name that is not snake_case', plugin({ operations: [op({ name: 'getThing' })] }), /snake_case/],
    ['a duplicate operation name', plugin({ operations: [op(), op({ path: '/other/:id' })] }), /declared twice/],
    [
      'a path token that is not a param',
      plugin({ operations: [op({ path: '/things/:thing_id' })] }),
      /:thing_id must be a required string/,
    ],
    [
      'an optional path token',
      plugin({ operations: [op({ params: Params({ id: Type.Optional(Type.String()) }) })] }),
      /:id must be a required string/,
    ],
    ['a numeric path token', plugin({ operations: [op({ params: Params({ id: Type.Integer() }) })] }), /:id must be a required string/],
    ['two operations on one method and path', plugin({ operations: [op(), op({ name: 'get_thing_again' })] }), /already taken/],
    [
      'an upstream path token that is not a param',
      plugin({ operations: [op({ upstream: { method: 'GET', path: '/x/:other' } })] }),
      /upstream path token :other/,
    ],
    [
      'a location for a parameter that does not exist',
      plugin({ operations: [op({ locations: { fields: 'query' } })] }),
      /locations names fields, which is not a parameter/,
    ],
    ['a location for a path parameter', plugin({ operations: [op({ locations: { id: 'query' } })] }), /its location is the path/],
    [
      'a body parameter on a GET',
      plugin({ operations: [op({ params: Params({ id: Type.String(), q: Type.Optional(Type.String()) }), locations: { q: 'body' } })] }),
      /a GET operation has no body/,
    ],
  ])('rejects %s', (_, candidate, message) => {
    expect(() => new Registry().register(candidate)).toThrow(RegistryError);
    expect(() => new Registry().register(candidate)).toThrow(message);
  });

  it('rejects a second plugin with the same service key, and accepts it renamed', () => {
    const registry = new Registry();
    registry.register(plugin());
    expect(() => registry.register(plugin())).toThrow(/already registered/);
    expect(registry.register(plugin(), { service: 'things2' }).service).toBe('things2');
  });

  it('derives access from the method unless declared', () => {
    const registry = new Registry();
    const integration = registry.register(
      plugin({
        operations: [
          op(),
          op({ name: 'make_thing', method: 'POST', path: '/things', params: Params({}), upstream: { method: 'POST', path: '/things' } }),
          op({ name: 'drop_thing', method: 'DELETE' }),
          op({
            name: 'search_things',
            method: 'POST',
            path: '/search',
            params: Params({}),
            access: 'read',
            upstream: { method: 'POST', path: '/s' },
          }),
        ],
      }),
    );
    expect([...integration.operations.values()].map((o) => o.access)).toEqual(['read', 'write', 'delete', 'read']);
  });
});

describe('Router parameter names', () => {
  it('lets two paths name the same position differently', () => {
    const integration = new Registry().register(
      plugin({
        operations: [
          op({
            name: 'get_reply',
            path: '/messages/:ts/replies',
            params: Params({ ts: Type.String() }),
            upstream: { method: 'GET', path: '/r' },
          }),
          op({
            name: 'get_pins',
            path: '/messages/:timestamp/pins',
            params: Params({ timestamp: Type.String() }),
            upstream: { method: 'GET', path: '/p' },
          }),
        ],
      }),
    );
    const reply = integration.match('GET', '/messages/1.2/replies');
    expect(reply.found && reply.pathParams).toEqual({ ts: '1.2' });
    const pins = integration.match('GET', '/messages/3.4/pins');
    expect(pins.found && pins.pathParams).toEqual({ timestamp: '3.4' });
  });

  it('backtracks from a static segment that leads nowhere', () => {
    const integration = new Registry().register(
      plugin({
        operations: [
          op({ name: 'get_me', path: '/users/me', params: Params({}), upstream: { method: 'GET', path: '/me' } }),
          op({
            name: 'get_user_posts',
            path: '/users/:id/posts',
            params: Params({ id: Type.String() }),
            upstream: { method: 'GET', path: '/x' },
          }),
        ],
      }),
    );
    const posts = integration.match('GET', '/users/me/posts');
    expect(posts.found && posts.operation.name).toBe('get_user_posts');
    expect(posts.found && posts.pathParams).toEqual({ id: 'me' });
  });
});

describe('packageVersion', () => {
  it('reads the version of the package.json beside a plugin’s src or dist folder', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { pathToFileURL } = await import('node:url');
    const root = mkdtempSync(join(tmpdir(), 'portico-pkg-'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', version: '9.8.7' }));
    mkdirSync(join(root, 'dist'));
    expect(packageVersion(pathToFileURL(join(root, 'dist', 'index.js')).href)).toBe('9.8.7');
  });
});
