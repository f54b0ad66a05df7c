import { readFileSync } from 'node:fs';
import type { SandboxServer } from '@portico/core/plugin';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_COLLECTIONS, startSandbox } from './index.js';
import { TABLE } from './table.js';

type Data = Record<string, unknown> & { id: number; etag: string };
interface Listed {
  data: Data[];
  meta: { paging: { next?: string }; records: number };
}
interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

let sandbox: SandboxServer;
let origin: string;

async function call<T = { data: Data }>(
  path: string,
  init: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-version': '4.0.10', ...init.headers };
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? sandbox.token}`;
  const response = await fetch(path.startsWith('http') ? path : `${sandbox.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    redirect: 'manual',
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text === '' ? undefined : JSON.parse(text)) as T };
}
const list = (path: string) => call<Listed>(path);
const ids = (answer: Answer<Listed>) => answer.body.data.map((r) => r.id);
const control = (path: string, body?: unknown) =>
  fetch(`${origin}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });

beforeAll(async () => {
  sandbox = await startSandbox();
  origin = new URL(sandbox.url).origin;
});
afterAll(() => sandbox?.close());
beforeEach(async () => {
  await control('reset');
});

describe('the table', () => {
  it('has every operation of the facts file', () => {
    const facts = JSON.parse(readFileSync(new URL('../upstream-facts.json', import.meta.url), 'utf8')) as {
      operations: Array<{ method: string; path: string }>;
    };
    const templates = new Set(TABLE.map((row) => row[0]));
    for (const op of facts.operations) {
      const base = op.path.replace(/\.json$/, '').replace(/\/\{id\}$/, '');
      expect(templates.has(base), op.path).toBe(true);
    }
  });

  it('answers a list for every listable collection, each seeded', async () => {
    for (const collection of SANDBOX_COLLECTIONS.filter((c) => c.verbs.has('L') && c.template !== '/users/who_am_i')) {
      const path = collection.template.replace(/\{\w+\}/g, () => '0');
      const scoped = collection.params.length === 0 ? path : undefined;
      if (!scoped) continue;
      // Clio requires the region of the legal aid expense categories
      const answer = await list(`${scoped}.json${collection.template === '/lauk_expense_categories' ? '?region=London' : ''}`);
      expect(answer.status, collection.template).toBe(200);
      expect(answer.body.data.length, collection.template).toBeGreaterThan(0);
    }
  });
});

describe('lists', () => {
  it('return id and etag only by default, with meta', async () => {
    const answer = await list('/matters.json');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.data[0] as object).sort()).toEqual(['etag', 'id']);
    expect(answer.body.meta).toEqual({ paging: {}, records: 8 });
    expect(answer.headers.get('x-ratelimit-limit')).toBeTruthy();
  });

  it('select fields, nested ones from the related record', async () => {
    const answer = await list('/activities.json?fields=id,type,quantity,matter{id,display_number},user{name}&limit=1');
    expect(answer.body.data[0]).toEqual({
      id: 5001,
      type: 'TimeEntry',
      quantity: 14_400,
      matter: { id: 3006, display_number: '006-Delgado' },
      user: { name: 'Daniel Pike' },
    });
    expect((await list('/activities.json?fields=id,matter{id')).status).toBe(400);
  });

  it('page with page_token to the end, following meta.paging.next', async () => {
    const seen: number[] = [];
    let next: string | undefined = `${sandbox.url}/activities.json?limit=5&fields=id`;
    let pages = 0;
    while (next) {
      const answer = await list(next);
      expect(answer.status).toBe(200);
      expect(answer.body.meta.records).toBe(24);
      seen.push(...ids(answer));
      next = answer.body.meta.paging.next;
      if (next) expect(new URL(next).searchParams.get('page_token')).toBeTruthy();
      pages += 1;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 24 }, (_, i) => 5001 + i));
    expect((await list('/activities.json?limit=201')).status).toBe(400);
    expect((await list('/activities.json?page_token=bogus')).status).toBe(400);
  });

  it('filter by ids[], by an id with null, created_since and query; a bad id value is a 400', async () => {
    expect(ids(await list('/contacts.json?ids[]=2002&ids[]=2004'))).toEqual([2002, 2004]);
    expect(ids(await list('/matters.json?client_id=null'))).toEqual([3007]);
    expect(ids(await list('/matters.json?client_id=2002'))).toEqual([3002, 3008]);
    expect(ids(await list('/activities.json?matter_id=null'))).toEqual([5012]);
    expect(ids(await list('/contacts.json?query=northwind'))).toEqual([2002]);
    const all = await list('/tasks.json?fields=id,created_at');
    const since = all.body.data[3]?.created_at as string;
    expect(ids(await list(`/tasks.json?created_since=${encodeURIComponent(since)}`))).toEqual([8004, 8005, 8006, 8007, 8008, 8009, 8010]);
    const bad = await list('/matters.json?client_id=abc');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { type: 'InvalidParameter' } });
    expect((await list('/tasks.json?created_since=yesterday')).status).toBe(400);
  });

  it('calendar entries by calendar_id (their calendar_owner) and by a from/to window they overlap', async () => {
    const all = (await list('/calendar_entries.json?fields=id,start_at,end_at,calendar_owner{id}')).body.data as Array<
      Data & { start_at: string; end_at: string; calendar_owner: { id: number } }
    >;
    const owners = [...new Set(all.map((e) => e.calendar_owner.id))];
    expect(owners.length).toBeGreaterThan(1);
    for (const owner of owners) {
      const expected = all.filter((e) => e.calendar_owner.id === owner).map((e) => e.id);
      expect(ids(await list(`/calendar_entries.json?calendar_id=${owner}`))).toEqual(expected);
    }
    const starts = all.map((e) => e.start_at).sort();
    const from = starts[1] as string;
    const to = starts[starts.length - 2] as string;
    const window = all.filter((e) => Date.parse(e.end_at) >= Date.parse(from) && Date.parse(e.start_at) <= Date.parse(to)).map((e) => e.id);
    expect(window.length).toBeGreaterThan(0);
    expect(window.length).toBeLessThan(all.length);
    const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    expect(ids(await list(`/calendar_entries.json?${query}`))).toEqual(window);
    expect((await list('/calendar_entries.json?from=next-week')).status).toBe(400);
  });

  it("calendar entries of other users' calendars only for a matter with owner_entries_across_all_users", async () => {
    const calendars = ids(await list('/calendars.json'));
    const owners = (path: string) =>
      list(path).then((a) => (a.body.data as Array<Data & { calendar_owner: { id: number } }>).map((e) => e.calendar_owner.id));
    // by default: the entries of the calendars the user sees, and no other
    const seen = await owners('/calendar_entries.json?fields=id,calendar_owner{id}');
    expect(seen.every((id) => calendars.includes(id))).toBe(true);
    const mine = await owners('/calendar_entries.json?fields=id,calendar_owner{id}&matter_id=3001');
    const across = await owners('/calendar_entries.json?fields=id,calendar_owner{id}&matter_id=3001&owner_entries_across_all_users=true');
    expect(across.length).toBeGreaterThan(mine.length);
    expect(across.filter((id) => !calendars.includes(id)).length).toBe(across.length - mine.length);
    const other = await list('/calendar_entries.json?fields=id,matter{id}&matter_id=3001&owner_entries_across_all_users=true');
    expect(other.body.data.every((e) => (e.matter as { id: number }).id === 3001)).toBe(true);
    expect((await list('/calendar_entries.json?owner_entries_across_all_users=true')).status).toBe(400);
  });

  it('a recurring calendar entry: once as its series, once per occurrence with expanded=true', async () => {
    type Entry = Data & { start_at: string; end_at: string; recurrence_rule: string | null; parent_calendar_entry_id: number | null };
    const fields = 'fields=id,start_at,end_at,recurrence_rule,parent_calendar_entry_id';
    const series = (await list(`/calendar_entries.json?${fields}`)).body.data as Entry[];
    const recurring = series.filter((e) => e.recurrence_rule);
    expect(recurring).toHaveLength(1);
    const [entry] = recurring as [Entry];
    expect(entry.recurrence_rule).toBe('FREQ=WEEKLY;INTERVAL=1;COUNT=4');
    const expanded = (await list(`/calendar_entries.json?${fields}&expanded=true`)).body.data as Entry[];
    const of = expanded.filter((e) => e.id === entry.id || e.parent_calendar_entry_id === entry.id);
    // four weekly occurrences of the same length: the series' own record first, then `<series id>_<YYYYMMDD>`
    expect(of.map((e) => Date.parse(e.start_at) - Date.parse(entry.start_at))).toEqual([0, 1, 2, 3].map((w) => w * 7 * 86_400_000));
    expect(of.every((e) => Date.parse(e.end_at) - Date.parse(e.start_at) === Date.parse(entry.end_at) - Date.parse(entry.start_at))).toBe(
      true,
    );
    expect(of.slice(1).map((e) => e.id)).toEqual(of.slice(1).map((e) => `${entry.id}_${e.start_at.slice(0, 10).replaceAll('-', '')}`));
    // the other entries are answered the same either way
    expect(expanded.filter((e) => !of.includes(e)).map((e) => e.id)).toEqual(series.filter((e) => e !== entry).map((e) => e.id));
    // from/to see each occurrence: a window around the third answers it alone of the series
    const third = of[2] as Entry;
    const window = `from=${encodeURIComponent(third.start_at)}&to=${encodeURIComponent(third.end_at)}`;
    const windowed = (await list(`/calendar_entries.json?${fields}&expanded=true&${window}`)).body.data as Entry[];
    expect(windowed.filter((e) => e.parent_calendar_entry_id === entry.id || e.id === entry.id).map((e) => e.id)).toEqual([third.id]);
    expect((await list('/calendar_entries.json?expanded=yes')).status).toBe(400);
    // a written rule is checked, and expands like the seeded one
    const data = {
      summary: 'Daily stand-up',
      calendar_owner: { id: 7001 },
      start_at: '2024-03-04T17:00:00Z',
      end_at: '2024-03-04T17:15:00Z',
    };
    const hourly = await call('/calendar_entries.json', { method: 'POST', body: { data: { ...data, recurrence_rule: 'FREQ=HOURLY' } } });
    expect(hourly.status).toBe(422);
    const daily = await call('/calendar_entries.json', {
      method: 'POST',
      body: { data: { ...data, recurrence_rule: 'FREQ=DAILY;COUNT=3' } },
    });
    expect(daily.status).toBe(201);
    const created = daily.body.data.id;
    const again = (await list(`/calendar_entries.json?${fields}&expanded=true`)).body.data as Entry[];
    expect(again.filter((e) => e.id === created || e.parent_calendar_entry_id === created).map((e) => e.start_at.slice(0, 10))).toEqual([
      '2024-03-04',
      '2024-03-05',
      '2024-03-06',
    ]);
  });

  it('practice areas for a matter: without the legal aid ones once the matter has activities', async () => {
    const areas = (await list('/practice_areas.json?fields=id,category')).body.data;
    const legalAid = areas.filter((a) => a.category === 'legal_aid').map((a) => a.id);
    expect(legalAid.length).toBeGreaterThan(0);
    const activities = (await list('/activities.json?fields=id,matter{id}')).body.data;
    const busy = new Set(activities.map((a) => (a.matter as { id: number } | null)?.id));
    const matters = ids(await list('/matters.json'));
    const idle = matters.find((m) => !busy.has(m));
    const active = matters.find((m) => busy.has(m));
    expect(idle, 'a matter without activities').toBeDefined();
    expect(ids(await list(`/practice_areas.json?matter_id=${active}`))).toEqual(
      areas.map((a) => a.id).filter((id) => !legalAid.includes(id)),
    );
    expect(ids(await list(`/practice_areas.json?matter_id=${idle}`))).toEqual(areas.map((a) => a.id));
    // the first activity on the idle matter leaves the legal aid areas out for it too
    const data = { type: 'TimeEntry', date: '2024-02-12', quantity: 3600, matter: { id: idle } };
    expect((await call('/activities.json', { method: 'POST', body: { data } })).status).toBe(201);
    expect(ids(await list(`/practice_areas.json?matter_id=${idle}`)).some((id) => legalAid.includes(id))).toBe(false);
    expect((await list('/practice_areas.json?matter_id=null')).status).toBe(400);
  });

  it('bank accounts by type as the filter names it: TrustAccount for a Trust account, OperatingAccount', async () => {
    const all = (await list('/bank_accounts.json?fields=id,type')).body.data as Array<Data & { type: string }>;
    for (const type of ['Trust', 'Operating']) {
      const expected = all.filter((a) => a.type === type).map((a) => a.id);
      expect(expected.length, type).toBeGreaterThan(0);
      expect(ids(await list(`/bank_accounts.json?type=${type}Account`))).toEqual(expected);
    }
  });

  it('order asc and desc', async () => {
    expect(ids(await list('/bills.json?order=total(asc)'))).toEqual([6003, 6005, 6001, 6004, 6002, 6007, 6006]);
    expect(ids(await list('/bills.json?order=total(desc)'))).toEqual([6006, 6007, 6002, 6004, 6001, 6005, 6003]);
    expect((await list('/bills.json?order=total')).status).toBe(400);
  });

  it('order on the six lists whose order the catalog gives (the saved document omits it)', async () => {
    for (const path of [
      'activity_rates',
      'activity_descriptions',
      'calendar_entries',
      'calendar_entry_event_types',
      'clio_payments/links',
      'currencies',
    ]) {
      const ascending = ids(await list(`/${path}.json?order=id(asc)`));
      expect(ascending.length, path).toBeGreaterThan(1);
      expect(ids(await list(`/${path}.json?order=id(desc)`)), path).toEqual([...ascending].reverse());
    }
  });

  it('serve nested collections under their parent, triggers up to limit 1000', async () => {
    const triggers = await list('/court_rules/jurisdictions/9601/triggers.json?fields=id,description&limit=1000');
    expect(ids(triggers)).toEqual([9701, 9702, 9703, 9704]);
    expect((await call('/court_rules/jurisdictions/9601/triggers/9702.json')).body.data.id).toBe(9702);
    expect((await call('/court_rules/jurisdictions/9602/triggers/9702.json')).status).toBe(404);
    expect((await list('/court_rules/jurisdictions/1/triggers.json')).status).toBe(404);
  });
});

describe('records', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['/activities', { type: 'TimeEntry', date: '2024-02-01', quantity: 3600, matter: { id: 3002 }, note: 'Call' }, { note: 'Long call' }],
    ['/contacts', { name: 'Ada Quinn', type: 'Person', first_name: 'Ada', last_name: 'Quinn' }, { first_name: 'Adele' }],
    ['/calendars', { name: 'Litigation', color: '#FF0000' }, { name: 'Litigation team' }],
  ];
  for (const [path, body, change] of cases) {
    it(`create, get, update (new etag), delete on ${path}`, async () => {
      const keys = Object.keys({ ...body, ...change }).join(',');
      const created = await call(`${path}.json?fields=id,etag,${keys}`, { method: 'POST', body: { data: body } });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject(body);
      const id = created.body.data.id;
      const got = await call(`${path}/${id}.json?fields=id,etag,${keys}`);
      expect(got.body.data).toEqual(created.body.data);
      const updated = await call(`${path}/${id}.json?fields=id,etag,${keys}`, { method: 'PATCH', body: { data: change } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject(change);
      expect(updated.body.data.etag).not.toBe(got.body.data.etag);
      const stale = await call(`${path}/${id}.json`, {
        method: 'PATCH',
        body: { data: change },
        headers: { 'if-match': got.body.data.etag },
      });
      expect(stale.status).toBe(412);
      expect((await call(`${path}/${id}.json`, { method: 'DELETE' })).status).toBe(204);
      expect((await call(`${path}/${id}.json`)).status).toBe(404);
    });
  }

  it('a time entry just logged is unbilled and billable: status=unbilled lists it, status=billed does not', async () => {
    const created = await call('/activities.json?fields=id,billed,non_billable', {
      method: 'POST',
      body: { data: { type: 'TimeEntry', date: '2024-02-01', quantity: 1800, matter: { id: 3002 }, note: 'Letter' } },
    });
    expect(created.body.data).toMatchObject({ billed: false, non_billable: false });
    const id = created.body.data.id;
    expect(ids(await list('/activities.json?matter_id=3002&status=unbilled&limit=200'))).toContain(id);
    expect(ids(await list('/activities.json?matter_id=3002&status=billed&limit=200'))).not.toContain(id);
    expect((await call(`/activities/${id}.json`, { method: 'DELETE' })).status).toBe(204);
  });

  it('billable matters and clients sum the unbilled activities, outstanding balances the unpaid bills, as they change', async () => {
    type Activity = Data & {
      type: string;
      quantity: number;
      total: number;
      billed: boolean;
      non_billable: boolean;
      matter: { id: number } | null;
      bill: { id: number } | null;
    };
    const activities = (await list('/activities.json?fields=id,type,quantity,total,billed,non_billable,matter{id},bill{id}&limit=200')).body
      .data as Activity[];
    // unbilled: neither billed nor on a draft bill
    const open = activities.filter((a) => a.matter && !a.billed && !a.non_billable && !a.bill);
    const hoursOf = (matter: number) =>
      open.filter((a) => a.matter?.id === matter && a.type === 'TimeEntry').reduce((sum, a) => sum + a.quantity, 0) / 3600;
    const matters = (await list('/billable_matters.json?fields=id,unbilled_hours,unbilled_amount,client{id}')).body.data as Array<
      Data & { unbilled_hours: number; unbilled_amount: number; client: { id: number } | null }
    >;
    expect(matters.map((m) => m.id).sort()).toEqual([...new Set(open.map((a) => a.matter?.id as number))].sort());
    for (const matter of matters) {
      expect(matter.unbilled_hours).toBeCloseTo(hoursOf(matter.id), 2);
      const amount = open.filter((a) => a.matter?.id === matter.id).reduce((sum, a) => sum + a.total, 0);
      expect(matter.unbilled_amount).toBeCloseTo(amount, 2);
    }
    const withClient = matters.find((m) => m.client) as (typeof matters)[number];
    const clients = (
      await list(`/billable_clients.json?client_id=${withClient.client?.id}&fields=id,unbilled_hours,billable_matters_count`)
    ).body.data;
    expect(clients).toEqual([
      {
        id: withClient.client?.id,
        unbilled_hours: expect.any(Number),
        billable_matters_count: matters.filter((m) => m.client?.id === withClient.client?.id).length,
      },
    ]);

    // a time entry just logged counts at once
    const logged = await call('/activities.json?fields=id', {
      method: 'POST',
      body: { data: { type: 'TimeEntry', date: '2024-02-01', quantity: 7200, price: 350, matter: { id: withClient.id } } },
    });
    expect(logged.status).toBe(201);
    const after = (await list(`/billable_matters.json?matter_id=${withClient.id}&fields=id,unbilled_hours`)).body.data;
    expect(after).toEqual([{ id: withClient.id, unbilled_hours: expect.closeTo(withClient.unbilled_hours + 2, 2) }]);
    await call(`/activities/${logged.body.data.id}.json`, { method: 'DELETE' });

    type Bill = Data & { state: string; balance: number; client: { id: number } | null };
    const bills = (await list('/bills.json?fields=id,state,balance,client{id}&limit=200')).body.data as Bill[];
    const unpaid = bills.filter((b) => b.state === 'awaiting_payment' && b.balance > 0 && b.client);
    expect(unpaid.length).toBeGreaterThan(0);
    const balances = (await list('/outstanding_client_balances.json?fields=id,total_outstanding_balance,contact{id}')).body.data;
    const owed = new Map<number, number>();
    for (const bill of unpaid) owed.set(bill.client?.id as number, (owed.get(bill.client?.id as number) ?? 0) + bill.balance);
    expect(balances.map((b) => [(b.contact as { id: number }).id, b.total_outstanding_balance]).sort()).toEqual([...owed].sort());
    const one = unpaid[0]?.client?.id as number;
    expect(ids(await list(`/outstanding_client_balances.json?contact_id=${one}`))).toEqual([one]);
  });

  it('404 for an unknown id or path, 422 for a bad body', async () => {
    const missing = await call('/matters/999.json');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { type: 'RecordNotFound' } });
    expect((await call('/nothing_here.json')).status).toBe(404);
    const blank = await call('/activities.json', { method: 'POST', body: { data: { note: 'no type' } } });
    expect(blank.status).toBe(422);
    expect(String((blank.body as unknown as { error: { message: string } }).error.message)).toContain("date can't be blank");
    const wrong = await call('/activities/5001.json', { method: 'PATCH', body: { data: { quantity: 'lots', matter: 3001 } } });
    expect(wrong.status).toBe(422);
    expect((await call('/activities/5001.json', { method: 'PATCH', body: { data: { bogus: 1 } } })).status).toBe(422);
    expect((await call('/activities.json', { method: 'POST', body: { type: 'TimeEntry' } })).status).toBe(422);
  });
});

describe('auth, versions, failures', () => {
  it('401 without or with a wrong token; 410 for an unsupported version', async () => {
    expect((await call('/matters.json', { token: null })).status).toBe(401);
    const wrong = await call('/matters.json', { token: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: { type: 'Unauthorized' } });
    expect((await call('/matters.json', { headers: { 'x-api-version': '3.1.0' } })).status).toBe(410);
  });

  it('the OAuth dance: authorize, code for tokens, reusable refresh, deauthorize', async () => {
    const redirect = 'http://127.0.0.1:1/callback';
    const authorize = await fetch(
      `${origin}/oauth/authorize?response_type=code&client_id=app&redirect_uri=${encodeURIComponent(redirect)}&state=xyz`,
      {
        redirect: 'manual',
      },
    );
    expect(authorize.status).toBe(302);
    const back = new URL(authorize.headers.get('location') as string);
    expect(back.searchParams.get('state')).toBe('xyz');
    const form = (params: Record<string, string>) =>
      fetch(`${origin}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: 'app', client_secret: 's', ...params }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const tokens = await form({ grant_type: 'authorization_code', code: back.searchParams.get('code') as string, redirect_uri: redirect });
    expect(tokens.body).toMatchObject({ token_type: 'bearer', expires_in: 2592000 });
    const access = tokens.body.access_token as string;
    expect((await call('/users/who_am_i.json?fields=id,name', { token: access })).body.data).toEqual({ id: 1001, name: 'Margaret Harlow' });
    const refresh = tokens.body.refresh_token as string;
    const first = await form({ grant_type: 'refresh_token', refresh_token: refresh });
    const second = await form({ grant_type: 'refresh_token', refresh_token: refresh });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    const out = await fetch(`${origin}/oauth/deauthorize`, { method: 'POST', headers: { authorization: `Bearer ${access}` } });
    expect(out.status).toBe(200);
    expect((await call('/matters.json', { token: access })).status).toBe(401);
    expect((await form({ grant_type: 'refresh_token', refresh_token: refresh })).status).toBe(400);
  });

  it('fail-next gives a 429 with Retry-After in Clio error shape, once', async () => {
    expect((await control('fail-next', { status: 429, retry_after: 7 })).status).toBe(200);
    const limited = await list('/matters.json');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body).toMatchObject({ error: { type: 'RateLimited' } });
    expect((await list('/matters.json')).status).toBe(200);
  });

  it('reset restores the seed', async () => {
    expect((await call('/matters/3001.json', { method: 'DELETE' })).status).toBe(204);
    expect((await call('/matters/3001.json')).status).toBe(404);
    await control('reset');
    expect((await call('/matters/3001.json')).status).toBe(200);
    expect((await list('/matters.json')).body.meta.records).toBe(8);
  });
});

describe('webhooks', () => {
  it('makes one per model, each with a secret of its own, and refuses a model Clio has no webhooks for', async () => {
    const make = (model: string) =>
      call<{ data: Data & { shared_secret?: string; model?: string } }>('/webhooks.json?fields=id,model,shared_secret', {
        method: 'POST',
        // a loopback port nothing listens on: the handshake Clio sends goes nowhere
        body: { data: { url: 'http://127.0.0.1:9/api/events/default/clio', model, fields: 'id,updated_at' } },
      });
    const contact = await make('contact');
    const bill = await make('bill');
    expect([contact.status, bill.status]).toEqual([201, 201]);
    expect([contact.body.data.model, bill.body.data.model]).toEqual(['contact', 'bill']);
    expect(contact.body.data.shared_secret).toMatch(/^[0-9a-f]{48}$/);
    expect(contact.body.data.shared_secret).not.toBe(bill.body.data.shared_secret);
    const refused = await make('invoice');
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('model must be one of');
  });
});
