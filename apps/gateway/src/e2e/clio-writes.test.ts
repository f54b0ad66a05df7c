import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sandboxNow, sandboxToday } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/** Writes to the Clio sandbox over MCP fill what Clio fills: numbers, dates, primary details, states and casing. */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

async function call<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name: 'call_clio', arguments: { method, params } });
  if (result.isError) throw new Error(`clio.${method}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

interface Matter {
  id: number;
  number: number;
  display_number: string;
  status: string;
  open_date: string | null;
  created_at: string;
}

describe('Clio writes in the sandbox', () => {
  it('a new matter gets the firm’s next number, its display number, Open as seeded, today’s open date and now as created_at', async () => {
    const fields = 'id,number,display_number,status,open_date,created_at';
    const seeded = (await call<{ data: Matter[] }>('list_matters', { fields, limit: 200 })).data;
    expect(seeded.every((m) => /^\d{3}-\S+$/.test(m.display_number))).toBe(true);
    const { data: vance } = await call<{ data: Array<{ id: number }> }>('list_contacts', { query: 'Vance', fields: 'id,name' });
    const made = (
      await call<{ data: Matter }>('create_matter', {
        client: { id: vance[0]?.id },
        description: 'Vance estate plan',
        status: 'open',
        fields,
      })
    ).data;
    const next = Math.max(...seeded.map((m) => m.number)) + 1;
    expect(made).toMatchObject({ number: next, display_number: `${String(next).padStart(3, '0')}-Vance`, status: 'Open' });
    expect(made.open_date).toBe(sandboxToday());
    for (const m of seeded) expect(Date.parse(made.created_at)).toBeGreaterThan(Date.parse(m.created_at));
    expect(Math.abs(Date.parse(made.created_at) - sandboxNow())).toBeLessThan(120_000);
    // read back, the same; and a status changed in lower case is stored as Clio answers it
    const read = (await call<{ data: Matter }>('get_matter', { id: made.id, fields })).data;
    expect(read).toEqual(made);
    const closed = (await call<{ data: Matter }>('update_matter', { id: made.id, status: 'closed', fields })).data;
    expect(closed.status).toBe('Closed');
  });

  it('a contact created with a default phone number and email has them as its primary ones', async () => {
    const { data } = await call<{ data: { primary_phone_number: string | null; primary_email_address: string | null } }>('create_contact', {
      name: 'Maya Torres',
      type: 'Person',
      phone_numbers: [
        { name: 'Home', number: '+1 415 555 0142', default_number: false },
        { name: 'Mobile', number: '+1 415 555 0143', default_number: true },
      ],
      email_addresses: [{ name: 'Home', address: 'maya.torres@example.com', default_email: true }],
      fields: 'id,name,primary_phone_number,primary_email_address',
    });
    expect(data).toMatchObject({ primary_phone_number: '+1 415 555 0143', primary_email_address: 'maya.torres@example.com' });
  });

  it('a new reminder is scheduled', async () => {
    const { data } = await call<{ data: { state: string | null } }>('create_reminder', {
      notification_method: { id: 1 },
      subject: { id: 8001, type: 'Task' },
      duration_unit: 'days',
      duration_value: 1,
      fields: 'id,state',
    });
    expect(data.state).toBe('scheduled');
  });
});
