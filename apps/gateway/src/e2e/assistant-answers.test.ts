import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startSandboxedGateway, startTestGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/** What an assistant gets back over MCP from the sandboxes: filters that filter, fields it chooses, answers that fit. */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

async function call<T>(service: string, method: string, params: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name: `call_${service}`, arguments: { method, params } });
  if (result.isError) throw new Error(`${service}.${method}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

interface Activity {
  id: number;
  date: string;
  billed: boolean;
  non_billable: boolean;
  matter: { id: number } | null;
}

describe('Clio list_activities filters', () => {
  const fields = 'id,date,billed,non_billable,matter{id}';

  it('status unbilled and billed each return only their own time entries of the matter', async () => {
    const all = (await call<{ data: Activity[] }>('clio', 'list_activities', { fields, limit: 200 })).data;
    // a matter with time of both kinds
    const matterId = all.find((a) => a.matter && all.some((b) => b.matter?.id === a.matter?.id && b.billed !== a.billed))?.matter?.id;
    expect(matterId, 'a sandbox matter with billed and unbilled time').toBeDefined();
    const ofMatter = all.filter((a) => a.matter?.id === matterId);
    const list = async (status: string) =>
      (await call<{ data: Activity[] }>('clio', 'list_activities', { matter_id: String(matterId), status, fields })).data;
    const unbilled = await list('unbilled');
    const billed = await list('billed');
    expect(unbilled.length).toBeGreaterThan(0);
    expect(billed.length).toBeGreaterThan(0);
    expect(unbilled.every((a) => !a.billed && !a.non_billable && a.matter?.id === matterId)).toBe(true);
    expect(billed.every((a) => a.billed && a.matter?.id === matterId)).toBe(true);
    expect(billed.map((a) => a.id).sort()).toEqual(
      ofMatter
        .filter((a) => a.billed)
        .map((a) => a.id)
        .sort(),
    );
    expect(unbilled.map((a) => a.id).sort()).toEqual(
      ofMatter
        .filter((a) => !a.billed && !a.non_billable)
        .map((a) => a.id)
        .sort(),
    );
  });

  it('start_date and end_date bound the dates', async () => {
    const all = (await call<{ data: Activity[] }>('clio', 'list_activities', { fields, limit: 200 })).data;
    const dates = [...new Set(all.map((a) => a.date))].sort();
    const from = dates[1] as string;
    const to = dates[dates.length - 2] as string;
    const within = (await call<{ data: Activity[] }>('clio', 'list_activities', { start_date: from, end_date: to, fields, limit: 200 }))
      .data;
    expect(within.length).toBeGreaterThan(0);
    expect(within.length).toBeLessThan(all.length);
    expect(within.every((a) => a.date >= from && a.date <= to)).toBe(true);
    expect(within.length).toBe(all.filter((a) => a.date >= from && a.date <= to).length);
  });
});

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('field selection, described and working against the sandboxes', () => {
  /** The parameters' lines of the compact description an assistant reads first. */
  async function describedParams(service: string, method: string): Promise<Record<string, string>> {
    const result = await client.callTool({ name: 'describe_method', arguments: { service, method } });
    return (result.structuredContent as { params: Record<string, string> }).params;
  }

  it('QuickBooks find_invoices select: only the columns asked for (and what QuickBooks always sends)', async () => {
    expect((await describedParams('quickbooks', 'find_invoices')).select).toContain('SELECT columns');
    type Answer = { QueryResponse: { Invoice: Array<Record<string, unknown>> } };
    const whole = await call<Answer>('quickbooks', 'find_invoices', { where: "Balance > '0'", limit: '20' });
    const slim = await call<Answer>('quickbooks', 'find_invoices', {
      where: "Balance > '0'",
      limit: '20',
      select: 'Id,DocNumber,Balance,DueDate',
    });
    expect(slim.QueryResponse.Invoice.map((i) => i.Id)).toEqual(whole.QueryResponse.Invoice.map((i) => i.Id));
    for (const invoice of slim.QueryResponse.Invoice) {
      expect(Object.keys(invoice).sort()).toEqual(expect.arrayContaining(['Balance', 'DocNumber', 'Id']));
      for (const key of Object.keys(invoice))
        expect(['Id', 'DocNumber', 'Balance', 'DueDate', 'domain', 'sparse', 'SyncToken']).toContain(key);
    }
    expect(size(slim)).toBeLessThan(size(whole) / 2);
    const bad = await client.callTool({ name: 'call_quickbooks', arguments: { method: 'find_invoices', params: { select: 'Id; DROP' } } });
    expect(bad).toMatchObject({ isError: true, structuredContent: { code: 'bad_request' } });
  });

  it('Clio list_matters fields: only the fields named', async () => {
    expect((await describedParams('clio', 'list_matters')).fields).toContain('comma-separated');
    const { data } = await call<{ data: Array<Record<string, unknown>> }>('clio', 'list_matters', { fields: 'id,display_number,status' });
    expect(data.length).toBeGreaterThan(0);
    for (const matter of data) expect(Object.keys(matter).sort()).toEqual(['display_number', 'id', 'status']);
  });

  it('Lawmatics list_prospects fields: only the attributes named', async () => {
    expect((await describedParams('lawmatics', 'list_prospects')).fields).toContain('comma-separated');
    type Answer = { data: Array<{ id: string; attributes: Record<string, unknown> }> };
    const light = await call<Answer>('lawmatics', 'list_prospects', {});
    const slim = await call<Answer>('lawmatics', 'list_prospects', { fields: 'first_name,email' });
    expect(slim.data.map((p) => p.id)).toEqual(light.data.map((p) => p.id));
    for (const prospect of slim.data) expect(Object.keys(prospect.attributes).sort()).toEqual(['email', 'first_name']);
  });
});

describe('Lawmatics list_prospects', () => {
  it('shows each prospect’s practice area, as its description promises, by a name list_practice_areas knows', async () => {
    const described = await client.callTool({ name: 'describe_method', arguments: { service: 'lawmatics', method: 'list_prospects' } });
    expect(JSON.stringify(described.structuredContent)).toContain('practice area');
    type Ref = { data: { id: string; type: string } | null };
    const { data } = await call<{ data: Array<{ id: string; relationships?: { practice_area?: Ref } }> }>(
      'lawmatics',
      'list_prospects',
      {},
    );
    const areas = await call<{ data: Array<{ id: string; attributes: { name: string } }> }>('lawmatics', 'list_practice_areas', {});
    const known = new Set(areas.data.map((a) => a.id));
    expect(data.length).toBeGreaterThan(0);
    for (const prospect of data) {
      const area = prospect.relationships?.practice_area?.data;
      expect(area, `prospect ${prospect.id}`).toMatchObject({ type: 'practice_area' });
      expect(known.has(area?.id as string), `prospect ${prospect.id}`).toBe(true);
    }
  });
});

describe('the MCP result budget (32 KiB by default)', () => {
  it('no answer of the sandboxes’ largest reads exceeds it without saying so', async () => {
    const budget = 32 * 1024;
    let shortened = 0;
    for (const [service, method, params] of [
      ['quickbooks', 'find_invoices', {}],
      ['quickbooks', 'find_customers', {}],
      ['notion', 'search', {}],
      ['clio', 'list_activities', { fields: 'id,date,note,total,matter{id,display_number}', limit: 200 }],
      ['lawmatics', 'list_prospects', { fields: 'all' }],
    ] as const) {
      const result = await client.callTool({ name: `call_${service}`, arguments: { method, params } });
      expect(result.isError, `${service}.${method}`).toBeFalsy();
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
      expect(Buffer.byteLength(text), `${service}.${method}`).toBeLessThanOrEqual(budget);
      const body = JSON.parse(text) as { portico_truncated?: { original_bytes: number; next: string } };
      expect(result.structuredContent).toEqual(body);
      if (body.portico_truncated) {
        shortened++;
        expect(body.portico_truncated.original_bytes).toBeGreaterThan(budget);
        expect(body.portico_truncated.next).toMatch(/per page|narrow/);
      }
    }
    // the unfiltered invoice list and the empty Notion search were 73 and 68 KB when the issue was filed
    expect(shortened).toBeGreaterThan(0);
  });

  it('a smaller configured budget shortens QuickBooks invoices to valid JSON that names the records left out and the next step', async () => {
    const small = await startTestGateway({ sandbox: true, env: { PORTICO_PLUGINS: 'accounting', PORTICO_MCP_RESULT_BUDGET: '4096' } });
    const via = await connectMcp(small.url, small.key);
    try {
      const result = await via.callTool({ name: 'call_quickbooks', arguments: { method: 'find_invoices', params: {} } });
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      const body = JSON.parse(text) as {
        QueryResponse: { Invoice: unknown[]; maxResults: number };
        portico_truncated: { arrays: Array<{ path: string; kept: number; total: number }>; next: string };
      };
      const [cut] = body.portico_truncated.arrays;
      expect(cut).toMatchObject({ path: 'QueryResponse.Invoice', kept: body.QueryResponse.Invoice.length });
      expect(cut?.total).toBe(body.QueryResponse.maxResults);
      expect(body.portico_truncated.next).toContain(`asking for ${cut?.kept} per page (limit)`);
      expect(body.portico_truncated.next).toContain('select');
      // REST is not shortened: the budget is the MCP door's
      await small.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'quickbooks', { restEnabled: true });
      const rest = await small.rest('GET', '/api/v1/quickbooks/invoices');
      expect((rest.body as { QueryResponse: { Invoice: unknown[] } }).QueryResponse.Invoice.length).toBe(cut?.total);
    } finally {
      await via.close();
      await small.close();
    }
  });
});

describe('the connections overview', () => {
  interface Overview {
    connections: Array<{
      service: string;
      status: string;
      account?: Record<string, unknown>;
      token?: { expires_at: string | null; expired: boolean };
      doors: { mcp: boolean; rest: boolean };
      next?: string;
    }>;
  }

  it('list_connections and GET /api/v1/connections list the services of the key, connected or not, with their accounts', async () => {
    const result = await client.callTool({ name: 'list_connections', arguments: {} });
    expect(result.isError).toBeFalsy();
    const overview = result.structuredContent as unknown as Overview;
    expect(overview.connections.map((c) => c.service).sort()).toEqual(Object.keys(gateway.sandboxes).sort());
    for (const connection of overview.connections) {
      expect(connection.status, connection.service).toBe('connected');
      expect(connection.token?.expired).toBe(false);
    }
    // the QuickBooks company the connection acts for, as stored at connect time
    const quickbooks = overview.connections.find((c) => c.service === 'quickbooks');
    expect(Object.keys(quickbooks?.account ?? {}).length).toBeGreaterThan(0);
    expect(JSON.stringify(overview)).not.toMatch(/token"\s*:\s*"|secret|access_token|refresh/i);
    const rest = await gateway.rest('GET', '/api/v1/connections');
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(overview);
    expect((await gateway.rest('GET', '/api/v1/connections', { key: null })).status).toBe(401);
  });

  it('shows a service the key may use but that is not connected, with the next step; a scoped key sees only its services', async () => {
    const engine = gateway.runtime.engine;
    const scoped = await engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'chat and calls',
      scopes: { admin: false, services: ['slack', 'callrail'], readOnly: true },
    });
    await engine.disconnect(DEFAULT_WORKSPACE, 'callrail');
    const via = await connectMcp(gateway.url, scoped.key);
    try {
      const overview = (await via.callTool({ name: 'list_connections', arguments: {} })).structuredContent as unknown as Overview;
      expect(overview.connections.map((c) => [c.service, c.status])).toEqual(
        [
          ['slack', 'connected'],
          ['callrail', 'not_connected'],
        ].sort((a, b) => Object.keys(gateway.sandboxes).indexOf(a[0] as string) - Object.keys(gateway.sandboxes).indexOf(b[0] as string)),
      );
      expect(overview.connections.find((c) => c.service === 'callrail')?.next).toContain('connect callrail');
    } finally {
      await via.close();
    }
  });

  it('keeps tools/list for a full key under 8 KB with the tool added', async () => {
    // every service connected (a test above disconnected CallRail): each connected service adds its call_ tool
    const callrail = gateway.sandboxes.callrail as { token: string };
    await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'callrail', callrail.token);
    const { tools } = await client.listTools();
    expect(tools.filter((t) => t.name.startsWith('call_'))).toHaveLength(6);
    expect(tools.map((t) => t.name)).toContain('list_connections');
    expect(tools.find((t) => t.name === 'list_connections')?.annotations?.readOnlyHint).toBe(true);
    // the payload as it goes over the wire, as bench/measure/discovery.mjs measures it
    const response = await fetch(`${gateway.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const payload = Buffer.byteLength(await response.text());
    console.log(`tools/list payload, full key, six services: ${payload} bytes`);
    expect(payload).toBeLessThan(8192);
  });
});
