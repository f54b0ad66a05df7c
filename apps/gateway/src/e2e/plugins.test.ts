import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/** Each plugin through a real gateway and its sandbox, over REST and MCP, for what users of that integration notice. */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

async function control(service: string, path: string, body: unknown = {}): Promise<void> {
  const sandbox = gateway.sandboxes[service];
  if (!sandbox) throw new Error(`no ${service} sandbox`);
  const response = await fetch(`${new URL(sandbox.url).origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function mcp(service: string, method: string, params: Record<string, unknown>) {
  const result = await client.callTool({ name: `call_${service}`, arguments: { method, params } });
  return { isError: Boolean(result.isError), body: result.structuredContent as Record<string, unknown> };
}

/** The same failure over both protocols: REST status + body, and an MCP isError result with the same body. */
async function sameFailure(
  service: string,
  rest: { method: string; path: string; body?: unknown },
  call: { method: string; params: Record<string, unknown> },
  arm?: () => Promise<void>,
) {
  await arm?.();
  const viaRest = await gateway.rest(rest.method, rest.path, rest.body === undefined ? {} : { body: rest.body });
  await arm?.();
  const viaMcp = await mcp(service, call.method, call.params);
  expect(viaMcp.isError).toBe(true);
  expect(viaMcp.body).toEqual(viaRest.body);
  return viaRest;
}

describe('Notion: an upstream error per HTTP method, the same over REST and MCP', () => {
  const missing = '00000000-0000-4000-8000-000000000000';
  beforeEach(() => control('notion', '/__sandbox/reset'));

  it('GET a page that does not exist → 404', async () => {
    const res = await sameFailure(
      'notion',
      { method: 'GET', path: `/api/v1/notion/pages/${missing}` },
      { method: 'get_page', params: { page_id: missing } },
    );
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: true, code: 'not_found', message: expect.stringContaining('object_not_found') });
  });

  it('POST refused by Notion’s validation → 400 with Notion’s message', async () => {
    const arm = () =>
      control('notion', '/__sandbox/fail-next', { status: 400, code: 'validation_error', message: 'body.parent should be defined' });
    const res = await sameFailure(
      'notion',
      { method: 'POST', path: '/api/v1/notion/search', body: { query: 'x' } },
      { method: 'search', params: { query: 'x' } },
      arm,
    );
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toContain('body.parent should be defined');
  });

  it('PATCH a page that does not exist → 404', async () => {
    const res = await sameFailure(
      'notion',
      { method: 'PATCH', path: `/api/v1/notion/pages/${missing}`, body: { archived: true } },
      { method: 'update_page', params: { page_id: missing, archived: true } },
    );
    expect(res.status).toBe(404);
  });

  it('DELETE a block that does not exist → 404; rate limiting → 429 with Retry-After', async () => {
    const res = await sameFailure(
      'notion',
      { method: 'DELETE', path: `/api/v1/notion/blocks/${missing}` },
      { method: 'delete_block', params: { block_id: missing } },
    );
    expect(res.status).toBe(404);
    await control('notion', '/__sandbox/fail-next', { status: 429, retry_after: 30 });
    const limited = await gateway.rest('GET', '/api/v1/notion/users');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
  });
});

describe('Slack', () => {
  beforeEach(() => control('slack', '/__sandbox/reset'));

  it('pages through #general with cursors, over REST and MCP alike', async () => {
    const viaRest: unknown[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const res = await gateway.rest(
        'GET',
        `/api/v1/slack/channels/C05GENERAL1/messages?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      const body = res.body as { messages: Array<{ ts: string }>; response_metadata: { next_cursor: string } };
      viaRest.push(...body.messages.map((m) => m.ts));
      cursor = body.response_metadata.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(viaRest).size).toBe(viaRest.length);
    const viaMcp: unknown[] = [];
    cursor = '';
    do {
      const { body } = await mcp('slack', 'read_messages', { channel: 'C05GENERAL1', limit: 20, ...(cursor ? { cursor } : {}) });
      viaMcp.push(...(body.messages as Array<{ ts: string }>).map((m) => m.ts));
      cursor = (body.response_metadata as { next_cursor: string }).next_cursor;
    } while (cursor);
    expect(viaMcp).toEqual(viaRest);
  });

  it('uploads a binary file whose bytes arrive intact', async () => {
    const bytes = Buffer.from([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x00,
      0xff,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...Array.from({ length: 3000 }, (_, i) => (i * 37) % 256),
    ]);
    const res = await gateway.rest('POST', '/api/v1/slack/files', {
      body: { channel_id: 'C05GENERAL1', filename: 'chart.png', content_base64: bytes.toString('base64'), initial_comment: 'Weekly chart' },
    });
    expect(res.status).toBe(200);
    const file = (res.body as { ok: boolean; files: Array<{ id: string }> }).files[0];
    const stored = await fetch(`${new URL(gateway.sandboxes.slack?.url as string).origin}/__sandbox/files/${file?.id}`);
    expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
    const both = await gateway.rest('POST', '/api/v1/slack/files', {
      body: { channel_id: 'C05GENERAL1', content: 'a', content_base64: 'YQ==' },
    });
    expect(both.status).toBe(400);
  });

  it.each([
    ['channel_not_found', 404, 'not_found'],
    ['invalid_auth', 502, 'upstream_unauthorized'],
    ['invalid_arguments', 400, 'bad_request'],
    ['name_taken', 409, 'conflict'],
    ['fatal_error', 502, 'upstream_error'],
  ])('maps ok:false %s to %i over REST and MCP alike', async (slackError, status, code) => {
    const arm = () => control('slack', '/__sandbox/fail-next', { code: slackError });
    const res = await sameFailure('slack', { method: 'GET', path: '/api/v1/slack/users' }, { method: 'list_users', params: {} }, arm);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, message: expect.stringContaining(slackError) });
  });

  it('maps HTTP 429 to 429 with Retry-After', async () => {
    await control('slack', '/__sandbox/fail-next', { status: 429, retry_after: 12 });
    const res = await gateway.rest('GET', '/api/v1/slack/users');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('12');
  });
});

describe('CallRail', () => {
  const account = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';

  it('pages through calls over REST, and MCP returns the same pages', async () => {
    const ids: string[] = [];
    let page = 1;
    let totalPages = 1;
    let totalRecords = 0;
    do {
      const res = await gateway.rest('GET', `/api/v1/callrail/accounts/${account}/calls?date_range=all_time&per_page=10&page=${page}`);
      const body = res.body as { calls: Array<{ id: string }>; total_pages: number; total_records: number };
      ids.push(...body.calls.map((c) => c.id));
      totalPages = body.total_pages;
      totalRecords = body.total_records;
      if (page === 2) {
        const viaMcp = await mcp('callrail', 'list_calls', { account_id: account, date_range: 'all_time', per_page: 10, page: 2 });
        expect(viaMcp.body).toEqual(body);
      }
      page++;
    } while (page <= totalPages);
    expect(totalPages).toBeGreaterThan(1);
    expect(ids).toHaveLength(totalRecords);
    expect(new Set(ids).size).toBe(totalRecords);
  });

  it('summarises calls grouped by source and by campaign, both adding up to the calls listed', async () => {
    const listed = await gateway.rest('GET', `/api/v1/callrail/accounts/${account}/calls?date_range=all_time&per_page=1`);
    const total = (listed.body as { total_records: number }).total_records;
    for (const groupBy of ['source', 'campaign']) {
      const res = await gateway.rest(
        'GET',
        `/api/v1/callrail/accounts/${account}/calls/summary?date_range=all_time&group_by=${groupBy}&fields=total_calls`,
      );
      expect(res.status).toBe(200);
      const body = res.body as {
        grouped_by: string;
        total_results: { total_calls: number };
        grouped_results: Array<{ total_calls: number }>;
      };
      expect(body.grouped_by).toBe(groupBy);
      expect(body.total_results.total_calls).toBe(total);
      expect(body.grouped_results.length).toBeGreaterThan(1);
      expect(body.grouped_results.reduce((sum, g) => sum + g.total_calls, 0)).toBe(total);
    }
  });

  it.each([
    ['date_range', 'calls?date_range=last_decade', 'all_time'],
    ['call_type', 'calls?call_type=spam', 'voicemails'],
    ['answer_status', 'calls?answer_status=maybe', 'voicemail'],
    ['direction', 'calls?direction=sideways', 'outbound'],
    ['device', 'calls?device=tablet', 'mobile'],
    ['lead_status', 'calls?lead_status=hot', 'not_scored'],
    ['device', 'calls/summary?device=watch', 'tablet'],
    ['lead_status', 'calls/summary?lead_status=not_scored', 'previously_marked_good_lead'],
    ['interval', 'calls/timeseries?interval=year', 'month'],
    ['status', 'tags?status=paused', 'disabled'],
    ['tag_level', 'tags?tag_level=global', 'company'],
    ['frequency', 'summary-emails?frequency=hourly', 'monthly'],
  ])('rejects a bad %s (%s) with a 400 naming the field and the allowed values', async (field, query, allowed) => {
    const res = await gateway.rest('GET', `/api/v1/callrail/accounts/${account}/${query}`);
    expect(res.status).toBe(400);
    const message = (res.body as { message: string }).message;
    expect(message).toContain(`params.${field}`);
    expect(message).toContain(allowed);
  });
});
