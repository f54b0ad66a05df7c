import { sandboxToday } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeFirm } from './readme.test-support.js';
import { digits, type FirmSandboxes, fullName, type Json, lower, startFirmSandboxes } from './sandboxes.test-support.js';

/**
 * What the README's "Trying it" says about the sandboxes' firm, read from its words and checked against fresh sandboxes:
 * its clients are the same people in Clio, Lawmatics and QuickBooks; yesterday's caller, her matter and her overdue
 * invoice; this morning's new caller, a fresh lead. Change the README or the firm and this fails until they agree.
 */
let sandboxes: FirmSandboxes;
beforeAll(async () => {
  sandboxes = await startFirmSandboxes();
});
afterAll(() => sandboxes.close());

const firm = readmeFirm();
const daysBefore = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const startOf = (call: Json) => String(call.start_time);

describe("reading the README's firm", () => {
  it('finds the clients and callers it names, and fails when the sentences are gone', () => {
    expect(firm.clients.length).toBeGreaterThanOrEqual(6);
    expect(firm.yesterday.invoice).toMatch(/^\d+$/);
    expect(() => readmeFirm('# Portico\n\n## Trying it\n\nThe sandboxes are one law firm.\n')).toThrow(/Trying it/);
  });
});

describe("the README's firm, in the sandboxes", () => {
  it.each(firm.clients)('%s is a client with one phone and one email in Clio, Lawmatics and QuickBooks', async (name) => {
    const contacts = await sandboxes.clio('contacts', 'id,name,primary_email_address,primary_phone_number,is_client');
    const customers = await sandboxes.quickbooks('Customer');
    const customer = customers.find((c) => c.DisplayName === name);
    if (!customer) throw new Error(`${name} is not a QuickBooks customer`);
    const email = (customer.PrimaryEmailAddr as Json).Address;
    const phone = (customer.PrimaryPhone as Json).FreeFormNumber;
    const contact = contacts.find((c) => c.name === name || c.name === customer.CompanyName);
    expect(contact, `${name} in Clio`).toMatchObject({ is_client: true });
    expect(lower(contact?.primary_email_address)).toBe(lower(email));
    expect(digits(contact?.primary_phone_number)).toBe(digits(phone));
    const prospect = (await sandboxes.lawmatics('prospects')).find((p) => lower(p.attributes.email) === lower(email));
    expect(prospect, `${name} in Lawmatics`).toBeDefined();
    expect(prospect?.attributes.status).toBe('hired');
    expect(digits(prospect?.attributes.phone)).toBe(digits(phone));
  });

  it(`yesterday ${firm.yesterday.caller} called about ${firm.yesterday.matter}, and invoice ${firm.yesterday.invoice} is half paid and overdue`, async () => {
    const today = sandboxToday();
    const calls = await sandboxes.callrail('calls', 'calls', '&date_range=all_time');
    const yesterday = calls.filter((c) => startOf(c).startsWith(daysBefore(today, 1)) && c.answered === true && c.customer_name);
    expect(yesterday.map((c) => c.customer_name)).toEqual([firm.yesterday.caller]);
    const caller = yesterday[0] as Json;
    const prospect = (await sandboxes.lawmatics('prospects')).find(
      (p) => digits(p.attributes.phone) === digits(caller.customer_phone_number),
    );
    expect(prospect && fullName(prospect)).toBe(firm.yesterday.caller);
    expect(prospect?.attributes.case_title).toBe(firm.yesterday.matter);

    const matters = await sandboxes.clio('matters', 'id,description,status,client{id,name}');
    expect(matters.find((m) => m.description === firm.yesterday.matter)).toMatchObject({
      status: 'Open',
      client: { name: firm.yesterday.caller },
    });
    const bill = (await sandboxes.clio('bills', 'id,number,total,paid,balance,due_at')).find((b) => b.number === firm.yesterday.invoice);
    const invoice = (await sandboxes.quickbooks('Invoice')).find((i) => i.DocNumber === firm.yesterday.invoice);
    expect(invoice?.CustomerRef).toMatchObject({ name: firm.yesterday.caller });
    for (const [total, balance, due] of [
      [bill?.total, bill?.balance, bill?.due_at],
      [invoice?.TotalAmt, invoice?.Balance, invoice?.DueDate],
    ]) {
      expect(Number(balance) * 2, 'half paid').toBe(Number(total));
      expect(String(due) < today, 'overdue').toBe(true);
    }
  });

  it(`this morning ${firm.thisMorning.caller}, a new caller, left a voicemail about ${firm.thisMorning.about} and is a fresh lead`, async () => {
    const today = sandboxToday();
    const calls = await sandboxes.callrail('calls', 'calls', '&date_range=all_time&fields=note');
    const newest = [...calls].sort((a, b) => Date.parse(startOf(b)) - Date.parse(startOf(a)))[0] as Json;
    expect(newest).toMatchObject({ customer_name: firm.thisMorning.caller, voicemail: true });
    expect(startOf(newest).slice(0, 10)).toBe(today);
    expect(Number(startOf(newest).slice(11, 13)), 'in the morning').toBeLessThan(12);
    expect(calls.filter((c) => digits(c.customer_phone_number) === digits(newest.customer_phone_number))).toHaveLength(1);
    const about = firm.thisMorning.about.replace(/^an? /, '');
    const prospect = (await sandboxes.lawmatics('prospects')).find(
      (p) => digits(p.attributes.phone) === digits(newest.customer_phone_number),
    );
    expect(prospect && fullName(prospect)).toBe(firm.thisMorning.caller);
    expect(prospect?.attributes).toMatchObject({ status: 'pnc' });
    expect(String(prospect?.attributes.created_at).slice(0, 10)).toBe(today);
    expect(lower(`${prospect?.attributes.case_title} ${prospect?.attributes.case_blurb}`)).toContain(lower(about).split(' ').at(-1));
    // a new caller: no application knew the number before today
    const clio = await sandboxes.clio('contacts', 'id,primary_phone_number');
    expect(clio.some((c) => digits(c.primary_phone_number) === digits(newest.customer_phone_number))).toBe(false);
  });
});
