import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeFirm } from '../firm/readme.test-support.js';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * One cast: the clients the README names are the same people, with the same phone and email, in the practice-management
 * and accounting sandboxes, read over MCP. A projection that changes one of them fails here.
 */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

async function call<T>(service: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name: `call_${service}`, arguments: { method, params } });
  if (result.isError) throw new Error(`${service}.${method}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

const digits = (phone: string | null | undefined) => (phone ?? '').replace(/\D/g, '').slice(-10);

/** The README's clients, as it names them ("Its clients … are the same people"). */
const README_CLIENTS = readmeFirm().clients;

describe('the firm’s clients across the applications', () => {
  it.each(README_CLIENTS)('%s has one phone and one email in Clio and QuickBooks', async (name) => {
    const { data } = await call<{
      data: Array<{ name: string; primary_email_address: string | null; primary_phone_number: string | null }>;
    }>('clio', 'list_contacts', { query: name.split(' ')[0], fields: 'id,name,primary_email_address,primary_phone_number', limit: 200 });
    const contact = data.find((c) => c.name === name || c.name.startsWith(`${name} `));
    expect(contact, `${name} in Clio`).toBeDefined();
    const { QueryResponse } = await call<{
      QueryResponse: {
        Customer?: Array<{
          DisplayName: string;
          CompanyName?: string;
          PrimaryEmailAddr?: { Address: string };
          PrimaryPhone?: { FreeFormNumber: string };
        }>;
      };
    }>('quickbooks', 'find_customers', { where: `DisplayName LIKE '${name.split(' ')[0]}%'` });
    const customer = QueryResponse.Customer?.find(
      (c) => c.DisplayName === name || c.DisplayName.startsWith(`${name} `) || c.CompanyName?.startsWith(name),
    );
    expect(customer, `${name} in QuickBooks`).toBeDefined();
    expect(customer?.PrimaryEmailAddr?.Address).toBe(contact?.primary_email_address);
    expect(digits(customer?.PrimaryPhone?.FreeFormNumber)).toBe(digits(contact?.primary_phone_number));
    expect(digits(contact?.primary_phone_number)).toHaveLength(10);
  });
});
