import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  addDays,
  billBalance,
  FIRM_BILLS,
  FIRM_CALLS,
  FIRM_LEADS,
  FIRM_MATTERS,
  FIRM_ONBOARDING,
  FIRM_PEOPLE,
  FIRM_WORK,
  firmLead,
  firmPersonNamed,
  sandboxNow,
  sandboxToday,
  topLeadSource,
  trustBalances,
} from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';
import { callOperation, type Described, findOperation, type Hit } from './assistant.test-support.js';

/**
 * The firm's everyday questions, asked as an assistant asks them: over MCP only (the official SDK client), each step
 * search_methods with the words a person would type (the operation must be in the top three), describe_method on it,
 * call_<service> with what the description says, and the answer worked out from what came back. The answers expected
 * are the firm module's (@portico/core/testing: the story told once), never copies of a sandbox's output, so a
 * sandbox that drifts from the story fails here.
 */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

const find = (words: string, wanted: string) => findOperation(client, words, wanted);

/** Calls a found operation with parameters its description names; a mistake fails the task with the gateway's word. */
async function call<T>(hit: Hit & { described: Described }, params: Record<string, unknown>): Promise<T> {
  for (const name of Object.keys(params)) expect(hit.described.params, `${hit.method} takes ${name}`).toHaveProperty(name);
  return callOperation<T>(client, hit, params);
}

const digits = (phone: unknown) =>
  String(phone ?? '')
    .replace(/\D/g, '')
    .slice(-10);
const today = () => sandboxToday();
const byName = <T>(entries: Iterable<[string, T]>) => Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));
const sum = (entries: Array<[string, number]>) => {
  const totals = new Map<string, number>();
  for (const [key, value] of entries) totals.set(key, Math.round(((totals.get(key) ?? 0) + value) * 100) / 100);
  return byName(totals);
};

/** This morning's car-accident voicemail, as the story tells it. */
const voicemail = () => {
  const told = FIRM_CALLS.find(
    (c) => c.daysAgo === 0 && c.answer === 'voicemail' && /accident|collision/i.test(firmLeadOf(c.who)?.title ?? ''),
  );
  expect(told, 'the story has a car-accident voicemail this morning').toBeDefined();
  return told as (typeof FIRM_CALLS)[number];
};
const firmLeadOf = (name: string) => FIRM_LEADS.find((l) => l.name === name);

type Resource = { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };
type Call = {
  id: string;
  start_time: string;
  customer_name: string | null;
  customer_phone_number: string;
  voicemail: boolean;
  note?: string | null;
};

/** The calls of this morning on every CallRail account, newest first. */
async function callsThisMorning(): Promise<Call[]> {
  const accounts = await find('which CallRail accounts can I see', 'callrail.list_accounts');
  const calls = await find('voicemails left this morning', 'callrail.list_calls');
  const found: Call[] = [];
  for (const account of (await call<{ accounts: Array<{ id: string }> }>(accounts, {})).accounts) {
    const page = await call<{ calls: Call[] }>(calls, {
      account_id: account.id,
      date_range: 'today',
      sort: 'start_time',
      order: 'desc',
      per_page: '100',
      fields: 'note',
    });
    found.push(...page.calls);
  }
  return found.sort((a, b) => Date.parse(b.start_time) - Date.parse(a.start_time));
}

/** The Lawmatics lead with this phone number, found by it and then read whole. */
async function leadCalling(phone: string, words: string): Promise<Resource> {
  const byPhone = await find(words, 'lawmatics.find_prospect_by_phone');
  const match = (await call<{ data: Resource }>(byPhone, { phone_number: phone })).data;
  const prospect = await find('open a lead by its id', 'lawmatics.get_prospect');
  return (await call<{ data: Resource }>(prospect, { id: match.id })).data;
}

describe("the firm's everyday questions, answered over MCP", () => {
  it("this morning's car-accident voicemail: who left it, and whether they are already a lead", async () => {
    const calls = await callsThisMorning();
    // the assistant reads the voicemails' notes for the accident
    const accident = calls.find((c) => c.voicemail && /rear-ended|accident|collision|crash/i.test(c.note ?? ''));
    expect(accident, 'a car-accident voicemail this morning').toBeDefined();
    const told = voicemail();
    expect(accident?.customer_name).toBe(told.who);
    // it is this morning's latest call, and it did not come from the future
    expect(calls[0]?.id).toBe(accident?.id);
    expect(Date.parse(accident?.start_time as string)).toBeLessThanOrEqual(sandboxNow());
    expect(accident?.start_time.slice(0, 10)).toBe(today());

    const lead = await leadCalling(accident?.customer_phone_number as string, 'is this caller already a lead');
    const expected = firmLead(told.who);
    expect(lead.attributes).toMatchObject({ first_name: expected.first, last_name: expected.last, status: expected.status });
    expect(String(lead.attributes.created_at).slice(0, 10)).toBe(today());
    expect(Date.parse(String(lead.attributes.created_at))).toBeLessThanOrEqual(sandboxNow());
  });

  it('opens a matter in Clio for the caller, and the matter is then found', async () => {
    const told = voicemail();
    const calls = await callsThisMorning();
    const phone = calls.find((c) => c.customer_name === told.who)?.customer_phone_number;
    const prospect = await leadCalling(phone as string, 'find a lead by phone number');
    const lead = prospect.attributes;
    // the lead's owner at the firm (Lawmatics names them) takes the matter
    const owner = prospect.relationships?.owned_by?.data;

    const users = await find('list the users of the Clio account', 'clio.list_users');
    const people = (await call<{ data: Array<{ id: number; name: string }> }>(users, { fields: 'id,name' })).data;
    const attorney = people.find((u) => u.name === owner);
    expect(attorney, `${owner} in Clio`).toBeDefined();

    const contacts = await find('create a contact in Clio', 'clio.create_contact');
    const name = `${lead.first_name} ${lead.last_name}`;
    const contact = (
      await call<{ data: { id: number } }>(contacts, {
        name,
        type: 'Person',
        first_name: lead.first_name,
        last_name: lead.last_name,
        phone_numbers: [{ name: 'Mobile', number: lead.phone, default_number: true }],
        email_addresses: [{ name: 'Home', address: lead.email, default_email: true }],
        fields: 'id,name',
      })
    ).data;
    const open = await find('open a new matter for a client', 'clio.create_matter');
    expect(open.described.access).toBe('write');
    const created = (
      await call<{ data: { id: number; display_number: string } }>(open, {
        client: { id: contact.id },
        description: lead.case_title,
        responsible_attorney: { id: attorney?.id },
        status: 'open',
        fields: 'id,display_number',
      })
    ).data;

    const matters = await find('find a matter by name', 'clio.list_matters');
    type Matter = {
      id: number;
      description: string;
      status: string;
      client: { name: string; primary_phone_number: string };
      responsible_attorney: { name: string };
    };
    const fields = 'id,display_number,description,status,client{name,primary_phone_number},responsible_attorney{name}';
    const found = (await call<{ data: Matter[] }>(matters, { query: String(lead.last_name), fields })).data;
    const matter = found.find((m) => m.id === created.id);
    const expected = firmLead(told.who);
    expect(matter).toMatchObject({
      description: expected.title,
      status: 'Open',
      client: { name: expected.name },
      responsible_attorney: { name: expected.owner },
    });
    expect(digits(matter?.client.primary_phone_number)).toBe(digits(expected.phone));
  });

  it('hours per attorney in the past week, and what is not billed yet (Clio)', async () => {
    const users = await find('list the users of the Clio account', 'clio.list_users');
    type User = { id: number; name: string; subscription_type: string };
    const attorneys = (await call<{ data: User[] }>(users, { fields: 'id,name,subscription_type' })).data.filter(
      (u) => u.subscription_type === 'Attorney',
    );
    const time = await find('hours each attorney logged last week', 'clio.list_activities');
    type Activity = { quantity_in_hours: number; user: { id: number; name: string } };
    const fields = 'id,date,quantity_in_hours,user{id,name}';
    const week = (
      await call<{ data: Activity[] }>(time, {
        type: 'TimeEntry',
        start_date: addDays(today(), -6),
        end_date: today(),
        fields,
        limit: '200',
      })
    ).data;
    const isAttorney = (a: Activity) => attorneys.some((u) => u.id === a.user.id);
    const hours = sum(week.filter(isAttorney).map((a) => [a.user.name, a.quantity_in_hours]));

    const unbilled = await find('unbilled time', 'clio.list_activities');
    const open = (await call<{ data: Activity[] }>(unbilled, { type: 'TimeEntry', status: 'unbilled', fields, limit: '200' })).data;
    const notBilled = sum(open.filter(isAttorney).map((a) => [a.user.name, a.quantity_in_hours]));

    // the story: the time on its bills and its work of the week, by the firm's attorneys (partners and associate)
    const lawyer = (who: string) => ['partner', 'associate'].includes(firmPersonNamed(who).role);
    const logged = [...FIRM_BILLS.flatMap((b) => b.time), ...FIRM_WORK];
    expect(hours).toEqual(sum(logged.filter((t) => t.daysAgo <= 6 && lawyer(t.who)).map((t) => [t.who, t.hours])));
    // unbilled: on no bill yet (the drafts' time Clio counts as draft)
    expect(notBilled).toEqual(sum(FIRM_WORK.filter((t) => lawyer(t.who)).map((t) => [t.who, t.hours])));
    expect(Object.keys(hours).length).toBeGreaterThan(1);
  });

  it('clients with money in trust and an unpaid bill (Clio)', async () => {
    const ledger = await find('clients with money in trust', 'clio.list_bank_transactions');
    type Move = { funds_in: number; funds_out: number; client: { id: number; name: string } | null };
    const moves = (
      await call<{ data: Move[] }>(ledger, { type: 'liability', fields: 'id,funds_in,funds_out,client{id,name}', limit: '200' })
    ).data;
    const inTrust = sum(moves.filter((m) => m.client).map((m) => [(m.client as { name: string }).name, m.funds_in - m.funds_out]));

    const bills = await find('clients with an unpaid bill', 'clio.list_bills');
    type Bill = { number: string; balance: number; client: { name: string } };
    const unpaid = (
      await call<{ data: Bill[] }>(bills, { state: 'awaiting_payment', fields: 'id,number,balance,client{name}', limit: '200' })
    ).data.filter((b) => b.balance > 0);
    const owing = sum(unpaid.map((b) => [b.client.name, b.balance]));
    const both = Object.keys(owing).filter((name) => (inTrust[name] ?? 0) > 0);
    const answer = Object.fromEntries(both.map((name) => [name, { trust: inTrust[name], owed: owing[name] }]));

    // the story: each matter's trust balance, and the issued bills not paid in full
    const clientOf = (matter: string) => FIRM_MATTERS.find((m) => m.title === matter)?.client as string;
    const trust = sum([...trustBalances()].map(([matter, amount]) => [clientOf(matter), amount]));
    const due = sum(FIRM_BILLS.filter((b) => b.state === 'awaiting_payment' && billBalance(b) > 0).map((b) => [b.client, billBalance(b)]));
    const expected = Object.fromEntries(
      Object.keys(due)
        .filter((name) => (trust[name] ?? 0) > 0)
        .map((name) => [name, { trust: trust[name], owed: due[name] }]),
    );
    expect(answer).toEqual(expected);
    expect(Object.keys(answer).length).toBeGreaterThan(0);
  });

  it("today's new leads, posted to #intake and read back from the channel (Lawmatics → Slack)", async () => {
    const leads = await find("today's new leads", 'lawmatics.list_prospects');
    const fresh = (
      await call<{ data: Resource[] }>(leads, {
        filter_by: 'created_at',
        filter_with: '>=',
        filter_on: today(),
        fields: 'first_name,last_name,case_title,created_at',
      })
    ).data;
    const names = fresh.map((p) => `${p.attributes.first_name} ${p.attributes.last_name}`).sort();
    expect(names).toEqual(
      FIRM_LEADS.filter((l) => l.createdDaysAgo === 0)
        .map((l) => l.name)
        .sort(),
    );
    for (const p of fresh) expect(Date.parse(String(p.attributes.created_at))).toBeLessThanOrEqual(sandboxNow());

    const channels = await find('list the Slack channels', 'slack.list_channels');
    const intake = (await call<{ channels: Array<{ id: string; name: string }> }>(channels, {})).channels.find((c) => c.name === 'intake');
    expect(intake, '#intake').toBeDefined();
    const post = await find('post a message in #intake', 'slack.send_message');
    const text = `New leads today: ${fresh.map((p) => `${p.attributes.first_name} ${p.attributes.last_name} (${p.attributes.case_title})`).join('; ')}`;
    const sent = await call<{ ok: boolean; ts: string }>(post, { channel: intake?.id, text });
    expect(sent.ok).toBe(true);

    const read = await find('read the messages in a channel', 'slack.read_messages');
    const messages = (await call<{ messages: Array<{ ts: string; text: string }> }>(read, { channel: intake?.id, limit: '10' })).messages;
    // the newest message in the channel is the post, and it names every lead of the morning with their matter
    expect(messages[0]?.ts).toBe(sent.ts);
    for (const lead of FIRM_LEADS.filter((l) => l.createdDaysAgo === 0))
      expect(messages[0]?.text).toContain(`${lead.name} (${lead.title})`);
    // nothing seeded in the channel is later than now
    for (const m of messages) expect(Number(m.ts) * 1000).toBeLessThanOrEqual(sandboxNow());
  });

  it('the onboarding checklist items not done yet (Notion)', async () => {
    const search = await find('find the onboarding checklist page in Notion', 'notion.search');
    type Page = { id: string; object: string; properties?: Record<string, { type: string; title?: Array<{ plain_text: string }> }> };
    const pages = (
      await call<{ results: Page[] }>(search, { query: 'onboarding checklist', filter: { property: 'object', value: 'page' } })
    ).results;
    const titleOf = (p: Page) =>
      Object.values(p.properties ?? {})
        .find((x) => x.type === 'title')
        ?.title?.map((t) => t.plain_text)
        .join('');
    const page = pages.find((p) => /onboarding/i.test(titleOf(p) ?? ''));
    expect(page, 'the onboarding checklist').toBeDefined();

    const read = await find('read the to-do items of a Notion page', 'notion.list_block_children');
    type Block = { type: string; to_do?: { checked: boolean; rich_text: Array<{ plain_text: string }> } };
    const blocks = (await call<{ results: Block[]; has_more: boolean }>(read, { block_id: page?.id, page_size: 100 })).results;
    const open = blocks
      .filter((b) => b.type === 'to_do' && b.to_do?.checked === false)
      .map((b) => b.to_do?.rich_text.map((t) => t.plain_text).join(''));
    const expected = FIRM_ONBOARDING.flatMap((part) => part.steps.filter((s) => !s.done).map((s) => s.step));
    expect(open).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('the source that brought the most leads this month (Lawmatics)', async () => {
    const monthStart = `${today().slice(0, 8)}01`;
    const leads = await find('the leads that came in this month', 'lawmatics.list_prospects');
    const month: Resource[] = [];
    for (let page = 1; ; page++) {
      const answer = await call<{ data: Resource[]; meta?: { total_pages?: number } }>(leads, {
        filter_by: 'created_at',
        filter_with: '>=',
        filter_on: monthStart,
        fields: 'all',
        page: String(page),
      });
      month.push(...answer.data);
      if (page >= (answer.meta?.total_pages ?? 1)) break;
    }
    const sources = await find('lead sources', 'lawmatics.list_sources');
    const named = new Map(
      (await call<{ data: Resource[] }>(sources, {})).data.map((s) => [String(s.id), String(s.attributes.name)] as [string, string]),
    );
    const counts = new Map<string, number>();
    for (const p of month) {
      const source = named.get(String((p.relationships?.source?.data as { id?: string } | null)?.id));
      if (source) counts.set(source, (counts.get(source) ?? 0) + 1);
    }
    const [top, most] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
    const expected = topLeadSource(Number(today().slice(8)) - 1);
    expect({ source: top, leads: most }).toEqual(expected);
    // and no other source brought as many
    expect([...counts].filter(([, n]) => n === most)).toHaveLength(1);
  });

  it('a court date on the calendar with a reminder to the responsible attorney (Clio)', async () => {
    // the matter the user names: one of the firm's open matters whose client is a person
    const story = FIRM_MATTERS.find((m) => m.status === 'Open' && m.area === 'Personal Injury') as (typeof FIRM_MATTERS)[number];
    const matters = await find('find a matter by name', 'clio.list_matters');
    type Matter = { id: number; description: string; responsible_attorney: { id: number; name: string } };
    const matter = (
      await call<{ data: Matter[] }>(matters, { query: story.title, fields: 'id,description,responsible_attorney{id,name}' })
    ).data.find((m) => m.description === story.title) as Matter;
    expect(matter, story.title).toBeDefined();

    const calendars = await find('list calendars', 'clio.list_calendars');
    type Calendar = { id: number; name: string; type: string };
    const firmCalendar = (await call<{ data: Calendar[] }>(calendars, { fields: 'id,name,type', writeable: 'true' })).data.find(
      (c) => c.type === 'AdhocCalendar',
    ) as Calendar;
    expect(firmCalendar, "the firm's calendar").toBeDefined();

    const day = addDays(today(), 14);
    const schedule = await find('add a court date to the calendar', 'clio.create_calendar_entry');
    const summary = `Hearing: ${story.title}`;
    const entry = (
      await call<{ data: { id: number } }>(schedule, {
        calendar_owner: { id: firmCalendar.id },
        summary,
        start_at: `${day}T17:00:00Z`,
        end_at: `${day}T18:00:00Z`,
        matter: { id: matter.id },
        attendees: [{ id: matter.responsible_attorney.id, type: 'User' }],
        location: 'SF Superior Court',
        fields: 'id',
      })
    ).data;

    const remind = await find('assign a task to an attorney', 'clio.create_task');
    const task = (
      await call<{ data: { id: number } }>(remind, {
        name: `Prepare for the hearing: ${story.title}`,
        description: `Court date on ${day} at 9:00, SF Superior Court.`,
        assignee: { id: matter.responsible_attorney.id, type: 'User' },
        matter: { id: matter.id },
        due_at: `${addDays(day, -2)}T17:00:00Z`,
        priority: 'High',
        fields: 'id',
      })
    ).data;

    // read back: the hearing on the matter's calendar, the reminder on the attorney's list, both the story's attorney's
    const entries = await find('court dates on the calendar for a matter', 'clio.list_calendar_entries');
    type Entry = { id: number; summary: string; start_at: string; matter: { id: number }; attendees: Array<{ id: number; name?: string }> };
    const onMatter = (
      await call<{ data: Entry[] }>(entries, {
        matter_id: String(matter.id),
        fields: 'id,summary,start_at,matter{id},attendees{id,name}',
      })
    ).data.find((e) => e.id === entry.id);
    expect(onMatter).toMatchObject({ summary, matter: { id: matter.id } });
    expect(Date.parse(onMatter?.start_at as string)).toBe(Date.parse(`${day}T17:00:00Z`));
    expect(onMatter?.attendees.map((a) => a.id)).toEqual([matter.responsible_attorney.id]);

    const tasks = await find("an attorney's tasks", 'clio.list_tasks');
    type Task = { id: number; name: string; due_at: string; assignee: { id: number; name: string }; matter: { id: number } };
    const theirs = (
      await call<{ data: Task[] }>(tasks, {
        assignee_id: String(matter.responsible_attorney.id),
        fields: 'id,name,due_at,assignee{id,name},matter{id}',
      })
    ).data.find((t) => t.id === task.id);
    expect(theirs).toMatchObject({ assignee: { name: story.responsible }, matter: { id: matter.id } });
    expect(matter.responsible_attorney.name).toBe(story.responsible);
    expect(FIRM_PEOPLE.map((p) => p.name)).toContain(story.responsible);
  });
});
