import { describe, expect, it } from 'vitest';
import { defineOperation } from './operation.js';
import { definePlugin } from './plugin.js';
import { Registry } from './registry.js';
import { Params, Type } from './schema.js';
import { OperationIndex } from './search.js';

const op = (name: string, path: string, summary: string, description: string) =>
  defineOperation({
    name,
    method: 'GET',
    path,
    summary,
    description,
    params: Params({ id: Type.String() }),
    upstream: { method: 'GET', path },
  });

const plugin = (service: string, operations: ReturnType<typeof op>[]) =>
  definePlugin({
    service,
    displayName: service,
    version: '1.0.0',
    description: `${service} test plugin`,
    contract: 1,
    upstream: { baseUrl: `https://${service}.invalid` },
    auth: {},
    operations,
  });

const registry = new Registry();
registry.register(
  plugin('calls', [
    op('get_call', '/calls/:id', 'Retrieve one call', 'Returns one call: answered, duration, customer name and number.'),
    op('list_calls', '/calls', 'List calls', 'Lists the calls of the account, newest first.'),
  ]),
);
registry.register(
  plugin('crm', [
    op('get_phone_number', '/phone-numbers/:id', 'Retrieve one phone number', 'Returns one phone number of a contact.'),
    op('find_contact_by_phone', '/contacts/find-by-phone/:id', 'Find a contact by phone number', 'The contact with this phone.'),
    op('get_message', '/messages/:id', 'Retrieve one message', 'Returns one message.'),
    op('get_sms', '/sms/:id', 'Retrieve one SMS', 'Returns one SMS.'),
  ]),
);
const index = new OperationIndex(registry.list());
const top = (query: string, limit = 3) => index.search(query, { limit }).map((hit) => `${hit.service}.${hit.method}`);

describe('OperationIndex', () => {
  it('reads a word that stands for another word of the query as a qualifier of it: a phone call is a call', () => {
    expect(top('get the details of one phone call')[0]).toBe('calls.get_call');
    expect(top('phone call history')[0]).toBe('calls.list_calls');
  });

  it('still reads the word alone as itself and as the word it stands for', () => {
    expect(top('find a contact by phone')[0]).toBe('crm.find_contact_by_phone');
    expect(top('get a phone number')[0]).toBe('crm.get_phone_number');
    // "phone" alone also stands for "call"
    expect(top('phone log', 5)).toContain('calls.list_calls');
    // "text" stands for message and SMS: with neither in the query, both are found
    expect(top('read one text', 5)).toEqual(expect.arrayContaining(['crm.get_message', 'crm.get_sms']));
  });

  it('finds nothing for words no operation uses', () => {
    expect(index.search('zzzz qqqq', { limit: 5 })).toEqual([]);
  });
});
