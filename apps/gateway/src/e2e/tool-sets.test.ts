import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, exampleParams, restCallFor } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Tool sets over both doors, with every first-party plugin connected (to a counting stub upstream): a key bound to a
 * set sees exactly the set in tools/list, describe_method, search_methods and the OpenAPI documents, and everything
 * outside it is refused before any upstream request.
 */

/** A law firm's intake desk: twelve operations of four services, named and by pattern. */
const INTAKE_RULES = [
  'clio:list_matters',
  'clio:get_matter',
  'clio:create_matter',
  'clio:list_tasks',
  'clio:list_notes',
  'clio:list_calendar_entries',
  'quickbooks:report_profit_and_loss*',
  'quickbooks:report_aged_receivable*',
  'slack:list_channels',
  'notion:list_databases',
];
const INTAKE = [
  'clio:list_matters',
  'clio:get_matter',
  'clio:create_matter',
  'clio:list_tasks',
  'clio:list_notes',
  'clio:list_calendar_entries',
  'quickbooks:report_profit_and_loss',
  'quickbooks:report_profit_and_loss_detail',
  'quickbooks:report_aged_receivables',
  'quickbooks:report_aged_receivable_detail',
  'slack:list_channels',
  'notion:list_databases',
];
const SERVICES = ['quickbooks', 'callrail', 'slack', 'lawmatics', 'notion', 'clio'];

let upstream: StubUpstream;
let gateway: TestGateway;
let boundKey: string;
let fullKey: string;
let bound: Client;
let full: Client;

beforeAll(async () => {
  upstream = await startStubUpstream(() => ({ status: 200, body: { data: [] } }));
  const env = Object.fromEntries(SERVICES.map((service) => [`PORTICO_${service.toUpperCase()}_BASE_URL`, upstream.url]));
  gateway = await startTestGateway({ env });
  for (const service of SERVICES) {
    await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, service, `token-${service}`, { realm_id: '1', region: 'us' });
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, service, { restEnabled: true });
  }
  const saved = await gateway.rest('PUT', '/api/admin/tool-sets/intake', { body: { name: 'Intake desk', rules: INTAKE_RULES } });
  expect(saved.status).toBe(201);
  expect((saved.body as { operations: string[] }).operations.sort()).toEqual([...INTAKE].sort());
  boundKey = (
    (await gateway.rest('POST', '/api/admin/keys', { body: { name: 'intake-agent', tool_set: 'intake' } })).body as { key: string }
  ).key;
  fullKey = ((await gateway.rest('POST', '/api/admin/keys', { body: { name: 'full-agent' } })).body as { key: string }).key;
  bound = await connectMcp(gateway.url, boundKey);
  full = await connectMcp(gateway.url, fullKey);
});

afterAll(async () => {
  await bound?.close();
  await full?.close();
  await gateway?.close();
  await upstream?.close();
});

/** One JSON-RPC request over plain HTTP: the answer and its size on the wire. */
async function mcpPost(key: string, method: string, params?: unknown): Promise<{ bytes: number; body: { result?: unknown } }> {
  const response = await fetch(`${gateway.url}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
  });
  const text = await response.text();
  return { bytes: Buffer.byteLength(text), body: JSON.parse(text) };
}

const operationOf = (name: string) => {
  const [service, operation] = name.split(':') as [string, string];
  return gateway.runtime.registry.operation(service, operation) ?? expect.fail(`no operation ${name}`);
};

/** The REST call of an operation, with example params. */
async function restCall(key: string, name: string) {
  const operation = operationOf(name);
  const call = restCallFor(operation, exampleParams(operation));
  const query = new URLSearchParams(call.query as Record<string, string>).toString();
  return gateway.rest(call.method, `/api/v1/${operation.service}${call.path}${query ? `?${query}` : ''}`, {
    key,
    ...(call.body ? { body: call.body } : {}),
  });
}

describe('a key bound to a tool set, over MCP', () => {
  it('lists only the call_ tools of the set’s services, each with only the set’s methods, and is smaller', async () => {
    const { tools } = await bound.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'call_clio',
      'call_notion',
      'call_quickbooks',
      'call_slack',
      'describe_method',
      'list_connections',
      'list_events',
      'search_methods',
    ]);
    const listed = tools
      .filter((t) => t.name.startsWith('call_'))
      .flatMap((t) => {
        const method = (t.inputSchema.properties as Record<string, { enum?: string[] }>).method;
        return (method?.enum ?? []).map((name) => `${t.name.slice(5)}:${name}`);
      });
    expect(listed.sort()).toEqual([...INTAKE].sort());
    const describeTool = tools.find((t) => t.name === 'describe_method');
    const describeProperties = (describeTool?.inputSchema.properties ?? {}) as Record<string, { enum?: string[] }>;
    expect((describeProperties.service?.enum ?? []).sort()).toEqual(['clio', 'notion', 'quickbooks', 'slack']);

    const boundList = await mcpPost(boundKey, 'tools/list');
    const fullList = await mcpPost(fullKey, 'tools/list');
    expect((fullList.body.result as { tools: unknown[] }).tools).toHaveLength(4 + SERVICES.length); // describe_method, search_methods, list_connections, list_events
    console.info(`tools/list: ${boundList.bytes} bytes for a key bound to a 12-operation tool set, ${fullList.bytes} bytes for a full key`);
    expect(boundList.bytes).toBeLessThan(fullList.bytes);
  });

  it('describes the set’s operations and refuses to describe any other', async () => {
    const inSet = await bound.callTool({ name: 'describe_method', arguments: { service: 'clio', method: 'get_matter' } });
    expect(inSet.isError).toBeFalsy();
    for (const [service, method] of [
      ['clio', 'delete_matter'],
      ['lawmatics', 'list_contacts'],
    ]) {
      const outside = await bound.callTool({ name: 'describe_method', arguments: { service, method } });
      expect(outside.isError).toBe(true);
      expect(outside.structuredContent).toMatchObject({ error: true, code: 'forbidden' });
    }
  });

  it('searches only what it may call', async () => {
    const search = async (client: Client, query: string) => {
      const result = await client.callTool({ name: 'search_methods', arguments: { query, limit: 25 } });
      return ((result.structuredContent as { results: Array<{ service: string; method: string }> }).results ?? []).map(
        (hit) => `${hit.service}:${hit.method}`,
      );
    };
    expect(await search(full, 'delete a matter')).toContain('clio:delete_matter');
    for (const query of ['delete a matter', 'list contacts', 'profit and loss report', 'matters', 'send a message']) {
      for (const hit of await search(bound, query)) expect(INTAKE).toContain(hit);
    }
    expect(await search(bound, 'profit and loss report')).toContain('quickbooks:report_profit_and_loss');
    const matters = await search(bound, 'matters');
    // a bare noun asks what exists: the set's reads of matters first, its create among the rest
    expect(matters.slice(0, 2).sort()).toEqual(['clio:get_matter', 'clio:list_matters']);
    expect(matters).toContain('clio:create_matter');
    // ranked among what the key may call only: the full key's first hits for the same words are other operations
    expect((await search(full, 'matters')).slice(0, 3)).not.toEqual(matters.slice(0, 3));
  });

  it('refuses every call outside the set before any upstream request; calls inside reach the upstream', async () => {
    const before = upstream.requests.length;
    const refused = [
      ['call_clio', 'delete_matter'],
      ['call_clio', 'list_users'],
      ['call_lawmatics', 'list_contacts'],
      ['call_quickbooks', 'report_balance_sheet'],
    ];
    for (const [name, method] of refused) {
      const result = await bound.callTool({ name: name as string, arguments: { method, params: {} } });
      expect(result.isError, `${name} ${method}`).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: true, code: 'forbidden' });
    }
    expect(upstream.requests.length).toBe(before);
    const allowed = await bound.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } });
    expect(allowed.isError, JSON.stringify(allowed.structuredContent)).toBeFalsy();
    expect(upstream.requests.length).toBe(before + 1);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer token-clio');
  });
});

describe('a key bound to a tool set, over REST', () => {
  it('is refused 403 outside the set, as a disabled protocol is, before any upstream request', async () => {
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'callrail', { restEnabled: false });
    const disabled = await restCall(fullKey, 'callrail:list_calls');
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'callrail', { restEnabled: true });
    expect(disabled.status).toBe(403);
    const before = upstream.requests.length;
    for (const name of ['clio:delete_matter', 'clio:list_users', 'lawmatics:list_contacts', 'quickbooks:report_balance_sheet']) {
      const refused = await restCall(boundKey, name);
      expect(refused.status, name).toBe(disabled.status);
      expect(refused.body).toEqual({ error: true, code: (disabled.body as { code: string }).code, message: expect.any(String) });
    }
    expect(upstream.requests.length).toBe(before);
    const allowed = await restCall(boundKey, 'clio:list_matters');
    expect(allowed.status).toBe(200);
    expect(upstream.requests.length).toBe(before + 1);
    expect((await restCall(fullKey, 'clio:list_users')).status).toBe(200);
  });

  it('documents only the set’s operations in OpenAPI, and no service outside it', async () => {
    const operationIds = (doc: unknown) =>
      Object.values((doc as { paths: Record<string, Record<string, { operationId: string }>> }).paths).flatMap((item) =>
        Object.values(item).map((entry) => entry.operationId),
      );
    const clio = await gateway.rest('GET', '/api/v1/clio/openapi.json', { key: boundKey });
    expect(clio.status).toBe(200);
    expect(operationIds(clio.body).sort()).toEqual(
      INTAKE.filter((n) => n.startsWith('clio:'))
        .map((n) => n.slice(5))
        .sort(),
    );
    const quickbooks = await gateway.rest('GET', '/api/v1/quickbooks/openapi.json', { key: boundKey });
    expect(operationIds(quickbooks.body)).toHaveLength(4);
    expect((await gateway.rest('GET', '/api/v1/lawmatics/openapi.json', { key: boundKey })).status).toBe(403);
    expect(operationIds((await gateway.rest('GET', '/api/v1/clio/openapi.json', { key: fullKey })).body)).toHaveLength(
      gateway.runtime.registry.get('clio')?.operations.size as number,
    );
  });
});

describe('saving and editing a tool set', () => {
  it('refuses a rule that matches nothing, naming it, and keeps the set as it was', async () => {
    for (const rules of [['clio:list_matters', 'clio:lst_*'], ['nosuch'], [{ match: 'clio:delete_matter', read_only: true }]]) {
      const saved = await gateway.rest('PUT', '/api/admin/tool-sets/intake', { body: { rules } });
      expect(saved.status).toBe(400);
      expect(saved.body).toEqual({ error: true, code: 'bad_request', message: expect.stringContaining('matches no operation') });
      const named = rules.at(-1) as string | { match: string };
      expect((saved.body as { message: string }).message).toContain(typeof named === 'string' ? named : named.match);
    }
    for (const body of [{ rules: [] }, { rules: ['Clio:List'] }, { rules: ['clio'], colour: 'red' }, {}]) {
      const saved = await gateway.rest('PUT', '/api/admin/tool-sets/intake', { body });
      expect(saved.status, JSON.stringify(body)).toBe(400);
    }
    const kept = await gateway.rest('GET', '/api/admin/tool-sets/intake');
    expect(kept.body).toMatchObject({ version: 1, name: 'Intake desk' });
    expect((kept.body as { operations: string[] }).operations).toHaveLength(12);
  });

  it('takes effect at once for the keys bound to it, and cannot be deleted while they are', async () => {
    const edited = await gateway.rest('PUT', '/api/admin/tool-sets/intake', {
      body: { name: 'Intake desk', rules: [...INTAKE_RULES, { match: 'callrail:*', read_only: true }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ version: 2 });
    const names = (await bound.listTools()).tools.map((t) => t.name);
    expect(names).toContain('call_callrail');
    expect((await restCall(boundKey, 'callrail:list_calls')).status).toBe(200);
    const deleted = await gateway.rest('DELETE', '/api/admin/tool-sets/intake');
    expect(deleted.status).toBe(409);
    expect((deleted.body as { message: string }).message).toContain('used by 1 active key');
  });
});
