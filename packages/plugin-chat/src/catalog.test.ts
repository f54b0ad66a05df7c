import type { CatalogDifferences, CatalogOperation, CatalogParam } from '@portico/core/testing';
import { compareWithCatalog } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { slackPlugin } from './index.js';

// The Integration Operation Catalog's team-chat table, as facts: every operation with its method, path and the
// parameters it lists. Untyped parameters are strings ("query values are strings unless marked"); path parameters
// and (req) ones are required. The values of `types` come from the Core Specification's enumerated values.

const string: CatalogParam = { type: 'string' };
const required: CatalogParam = { type: 'string', required: true };
/** Paging: cursor (string); limit (string, default 20, max 999). */
const paging = { limit: { type: 'string', default: '20' }, cursor: string } as const satisfies Record<string, CatalogParam>;
const message = { channel: required, timestamp: required } as const;

const CATALOG: readonly CatalogOperation[] = [
  {
    name: 'send_message',
    method: 'POST',
    path: '/channels/:channel/messages',
    params: {
      channel: required,
      text: string,
      thread_ts: string,
      reply_broadcast: { type: 'boolean', default: false },
      unfurl_links: { type: 'boolean', default: true },
    },
  },
  {
    name: 'read_messages',
    method: 'GET',
    path: '/channels/:channel/messages',
    params: { channel: required, limit: paging.limit, oldest: string, latest: string, cursor: string },
  },
  {
    name: 'read_thread',
    method: 'GET',
    path: '/channels/:channel/messages/:ts/replies',
    params: { channel: required, ts: required, ...paging },
  },
  {
    name: 'list_channels',
    method: 'GET',
    path: '/channels',
    params: {
      limit: paging.limit,
      types: { type: 'string', default: 'public_channel', enum: ['public_channel', 'private_channel', 'mpim', 'im'] },
      exclude_archived: { type: 'string', default: 'false' },
      cursor: string,
    },
  },
  {
    name: 'get_channel_info',
    method: 'GET',
    path: '/channels/:channel',
    params: { channel: required, include_num_members: { type: 'boolean' } },
  },
  {
    name: 'create_channel',
    method: 'POST',
    path: '/channels',
    params: { name: string, is_private: { type: 'boolean', default: false } },
  },
  { name: 'archive_channel', method: 'POST', path: '/channels/:channel/archive', params: { channel: required } },
  {
    name: 'invite_to_channel',
    method: 'POST',
    path: '/channels/:channel/invitations',
    params: { channel: required, users: string },
  },
  {
    name: 'add_reaction',
    method: 'POST',
    path: '/channels/:channel/messages/:timestamp/reactions',
    params: { ...message, name: string },
  },
  {
    name: 'get_reactions',
    method: 'GET',
    path: '/channels/:channel/messages/:timestamp/reactions',
    params: { ...message, full: { type: 'boolean', default: false } },
  },
  {
    name: 'remove_reaction',
    method: 'DELETE',
    path: '/channels/:channel/messages/:timestamp/reactions',
    params: { ...message, name: string },
  },
  { name: 'add_pin', method: 'POST', path: '/channels/:channel/messages/:timestamp/pins', params: message },
  { name: 'remove_pin', method: 'DELETE', path: '/channels/:channel/messages/:timestamp/pins', params: message },
  { name: 'list_pins', method: 'GET', path: '/channels/:channel/pins', params: { channel: required } },
  {
    name: 'upload_file',
    method: 'POST',
    path: '/files',
    params: { channel_id: string, filename: string, content: string, content_base64: string, initial_comment: string, thread_ts: string },
  },
  { name: 'list_users', method: 'GET', path: '/users', params: paging },
  { name: 'get_user_info', method: 'GET', path: '/users/:user', params: { user: required } },
  { name: 'lookup_user_by_email', method: 'GET', path: '/users/lookup-by-email', params: { email: string } },
];

/**
 * Intended differences from the catalog, each with its reason. None: every operation, path, parameter, type,
 * default and enumerated value is as the catalog gives it, and nothing it marks optional is required.
 */
const DIFFERENCES: CatalogDifferences = {};

describe('slack declarations against the Integration Operation Catalog', () => {
  it('holds every operation of the catalog table', () => {
    expect(CATALOG).toHaveLength(18);
    expect(CATALOG.map((row) => row.name).sort()).toEqual(slackPlugin.operations.map((operation) => operation.name).sort());
  });

  it('differs from the catalog exactly where DIFFERENCES says', () => {
    const found = compareWithCatalog(slackPlugin, CATALOG);
    expect(Object.keys(found).sort(), `found: ${JSON.stringify(found, null, 2)}`).toEqual(Object.keys(DIFFERENCES).sort());
  });

  it('gives every difference a reason in one sentence', () => {
    for (const [key, reason] of Object.entries(DIFFERENCES)) {
      expect(reason.trim(), key).toMatch(/^\S.*\S[.!]$/s);
    }
  });
});
