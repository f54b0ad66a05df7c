import {
  daysFromToday,
  draftTime,
  FIRM_LEADS,
  FIRM_WORK,
  isoOffset,
  localOffsetMinutes,
  sandboxNow,
  sandboxToday,
} from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  digits,
  type FirmSandboxes,
  fullName,
  type Json,
  lower,
  type Ref,
  type Resource,
  startFirmSandboxes,
} from './sandboxes.test-support.js';

/**
 * The firm's invariants, over fresh sandboxes of Clio, Lawmatics, QuickBooks and CallRail, each read in its own wire
 * format (no gateway in between): the same people, with the same name, phone and email, wherever the story puts them;
 * money that reconciles inside each application and between Clio and QuickBooks; and every timestamp written in the
 * firm's zone with the offset America/Los_Angeles has on its date (read through Intl). The figures are never written
 * here: each side is checked against the others, so a projection that drifts from the firm module fails.
 */

let sandboxes: FirmSandboxes;
beforeAll(async () => {
  sandboxes = await startFirmSandboxes();
});
afterAll(() => sandboxes.close());

const clio = <T = Json>(collection: string, fields: string, query = '') => sandboxes.clio<T>(collection, fields, query);
const lawmatics = <T = Resource>(collection: string) => sandboxes.lawmatics<T>(collection);
const quickbooks = <T = Json>(entity: string) => sandboxes.quickbooks<T>(entity);
const callrail = <T = Json>(what: string, key: string, query = '') => sandboxes.callrail<T>(what, key, query);

const cents = (amount: unknown) => Math.round(Number(amount) * 100);
const idOf = (ref: unknown) => (ref as Ref)?.id;
const related = (r: Resource, name: string) => {
  const data = r.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data.id : undefined;
};

// ---- people -----------------------------------------------------------------------------------------------------

describe('the same people in every application', () => {
  it('every Clio client is the QuickBooks customer with its name, email and phone', async () => {
    const clients = (await clio('contacts', 'id,name,type,primary_email_address,primary_phone_number,is_client')).filter(
      (c) => c.is_client,
    );
    const customers = await quickbooks('Customer');
    expect(clients.length).toBeGreaterThanOrEqual(6);
    for (const client of clients) {
      const customer = customers.find((c) => lower((c.PrimaryEmailAddr as Json)?.Address) === lower(client.primary_email_address));
      expect(customer, `${client.name} in QuickBooks`).toBeDefined();
      expect([customer?.CompanyName, customer?.DisplayName]).toContain(client.name);
      expect(digits((customer?.PrimaryPhone as Json)?.FreeFormNumber)).toBe(digits(client.primary_phone_number));
    }
  });

  it('every Lawmatics prospect is its contact, and every retained one is a Clio client with an open or closed matter of that title', async () => {
    const [prospects, contacts] = [await lawmatics<Resource>('prospects'), await lawmatics<Resource>('contacts')];
    const clients = (await clio('contacts', 'id,name,primary_email_address,primary_phone_number,is_client')).filter((c) => c.is_client);
    const matters = await clio('matters', 'id,description,status,client{id}');
    expect(prospects.length).toBeGreaterThan(0);
    for (const prospect of prospects) {
      const contact =
        contacts.find((c) => c.id === String(prospect.attributes.contact_id ?? '')) ??
        contacts.find((c) => lower(c.attributes.email) === lower(prospect.attributes.email));
      expect(contact, `${fullName(prospect)}'s contact`).toBeDefined();
      expect(fullName(contact as Resource)).toBe(fullName(prospect));
      expect(digits(contact?.attributes.phone)).toBe(digits(prospect.attributes.phone));
      if (prospect.attributes.status !== 'hired') continue;
      const client = clients.find((c) => lower(c.primary_email_address) === lower(prospect.attributes.email));
      expect(client, `${fullName(prospect)} in Clio`).toBeDefined();
      expect(digits(client?.primary_phone_number)).toBe(digits(prospect.attributes.phone));
      const matter = matters.find((m) => idOf(m.client) === client?.id && m.description === prospect.attributes.case_title);
      expect(matter, `${prospect.attributes.case_title} in Clio`).toBeDefined();
    }
    // and every Clio client with a matter came in through Lawmatics
    for (const client of clients.filter((c) => matters.some((m) => idOf(m.client) === c.id))) {
      expect(
        prospects.some((p) => lower(p.attributes.email) === lower(client.primary_email_address)),
        `${client.name} in Lawmatics`,
      ).toBe(true);
    }
  });

  it('every lead in Lawmatics came in on the day and by the source the firm says', async () => {
    const sources = new Map((await lawmatics<Resource>('sources')).map((s) => [s.id, String(s.attributes.name)]));
    const leads = (await lawmatics<Resource>('prospects'))
      .filter((p) => p.attributes.status !== 'hired')
      .map((p) => `${fullName(p)} | ${String(p.attributes.created_at).slice(0, 10)} | ${sources.get(related(p, 'source') ?? '')}`);
    const firm = FIRM_LEADS.map((l) => `${l.name} | ${daysFromToday(-l.createdDaysAgo)} | ${l.source}`);
    expect(leads.sort()).toEqual(firm.sort());
  });

  it('every caller, texter and form in CallRail is a Lawmatics contact, under the same name and number', async () => {
    const contacts = await lawmatics<Resource>('contacts');
    const byPhone = new Map(contacts.filter((c) => c.attributes.phone).map((c) => [digits(c.attributes.phone), c]));
    const seen = [
      ...(await callrail('calls', 'calls', '&date_range=all_time')).map((c) => ['call', c] as const),
      ...(await callrail('sms-threads', 'sms_threads')).map((c) => ['text', c] as const),
      ...(await callrail('form_submissions', 'form_submissions', '&date_range=all_time')).map((c) => ['form', c] as const),
    ];
    expect(seen.filter(([kind]) => kind === 'call').length).toBeGreaterThan(0);
    for (const [kind, record] of seen) {
      const contact = byPhone.get(digits(record.customer_phone_number));
      expect(contact, `${kind} from ${record.customer_phone_number} (${record.customer_name})`).toBeDefined();
      if (record.customer_name) expect(record.customer_name, `${kind} ${record.id}`).toBe(fullName(contact as Resource));
      if (record.customer_email) expect(lower(record.customer_email)).toBe(lower(contact?.attributes.email));
    }
  });

  it('one number is one person across Clio, Lawmatics, QuickBooks and CallRail', async () => {
    const names = new Map<string, Set<string>>();
    const note = (phone: unknown, name: unknown, where: string) => {
      if (!phone || !name) return;
      const key = digits(phone);
      names.set(key, new Set([...(names.get(key) ?? []), `${name} (${where})`]));
    };
    for (const c of await clio('contacts', 'id,name,type,first_name,last_name,primary_phone_number'))
      note(c.primary_phone_number, c.type === 'Person' ? c.name : c.name, 'Clio');
    for (const c of await lawmatics<Resource>('contacts')) note(c.attributes.phone, c.attributes.employer ?? fullName(c), 'Lawmatics');
    for (const c of await quickbooks('Customer'))
      note((c.PrimaryPhone as Json)?.FreeFormNumber, c.CompanyName ?? c.DisplayName, 'QuickBooks');
    // CallRail knows people, not companies: a company client's contact stands for the company, as in Lawmatics
    const lawmaticsContacts = await lawmatics<Resource>('contacts');
    const identity = (phone: unknown, name: unknown) => {
      const contact = lawmaticsContacts.find((c) => digits(c.attributes.phone) === digits(phone) && fullName(c) === name);
      return contact?.attributes.employer ?? name;
    };
    for (const [what, key] of [
      ['calls', 'calls'],
      ['sms-threads', 'sms_threads'],
      ['form_submissions', 'form_submissions'],
    ] as const) {
      for (const record of await callrail(what, key, what === 'sms-threads' ? '' : '&date_range=all_time'))
        note(
          record.customer_phone_number,
          record.customer_name && identity(record.customer_phone_number, record.customer_name),
          `CallRail ${what}`,
        );
    }
    // a company and its contact share the company's number; anyone else's number is theirs alone
    for (const [phone, who] of names) {
      const distinct = new Set([...who].map((w) => w.replace(/ \(.*\)$/, '').replace(/ (Inc\.|LLC)$/, '')));
      expect(distinct.size, `${phone}: ${[...who].join(', ')}`).toBeLessThanOrEqual(1);
    }
  });

  it("the story's calls: this morning's voicemail is from a new caller who is a fresh lead; yesterday's answered caller is a client", async () => {
    const today = sandboxToday();
    const all = await callrail('calls', 'calls', '&date_range=all_time');
    const newest = [...all].sort((a, b) => Date.parse(String(b.start_time)) - Date.parse(String(a.start_time)))[0] as Json;
    expect(String(newest.start_time).slice(0, 10)).toBe(today);
    expect(newest).toMatchObject({ voicemail: true, answered: false, direction: 'inbound' });
    expect(all.filter((c) => digits(c.customer_phone_number) === digits(newest.customer_phone_number))).toHaveLength(1);
    const prospects = await lawmatics<Resource>('prospects');
    const lead = prospects.find((p) => digits(p.attributes.phone) === digits(newest.customer_phone_number));
    expect(lead?.attributes).toMatchObject({ status: 'pnc' });
    expect(String(lead?.attributes.created_at).slice(0, 10)).toBe(today);
    expect(prospects.filter((p) => String(p.attributes.created_at).slice(0, 10) === today).length).toBeGreaterThanOrEqual(2);

    const yesterday = all
      .filter((c) => c.answered === true && c.direction === 'inbound' && String(c.start_time).slice(0, 10) < today)
      .sort((a, b) => Date.parse(String(b.start_time)) - Date.parse(String(a.start_time)))[0] as Json;
    const client = prospects.find((p) => digits(p.attributes.phone) === digits(yesterday.customer_phone_number));
    expect(client?.attributes.status).toBe('hired');

    // the calls Clio logs are CallRail's, at the same instant, from the client's number
    const logged = (await clio('communications', 'id,subject,type,received_at,senders')).filter((c) => c.type === 'PhoneCommunication');
    const contacts = await clio('contacts', 'id,name,primary_phone_number');
    expect(logged.length).toBeGreaterThan(0);
    for (const communication of logged) {
      const sender = contacts.find((c) => c.id === idOf((communication.senders as Ref[])[0]));
      const call = all.find((c) => Date.parse(String(c.start_time)) === Date.parse(String(communication.received_at)));
      expect(call, `CallRail's call for "${communication.subject}"`).toBeDefined();
      expect(digits(call?.customer_phone_number)).toBe(digits(sender?.primary_phone_number));
    }
  });
});

// ---- money ------------------------------------------------------------------------------------------------------

describe('money that reconciles', () => {
  it("Clio's bank accounts hold what their transactions add up to; trust is held per client matter, never below zero", async () => {
    const accounts = await clio('bank_accounts', 'id,name,type,balance');
    const moves = await clio('bank_transactions', 'id,bank_account{id},transaction_type,amount,client{id},matter{id}');
    const matters = await clio('matters', 'id,client{id}');
    for (const account of accounts) {
      const sum = moves
        .filter((m) => idOf(m.bank_account) === account.id)
        .reduce((total, m) => total + (m.transaction_type === 'Deposit' ? 1 : -1) * cents(m.amount), 0);
      expect(cents(account.balance), `${account.name}`).toBe(sum);
    }
    const trust = accounts.filter((a) => a.type === 'Trust');
    expect(trust.length).toBeGreaterThan(0);
    const held = new Map<number, number>();
    for (const m of moves.filter((t) => trust.some((a) => a.id === idOf(t.bank_account)))) {
      const matter = matters.find((x) => x.id === idOf(m.matter));
      expect(matter, `trust transaction ${m.id} on a matter`).toBeDefined();
      expect(idOf(matter?.client), `trust transaction ${m.id}: the matter's client`).toBe(idOf(m.client));
      held.set(Number(matter?.id), (held.get(Number(matter?.id)) ?? 0) + (m.transaction_type === 'Deposit' ? 1 : -1) * cents(m.amount));
    }
    for (const [matter, amount] of held) expect(amount, `trust of matter ${matter}`).toBeGreaterThanOrEqual(0);
  });

  it("QuickBooks' trust account holds what Clio's does, and owes it back to the clients", async () => {
    const accounts = await quickbooks('Account');
    const clioTrust = (await clio('bank_accounts', 'id,type,balance')).filter((a) => a.type === 'Trust');
    const bank = accounts.find((a) => a.AccountSubType === 'TrustAccounts');
    const owed = accounts.find((a) => a.AccountSubType === 'TrustAccountsLiabilities');
    expect(cents(bank?.CurrentBalance)).toBe(clioTrust.reduce((sum, a) => sum + cents(a.balance), 0));
    expect(cents(owed?.CurrentBalance)).toBe(cents(bank?.CurrentBalance));
  });

  it('every time entry bills its hours at its person’s rate, and every bill is the sum of what it bills less what paid it', async () => {
    const users = await clio('users', 'id,name,rate');
    const activities = await clio('activities', 'id,type,quantity_in_hours,price,total,flat_rate,matter{id},user{id},bill{id}');
    const bills = await clio('bills', 'id,number,state,kind,total,balance,paid,matters{id}');
    const allocations = await clio('allocations', 'id,amount,status,bill{id}');
    for (const a of activities) {
      if (a.type === 'TimeEntry' && !a.flat_rate) {
        expect(a.price, `activity ${a.id}: ${users.find((u) => u.id === idOf(a.user))?.name}'s rate`).toBe(
          users.find((u) => u.id === idOf(a.user))?.rate,
        );
      }
      const expected = a.flat_rate ? cents(a.price) : Math.round(Number(a.price) * Number(a.quantity_in_hours) * 100);
      expect(cents(a.total), `activity ${a.id}: rate × hours`).toBe(expected);
    }
    const revenue = bills.filter((b) => b.kind === 'revenue_kind');
    expect(revenue.length).toBeGreaterThan(0);
    for (const bill of revenue) {
      const on = activities.filter((a) => idOf(a.bill) === bill.id);
      expect(on.length, `bill ${bill.number} bills something`).toBeGreaterThan(0);
      for (const a of on) expect((bill.matters as Ref[]).map(idOf), `activity ${a.id} on bill ${bill.number}`).toContain(idOf(a.matter));
      expect(cents(bill.total), `bill ${bill.number}: its activities`).toBe(on.reduce((sum, a) => sum + cents(a.total), 0));
      const paid = allocations.filter((x) => idOf(x.bill) === bill.id && x.status === 'valid').reduce((sum, x) => sum + cents(x.amount), 0);
      expect(cents(bill.paid), `bill ${bill.number}: what paid it`).toBe(paid);
      expect(cents(bill.balance), `bill ${bill.number}: balance`).toBe(cents(bill.total) - paid);
      expect(bill.state === 'paid', `bill ${bill.number}: paid when nothing is owed`).toBe(
        bill.state !== 'draft' && cents(bill.balance) === 0,
      );
    }
  });

  it("Clio's unbilled time is the firm's: its work of the week and the draft bills' time, by person, hours, day and matter", async () => {
    const activities = await clio('activities', 'id,type,billed,non_billable,date,quantity_in_hours,note,matter{description},user{name}');
    const row = (who: unknown, hours: unknown, date: unknown, matter: unknown, note: unknown) =>
      `${who} | ${hours} h | ${date} | ${matter} | ${note}`;
    const unbilled = activities
      .filter((a) => a.type === 'TimeEntry' && a.billed === false && a.non_billable === false)
      .map((a) => row((a.user as Json).name, a.quantity_in_hours, a.date, (a.matter as Json).description, a.note));
    const firm = [...draftTime(), ...FIRM_WORK].map((t) => row(t.who, t.hours, daysFromToday(-t.daysAgo), t.matter, t.note));
    expect(unbilled.sort()).toEqual(firm.sort());
  });

  it('each issued Clio bill is the QuickBooks invoice with its number, client, amounts and due date; drafts are not invoiced', async () => {
    const bills = (await clio('bills', 'id,number,state,kind,total,balance,due_at,client{id}')).filter((b) => b.kind === 'revenue_kind');
    const contacts = await clio('contacts', 'id,name,primary_email_address');
    const invoices = await quickbooks('Invoice');
    const customers = await quickbooks('Customer');
    for (const bill of bills) {
      const invoice = invoices.find((i) => i.DocNumber === bill.number);
      if (bill.state === 'draft') {
        expect(invoice, `draft ${bill.number} in QuickBooks`).toBeUndefined();
        continue;
      }
      if (!invoice) throw new Error(`bill ${bill.number} is not in QuickBooks`);
      const client = contacts.find((c) => c.id === idOf(bill.client));
      const customer = customers.find((c) => c.Id === (invoice.CustomerRef as { value: string }).value);
      expect(lower((customer?.PrimaryEmailAddr as Json)?.Address), `bill ${bill.number}'s client`).toBe(
        lower(client?.primary_email_address),
      );
      expect(cents(invoice?.TotalAmt), `bill ${bill.number}: total`).toBe(cents(bill.total));
      expect(cents(invoice?.Balance), `bill ${bill.number}: balance`).toBe(cents(bill.balance));
      expect(invoice?.DueDate, `bill ${bill.number}: due`).toBe(bill.due_at);
      // each line is its quantity at its rate
      for (const line of (invoice.Line as Json[]).filter((l) => l.DetailType === 'SalesItemLineDetail')) {
        const detail = line.SalesItemLineDetail as Json;
        expect(cents(line.Amount)).toBe(Math.round(Number(detail.UnitPrice) * Number(detail.Qty) * 100));
      }
    }
    // and what a Clio client owes in QuickBooks is what Clio says, invoice by invoice
    const clients = contacts.filter((c) => bills.some((b) => idOf(b.client) === c.id));
    for (const client of clients) {
      const customer = customers.find((c) => lower((c.PrimaryEmailAddr as Json)?.Address) === lower(client.primary_email_address));
      const theirs = invoices.filter((i) => (i.CustomerRef as { value: string }).value === customer?.Id);
      for (const invoice of theirs)
        expect(
          bills.map((b) => b.number),
          `${client.name}'s invoice ${invoice.DocNumber} in Clio`,
        ).toContain(invoice.DocNumber);
      const owed = bills.filter((b) => idOf(b.client) === client.id && b.state !== 'draft').reduce((sum, b) => sum + cents(b.balance), 0);
      expect(
        theirs.reduce((sum, i) => sum + cents(i.Balance), 0),
        `${client.name} owes`,
      ).toBe(owed);
    }
  });

  it("Clio's outstanding client balances, less the trust requests, are what the clients owe in QuickBooks", async () => {
    const balances = await clio('outstanding_client_balances', 'id,contact{id,name},total_outstanding_balance');
    const requests = (await clio('bills', 'id,kind,state,balance,client{id}')).filter(
      (b) => b.kind === 'trust_kind' && b.state === 'awaiting_payment',
    );
    const contacts = await clio('contacts', 'id,name,primary_email_address');
    const customers = await quickbooks('Customer');
    const invoices = await quickbooks('Invoice');
    expect(balances.length).toBeGreaterThan(0);
    for (const balance of balances) {
      const email = lower(contacts.find((c) => c.id === idOf(balance.contact))?.primary_email_address);
      const customer = customers.find((c) => lower((c.PrimaryEmailAddr as Json)?.Address) === email);
      const owed = invoices
        .filter((i) => (i.CustomerRef as { value: string }).value === customer?.Id)
        .reduce((sum, i) => sum + cents(i.Balance), 0);
      // a trust request asks for money to hold in trust: QuickBooks records it when it is paid, into trust
      const requested = requests.filter((r) => idOf(r.client) === idOf(balance.contact)).reduce((sum, r) => sum + cents(r.balance), 0);
      expect(cents(balance.total_outstanding_balance) - requested, `${(balance.contact as Json).name}`).toBe(owed);
    }
  });

  it("QuickBooks bills the firm's people at their Clio rates, and Lawmatics' invoices add up at them too", async () => {
    const users = await clio('users', 'id,name,email,rate');
    const rateOf = (email: unknown) => users.find((u) => lower(u.email) === lower(email))?.rate;
    for (const employee of await quickbooks('Employee')) {
      if (employee.BillableTime)
        expect(employee.BillRate, String(employee.DisplayName)).toBe(rateOf((employee.PrimaryEmailAddr as Json).Address));
    }
    const staff = await lawmatics<Resource>('users');
    const time = await lawmatics<Resource>('time_entries');
    const expenses = await lawmatics<Resource>('expenses');
    for (const entry of time) {
      const user = staff.find((u) => u.id === related(entry, 'staff'));
      expect(Number(entry.attributes.rate_cents), `time entry ${entry.id}`).toBe(Math.round(Number(rateOf(user?.attributes.email)) * 100));
    }
    for (const invoice of await lawmatics<Resource>('invoices')) {
      const billed = [...time, ...expenses].filter((e) => related(e, 'invoice') === invoice.id);
      const sum = billed.reduce((total, e) => total + Math.round(Number(e.attributes.rate_cents) * Number(e.attributes.duration)), 0);
      expect(invoice.attributes.amount_cents, `invoice ${invoice.attributes.number}`).toBe(sum);
      expect(Number(invoice.attributes.outstanding_amount_cents)).toBe(
        Number(invoice.attributes.amount_cents) - Number(invoice.attributes.amount_paid_cents),
      );
    }
  });
});

// ---- time -------------------------------------------------------------------------------------------------------

const STAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(-0[78]:00)$/;

function pacific(value: unknown, where: string, out: Array<{ where: string; stamp: string; date: string; time: string; offset: string }>) {
  if (typeof value === 'string') {
    const match = STAMP.exec(value);
    if (match) out.push({ where, stamp: value, date: match[1] as string, time: match[2] as string, offset: match[3] as string });
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) pacific(item, `${where}[${i}]`, out);
  } else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) pacific(item, `${where}.${key}`, out);
}

describe("time in the firm's zone", () => {
  it('nothing the story says happened is later than now, at whatever hour the sandboxes started', async () => {
    const happened = /^(created_at|updated_at|received_at|happened_at|date_of_last_contact|last_message_at|start_time)$/;
    const later: string[] = [];
    const walk = (value: unknown, where: string, key = ''): void => {
      if (typeof value === 'string') {
        if (happened.test(key) && /^\d{4}-\d{2}-\d{2}T/.test(value) && Date.parse(value) > sandboxNow()) later.push(`${where} ${value}`);
      } else if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) walk(item, `${where}[${i}]`, key);
      } else if (value && typeof value === 'object') for (const [k, item] of Object.entries(value)) walk(item, `${where}.${k}`, k);
    };
    walk(await clio('communications', 'id,received_at,created_at,updated_at'), 'clio.communications');
    walk(await clio('activities', 'id,created_at,updated_at'), 'clio.activities');
    for (const collection of ['prospects', 'contacts', 'interactions', 'activities'])
      walk(await lawmatics(collection), `lawmatics.${collection}`);
    walk(await callrail('calls', 'calls', '&date_range=all_time'), 'callrail.calls');
    walk(await callrail('sms-threads', 'sms_threads'), 'callrail.sms_threads');
    expect(later.slice(0, 5), `${later.length} moments after now`).toEqual([]);
  });

  it('every timestamp written in Pacific time has the offset America/Los_Angeles has on its date', async () => {
    const found: Parameters<typeof pacific>[2] = [];
    pacific(await clio('communications', 'id,received_at,created_at'), 'clio.communications', found);
    pacific(await clio('calendar_entries', 'id,start_at,end_at'), 'clio.calendar_entries', found);
    pacific(await lawmatics('prospects'), 'lawmatics.prospects', found);
    pacific(await lawmatics('events'), 'lawmatics.events', found);
    pacific(await quickbooks('Invoice'), 'quickbooks.invoices', found);
    pacific(await callrail('calls', 'calls', '&date_range=all_time'), 'callrail.calls', found);
    pacific(await callrail('sms-threads', 'sms_threads'), 'callrail.sms_threads', found);
    for (const app of ['clio', 'lawmatics', 'quickbooks', 'callrail'])
      expect(
        found.some((f) => f.where.startsWith(app)),
        app,
      ).toBe(true);
    // both offsets occur (the seeds span daylight and standard time)
    expect(new Set(found.map((f) => f.offset)).size).toBe(2);
    const wrong = found.filter((f) => f.offset !== isoOffset(localOffsetMinutes(f.date, f.time)));
    expect(wrong.slice(0, 5), `${wrong.length} of ${found.length} with the wrong offset`).toEqual([]);
  });
});
