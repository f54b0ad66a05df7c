import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sandboxToday } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * One story across the six sandboxes, through a real gateway over MCP, as an assistant of the firm would follow it: who
 * called yesterday (CallRail) → that caller in the intake CRM (Lawmatics) → the client and the open matter (Clio) → what
 * they owe (QuickBooks, overdue as of today) → what the team said (Slack #intake) → the matter's notes (Notion). Nothing
 * is known beforehand but today's date: every id, name, phone and email is found in the previous answer.
 */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

type Body = Record<string, unknown>;

async function call<T = Body>(service: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name: `call_${service}`, arguments: { method, params } });
  if (result.isError) throw new Error(`${service}.${method}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

const digits = (phone: string) => phone.replace(/\D/g, '').slice(-10);
const DAY_MS = 86_400_000;
const daysBefore = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

describe("the firm's story, across the six applications", () => {
  it("yesterday's caller is a retained client with an open matter, an overdue invoice, a note in #intake and matter notes", async () => {
    const today = sandboxToday();
    const yesterday = daysBefore(today, 1);

    // CallRail: yesterday's answered inbound calls with a caller's name, on any of the firm's accounts
    const { accounts } = await call<{ accounts: Array<{ id: string; name: string }> }>('callrail', 'list_accounts');
    const calls: Array<Body & { customer_name: string | null; customer_phone_number: string; start_time: string }> = [];
    for (const account of accounts) {
      const page = await call<{ calls: typeof calls }>('callrail', 'list_calls', {
        account_id: account.id,
        date_range: 'yesterday',
        answer_status: 'answered',
        direction: 'inbound',
        per_page: 100,
      });
      calls.push(...page.calls);
    }
    const named = calls.filter((c) => c.customer_name);
    expect(named.length, 'a named caller yesterday').toBeGreaterThan(0);
    expect(named.every((c) => c.start_time.startsWith(yesterday))).toBe(true);
    const caller = named[0] as (typeof named)[number];
    const name = caller.customer_name as string;

    // Lawmatics: the caller is a prospect (matter) of the firm, found by the phone CallRail gave
    const prospect = await call<{ data: { id: string; attributes: Body } }>('lawmatics', 'find_prospect_by_phone', {
      phone_number: caller.customer_phone_number,
    });
    const person = prospect.data.attributes;
    expect(`${person.first_name} ${person.last_name}`).toBe(name);
    expect(digits(String(person.phone))).toBe(digits(caller.customer_phone_number));
    const email = String(person.email);
    expect(email).toContain('@');

    // Clio: a contact with that email, client of an open matter
    const contacts = await call<{ data: Array<{ id: number; name: string; primary_email_address: string }> }>('clio', 'list_contacts', {
      query: email,
      fields: 'id,name,primary_email_address,primary_phone_number',
    });
    const contact = contacts.data.find((c) => c.primary_email_address === email);
    expect(contact?.name).toBe(name);
    const matters = await call<{ data: Array<{ id: number; description: string; status: string }> }>('clio', 'list_matters', {
      client_id: String(contact?.id),
      status: 'open',
      fields: 'id,description,status,display_number',
    });
    expect(matters.data.length).toBeGreaterThan(0);
    const matter = matters.data[0] as (typeof matters.data)[number];
    expect(matter.status).toBe('Open');
    const full = await call<{ data: { attributes: Body } }>('lawmatics', 'get_prospect', { id: prospect.data.id });
    expect(full.data.attributes).toMatchObject({ case_title: matter.description, status: 'hired' });

    // QuickBooks: the same client as a customer, with an invoice past due today that still has a balance
    const customers = await call<{
      QueryResponse: { Customer?: Array<{ Id: string; DisplayName: string; PrimaryEmailAddr?: { Address: string } }> };
    }>('quickbooks', 'find_customers', { where: `DisplayName = '${name}'` });
    const customer = customers.QueryResponse.Customer?.[0];
    expect(customer?.PrimaryEmailAddr?.Address).toBe(email);
    const invoices = await call<{ QueryResponse: { Invoice?: Array<{ DocNumber: string; DueDate: string; Balance: number }> } }>(
      'quickbooks',
      'find_invoices',
      { where: `CustomerRef = '${customer?.Id}' AND Balance > '0' AND DueDate < '${today}'` },
    );
    const overdue = invoices.QueryResponse.Invoice ?? [];
    expect(overdue.length, 'an overdue invoice').toBeGreaterThan(0);
    expect(overdue.every((i) => i.DueDate < today && i.Balance > 0)).toBe(true);

    // Slack: the firm's #intake channel says who called and what to do
    const { channels } = await call<{ channels: Array<{ id: string; name: string }> }>('slack', 'list_channels');
    const intake = channels.find((c) => c.name === 'intake');
    expect(intake, '#intake').toBeDefined();
    const { messages } = await call<{ messages: Array<{ text: string; ts: string }> }>('slack', 'read_messages', {
      channel: intake?.id,
      limit: 50,
    });
    const mention = messages.find((m) => m.text.includes(name));
    expect(mention?.text).toContain(matter.description);
    expect(overdue.some((i) => mention?.text.includes(i.DocNumber))).toBe(true);
    expect(new Date(Number(mention?.ts.split('.')[0]) * 1000).toISOString().slice(0, 10)).toBe(today);

    // Notion: the matter's notes page, found by the client's last name, records yesterday's call
    const found = await call<{ results: Array<{ id: string; properties: Record<string, { title?: Array<{ plain_text: string }> }> }> }>(
      'notion',
      'search',
      { query: String(person.last_name), filter: { property: 'object', value: 'page' } },
    );
    const page = found.results.find((p) =>
      Object.values(p.properties).some((v) => v.title?.some((t) => t.plain_text.includes(matter.description))),
    );
    expect(page, 'a notes page of the matter').toBeDefined();
    const blocks = await call<{ results: Array<Record<string, { rich_text?: Array<{ plain_text: string }> }>> }>(
      'notion',
      'list_block_children',
      {
        block_id: page?.id,
      },
    );
    const text = blocks.results
      .flatMap((b) => Object.values(b).flatMap((v) => (v && typeof v === 'object' ? (v.rich_text ?? []) : [])))
      .map((t) => t.plain_text);
    expect(text.some((t) => t.includes(yesterday))).toBe(true);
    expect(text.some((t) => t.includes(email))).toBe(true);
  });
});
