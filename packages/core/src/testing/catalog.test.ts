import { describe, expect, it } from 'vitest';
import { defineOperation } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { CommaList, IntegerString, Params, StringEnum, Type } from '../contract/schema.js';
import { compareWithCatalog } from './catalog.js';

const plugin = definePlugin({
  service: 'chatlike',
  displayName: 'Chat-like',
  version: '0.0.0',
  description: 'A test integration.',
  contract: 1,
  upstream: { baseUrl: 'https://chat.invalid' },
  auth: {},
  operations: [
    defineOperation({
      name: 'list_channels',
      method: 'GET',
      path: '/channels',
      summary: 's',
      description: 'd',
      params: Params({
        limit: Type.Optional(IntegerString({ minimum: 1, maximum: 999, default: '20' })),
        types: Type.Optional(CommaList(['public_channel', 'private_channel'] as const, { default: 'public_channel' })),
        order: Type.Optional(StringEnum(['asc', 'desc'])),
        archived: Type.Boolean(),
      }),
      upstream: { method: 'GET', path: '/conversations.list' },
    }),
  ],
});

describe('compareWithCatalog', () => {
  it('finds nothing when the declarations say what the catalog says', () => {
    expect(
      compareWithCatalog(plugin, [
        {
          name: 'list_channels',
          method: 'GET',
          path: '/channels',
          params: {
            limit: { type: 'string', default: '20' },
            types: { type: 'string', default: 'public_channel', enum: ['private_channel', 'public_channel'] },
            order: { type: 'string', enum: ['asc', 'desc'] },
            archived: { type: 'boolean', required: true },
          },
        },
      ]),
    ).toEqual({});
  });

  it('names every kind of disagreement', () => {
    expect(
      compareWithCatalog(plugin, [
        {
          name: 'list_channels',
          method: 'POST',
          path: '/chans',
          params: {
            limit: { type: 'number', default: '10' },
            types: { type: 'string', enum: ['public_channel'] },
            archived: { type: 'boolean' },
            cursor: { type: 'string' },
          },
        },
        { name: 'send_message', method: 'POST', path: '/messages' },
      ]),
    ).toEqual({
      'list_channels:method': 'GET, catalog POST',
      'list_channels:path': '/channels, catalog /chans',
      'list_channels.limit:type': 'string, catalog number',
      'list_channels.limit:default': '"20", catalog "10"',
      'list_channels.types:enum': '[private_channel, public_channel], catalog [public_channel]',
      'list_channels.archived:required': 'required, catalog optional',
      'list_channels.cursor:param': 'not declared',
      'list_channels.order:extra': 'declared, not in the catalog',
      'send_message:missing': 'not declared',
    });
  });
});
