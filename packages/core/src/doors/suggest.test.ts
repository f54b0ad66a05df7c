import { describe, expect, it } from 'vitest';
import { defineOperation, type HttpMethod } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { Params, Type } from '../contract/schema.js';
import { closestOperations, readOnlyReason } from './suggest.js';

const op = (name: string, method: HttpMethod, summary: string) =>
  defineOperation({
    name,
    method,
    path: `/${name.replaceAll('_', '-')}`,
    summary,
    description: summary,
    params: Params({ id: Type.Optional(Type.String()) }),
    upstream: { method, path: `/${name}` },
  });

const operationsOf = (service: string, operations: ReturnType<typeof op>[]) => [
  ...new Registry()
    .register(
      definePlugin({
        service,
        displayName: service,
        version: '1.0.0',
        description: `${service} test plugin`,
        contract: 1,
        upstream: { baseUrl: `https://${service}.invalid` },
        auth: {},
        operations,
      }),
    )
    .operations.values(),
];

const books = operationsOf('books', [
  op('find_payments', 'GET', 'Search payments'),
  op('find_bill_payments', 'GET', 'Search bill payments'),
  op('find_payment_methods', 'GET', 'Search payment methods'),
  op('find_invoices', 'GET', 'Search invoices'),
]);

const practice = operationsOf('practice', [
  op('list_payments', 'GET', 'List payments'),
  op('list_matters', 'GET', 'List matters'),
  op('create_matter', 'POST', 'Create a matter'),
  op('list_activities', 'GET', 'List time entries'),
  op('create_activity', 'POST', 'Create a time entry'),
]);

describe('readOnlyReason', () => {
  it('names an integration with no operation that writes when a name asks to write', () => {
    for (const wrong of ['create_payment', 'update_invoice', 'delete_customer', 'send_invoice'])
      expect(readOnlyReason(books, wrong)).toEqual({ scope: 'integration' });
  });

  it('names the resource whose operations only read, with those operations', () => {
    const reason = readOnlyReason(practice, 'create_payment');
    expect(reason).toMatchObject({ scope: 'resource', noun: 'payment' });
    expect(reason?.scope === 'resource' && reason.reads.map((o) => o.name)).toEqual(['list_payments']);
  });

  it('says nothing when the name reads, names no verb, or its resource can be written under another word', () => {
    expect(readOnlyReason(books, 'get_payment')).toBeUndefined();
    expect(readOnlyReason(books, 'payments')).toBeUndefined();
    expect(readOnlyReason(practice, 'create_matters')).toBeUndefined();
    // a time entry is the practice's activity, which can be created
    expect(readOnlyReason(practice, 'create_time_entry')).toBeUndefined();
    // nothing in the practice is about widgets: an ordinary unknown name
    expect(readOnlyReason(practice, 'create_widget')).toBeUndefined();
  });

  it('the closest read operations of a read-only integration are the ones about the same thing', () => {
    expect(closestOperations(books, 'create_payment')[0]?.name).toBe('find_payments');
  });
});
