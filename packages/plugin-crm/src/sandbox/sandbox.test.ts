import type { SandboxServer } from '@portico/core/plugin';
import { pinSandboxClock } from '@portico/core/testing/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAGE_SIZE, startSandbox } from './index.js';
import { AUTHORED_TODAY } from './seed.js';
import { FORM_PI } from './seed-firm.js';

// Some assertions below name days of the calendar the seed was written on: the sandbox clock is pinned to it.
pinSandboxClock(AUTHORED_TODAY);

interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: unknown }>;
}
interface Listed {
  data: Resource[];
  meta: { total_pages: number; limit_per_page: number; total_entries: number };
  links: { self: string; next?: string; prev?: string };
}
interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}
interface Errors {
  errors: Array<{ title: string; detail: string; status: number }>;
}

let sandbox: SandboxServer;
let origin: string;

async function call<T = Record<string, unknown>>(
  path: string,
  init: { method?: string; body?: unknown; token?: string | null } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? sandbox.token}`;
  const response = await fetch(path.startsWith('http') ? path : `${sandbox.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
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

describe('Lawmatics sandbox: auth and envelope', () => {
  it('answers 401 in the OAuth style without the token or with another one', async () => {
    for (const token of [null, 'not-the-token']) {
      const answer = await call<{ error: string; error_description: string }>('/prospects', { token });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_token');
      expect(answer.headers.get('www-authenticate')).toContain('Bearer');
    }
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('lists prospects with the default fields, meta and an absolute self link, newest id first', async () => {
    const answer = await list('/prospects');
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toEqual({ total_pages: 1, limit_per_page: PAGE_SIZE, total_entries: 14 });
    expect(answer.body.links).toEqual({ self: `${origin}/v1/prospects?page=1` });
    expect(ids(answer).slice(0, 3)).toEqual(['5114', '5113', '5112']);
    const first = answer.body.data[0] as Resource;
    expect(first.type).toBe('prospect');
    expect(Object.keys(first.attributes)).toEqual(['first_name', 'last_name', 'email', 'created_at', 'updated_at']);
    expect(Object.keys(first.relationships ?? {})).toEqual(['practice_area']);
  });

  it('returns every attribute and relationship with fields=all, and a chosen set in the order asked', async () => {
    const all = await call<{ data: Resource }>('/prospects/5101?fields=all');
    expect(all.body.data.attributes).toMatchObject({
      case_title: 'Moreno slip and fall',
      estimated_value_cents: 7_500_000,
      status: 'hired',
    });
    expect(all.body.data.attributes.birthdate).toBeNull();
    const rels = all.body.data.relationships ?? {};
    expect(rels.practice_area).toEqual({ data: { id: '61', type: 'practice_area' } });
    expect(rels.owned_by).toEqual({ data: 'Daniel Pike' });
    expect(rels.notes?.data).toEqual([
      { id: '901', type: 'note' },
      { id: '902', type: 'note' },
    ]);
    const chosen = await list('/prospects?fields=practice_area,first_name');
    expect(chosen.body.data[0]).toEqual({
      id: '5114',
      type: 'prospect',
      attributes: { first_name: 'Jordan' },
      relationships: { practice_area: { data: { id: '61', type: 'practice_area' } } },
    });
  });

  it('answers only data for custom fields and forms', async () => {
    for (const path of ['/custom_fields', '/forms']) {
      const answer = await call<Record<string, unknown>>(path);
      expect(Object.keys(answer.body)).toEqual(['data']);
    }
  });
});

describe('Lawmatics sandbox: filters', () => {
  const count = async (query: string) => (await list(`/prospects?${query}`)).body.meta.total_entries;

  it('applies each of the ten operators', async () => {
    expect(ids(await list('/prospects?filter_by=estimated_value_cents&filter_on=500000&filter_with=='))).toEqual(['5108']);
    expect(await count('filter_by=status&filter_on=hired&filter_with=!%3D')).toBe(8);
    expect(await count('filter_by=estimated_value_cents&filter_on=500000&filter_with=%3C')).toBe(3);
    expect(await count('filter_by=estimated_value_cents&filter_on=500000&filter_with=%3C%3D')).toBe(4);
    expect(await count('filter_by=estimated_value_cents&filter_on=3000000&filter_with=%3E')).toBe(3);
    expect(await count('filter_by=estimated_value_cents&filter_on=3000000&filter_with=%3E%3D')).toBe(4);
    expect(ids(await list('/prospects?filter_by=case_title&filter_on=%25custody%25&filter_with=like'))).toEqual(['5107', '5102']);
    expect(await count('filter_by=last_name&filter_on=%25EN%25&filter_with=ilike')).toBe(3);
    expect(await count('filter_by=sub_status&filter_with=null')).toBe(7);
    expect(await count('filter_by=sub_status&filter_with=not_null')).toBe(7);
  });

  it('is case-sensitive for like and not for ilike, with % given URL-encoded', async () => {
    expect(await count('filter_by=case_title&filter_on=%25Custody%25&filter_with=like')).toBe(0);
    expect(await count('filter_by=case_title&filter_on=%25Custody%25&filter_with=ilike')).toBe(2);
    const params = new URLSearchParams({ filter_by: 'email', filter_on: '%@example.com', filter_with: 'like' });
    expect(params.toString()).toContain('%25%40example.com');
    expect(await count(params.toString())).toBe(4);
  });

  it('uses ilike by default for text, = for numbers and ids, and accepts the filter_field aliases', async () => {
    expect(ids(await list('/prospects?filter_by=first_name&filter_on=luc%25'))).toEqual(['5101']);
    expect(await count('filter_field=practice_area_id&filter_value=61&filter_operator==')).toBe(4);
    expect(await count('filter_by=practice_area_id&filter_on=61')).toBe(4);
    expect(await count('filter_by=created_at&filter_on=2024-10-01&filter_with=%3E%3D')).toBe(5);
  });

  it('refuses an unknown filter field, a bad operator or a missing value with 422', async () => {
    const unknown = await call<Errors>('/prospects?filter_by=favourite_colour&filter_on=blue');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      {
        title: 'Filter By Parameter Not Available',
        detail: "When applying filters, a valid 'filter_by' parameter is required.",
        status: 422,
      },
    ]);
    const operator = await call<Errors>('/prospects?filter_by=first_name&filter_on=Maria&filter_with=contains');
    expect(operator.status).toBe(422);
    expect(operator.body.errors[0]?.title).toBe('Filter Operator Not Available');
    expect((await call<Errors>('/prospects?filter_by=first_name')).status).toBe(422);
    expect((await call<Errors>('/prospects?filter_on=Maria')).status).toBe(422);
  });
});

describe('Lawmatics sandbox: sorting and paging', () => {
  it('sorts by an attribute ascending and descending, by id descending by default', async () => {
    const asc = await list('/prospects?sort_by=last_name&sort_order=asc');
    expect(asc.body.data.map((r) => r.attributes.last_name).slice(0, 3)).toEqual(['Delgado', 'Ellis', 'Farouk']);
    const desc = await list('/prospects?sort_by=last_name&sort_order=desc');
    expect(desc.body.data.map((r) => r.attributes.last_name).slice(0, 2)).toEqual(['Whitman', 'Vance']);
    expect(ids(await list('/prospects?sort_by=estimated_value_cents&sort_order=asc')).slice(0, 2)).toEqual(['5113', '5103']);
    expect(ids(await list('/prospects?sort_order=asc'))[0]).toBe('5101');
    expect((await call<Errors>('/prospects?sort_by=shoe_size')).status).toBe(422);
    expect((await call<Errors>('/prospects?sort_order=sideways')).status).toBe(422);
  });

  it('pages contacts by 25 and follows links to the last page', async () => {
    const first = await list('/contacts?sort_by=id&sort_order=asc');
    expect(first.body.meta).toEqual({ total_pages: 2, limit_per_page: 25, total_entries: 30 });
    expect(first.body.data).toHaveLength(25);
    expect(first.body.links.prev).toBeUndefined();
    expect(first.body.links.next).toBe(`${origin}/v1/contacts?sort_by=id&sort_order=asc&page=2`);
    const last = await list(first.body.links.next as string);
    expect(last.body.data).toHaveLength(5);
    expect(last.body.links.next).toBeUndefined();
    expect(last.body.links.prev).toBe(`${origin}/v1/contacts?sort_by=id&sort_order=asc&page=1`);
    expect(new Set([...ids(first), ...ids(last)]).size).toBe(30);
    expect((await list('/contacts?page=3')).body.data).toEqual([]);
  });
});

describe('Lawmatics sandbox: finders', () => {
  it('finds prospects by phone, email and name, and answers 404 for a miss', async () => {
    for (const phone of ['4155550113', encodeURIComponent('(415) 555-0113'), '415-555-0113']) {
      const hit = await call<{ data: Resource }>(`/prospects/find_by_phone/${phone}`);
      expect(hit.body.data).toMatchObject({ id: '5101', type: 'prospect', attributes: { first_name: 'Lucia', phone: '(415) 555-0113' } });
    }
    expect((await call<{ data: Resource }>('/prospects/find_by_email/Harriet.Osei@example.net')).body.data.id).toBe('5103');
    expect((await call<{ data: Resource }>('/prospects/find_by_name/greta%20sorensen')).body.data.id).toBe('5109');
    expect((await call<{ data: Resource }>('/prospects/find_by_name/Nadia')).body.data.id).toBe('5113');
    for (const miss of ['find_by_phone/8005550000', 'find_by_email/nobody@example.com', 'find_by_name/Zelda%20Fitzgerald']) {
      const answer = await call<Errors>(`/prospects/${miss}`);
      expect(answer.status).toBe(404);
      expect(answer.body.errors[0]).toMatchObject({ title: 'Not found', status: 404 });
    }
  });

  it('finds contacts and companies (companies fall back to their contacts)', async () => {
    expect((await call<{ data: Resource }>('/contacts/find_by_phone/9255550120')).body.data.id).toBe('8217');
    expect((await call<{ data: Resource }>('/contacts/find_by_email/rstein@steinlegal.example')).body.data.id).toBe('8215');
    expect((await call<{ data: Resource }>('/contacts/find_by_name/Rachel%20Stein')).body.data.id).toBe('8215');
    expect((await call('/contacts/find_by_name/Nobody%20Here')).status).toBe(404);
    expect((await call<{ data: Resource }>('/companies/find_by_name/pacific%20mutual')).body.data.id).toBe('32');
    expect((await call<{ data: Resource }>('/companies/find_by_email/jlee@pacificmutual.example')).body.data.id).toBe('32');
    expect((await call<{ data: Resource }>('/companies/find_by_phone/9255550124')).body.data.id).toBe('34');
    expect((await call('/companies/find_by_email/none@example.com')).status).toBe(404);
  });
});

describe('Lawmatics sandbox: writes', () => {
  it('creates, reads, updates and deletes a prospect (and links a new contact)', async () => {
    const created = await call<{ data: Resource }>('/prospects', {
      method: 'POST',
      body: {
        first_name: 'Nora',
        last_name: 'Quinn',
        email: 'nora.quinn@example.com',
        phone: '415-555-0199',
        case_title: 'Quinn v. Metro Transit',
        practice_area_id: 61,
        tags: ['VIP'],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.attributes).toMatchObject({ first_name: 'Nora', case_title: 'Quinn v. Metro Transit' });
    const got = await call<{ data: Resource }>(`/prospects/${id}?fields=all`);
    expect(got.body.data.attributes).toMatchObject({
      email: 'nora.quinn@example.com',
      email_address: 'nora.quinn@example.com',
      status: 'pnc',
    });
    expect(got.body.data.relationships?.practice_area).toEqual({ data: { id: '61', type: 'practice_area' } });
    expect(got.body.data.relationships?.tags).toEqual({ data: [{ id: '1', type: 'tag' }] });
    const contact = await call<{ data: Resource }>('/contacts/find_by_email/nora.quinn@example.com?fields=prospects');
    expect(contact.body.data.relationships?.prospects).toEqual({ data: [{ id, type: 'prospect' }] });
    const updated = await call<{ data: Resource }>(`/prospects/${id}`, {
      method: 'PUT',
      body: { last_name: 'Quinn-Ortiz', stage_id: 302 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes.last_name).toBe('Quinn-Ortiz');
    expect((await call<{ data: Resource }>(`/prospects/${id}?fields=stage`)).body.data.relationships?.stage).toEqual({
      data: { id: '302', type: 'stage' },
    });
    const deleted = await call<{ data: Resource }>(`/prospects/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'prospect', attributes: { last_name: 'Quinn-Ortiz' } });
    expect((await call(`/prospects/${id}`)).status).toBe(404);
  });

  it('creates, reads, updates and deletes a contact', async () => {
    const created = await call<{ data: Resource }>('/contacts', {
      method: 'POST',
      body: { first_name: 'Ivy', last_name: 'Stone', email: 'ivy@example.com' },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await call<{ data: Resource }>(`/contacts/${id}`)).body.data.attributes).toMatchObject({
      first_name: 'Ivy',
      email: 'ivy@example.com',
    });
    const updated = await call<{ data: Resource }>(`/contacts/${id}`, { method: 'PUT', body: { occupation: 'Nurse' } });
    expect(updated.body.data.attributes.occupation).toBe('Nurse');
    expect((await call(`/contacts/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(`/contacts/${id}`)).status).toBe(404);
  });

  it('creates, reads, updates and deletes a note on a matter', async () => {
    const created = await call<{ data: Resource }>('/notes', {
      method: 'POST',
      body: { name: 'Call log', body: 'Client called about the deposition date.', notable_type: 'Prospect', notable_id: 5101 },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.relationships?.notable).toEqual({ data: { id: '5101', type: 'prospect' } });
    const notes = await call<{ data: Resource }>('/prospects/5101?fields=notes');
    expect(notes.body.data.relationships?.notes?.data).toContainEqual({ id, type: 'note' });
    const updated = await call<{ data: Resource }>(`/notes/${id}`, { method: 'PUT', body: { body: 'Deposition moved to Dec 5.' } });
    expect(updated.body.data.attributes.body).toBe('Deposition moved to Dec 5.');
    expect((await call(`/notes/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(`/notes/${id}`)).status).toBe(404);
    expect((await call('/relationships/1', { method: 'DELETE' })).status).toBe(204);
  });

  it('takes multipart bodies as the document sends them (time entries, file uploads)', async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      user_id: '12',
      duration: '1.5',
      description: 'Research',
      contactable_type: 'Prospect',
      contactable_id: '5101',
      rate_cents: '30000',
      billable: 'true',
      started_at: '1719583200',
    })) {
      form.set(key, value);
    }
    const post = (path: string, body: FormData) =>
      fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.token}` }, body });
    const entry = await post('/time_entries', form);
    expect(entry.status).toBe(200);
    const created = ((await entry.json()) as { data: Resource }).data;
    // Text parts that are numbers become numbers, as Lawmatics stores them.
    expect(created.attributes).toMatchObject({
      description: 'Research',
      duration: 1.5,
      rate_cents: 30000,
      started_at: 1719583200,
      is_billable: true,
    });
    expect(created.relationships?.staff).toEqual({ data: { id: '12', type: 'user' } });
    const upload = new FormData();
    upload.set('documentable_type', 'matter');
    upload.set('documentable_id', '5101');
    upload.set('file', new Blob(['%PDF-1.4 demo'], { type: 'application/pdf' }), 'police-report.pdf');
    const file = ((await (await post('/files', upload)).json()) as { data: Resource }).data;
    expect(file.attributes).toMatchObject({ file_name: 'police-report.pdf', file_size: 13, file_type: 'application/pdf' });
    expect(file.relationships?.documentable).toEqual({ data: { id: '5101', type: 'prospect' } });
    expect(
      (await fetch(`${sandbox.url}/files/download/${file.id}`, { headers: { authorization: `Bearer ${sandbox.token}` } })).status,
    ).toBe(200);
  });

  it('refuses a create without the required fields with 422', async () => {
    const prospect = await call<Errors>('/prospects', { method: 'POST', body: { last_name: 'Nameless' } });
    expect(prospect.status).toBe(422);
    expect(prospect.body.errors).toEqual([{ title: 'Invalid Parameter', detail: "First name can't be blank", status: 422 }]);
    const task = await call<Errors>('/tasks', { method: 'POST', body: { description: 'no name' } });
    expect(task.body.errors.map((e) => e.detail)).toEqual(["Name can't be blank", "Due date can't be blank"]);
    expect((await call('/events', { method: 'POST', body: { name: 'Consult' } })).status).toBe(422);
    expect((await call('/companies', { method: 'POST', body: {} })).status).toBe(422);
    expect((await call('/time_entries', { method: 'POST', body: { description: 'Research' } })).status).toBe(422);
    expect((await call('/notes', { method: 'POST', body: { body: 'orphan' } })).status).toBe(422);
  });

  it('answers 404 for an unknown id, an unknown path or a verb the collection lacks', async () => {
    const answer = await call<Errors>('/prospects/999999');
    expect(answer.status).toBe(404);
    expect(answer.body.errors).toEqual([{ title: 'Not found', detail: 'Prospect with id 999999 was not found.', status: 404 }]);
    expect((await call('/nonsense')).status).toBe(404);
    expect((await call('/invoices/1', { method: 'DELETE' })).status).toBe(404);
    expect((await call('/tasks/999/subtasks')).status).toBe(404);
  });

  it('takes a custom form submission without a token', async () => {
    const answer = await call<{ data: Resource }>(`/forms/${FORM_PI}/submit`, {
      token: null,
      method: 'POST',
      body: { first_name: 'Leo', last_name: 'Marsh', email: 'leo@example.com', custom_field_4601: '2024-11-01' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ type: 'prospect', attributes: { first_name: 'Leo' } });
    expect((await list(`/forms/${FORM_PI}/entries`)).body.meta.total_entries).toBe(4);
    expect((await call(`/forms/${FORM_PI}/submit`, { token: null, method: 'POST', body: { first_name: 'Leo' } })).status).toBe(422);
  });
});

describe('Lawmatics sandbox: fault injection and reset', () => {
  it('fails the next request with a 429 and Retry-After in Lawmatics’ error shape', async () => {
    expect((await control('fail-next', { status: 429, retry_after: 2 })).status).toBe(200);
    const failed = await call<Errors>('/prospects');
    expect(failed.status).toBe(429);
    expect(failed.headers.get('retry-after')).toBe('2');
    expect(failed.body.errors[0]).toMatchObject({ title: 'Too Many Requests', status: 429 });
    expect((await call('/prospects')).status).toBe(200);
    await control('fail-next', { status: 503, code: 'Maintenance', message: 'Down for maintenance', match: 'GET /v1/contacts' });
    expect((await call('/prospects')).status).toBe(200);
    const matched = await call<Errors>('/contacts');
    expect(matched.body.errors).toEqual([{ title: 'Maintenance', detail: 'Down for maintenance', status: 503 }]);
  });

  it('restores the seeded data and drops queued failures on reset', async () => {
    await call('/prospects', { method: 'POST', body: { first_name: 'Temp' } });
    await call('/prospects/5101', { method: 'DELETE' });
    await control('fail-next', { status: 500 });
    const reset = await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    const after = await list('/prospects');
    expect(after.status).toBe(200);
    expect(after.body.meta.total_entries).toBe(14);
    expect((await call('/prospects/5101')).status).toBe(200);
  });
});

describe('OAuth (authorization code, non-expiring token, no refresh token)', () => {
  it('sends the browser back with a code and exchanges it once for a token the API accepts', async () => {
    const origin = new URL(sandbox.url).origin;
    const redirect = 'http://127.0.0.1:1/callback';
    const authorize = await fetch(
      `${origin}/oauth/authorize?client_id=app&redirect_uri=${encodeURIComponent(redirect)}&response_type=code&state=s1`,
      { redirect: 'manual' },
    );
    expect(authorize.status).toBe(302);
    const back = new URL(authorize.headers.get('location') as string);
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code') as string;
    const exchange = (body: Record<string, string>) =>
      fetch(`${origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
    const grant = { grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: 'app', client_secret: 'shh' };
    const first = await exchange(grant);
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.expires_in).toBeUndefined();
    expect((await exchange(grant)).status).toBe(400); // a code works once
    const me = await fetch(`${sandbox.url}/users/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
  });

  it('lets any of the firm’s people sign in, and the token is theirs: /users/me names them', async () => {
    const origin = new URL(sandbox.url).origin;
    const redirect = 'http://127.0.0.1:1/callback';
    const base = `${origin}/oauth/authorize?client_id=app&redirect_uri=${encodeURIComponent(redirect)}&response_type=code`;
    // asked for a sign-in, the sandbox's login lists the firm's people, each a link carrying the request on
    const login = await fetch(`${base}&prompt=login`, { redirect: 'manual' });
    expect(login.status).toBe(200);
    const page = await login.text();
    expect(page).toContain('Sign in to Lawmatics');
    const link = /href="([^"]+)" data-person="tom@harlowpike\.example"/.exec(page)?.[1] as string;
    const chosen = await fetch(new URL(link.replaceAll('&amp;', '&'), origin), { redirect: 'manual' });
    expect(chosen.status).toBe(302);
    const code = new URL(chosen.headers.get('location') as string).searchParams.get('code') as string;
    const exchanged = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: 'app', client_secret: 'shh' }),
    });
    const { access_token } = (await exchanged.json()) as { access_token: string };
    const me = (await (await fetch(`${sandbox.url}/users/me`, { headers: { authorization: `Bearer ${access_token}` } })).json()) as {
      data: { attributes: { email: string } };
    };
    expect(me.data.attributes.email).toBe('tom@harlowpike.example');
    // the sandbox's own token is the firm's account holder
    const holder = (await (await fetch(`${sandbox.url}/users/me`, { headers: { authorization: `Bearer ${sandbox.token}` } })).json()) as {
      data: { attributes: { email: string } };
    };
    expect(holder.data.attributes.email).toBe('margaret@harlowpike.example');
    // someone who is not of the firm is told so
    expect((await fetch(`${base}&login_hint=someone@else.example`, { redirect: 'manual' })).status).toBe(400);
  });
});
