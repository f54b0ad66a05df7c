import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SandboxServer } from '@portico/core';
import { IDEMPOTENCY_META } from '@portico/core/mcp';
import { defineOperation, definePlugin, Params, Type } from '@portico/core/plugin';
import quickbooksPlugin from '@portico/plugin-accounting';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * A write sent twice with one idempotency key, through a gateway in sandbox mode, to the QuickBooks sandbox (which
 * honours QuickBooks' `requestid` as QuickBooks does): one record. QuickBooks' plugin declares the requestid; its own
 * operations only read, so the write here is an operation added for the test to the plugin as it ships (its
 * declaration, its upstream, its sandbox), creating a customer as QuickBooks' API does.
 */
const createCustomer = defineOperation({
  name: 'create_customer',
  method: 'POST',
  path: '/customers',
  summary: 'Create a customer',
  description: 'Creates a customer of the company.',
  params: Params({ display_name: Type.String({ minLength: 1, maxLength: 100 }) }),
  upstream: (params, ctx) => ({
    method: 'POST',
    path: `/v3/company/${String(ctx.connection.realmId)}/customer`,
    body: { DisplayName: params.display_name },
  }),
});
const withWrite = definePlugin({ ...quickbooksPlugin, operations: [...quickbooksPlugin.operations, createCustomer] });

let gateway: TestGateway;
let client: Client;
let sandbox: SandboxServer;

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in tests
type Body = Record<string, any>;

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, plugins: [withWrite] });
  client = await connectMcp(gateway.url, gateway.key);
  sandbox = gateway.sandboxes.quickbooks as SandboxServer;
});
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});
beforeEach(async () => {
  await fetch(`${new URL(sandbox.url).origin}/__sandbox/reset`, { method: 'POST' });
});

async function customers(): Promise<number> {
  return ((await (await fetch(`${new URL(sandbox.url).origin}/__sandbox/stats`)).json()) as Body).records.Customer;
}

const create = (name: string, key?: string) =>
  gateway.rest('POST', '/api/v1/quickbooks/customers', {
    body: { display_name: name },
    ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
  });

const mcpCreate = async (name: string, key: unknown) => {
  const result = await client.callTool({
    name: 'call_quickbooks',
    arguments: { method: 'create_customer', params: { display_name: name } },
    _meta: { [IDEMPOTENCY_META]: key },
  });
  return { isError: result.isError === true, body: JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? 'null') as Body };
};

describe('writes with an idempotency key, to QuickBooks', () => {
  it('REST: the same create sent twice with one Idempotency-Key creates one customer, and both get its answer', async () => {
    const before = await customers();
    const first = await create('Ines Okafor', 'intake-2025-06-30-ines');
    const again = await create('Ines Okafor', 'intake-2025-06-30-ines');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect((again.body as Body).Customer.Id).toBe((first.body as Body).Customer.Id);
    expect(await customers()).toBe(before + 1);
    // without a key the second send is a second create, which QuickBooks refuses here only for the name it repeats
    const unkeyed = await create('Ravi Menon');
    expect(unkeyed.status).toBe(200);
    const twice = await create('Ravi Menon');
    expect(twice.status).toBe(400);
    expect((twice.body as Body).message).toMatch(/Duplicate Name/);
    expect(await customers()).toBe(before + 2);
  });

  it('REST: a key that is not 1 to 255 visible ASCII characters is refused with 400 and the standard error body', async () => {
    const before = await customers();
    for (const key of ['two words', 'k'.repeat(256), 'caf\u00e9']) {
      const refused = await create('Ines Okafor', key);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: true, code: 'bad_request' });
      expect((refused.body as Body).message).toMatch(/idempotency key/i);
    }
    expect(await customers()).toBe(before);
  });

  it('MCP: call_quickbooks sent twice with the same key in _meta creates one customer; a bad key is a 400 result', async () => {
    const before = await customers();
    const first = await mcpCreate('Ines Okafor', 'assistant-call-41');
    const again = await mcpCreate('Ines Okafor', 'assistant-call-41');
    expect(first.isError).toBe(false);
    expect(again).toEqual(first);
    expect(await customers()).toBe(before + 1);
    const refused = await mcpCreate('Ravi Menon', 42);
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ error: true, code: 'bad_request' });
    expect(await customers()).toBe(before + 1);
  });
});
