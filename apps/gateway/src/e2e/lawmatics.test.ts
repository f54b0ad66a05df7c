import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pinSandboxClock } from '@portico/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bothDoors, startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

// The filters below name days of the calendar the Lawmatics seed was written on: the sandbox clock is pinned to it.
pinSandboxClock('2024-11-15');

/**
 * Lawmatics through a real gateway and its sandbox (a seeded law firm, Harlow & Pike LLP), over MCP and REST: every
 * case is asked both ways and must get the same answer. Each test starts from the seeded data.
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

const API = '/api/v1/lawmatics';

interface Record_ {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: unknown }>;
}
interface ListPage {
  data: Record_[];
  meta: { total_pages: number; limit_per_page: number; total_entries: number };
  links: { self: string };
}

const { control, mcp, succeedsBoth, failsBoth } = bothDoors('lawmatics', () => ({ gateway, client }));

const query = (params: Record<string, string>) => {
  const text = new URLSearchParams(params).toString();
  return text ? `?${text}` : '';
};

/** list_prospects with these parameters over both protocols (page as a string over MCP too). */
const listProspects = (params: Record<string, string>) =>
  succeedsBoth<ListPage>({ method: 'GET', path: `${API}/prospects${query(params)}` }, 'list_prospects', params);

const ids = (page: ListPage) => page.data.map((r) => r.id);
const sortedIds = (page: ListPage) => ids(page).sort();

// The seeded matters, by what the filters below look at.
const ALL = ['5101', '5102', '5103', '5104', '5105', '5106', '5107', '5108', '5109', '5110', '5111', '5112', '5113', '5114'];
/** Oldest first by created_at (Bayview came in first; 5113 and 5114 are this morning's new leads, in that order). */
const BY_CREATED = ['5108', '5101', '5107', '5111', '5104', '5110', '5106', '5105', '5109', '5112', '5103', '5102', '5113', '5114'];
const WITH_SUB_STATUS = ['5101', '5103', '5105', '5106', '5110', '5111', '5112'];

describe('Lawmatics list_prospects: one filter with each of the ten operators, over REST and MCP', () => {
  it.each([
    ['=', 'status', 'lost', ['5105', '5110']],
    ['!=', 'status', 'pnc', ['5101', '5104', '5105', '5106', '5107', '5108', '5110', '5111']],
    ['<=', 'estimated_value_cents', '500000', ['5103', '5104', '5108', '5113']],
    ['<', 'estimated_value_cents', '500000', ['5103', '5104', '5113']],
    ['>=', 'estimated_value_cents', '3000000', ['5101', '5106', '5111', '5114']],
    ['>', 'estimated_value_cents', '3000000', ['5101', '5111', '5114']],
    ['>', 'created_at', '2024-09-30', ['5102', '5103', '5112', '5113', '5114']],
    ['like', 'case_title', '%custody%', ['5102', '5107']],
    ['like', 'case_title', '%Custody%', []],
    ['ilike', 'email', '%@EXAMPLE.COM', ['5101', '5104', '5106', '5107']],
    ['ilike', 'case_title', '%TRUST%', ['5103']],
  ])('%s on %s %s', async (operator, field, value, expected) => {
    const page = await listProspects({ filter_by: field, filter_on: value, filter_with: operator });
    expect(sortedIds(page)).toEqual(expected);
    expect(page.meta.total_entries).toBe(expected.length);
  });

  it('null and not_null need no value, and split the matters between them', async () => {
    const without = await listProspects({ filter_by: 'sub_status', filter_with: 'null' });
    const withOne = await listProspects({ filter_by: 'sub_status', filter_with: 'not_null' });
    expect(sortedIds(withOne)).toEqual(WITH_SUB_STATUS);
    expect(sortedIds(without)).toEqual(ALL.filter((id) => !WITH_SUB_STATUS.includes(id)));
  });

  it('filters on a related record by its id field', async () => {
    const personalInjury = await listProspects({ filter_by: 'practice_area_id', filter_on: '61' });
    expect(sortedIds(personalInjury)).toEqual(['5101', '5110', '5112', '5114']);
  });
});

describe('Lawmatics list_prospects: sorting and paging', () => {
  it('sorts ascending and descending, newest id first by default', async () => {
    expect(ids(await listProspects({ sort_by: 'created_at', sort_order: 'asc' }))).toEqual(BY_CREATED);
    expect(ids(await listProspects({ sort_by: 'created_at', sort_order: 'desc' }))).toEqual([...BY_CREATED].reverse());
    expect(ids(await listProspects({}))).toEqual([...ALL].reverse());
  });

  it('pages from "1" to meta.total_pages, the same pages over both protocols, every matter once', async () => {
    // 37 more inquiries: 51 matters, three pages of at most 25.
    for (let i = 1; i <= 37; i++) {
      const created = await gateway.rest('POST', `${API}/prospects`, {
        body: { first_name: 'Lead', last_name: `Number ${i}`, email: `lead${i}@example.com`, practice_area_id: '66' },
      });
      expect(created.status).toBe(200);
    }
    const first = await listProspects({ page: '1', sort_by: 'id', sort_order: 'asc' });
    expect(first.meta).toEqual({ total_pages: 3, limit_per_page: 25, total_entries: 51 });
    const seen: string[] = [];
    for (let page = 1; page <= first.meta.total_pages; page++) {
      const body = await listProspects({ page: String(page), sort_by: 'id', sort_order: 'asc' });
      expect(body.data.length).toBe(page < first.meta.total_pages ? 25 : 1);
      seen.push(...ids(body));
    }
    expect(seen).toHaveLength(51);
    expect(new Set(seen).size).toBe(51);
    expect(seen.slice(0, 14)).toEqual(ALL);
    expect(ids(await listProspects({ page: '4', sort_by: 'id', sort_order: 'asc' }))).toEqual([]);
  });
});

describe('Lawmatics finds, create and get', () => {
  it.each([
    ['find_prospect_by_phone', 'find-by-phone', '(415) 555-0113'],
    ['find_prospect_by_phone', 'find-by-phone', '4155550113'],
    ['find_prospect_by_email', 'find-by-email', 'lucia.moreno@example.com'],
    ['find_prospect_by_name', 'find-by-name', 'Lucia Moreno'],
  ])('%s %s', async (method, segment, value) => {
    const key = method.endsWith('phone') ? 'phone_number' : method.endsWith('email') ? 'email_address' : 'name';
    const found = await succeedsBoth<{ data: Record_ }>(
      { method: 'GET', path: `${API}/prospects/${segment}/${encodeURIComponent(value)}` },
      method,
      { [key]: value },
    );
    expect(found.data).toMatchObject({ id: '5101', type: 'prospect', attributes: { first_name: 'Lucia', last_name: 'Moreno' } });
  });

  it('creates a prospect over MCP and over REST, and each reads back whole the other way', async () => {
    const inquiry = {
      first_name: 'Luis',
      last_name: 'Ortega',
      email: 'luis.ortega@example.com',
      phone: '(415) 555-0188',
      case_title: 'Ortega v. Bayfront Rideshare',
      practice_area_id: '61',
    };
    const viaMcp = await mcp('create_prospect', inquiry);
    expect(viaMcp.isError).toBe(false);
    const mcpId = (viaMcp.body as { data: Record_ }).data.id;
    const viaRest = await gateway.rest('POST', `${API}/prospects`, { body: { ...inquiry, first_name: 'Lucia' } });
    expect(viaRest.status).toBe(200);
    const restId = (viaRest.body as { data: Record_ }).data.id;
    expect(new Set([mcpId, restId, ...ALL]).size).toBe(16);
    for (const [id, first] of [
      [mcpId, 'Luis'],
      [restId, 'Lucia'],
    ] as const) {
      const got = await succeedsBoth<{ data: Record_ }>({ method: 'GET', path: `${API}/prospects/${id}` }, 'get_prospect', { id });
      expect(got.data.attributes).toMatchObject({ first_name: first, case_title: inquiry.case_title, status: 'pnc' });
      expect(got.data.relationships?.practice_area?.data).toEqual({ id: '61', type: 'practice_area' });
    }
    const found = await succeedsBoth<{ data: Record_ }>(
      { method: 'GET', path: `${API}/prospects/find-by-email/${encodeURIComponent(inquiry.email)}` },
      'find_prospect_by_email',
      { email_address: inquiry.email },
    );
    expect(found.data.id).toBe(mcpId);
  });
});

describe('Lawmatics failures, the same over REST and MCP', () => {
  const errorKeys = (body: unknown) => Object.keys(body as object).sort();

  it('an unknown id is a 404 not_found with the error body and nothing else', async () => {
    const res = await failsBoth({ method: 'GET', path: `${API}/prospects/999999` }, 'get_prospect', { id: '999999' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: true, code: 'not_found', message: expect.any(String) });
    expect(errorKeys(res.body)).toEqual(['code', 'error', 'message']);
  });

  it('an upstream 401 is a 502 upstream_unauthorized (the stored connection was refused, not the caller)', async () => {
    const res = await failsBoth({ method: 'GET', path: `${API}/prospects` }, 'list_prospects', {}, () =>
      control('/__sandbox/fail-next', { status: 401 }),
    );
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: true, code: 'upstream_unauthorized', message: expect.any(String) });
    expect(errorKeys(res.body)).toEqual(['code', 'error', 'message']);
    expect((res.body as { message: string }).message).not.toContain(gateway.sandboxes.lawmatics?.token as string);
    expect((await gateway.rest('GET', `${API}/prospects`)).status).toBe(200); // one failure, used up
  });

  it('a bad operator is a 400 bad_request before any upstream call', async () => {
    // A queued failure would fail the next request that reaches the sandbox: it is still queued after both refusals.
    expect((await control('/__sandbox/fail-next', { status: 500 })).pending).toBe(1);
    const params = { filter_by: 'status', filter_on: 'lost', filter_with: '~' };
    const res = await failsBoth({ method: 'GET', path: `${API}/prospects${query(params)}` }, 'list_prospects', params);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: true, code: 'bad_request', message: expect.stringContaining('filter_with') });
    expect((await control('/__sandbox/fail-next', { status: 500 })).pending).toBe(2);
    // The first valid calls use them up, one each; then the sandbox answers again.
    expect((await gateway.rest('GET', `${API}/prospects`)).status).toBe(502);
    expect((await mcp('list_prospects', {})).body).toMatchObject({ code: 'upstream_error' });
    expect((await gateway.rest('GET', `${API}/prospects`)).status).toBe(200);
  });
});
