import { describe, expect, it } from 'vitest';
import { repeatable, type UpstreamRequest } from './operation.js';

const request = (method: UpstreamRequest['method']): UpstreamRequest => ({ method, path: '/items' });

describe('repeatable: may a request refused with 401 be sent again after a refresh?', () => {
  it('GET, PUT and DELETE requests are, whatever the operation', () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) expect(repeatable({ method: 'POST' }, request(method))).toBe(true);
  });

  it('a POST or PATCH that writes is not, unless the plugin marks the operation repeatable', () => {
    expect(repeatable({ method: 'POST' }, request('POST'))).toBe(false);
    expect(repeatable({ method: 'PATCH' }, request('PATCH'))).toBe(false);
    expect(repeatable({ method: 'POST', repeatable: true }, request('POST'))).toBe(true);
  });

  it('an operation that only reads is, whatever method its upstream request uses (a search sent as POST)', () => {
    expect(repeatable({ method: 'GET' }, request('POST'))).toBe(true);
    expect(repeatable({ method: 'POST', access: 'read' }, request('POST'))).toBe(true);
  });
});
