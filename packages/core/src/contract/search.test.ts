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

describe('OperationIndex words', () => {
  const words = new Registry();
  words.register(plugin('files', [op('upload_file', '/files', 'Upload a file', 'Uploads a file to a channel.')]));
  words.register(
    plugin('practice', [
      op('list_matters', '/matters', 'List matters', 'Lists the matters (cases) of the firm.'),
      op('get_matter', '/matters/:id', 'Get one matter', 'Returns one matter with its responsible attorney.'),
      op('create_matter', '/matters/new', 'Create a matter', 'Opens a matter for a client, with its responsible attorney.'),
      op('update_matter', '/matters/:id/edit', 'Update a matter', 'Changes a matter: status, responsible attorney.'),
      op('list_hearings', '/hearings', 'List hearings', 'Lists the court hearings of a matter.'),
    ]),
  );
  const wordIndex = new OperationIndex(words.list());
  const find = (query: string, limit = 3) => wordIndex.search(query, { limit }).map((hit) => `${hit.service}.${hit.method}`);

  it('reads synonyms in the query only: a file of the user may be a matter, an operation on files is not one', () => {
    expect(find('open the Smith file')[0]).toBe('practice.get_matter');
    expect(find('list the matters', 10)).not.toContain('files.upload_file');
  });

  it('reads a question as a wish to read, and "new" as a wish to create', () => {
    expect(find('who is the responsible attorney on the matter').slice(0, 2)).toEqual(
      expect.arrayContaining(['practice.get_matter', 'practice.list_matters']),
    );
    expect(find('a new matter for a client')[0]).toBe('practice.create_matter');
  });

  it('stems a plural in -ings like its singular', () => {
    expect(find('hearings')[0]).toBe('practice.list_hearings');
    expect(find('the next hearing')[0]).toBe('practice.list_hearings');
  });
});
