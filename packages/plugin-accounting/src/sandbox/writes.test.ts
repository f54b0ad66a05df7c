import type { SandboxServer } from '@portico/core/plugin';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_REALM_ID, SANDBOX_TOKEN, startSandbox } from './index.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in tests
type Body = Record<string, any>;

let sandbox: SandboxServer;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox?.close());
beforeEach(async () => {
  await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' });
});

async function createCustomer(body: unknown, requestId?: string): Promise<{ status: number; body: Body }> {
  const query = requestId === undefined ? '' : `?requestid=${encodeURIComponent(requestId)}`;
  const response = await fetch(`${sandbox.url}/v3/company/${SANDBOX_REALM_ID}/customer${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_TOKEN}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function customerCount(): Promise<number> {
  const response = await fetch(`${sandbox.url}/__sandbox/stats`);
  return ((await response.json()) as Body).records.Customer;
}

describe('writes and requestid', () => {
  it('creates a customer with a new id; the same name twice is QuickBooks’ duplicate name error', async () => {
    const before = await customerCount();
    const created = await createCustomer({ DisplayName: 'Ines Okafor', PrimaryEmailAddr: { Address: 'ines@example.com' } });
    expect(created.status).toBe(200);
    expect(created.body.Customer).toMatchObject({ DisplayName: 'Ines Okafor', Active: true, SyncToken: '0' });
    expect(Number(created.body.Customer.Id)).toBeGreaterThan(before);
    const again = await createCustomer({ DisplayName: 'ines okafor' });
    expect(again.status).toBe(400);
    expect(again.body.Fault.Error[0]).toMatchObject({ code: '6240', Message: 'Duplicate Name Exists Error' });
    expect(await customerCount()).toBe(before + 1);
    expect((await createCustomer({})).status).toBe(400);
  });

  it('a create repeated with the same requestid answers as the first and creates nothing more', async () => {
    const before = await customerCount();
    const first = await createCustomer({ DisplayName: 'Ines Okafor' }, 'req-7f3a');
    const repeated = await createCustomer({ DisplayName: 'Ines Okafor' }, 'req-7f3a');
    expect(repeated).toEqual(first);
    expect(await customerCount()).toBe(before + 1);
    // another requestid is another request: the name is taken now
    expect((await createCustomer({ DisplayName: 'Ines Okafor' }, 'req-8b11')).status).toBe(400);
    // a failure is not kept: a requestid whose first try failed can be tried again
    expect((await createCustomer({}, 'req-9c20')).status).toBe(400);
    expect((await createCustomer({ DisplayName: 'Ravi Menon' }, 'req-9c20')).status).toBe(200);
    expect(await customerCount()).toBe(before + 2);
  });

  it('refuses a requestid longer than QuickBooks’ 50 characters', async () => {
    const refused = await createCustomer({ DisplayName: 'Ines Okafor' }, 'r'.repeat(51));
    expect(refused.status).toBe(400);
    expect(refused.body.Fault.Error[0].element).toBe('requestid');
  });
});
