import { defineOperation } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Params, StringEnum, Type } from '../contract/schema.js';

/** A small plugin used by core's own tests (and as the smallest example of the contract). */
export const examplePlugin = definePlugin({
  service: 'example',
  displayName: 'Example',
  version: '0.0.0',
  description: 'A test integration.',
  contract: 1,
  upstream: {
    baseUrl: 'https://example.invalid/api',
    headers: (settings) => ({ 'x-api-version': String(settings.api_version) }),
  },
  auth: {
    token: { description: 'an API token' },
    oauth2: {
      authorizeUrl: 'https://example.invalid/oauth/authorize',
      tokenUrl: 'https://example.invalid/oauth/token',
      revokeUrl: 'https://example.invalid/oauth/revoke',
      scopes: ['items:read', 'items:write'],
      pkce: true,
      connectionFacts: (callback, body) => ({
        account: (body as { account_name?: string }).account_name ?? null,
        ...(callback.region ? { region: callback.region } : {}),
      }),
    },
  },
  settings: Type.Object({ api_version: Type.String({ default: '2024-01-01' }) }),
  operations: [
    defineOperation({
      name: 'list_items',
      method: 'GET',
      path: '/items',
      summary: 'List items',
      description: 'Lists items, newest first.',
      params: Params({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size' })),
        status: Type.Optional(StringEnum(['open', 'closed'])),
        tags: Type.Optional(Type.Array(Type.String())),
      }),
      upstream: { method: 'GET', path: '/items' },
    }),
    defineOperation({
      name: 'get_item',
      method: 'GET',
      path: '/items/:item_id',
      summary: 'Get an item',
      description: 'Returns one item.',
      params: Params({ item_id: Type.String() }),
      upstream: { method: 'GET', path: '/v2/items/:item_id' },
    }),
    defineOperation({
      name: 'get_current_item',
      method: 'GET',
      path: '/items/current',
      summary: 'Get the current item',
      description: 'Returns the current item.',
      params: Params({}),
      upstream: { method: 'GET', path: '/items/current' },
    }),
    defineOperation({
      name: 'create_item',
      method: 'POST',
      path: '/items',
      summary: 'Create an item',
      description: 'Creates an item.',
      params: Params({ name: Type.String({ minLength: 1 }), notify: Type.Optional(Type.Boolean()) }),
      upstream: { method: 'POST', path: '/items', query: ['notify'] },
    }),
    defineOperation({
      name: 'delete_item',
      method: 'DELETE',
      path: '/items/:item_id',
      summary: 'Delete an item',
      description: 'Deletes an item.',
      params: Params({ item_id: Type.String() }),
      upstream: { method: 'DELETE', path: '/items/:item_id' },
    }),
  ],
});

export default examplePlugin;
