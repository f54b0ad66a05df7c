import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuditRecord, DEFAULT_WORKSPACE, SqliteStore } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.js';
import { type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';

// The audit log over the admin API (GET /api/admin/audit) and the CLI (portico audit): filters, cursor paging in a
// stable order, and a 400 with the error body for anything it does not understand.

let upstream: StubUpstream;
let gateway: TestGateway;

const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
const record = (operation: string, overrides: Partial<AuditRecord> = {}): AuditRecord => ({
  at: at(1),
  workspaceId: DEFAULT_WORKSPACE,
  keyId: 'key_a',
  service: 'example',
  operation,
  protocol: 'rest',
  status: 200,
  code: null,
  durationMs: 3,
  clientAddress: null,
  ...overrides,
});

/** Back-dated records written straight to the store (day 1 to 5 of March 2026), oldest first. */
const SEEDED = [
  record('r1', { at: at(1) }),
  record('r2', { at: at(2), protocol: 'mcp', status: 429, code: 'rate_limited', keyId: 'key_b', clientAddress: '203.0.113.7' }),
  record('r3', { at: at(3), service: 'other', status: 404, code: 'not_found' }),
  record('r4', { at: at(4), protocol: 'mcp', status: 502, code: 'upstream_error' }),
  record('r5', { at: at(5), keyId: 'key_b' }),
];

beforeAll(async () => {
  upstream = await startStubUpstream((_method, url) =>
    url.pathname === '/items' ? { status: 200, body: { items: [] } } : { status: 404, body: { message: 'no such item' } },
  );
  // retention off: the seeded records are back-dated
  gateway = await startTestGateway({
    plugins: [examplePlugin],
    env: { PORTICO_EXAMPLE_BASE_URL: upstream.url, PORTICO_AUDIT_RETENTION_DAYS: '0' },
  });
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
  await gateway.runtime.store.appendAudit(SEEDED);
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

type Page = { records: Array<AuditRecord & { id: string }>; next_cursor: string | null };

async function audit(query: string): Promise<Page> {
  const res = await gateway.rest('GET', `/api/admin/audit${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Page;
}

const operations = async (query: string) => (await audit(query)).records.map((r) => r.operation);
/** The seeded records only (they are in March 2026; calls made by the tests are later). */
const seeded = (query: string) => operations(`?until=2026-04-01${query ? `&${query}` : ''}`);

describe('GET /api/admin/audit', () => {
  it('lists the calls just made, newest first, with ids and a cursor field', async () => {
    await gateway.rest('GET', '/api/v1/example/items');
    await gateway.rest('GET', '/api/v1/example/items/missing');
    const page = await audit('?limit=2');
    expect(page.records.map((r) => [r.operation, r.status, r.code])).toEqual([
      ['get_item', 404, 'not_found'],
      ['list_items', 200, null],
    ]);
    expect(page.records[0]).toMatchObject({
      service: 'example',
      protocol: 'rest',
      keyId: expect.any(String),
      id: expect.stringMatching(/^\d+$/),
    });
    expect(page.next_cursor).toBe(page.records[1]?.id);
  });

  it('filters by service, operation, protocol, status or status class, code, key and time', async () => {
    expect(await seeded('')).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
    expect(await seeded('service=other')).toEqual(['r3']);
    expect(await seeded('operation=r2')).toEqual(['r2']);
    expect(await seeded('protocol=mcp')).toEqual(['r4', 'r2']);
    expect(await seeded('status=429')).toEqual(['r2']);
    expect(await seeded('status=4xx')).toEqual(['r3', 'r2']);
    expect(await seeded('status=5XX')).toEqual(['r4']);
    expect(await seeded('code=upstream_error')).toEqual(['r4']);
    expect(await seeded('key_id=key_b')).toEqual(['r5', 'r2']);
    expect(await seeded('since=2026-03-03')).toEqual(['r5', 'r4', 'r3']);
    expect(await operations('?since=2026-03-02T10:00:00Z&until=2026-03-04T10:00:00Z')).toEqual(['r3', 'r2']);
    // a time with an offset means the same instant
    expect(await operations('?since=2026-03-02T12:00:00%2B02:00&until=2026-03-03T10:00:00.001Z')).toEqual(['r3', 'r2']);
    expect(await seeded('protocol=rest&key_id=key_a&status=2xx')).toEqual(['r1']);
    expect(await seeded('service=nosuch')).toEqual([]);
  });

  it('pages with next_cursor in a stable order: each record once, also while new ones are written', async () => {
    const seen: string[] = [];
    let query = '?until=2026-04-01&limit=2';
    for (let page = 0; page < 5; page++) {
      const result = await audit(query);
      seen.push(...result.records.map((r) => r.operation));
      if (page === 0) await gateway.rest('GET', '/api/v1/example/items'); // a new record between two pages
      if (!result.next_cursor) break;
      query = `?until=2026-04-01&limit=2&cursor=${result.next_cursor}`;
    }
    expect(seen).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
    // the cursor with a filter
    const first = await audit('?key_id=key_b&limit=1');
    expect(first.records.map((r) => r.operation)).toEqual(['r5']);
    expect((await audit(`?key_id=key_b&limit=1&cursor=${first.next_cursor}`)).records.map((r) => r.operation)).toEqual(['r2']);
  });

  it.each([
    ['an unknown filter', '?servce=example', 'unknown filter "servce"'],
    ['a filter given twice', '?service=a&service=b', 'service may be given once'],
    ['a bad protocol', '?protocol=ftp', 'protocol must be one of'],
    ['a bad status', '?status=42', 'status must be'],
    ['a bad status class', '?status=6xx', 'status must be'],
    ['an unknown code', '?code=teapot', 'code must be an error code'],
    ['a time that is not one', '?since=yesterday', 'since must be a date'],
    ['a time without its zone', '?until=2026-03-01T10:00:00', 'until must be a date'],
    ['an impossible date', '?since=2026-02-30T25:00:00Z', 'since must be a date'],
    ['since after until', '?since=2026-03-05&until=2026-03-01', 'since must be before until'],
    ['a bad cursor', '?cursor=abc', 'cursor must be'],
    ['a negative cursor', '?cursor=-5', 'cursor must be'],
    ['a limit of 0', '?limit=0', 'limit must be a whole number from 1 to 1000'],
    ['a limit over 1000', '?limit=1001', 'limit must be'],
    ['a limit that is not a number', '?limit=ten', 'limit must be'],
    ['an empty service', '?service=', 'service must be 1 to 200 printable characters'],
  ])('refuses %s with 400 and the error body', async (_name, query, says) => {
    const res = await gateway.rest('GET', `/api/admin/audit${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: true, code: 'bad_request', message: expect.stringContaining(says) });
  });

  it('names every problem of a query at once, and is for admin keys only', async () => {
    const res = await gateway.rest('GET', '/api/admin/audit?limit=0&status=x');
    expect((res.body as { message: string }).message).toMatch(/status must be.*; limit must be/);
    const { key } = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'caller',
      scopes: { admin: false, services: '*', readOnly: false },
    });
    const refused = await gateway.rest('GET', '/api/admin/audit?service=example', { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: true, code: 'forbidden', message: expect.any(String) });
  });
});

describe('portico audit', () => {
  function run(argv: string[], env: Record<string, string>) {
    const out: string[] = [];
    const err: string[] = [];
    return main(
      argv,
      { ...env, PORTICO_LOG_LEVEL: 'silent', PORTICO_PLUGINS: 'notes' },
      { out: (l) => out.push(l), err: (l) => err.push(l), stdin: () => '' },
    ).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
  }

  it('lists with the same filters and paging, as a table or JSON, and refuses bad values', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-audit-cli-'));
    const store = new SqliteStore(join(dataDir, 'portico.db'));
    await store.migrate();
    await store.appendAudit(SEEDED);
    await store.close();
    const env = { PORTICO_DATA_DIR: dataDir };

    const table = await run(['audit', '--status', '4xx'], env);
    expect(table.code).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(/^ID\s+AT\s+PROTOCOL\s+SERVICE\s+OPERATION\s+STATUS\s+CODE\s+MS\s+KEY\s+CLIENT$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[4])).toEqual(['r3', 'r2']);
    expect(lines[2]).toMatch(/2026-03-02T10:00:00\.000Z\s+mcp\s+example\s+r2\s+429\s+rate_limited\s+3\s+key_b\s+203\.0\.113\.7$/);
    expect(lines[1]).toMatch(/\s+key_a\s+-$/); // r3: no address

    const paged = await run(['audit', '--key', 'key_b', '--limit', '1', '--json'], env);
    const page = JSON.parse(paged.out) as Page;
    expect(page.records.map((r) => [r.operation, r.clientAddress])).toEqual([['r5', null]]);
    const next = await run(['audit', '--key', 'key_b', '--limit', '1', '--cursor', String(page.next_cursor)], env);
    expect(next.out).toContain(' r2 ');
    expect(next.out).toMatch(/ 203\.0\.113\.7$/m);
    expect(next.err).toBe('');
    expect((await run(['audit', '--limit', '2'], env)).err).toMatch(/More records: add --cursor \d+/);

    const bad = await run(['audit', '--since', 'yesterday'], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('since must be a date');
    expect((await run(['audit', '--frobnicate'], env)).code).toBe(2);
    expect((await run(['audit', '--help'], env)).out).toContain('Usage: portico audit');
  });
});
