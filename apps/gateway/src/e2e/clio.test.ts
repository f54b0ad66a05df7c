import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, type Plugin, type SandboxServer } from '@portico/core';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bothDoors, startSandboxedGateway, startTestGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Clio Manage through a real gateway and its sandbox (a seeded firm, Harlow & Pike LLP), over MCP and REST: every case
 * is asked both ways and must get the same answer. Each test starts from the seeded data.
 */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));
beforeEach(async () => {
  expect((await control('/__sandbox/reset')).ok).toBe(true);
});

const API = '/api/v1/clio';

interface Page<T = Record<string, unknown>> {
  data: Array<T & { id: number }>;
  meta: { paging: { next?: string }; records: number };
}

const { control, mcp, succeedsBoth, failsBoth } = bothDoors('clio', () => ({ gateway, client }));

/** A query string; array values repeat their key (`ids[]=1&ids[]=2`). */
function query(params: Record<string, string | string[]>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, item);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** list_activities with these parameters over both doors; the ids answered. */
async function activityIds(params: Record<string, string | string[]>): Promise<number[]> {
  const page = await succeedsBoth<Page>({ method: 'GET', path: `${API}/activities${query(params)}` }, 'list_activities', params);
  return page.data.map((r) => r.id);
}

/** Armed failures still queued: a request refused by the gateway never reached the sandbox to take one. */
async function pendingFailures(): Promise<number> {
  const armed = await control('/__sandbox/fail-next', { status: 500 });
  return (armed.pending ?? 0) - 1;
}

// The seeded activities 5001–5024: 5001–5011 what the firm's issued bills bill (time, then an expense: 5005, 5008,
// 5011; 5006–5008 on Vance's matter 3001), 5012 an office expense without a matter; 5013–5014 unbilled time on the
// story's matter; 5015–5022 the last days' work on other matters (5020 an expense); 5023–5024 Vance's draft bill.
const ALL_ACTIVITIES = Array.from({ length: 24 }, (_, i) => 5001 + i);

describe('Clio list filters, each kind over REST and MCP', () => {
  it('an id filter, and the keyword null for records without that association', async () => {
    expect(await activityIds({ matter_id: '3001' })).toEqual([5006, 5007, 5008, 5023, 5024]);
    expect(await activityIds({ matter_id: 'null' })).toEqual([5012]);
  });

  it('refuses null on an id filter Clio marks null-invalid, before Clio is called', async () => {
    await control('/__sandbox/reset');
    const res = await failsBoth({ method: 'GET', path: `${API}/allocations?bill_id=null` }, 'list_allocations', { bill_id: 'null' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: true, code: 'bad_request', message: expect.stringContaining('bill_id') });
    expect(await pendingFailures()).toBe(0);
  });

  it('an enumerated filter, and a value outside its set refused with the values it takes', async () => {
    expect(await activityIds({ type: 'ExpenseEntry' })).toEqual([5005, 5008, 5011, 5012, 5020]);
    const res = await failsBoth({ method: 'GET', path: `${API}/activities?type=Invoice` }, 'list_activities', { type: 'Invoice' });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toContain('TimeEntry');
  });

  it('a true/false flag', async () => {
    const triggers = (params: Record<string, string>) =>
      succeedsBoth<Page>(
        { method: 'GET', path: `${API}/court_rules/jurisdictions/9601/triggers${query(params)}` },
        'list_jurisdictions_to_triggers',
        { jurisdiction_id: '9601', ...params },
      ).then((page) => page.data.map((r) => r.id));
    expect(await triggers({})).toEqual([9701, 9702, 9703, 9704]);
    expect(await triggers({ is_served: 'true' })).toEqual([9701]);
    expect(await triggers({ is_served: 'false' })).toEqual([9702, 9703, 9704]);
    const bad = await failsBoth(
      { method: 'GET', path: `${API}/court_rules/jurisdictions/9601/triggers?is_served=maybe` },
      'list_jurisdictions_to_triggers',
      { jurisdiction_id: '9601', is_served: 'maybe' },
    );
    expect(bad.status).toBe(400);
  });

  it('ids[], repeated in the query string and an array over MCP', async () => {
    expect(await activityIds({ 'ids[]': ['5003', '5002'] })).toEqual([5002, 5003]);
  });

  it('created_since and updated_since (timestamps)', async () => {
    const stamped = await succeedsBoth<Page<{ created_at: string }>>(
      { method: 'GET', path: `${API}/activities?fields=id,created_at` },
      'list_activities',
      { fields: 'id,created_at' },
    );
    const seventh = stamped.data[6]?.created_at as string;
    expect(await activityIds({ created_since: seventh })).toEqual(ALL_ACTIVITIES.slice(6));
    expect(await activityIds({ updated_since: '2030-01-01T00:00:00Z' })).toEqual([]);
    const bad = await failsBoth({ method: 'GET', path: `${API}/activities?created_since=yesterday` }, 'list_activities', {
      created_since: 'yesterday',
    });
    expect(bad.status).toBe(400);
  });

  it('order (field and direction) and the wildcard query', async () => {
    const params = { order: 'date(desc)', fields: 'id,date' };
    const newest = await succeedsBoth<Page<{ date: string }>>(
      { method: 'GET', path: `${API}/activities${query(params)}` },
      'list_activities',
      params,
    );
    const dates = newest.data.map((a) => a.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(newest.data.map((a) => a.id).sort((x, y) => x - y)).toEqual(ALL_ACTIVITIES);
    // the oldest is the first bill's first entry, the newest today's
    expect(newest.data.at(-1)?.id).toBe(5001);
    const ascending = await activityIds({ order: 'date(asc)' });
    expect(ascending[0]).toBe(5001);
    const matters = await succeedsBoth<Page>({ method: 'GET', path: `${API}/matters?query=custody` }, 'list_matters', { query: 'custody' });
    expect(matters.data.map((m) => m.id)).toEqual([3001]);
  });
});

describe('Clio paging with page_token', () => {
  it('follows meta.paging.next to the last page, the same over both doors, and every record once', async () => {
    const seen: number[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const params: Record<string, string> = { limit: '5', fields: 'id,date', ...(token ? { page_token: token } : {}) };
      const page = await succeedsBoth<Page>({ method: 'GET', path: `${API}/activities${query(params)}` }, 'list_activities', params);
      seen.push(...page.data.map((r) => r.id));
      pages++;
      const next = page.meta.paging.next;
      token = next ? (new URL(next).searchParams.get('page_token') ?? undefined) : undefined;
      expect(pages).toBeLessThan(10);
    } while (token);
    expect(pages).toBe(5);
    expect(seen).toEqual(ALL_ACTIVITIES);
  });

  it('refuses a limit above 200 before Clio is called', async () => {
    await control('/__sandbox/reset');
    const res = await failsBoth({ method: 'GET', path: `${API}/activities?limit=500` }, 'list_activities', { limit: '500' });
    expect(res.status).toBe(400);
    expect(await pendingFailures()).toBe(0);
  });
});

describe('Clio fields selection', () => {
  it('returns only id and etag without fields, and exactly the named fields (nested records too) with it', async () => {
    const bare = await succeedsBoth<{ data: Record<string, unknown> }>({ method: 'GET', path: `${API}/matters/3001` }, 'get_matter', {
      id: '3001',
    });
    expect(Object.keys(bare.data).sort()).toEqual(['etag', 'id']);
    const fields = 'id,display_number,client{id,name}';
    const chosen = await succeedsBoth<{ data: Record<string, unknown> }>(
      { method: 'GET', path: `${API}/matters/3001?fields=${encodeURIComponent(fields)}` },
      'get_matter',
      { id: '3001', fields },
    );
    expect(chosen.data).toEqual({ id: 3001, display_number: '001-Vance', client: { id: 2001, name: 'Eleanor Vance' } });
  });
});

describe('Clio create → get → update → delete, five collections', () => {
  const cases: Array<{
    record: string;
    path: string;
    create: Record<string, unknown>;
    update: Record<string, unknown>;
    fields: string;
    /** What Clio answers where it differs from what was sent (a matter's status is sent in lower case, answered capitalised). */
    answered?: Record<string, unknown>;
  }> = [
    {
      record: 'contact',
      path: 'contacts',
      create: { name: 'Ada Quint', type: 'Person', first_name: 'Ada', last_name: 'Quint' },
      update: { title: 'Chief Executive' },
      fields: 'id,name,type,title',
    },
    {
      record: 'matter',
      path: 'matters',
      create: { client: { id: 2003 }, description: 'Okafor trust amendment', status: 'open' },
      update: { description: 'Okafor trust amendment (2024)' },
      fields: 'id,description,status,client{id,name}',
      answered: { status: 'Open' },
    },
    {
      record: 'activity',
      path: 'activities',
      create: { type: 'TimeEntry', date: '2024-02-05', quantity: 5400, matter: { id: 3001 }, note: 'Drafted reply' },
      update: { note: 'Drafted and filed reply' },
      fields: 'id,type,date,quantity,note,matter{id,display_number}',
    },
    {
      record: 'calendar_entry',
      path: 'calendar_entries',
      create: {
        calendar_owner: { id: 7001 },
        summary: 'Settlement conference',
        start_at: '2024-03-04T17:00:00Z',
        end_at: '2024-03-04T18:00:00Z',
      },
      update: { location: 'Courtroom 12' },
      fields: 'id,summary,start_at,location',
    },
    {
      record: 'task',
      path: 'tasks',
      create: { name: 'Serve subpoena', description: 'Serve the bank', assignee: { id: 1003, type: 'User' }, priority: 'High' },
      update: { status: 'complete' },
      fields: 'id,name,priority,status',
    },
  ];

  it.each(cases)('$record: created over REST, read over MCP, changed over MCP, deleted over REST', async (c) => {
    const created = await gateway.rest('POST', `${API}/${c.path}?fields=${encodeURIComponent(c.fields)}`, { body: c.create });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const record = (created.body as { data: Record<string, unknown> & { id: number } }).data;
    for (const [name, value] of Object.entries(c.create)) {
      if (c.fields.split(',').includes(name)) expect(record[name], name).toEqual(c.answered?.[name] ?? value);
    }
    const id = String(record.id);
    const read = await mcp(`get_${c.record}`, { id, fields: c.fields });
    expect(read).toEqual({ isError: false, body: { data: record } });
    const changed = await mcp(`update_${c.record}`, { id, ...c.update, fields: c.fields });
    expect(changed.isError, JSON.stringify(changed.body)).toBe(false);
    expect((changed.body as { data: Record<string, unknown> }).data).toMatchObject(c.update);
    const again = await gateway.rest('GET', `${API}/${c.path}/${id}?fields=${encodeURIComponent(c.fields)}`);
    expect((again.body as { data: unknown }).data).toMatchObject(c.update);
    const deleted = await gateway.rest('DELETE', `${API}/${c.path}/${id}`);
    expect(deleted.status).toBe(204);
    const gone = await failsBoth({ method: 'GET', path: `${API}/${c.path}/${id}` }, `get_${c.record}`, { id });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: true, code: 'not_found' });
  });
});

describe('Clio body fields are checked before Clio is called', () => {
  it('a missing required field and a badly typed one → 400 naming them, no upstream request', async () => {
    await control('/__sandbox/reset');
    const missing = await failsBoth(
      { method: 'POST', path: `${API}/calendar_entries`, body: { calendar_owner: { id: 7001 }, start_at: '2024-03-04T17:00:00Z' } },
      'create_calendar_entry',
      { calendar_owner: { id: 7001 }, start_at: '2024-03-04T17:00:00Z' },
    );
    expect(missing.status).toBe(400);
    expect((missing.body as { message: string }).message).toMatch(/summary|end_at/);
    const typed = await failsBoth(
      { method: 'POST', path: `${API}/activities`, body: { type: 'TimeEntry', date: 'next tuesday' } },
      'create_activity',
      { type: 'TimeEntry', date: 'next tuesday' },
    );
    expect(typed.status).toBe(400);
    expect((typed.body as { message: string }).message).toContain('date');
    expect(await pendingFailures()).toBe(0);
  });
});

describe('Clio faults', () => {
  it('passes Clio’s 429 on with its Retry-After, over both doors', async () => {
    const arm = () => control('/__sandbox/fail-next', { status: 429, retry_after: 7 });
    const res = await failsBoth({ method: 'GET', path: `${API}/matters` }, 'list_matters', {}, arm);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body).toMatchObject({ error: true, code: 'rate_limited' });
  });

  it('an unknown record → 404 with Clio’s words', async () => {
    const res = await failsBoth({ method: 'GET', path: `${API}/contacts/424242` }, 'get_contact', { id: '424242' });
    expect(res.status).toBe(404);
    expect((res.body as { message: string }).message).toContain('RecordNotFound');
  });
});

describe('Clio downloads', () => {
  it('answers the address Clio redirects to, and the file is there without credentials', async () => {
    const answer = await succeedsBoth<{ download_url: string }>(
      { method: 'GET', path: `${API}/documents/9101/download?document_version_id=12` },
      'download_document',
      { id: '9101', document_version_id: '12' },
    );
    const file = await fetch(answer.download_url);
    expect(file.status).toBe(200);
    expect(await file.text()).toContain('documents/9101-v12');
    const missing = await failsBoth({ method: 'GET', path: `${API}/documents/424242/download` }, 'download_document', { id: '424242' });
    expect(missing.status).toBe(404);
  });
});

describe('Clio regions: the connection’s region picks the host its requests go to', () => {
  let us: SandboxServer;
  let eu: SandboxServer;
  let regional: TestGateway;

  beforeAll(async () => {
    const sandbox = await (clioPlugin.sandbox as NonNullable<Plugin['sandbox']>)();
    us = await sandbox.startSandbox();
    eu = await sandbox.startSandbox();
    // The plugin's own region → host choice, with Clio's US and EU hosts standing on loopback (as a DNS entry would).
    const hosts: Record<string, string> = {
      'https://app.clio.com': new URL(us.url).origin,
      'https://eu.app.clio.com': new URL(eu.url).origin,
    };
    const realBaseUrl = clioPlugin.upstream.baseUrl as (connection: Readonly<Record<string, unknown>>) => string;
    const onLoopback: Plugin = {
      ...clioPlugin,
      upstream: {
        ...clioPlugin.upstream,
        baseUrl: (connection) => {
          const real = realBaseUrl(connection);
          const host = Object.keys(hosts).find((h) => real.startsWith(`${h}/`));
          return host ? `${hosts[host]}${real.slice(host.length)}` : real;
        },
      },
    };
    regional = await startTestGateway({ plugins: [onLoopback] });
    await regional.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'clio', { restEnabled: true });
  });
  afterAll(async () => {
    await regional?.close();
    await us?.close();
    await eu?.close();
  });

  const onHost = (server: SandboxServer, path: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.token}` } }).then((r) => r.status);

  it('a connection in the EU region reads and writes the EU host, not the US one', async () => {
    await regional.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'clio', eu.token, { region: 'eu' });
    const created = await regional.rest('POST', `${API}/contacts`, { body: { name: 'Région Test SARL', type: 'Company' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = (created.body as { data: { id: number } }).data.id;
    expect(await onHost(eu, `/contacts/${id}.json`)).toBe(200);
    expect(await onHost(us, `/contacts/${id}.json`)).toBe(404);
    await regional.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'clio', us.token, { region: 'us' });
    expect((await regional.rest('GET', `${API}/contacts/${id}`)).status).toBe(404);
  });

  it('an unknown region → 424 not_connected that says how to fix it, before any request', async () => {
    await regional.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'clio', us.token, { region: 'uk' });
    const res = await regional.rest('GET', `${API}/matters`);
    expect(res.status).toBe(424);
    expect(res.body).toMatchObject({ error: true, code: 'not_connected', message: expect.stringContaining('region') });
  });
});
