import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';
import { callOperation, type Described, findOperation, type Hit } from './assistant.test-support.js';

/**
 * The gateway driven as an AI assistant drives it: a law firm's tasks done through the official MCP SDK client against
 * the six sandboxes, using only search_methods (with the user's words), describe_method and call_<service>. Each step
 * takes the operation from the search answer (it must be in the top three), reads its description, calls it, and
 * carries the ids of one answer into the next call; each task ends by reading its outcome back. The sandboxes' records
 * are discovered through list and search calls, never named here: their seed may change.
 */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

/** The parameters a compact description says are required. */
const required = (described: Described) =>
  Object.entries(described.params)
    .filter(([, line]) => /^[^:]*\brequired\b/.test(line))
    .map(([name]) => name);

const find = (words: string, wanted: string, service?: string) => findOperation(client, words, wanted, service);
const call = <T>(hit: Hit, params: Record<string, unknown>) => callOperation<T>(client, hit, params);

const day = (offset = 0) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const marker = () => `assistant-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

interface Matter {
  id: number;
  display_number: string;
  status: string;
  client: { id: number; name: string } | null;
}

describe('an assistant doing a law firm’s tasks over MCP', () => {
  it('finds a client’s open matters (Clio)', async () => {
    const matters = await find('open matters for a client', 'clio.list_matters');
    expect(matters.described.params).toHaveProperty('client_id');
    // the user names a client who has open matters: the assistant learns such a name from the firm's matters
    const fields = 'id,display_number,status,client{id,name}';
    const all = (await call<{ data: Matter[] }>(matters, { fields, limit: 200 })).data;
    const name = all.find((m) => m.status === 'Open' && m.client)?.client?.name as string;
    expect(name, 'a client with an open matter').toBeTruthy();

    const contacts = await find('find a client by name in Clio', 'clio.list_contacts');
    const found = (await call<{ data: Array<{ id: number; name: string }> }>(contacts, { query: name, fields: 'id,name,is_client' })).data;
    const clientId = found.find((c) => c.name === name)?.id;
    expect(clientId, `${name} among the contacts`).toBeDefined();

    const open = (await call<{ data: Matter[] }>(matters, { client_id: String(clientId), status: 'open', fields })).data;
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((m) => m.status === 'Open' && m.client?.id === clientId)).toBe(true);
    const expected = all.filter((m) => m.status === 'Open' && m.client?.id === clientId).map((m) => m.id);
    expect(open.map((m) => m.id).sort()).toEqual(expected.sort());
  });

  it('logs time on a matter and reads it back (Clio activities)', async () => {
    const matters = await find('open matters for a client', 'clio.list_matters');
    const matter = (await call<{ data: Matter[] }>(matters, { status: 'open', fields: 'id,display_number,status', limit: 5 }))
      .data[0] as Matter;
    expect(matter).toBeDefined();
    const me = await find('who am I in Clio', 'clio.get_current_user');
    const user = (await call<{ data: { id: number; name: string } }>(me, { fields: 'id,name' })).data;

    const log = await find('log time on a matter', 'clio.create_activity');
    expect(log.described.access).toBe('write');
    expect(required(log.described)).toEqual(expect.arrayContaining(['date', 'type']));
    const note = `Drafted the reply to opposing counsel (${marker()})`;
    const created = await call<{ data: { id: number } }>(log, {
      date: day(),
      type: 'TimeEntry',
      quantity: 5400,
      note,
      matter: { id: matter.id },
      user: { id: user.id },
      fields: 'id,date,quantity,note,matter{id}',
    });
    expect(created.data.id).toBeDefined();

    const entries = await find('time entries logged on a matter', 'clio.list_activities');
    type Activity = {
      id: number;
      date: string;
      quantity: number;
      note: string;
      matter: { id: number } | null;
      user: { id: number } | null;
    };
    const logged = (
      await call<{ data: Activity[] }>(entries, {
        matter_id: String(matter.id),
        fields: 'id,date,quantity,note,matter{id},user{id}',
        limit: 200,
      })
    ).data;
    expect(logged.find((a) => a.id === created.data.id)).toMatchObject({
      date: day(),
      quantity: 5400,
      note,
      matter: { id: matter.id },
      user: { id: user.id },
    });
  });

  it('sums the unbilled time on a matter (Clio)', async () => {
    const unbilled = await find('unbilled time entries on a matter', 'clio.list_activities');
    expect(unbilled.described.params).toHaveProperty('status');
    type Activity = { id: number; quantity: number; billed: boolean; non_billable: boolean; type: string; matter: { id: number } | null };
    const fields = 'id,type,quantity,billed,non_billable,matter{id}';
    // the user asks about a matter with billed and unbilled work: the assistant finds one among the firm's time
    const firmWide = (await call<{ data: Activity[] }>(unbilled, { type: 'TimeEntry', fields, limit: 200 })).data;
    const unbilledOf = (a: Activity) => !a.billed && !a.non_billable;
    const matterId = firmWide.find((a) => a.matter && unbilledOf(a) && firmWide.some((b) => b.matter?.id === a.matter?.id && b.billed))
      ?.matter?.id;
    expect(matterId, 'a matter with billed and unbilled time').toBeDefined();
    const matters = await find('open matters for a client', 'clio.list_matters');
    const matter = (await call<{ data: Matter[] }>(matters, { 'ids[]': [String(matterId)], fields: 'id,display_number' })).data[0];
    expect(matter?.id).toBe(matterId);

    const open = (
      await call<{ data: Activity[] }>(unbilled, { matter_id: String(matterId), status: 'unbilled', type: 'TimeEntry', fields, limit: 200 })
    ).data;
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((a) => !a.billed && !a.non_billable && a.type === 'TimeEntry' && a.matter?.id === matterId)).toBe(true);
    // read back: the matter's whole list holds exactly these entries unbilled
    const every = (await call<{ data: Activity[] }>(unbilled, { matter_id: String(matterId), fields, limit: 200 })).data;
    expect(every.length).toBeGreaterThan(open.length);
    const expected = every.filter((a) => a.type === 'TimeEntry' && unbilledOf(a));
    expect(open.map((a) => a.id).sort()).toEqual(expected.map((a) => a.id).sort());
    const hours = open.reduce((sum, a) => sum + a.quantity, 0) / 3600;
    expect(hours).toBeGreaterThan(0);
    // read back from Clio's own figure for the matter
    const billable = await find('which matters have work not yet billed', 'clio.list_billable_matters');
    const figure = (
      await call<{ data: Array<{ id: number; unbilled_hours: number }> }>(billable, {
        matter_id: String(matterId),
        fields: 'id,unbilled_hours',
      })
    ).data;
    expect(figure).toHaveLength(1);
    expect(figure[0]?.unbilled_hours).toBeCloseTo(hours, 2);
  });

  it('shows a client’s unpaid bills and the trust balance (Clio)', async () => {
    const bills = await find('unpaid bills for a client', 'clio.list_bills');
    type Bill = { id: number; number: string; state: string; balance: number; client: { id: number; name: string } | null };
    const fields = 'id,number,state,balance,client{id,name}';
    const every = (await call<{ data: Bill[] }>(bills, { fields, limit: 200 })).data;
    const clientId = every.find((b) => b.state === 'awaiting_payment' && b.balance > 0)?.client?.id;
    expect(clientId, 'a client with an unpaid bill').toBeDefined();
    const theirs = (await call<{ data: Bill[] }>(bills, { client_id: String(clientId), state: 'awaiting_payment', fields })).data;
    const expected = every.filter((b) => b.client?.id === clientId && b.state === 'awaiting_payment');
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.map((b) => b.id).sort()).toEqual(expected.map((b) => b.id).sort());
    const owed = theirs.reduce((sum, b) => sum + b.balance, 0);
    expect(owed).toBeGreaterThan(0);
    const balances = await find('how much does each client owe us', 'clio.list_outstanding_client_balances');
    type Balance = { total_outstanding_balance: number; contact: { id: number } };
    const outstanding = (
      await call<{ data: Balance[] }>(balances, { contact_id: String(clientId), fields: 'id,total_outstanding_balance,contact{id}' })
    ).data;
    expect(outstanding).toHaveLength(1);
    expect(outstanding[0]?.contact.id).toBe(clientId);
    expect(outstanding[0]?.total_outstanding_balance).toBeCloseTo(owed, 2);

    const accounts = await find('trust account balance of a client', 'clio.list_bank_accounts');
    type Account = { id: number; name: string; type: string; balance: number };
    expect(accounts.described.description).toContain('TrustAccount');
    const listed = (await call<{ data: Account[] }>(accounts, { type: 'TrustAccount', fields: 'id,name,type,balance' })).data;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((a) => a.type === 'Trust')).toBe(true);
    const trust = listed[0];
    expect(trust, 'a trust account').toBeDefined();
    const one = await find('trust account balance', 'clio.get_bank_account');
    const read = (await call<{ data: Account }>(one, { id: String(trust?.id), fields: 'id,name,type,balance' })).data;
    expect(read).toEqual(trust);
    expect(typeof read.balance).toBe('number');
  });

  it('books a consultation on a calendar and reads it back (Clio)', async () => {
    const calendars = await find('list calendars', 'clio.list_calendars');
    type Calendar = { id: number; name: string; type: string; permission: string };
    const list = (await call<{ data: Calendar[] }>(calendars, { fields: 'id,name,type,permission', writeable: 'true' })).data;
    const calendar = list[0] as Calendar;
    expect(calendar, 'a writeable calendar').toBeDefined();

    const book = await find('book a consultation appointment', 'clio.create_calendar_entry');
    expect(required(book.described)).toEqual(expect.arrayContaining(['calendar_owner', 'start_at', 'end_at', 'summary']));
    const summary = `Initial consultation (${marker()})`;
    const start = `${day(3)}T15:00:00Z`;
    const end = `${day(3)}T16:00:00Z`;
    const created = await call<{ data: { id: number } }>(book, {
      calendar_owner: { id: calendar.id },
      start_at: start,
      end_at: end,
      summary,
      fields: 'id,summary',
    });

    const entries = await find('appointments on the calendar this week', 'clio.list_calendar_entries');
    type Entry = { id: number; summary: string; start_at: string; end_at: string; calendar_owner: { id: number } };
    const week = (
      await call<{ data: Entry[] }>(entries, {
        calendar_id: String(calendar.id),
        from: `${day(2)}T00:00:00Z`,
        to: `${day(4)}T00:00:00Z`,
        fields: 'id,summary,start_at,end_at,calendar_owner{id}',
      })
    ).data;
    const entry = week.find((e) => e.id === created.data.id);
    expect(entry).toMatchObject({ summary, calendar_owner: { id: calendar.id } });
    expect(Date.parse(entry?.start_at as string)).toBe(Date.parse(start));
    expect(Date.parse(entry?.end_at as string)).toBe(Date.parse(end));
  });

  it('books a consultation with a lead and reads it back (Lawmatics)', async () => {
    type Resource = { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };
    const leads = await find('find a lead by name', 'lawmatics.list_prospects');
    const prospect = (await call<{ data: Resource[] }>(leads, { fields: 'first_name,last_name' })).data.find((p) => p.attributes.last_name);
    expect(prospect, 'a lead').toBeDefined();
    const types = await find('types of appointments in Lawmatics', 'lawmatics.list_event_types');
    const listed = (await call<{ data: Resource[] }>(types, {})).data;
    const type = listed.find((t) => /consult/i.test(String(t.attributes.name))) ?? listed[0];
    expect(type, 'an event type').toBeDefined();
    const me = await find('which Lawmatics user am I connected as', 'lawmatics.get_me');
    const user = (await call<{ data: Resource }>(me, {})).data;

    const book = await find('book a consultation with a lead in Lawmatics', 'lawmatics.create_event');
    expect(required(book.described)).toEqual(expect.arrayContaining(['event_type_id', 'eventable_id', 'user_ids']));
    const name = `Initial consultation - ${prospect?.attributes.first_name} ${prospect?.attributes.last_name} (${marker()})`;
    const start = `${day(2)}T17:00:00Z`;
    const end = `${day(2)}T18:00:00Z`;
    const created = await call<{ data: Resource }>(book, {
      name,
      description: 'First meeting about the case: facts, documents, fees.',
      start_date: start,
      end_date: end,
      event_type_id: type?.id,
      eventable_type: 'Prospect',
      eventable_id: prospect?.id,
      user_ids: [user.id],
      send_invites: false,
    });

    const read = await find('read an appointment back', 'lawmatics.get_event');
    const event = (await call<{ data: Resource }>(read, { id: String(created.data.id) })).data;
    expect(event.id).toBe(String(created.data.id));
    expect(event.attributes.name).toBe(name);
    expect(Date.parse(String(event.attributes.start_date))).toBe(Date.parse(start));
    expect(Date.parse(String(event.attributes.end_date))).toBe(Date.parse(end));
    expect(JSON.stringify(event.relationships)).toContain(`"${prospect?.id}"`);
  });

  it('totals the overdue invoices (QuickBooks)', async () => {
    const invoices = await find('overdue invoices', 'quickbooks.find_invoices');
    expect(invoices.described.description).toContain('Balance');
    type Invoice = { Id: string; DueDate: string; Balance: number };
    type Answer = { QueryResponse: { Invoice?: Invoice[] } };
    const select = 'Id,DocNumber,DueDate,Balance';
    const overdue =
      (await call<Answer>(invoices, { where: `Balance > '0' AND DueDate < '${day()}'`, select, fetchAll: 'true' })).QueryResponse.Invoice ??
      [];
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.every((i) => i.Balance > 0 && i.DueDate < day())).toBe(true);
    const total = overdue.reduce((sum, i) => sum + i.Balance, 0);
    // read back another way: every invoice, filtered here
    const every = (await call<Answer>(invoices, { select, fetchAll: 'true' })).QueryResponse.Invoice ?? [];
    const expected = every.filter((i) => i.Balance > 0 && i.DueDate < day());
    expect(overdue.map((i) => i.Id).sort()).toEqual(expected.map((i) => i.Id).sort());
    expect(total).toBeCloseTo(
      expected.reduce((sum, i) => sum + i.Balance, 0),
      2,
    );
    expect(total).toBeGreaterThan(0);
  });

  it('posts in a channel and reads it in the history (Slack)', async () => {
    const channels = await find('list the Slack channels', 'slack.list_channels');
    type Channel = { id: string; name: string; is_member?: boolean; is_archived?: boolean };
    const list = (await call<{ channels: Channel[] }>(channels, {})).channels;
    const channel = list.find((c) => c.is_member && !c.is_archived) as Channel;
    expect(channel, 'a channel the bot is in').toBeDefined();

    const post = await find('post a message in a channel', 'slack.send_message');
    expect(post.described.description).toContain('list_channels');
    const text = `New consultation request from the website (${marker()})`;
    const sent = await call<{ ok: boolean; ts: string; channel: string }>(post, { channel: channel.id, text });
    expect(sent).toMatchObject({ ok: true, channel: channel.id });

    const history = await find('read the latest messages in a channel', 'slack.read_messages');
    const messages = (await call<{ messages: Array<{ ts: string; text: string }> }>(history, { channel: channel.id, limit: '20' }))
      .messages;
    expect(messages.find((m) => m.ts === sent.ts)?.text).toBe(text);
  });

  it('appends a line to a Notion page and reads it back', async () => {
    const search = await find('search Notion for a page by its title', 'notion.search');
    type Page = { id: string; object: string; properties?: Record<string, { type: string; title?: Array<{ plain_text: string }> }> };
    const pages = (await call<{ results: Page[] }>(search, { filter: { property: 'object', value: 'page' }, page_size: 5 })).results;
    const page = pages.find((p) => p.object === 'page') as Page;
    expect(page, 'a page shared with the integration').toBeDefined();
    const title = Object.values(page.properties ?? {})
      .find((p) => p.type === 'title')
      ?.title?.map((t) => t.plain_text)
      .join('') as string;
    // the user names the page by its title; the search by those words finds it
    if (title) {
      const byTitle = (await call<{ results: Page[] }>(search, { query: title, filter: { property: 'object', value: 'page' } })).results;
      expect(byTitle.map((p) => p.id)).toContain(page.id);
    }

    const append = await find('add a line to the end of a Notion page', 'notion.append_block_children');
    const line = `Call the client back about the settlement offer (${marker()})`;
    await call(append, {
      block_id: page.id,
      children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: line } }] } }],
    });

    const read = await find('read the content of a Notion page', 'notion.list_block_children');
    type Block = { id: string; type: string; paragraph?: { rich_text: Array<{ plain_text: string }> } };
    let blocks: Block[] = [];
    let cursor: string | undefined;
    do {
      const answer = await call<{ results: Block[]; has_more: boolean; next_cursor: string | null }>(read, {
        block_id: page.id,
        page_size: 100,
        ...(cursor ? { start_cursor: cursor } : {}),
      });
      blocks = blocks.concat(answer.results);
      cursor = answer.has_more ? (answer.next_cursor ?? undefined) : undefined;
    } while (cursor);
    const last = blocks[blocks.length - 1];
    expect(last?.type).toBe('paragraph');
    expect(last?.paragraph?.rich_text.map((t) => t.plain_text).join('')).toBe(line);
  });

  it('turns the latest caller into a lead (CallRail → Lawmatics)', async () => {
    const accounts = await find('which CallRail accounts can I see', 'callrail.list_accounts');
    const account = (await call<{ accounts: Array<{ id: string }> }>(accounts, {})).accounts[0];
    expect(account, 'a CallRail account').toBeDefined();

    const calls = await find('calls we received recently', 'callrail.list_calls');
    expect(required(calls.described)).toContain('account_id');
    type Call = { id: string; start_time: string; customer_name: string | null; customer_phone_number: string; direction: string };
    const latest = (
      await call<{ calls: Call[] }>(calls, {
        account_id: account?.id,
        direction: 'inbound',
        sort: 'start_time',
        order: 'desc',
        per_page: '25',
      })
    ).calls;
    expect(latest.every((c) => c.direction === 'inbound')).toBe(true);
    const times = latest.map((c) => Date.parse(c.start_time));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const caller = latest.find((c) => c.customer_name?.includes(' '));
    expect(caller, 'a recent inbound call from a named caller').toBeDefined();
    const [first, ...rest] = (caller?.customer_name ?? '').split(' ');

    const lead = await find('create a new lead from a caller', 'lawmatics.create_prospect');
    const created = await call<{ data: { id: string } }>(lead, {
      first_name: first,
      last_name: rest.join(' '),
      phone: caller?.customer_phone_number,
      case_blurb: `Called the firm on ${caller?.start_time} (CallRail call ${caller?.id}).`,
    });
    expect(created.data.id).toBeDefined();

    const prospect = await find('open a lead by its id', 'lawmatics.get_prospect');
    const read = await call<{ data: { id: string; attributes: Record<string, unknown> } }>(prospect, { id: String(created.data.id) });
    expect(read.data.id).toBe(String(created.data.id));
    expect(read.data.attributes).toMatchObject({ first_name: first, last_name: rest.join(' ') });
    expect(JSON.stringify(read.data.attributes)).toContain(caller?.id);
  });

  it('answers “who am I” for every connection', async () => {
    const listed = await client.callTool({ name: 'list_connections', arguments: {} });
    expect(listed.isError).toBeFalsy();
    const { connections } = listed.structuredContent as { connections: Array<{ service: string; status: string }> };
    expect(connections.map((c) => c.service).sort()).toEqual(Object.keys(gateway.sandboxes).sort());
    expect(connections.every((c) => c.status === 'connected')).toBe(true);

    const clio = await find('who am I in Clio', 'clio.get_current_user');
    const clioUser = (await call<{ data: { id: number; name: string; email: string } }>(clio, { fields: 'id,name,email' })).data;
    expect(clioUser.name).toBeTruthy();
    // read back: the same person among the firm's users
    const users = await find('list the users of the Clio account', 'clio.list_users');
    const firm = (await call<{ data: Array<{ id: number; name: string }> }>(users, { fields: 'id,name', limit: 200 })).data;
    expect(firm.find((u) => u.id === clioUser.id)?.name).toBe(clioUser.name);

    const lawmatics = await find('which Lawmatics user am I connected as', 'lawmatics.get_me');
    const me = await call<{ data: { id: string; attributes: { email?: string } } }>(lawmatics, {});
    expect(me.data.id).toBeTruthy();
  });
});
