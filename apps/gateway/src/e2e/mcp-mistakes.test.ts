import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startSandboxedGateway, startTestGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Every mistake an assistant makes inside a tools/call of call_<service>, describe_method or search_methods comes back
 * as a tool result with isError and the gateway's error body, which the model sees and can act on; only protocol
 * mistakes (a tool that does not exist, a message that is not JSON-RPC) stay JSON-RPC errors. Through the official
 * SDK client against a gateway in sandbox mode.
 */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

interface ErrorResult {
  isError: boolean;
  body: { error?: boolean; code?: string; message: string };
  /** The text block a client without structured content shows the model. */
  text: string;
}

async function call(name: string, args: Record<string, unknown>, via: Client = client): Promise<ErrorResult> {
  const result = await via.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text: string }>)[0]?.text ?? '';
  return { isError: Boolean(result.isError), body: result.structuredContent as ErrorResult['body'], text };
}

/** The operations an unknown-operation message names as the closest, in its order. */
function suggested(message: string): string[] {
  const closest = /Closest: (.*?)\. Next:/.exec(message)?.[1] ?? '';
  return [...closest.matchAll(/(?:^|, )([a-z0-9_]+) \(/g)].map((m) => m[1] as string);
}

// Names an assistant is likely to guess, from other APIs' words or its own, each with the operation it meant.
const WRONG_NAMES: Array<[service: string, wrong: string, meant: string]> = [
  ['clio', 'list_time_entries', 'list_activities'],
  ['clio', 'create_time_entry', 'create_activity'],
  ['clio', 'get_matters', 'list_matters'],
  ['clio', 'search_contacts', 'list_contacts'],
  ['clio', 'get_me', 'get_current_user'],
  ['clio', 'list_appointments', 'list_calendar_entries'],
  ['slack', 'post_message', 'send_message'],
  ['slack', 'list_messages', 'read_messages'],
  ['slack', 'get_channel', 'get_channel_info'],
  ['slack', 'get_user', 'get_user_info'],
  ['quickbooks', 'get_invoice', 'find_invoices'],
  ['quickbooks', 'list_customers', 'find_customers'],
  ['quickbooks', 'get_profit_and_loss', 'report_profit_and_loss'],
  ['notion', 'append_blocks', 'append_block_children'],
  ['notion', 'search_pages', 'search'],
  ['notion', 'add_comment', 'create_comment'],
  ['lawmatics', 'list_leads', 'list_prospects'],
  ['lawmatics', 'get_current_user', 'get_me'],
  ['callrail', 'get_recording', 'get_call_recording'],
  ['callrail', 'list_call', 'list_calls'],
  ['clio', 'list_invoices', 'list_bills'],
  ['clio', 'get_client', 'get_contact'],
  ['clio', 'list_unbilled_time', 'list_activities'],
  ['lawmatics', 'create_lead', 'create_prospect'],
  ['lawmatics', 'list_appointments', 'list_events'],
  ['lawmatics', 'book_consultation', 'create_event'],
  ['slack', 'list_conversations', 'list_channels'],
  ['slack', 'get_history', 'read_messages'],
  ['notion', 'append_text', 'append_block_children'],
  ['quickbooks', 'list_invoices', 'find_invoices'],
  ['quickbooks', 'list_overdue_invoices', 'find_invoices'],
  ['callrail', 'get_calls', 'list_calls'],
];

describe('an unknown operation name', () => {
  it.each(WRONG_NAMES)('%s %s suggests %s', async (service, wrong, meant) => {
    const result = await call(`call_${service}`, { method: wrong, params: {} });
    expect(result.isError).toBe(true);
    expect(result.body).toMatchObject({ error: true, code: 'not_found' });
    expect(result.body.message).toContain(`${service} has no operation "${wrong}"`);
    expect(suggested(result.body.message)).toContain(meant);
    // the next step is named: describe it, or search
    expect(result.body.message).toContain(`describe_method with service "${service}"`);
    expect(JSON.parse(result.text)).toEqual(result.body);
  });
});

describe('a name that asks to write where nothing of the kind can be written', () => {
  it('on a read-only integration says it is read-only here and what can be read instead', async () => {
    const result = await call('call_quickbooks', { method: 'create_payment', params: { amount: 100 } });
    expect(result).toMatchObject({ isError: true, body: { error: true, code: 'not_found' } });
    expect(result.body.message).toMatch(/^QuickBooks is read-only here: quickbooks has no operation "create_payment"/);
    const reads = /What can be read instead: (.*?)\. Next:/.exec(result.body.message)?.[1] ?? '';
    expect(reads.startsWith('find_payments (')).toBe(true);
    expect(result.body.message).toContain('describe_method with service "quickbooks"');
  });

  it('an ordinary unknown write on an integration that writes still names the closest operations', async () => {
    const result = await call('call_clio', { method: 'add_matter', params: {} });
    expect(result.body.message).not.toContain('read-only');
    expect(suggested(result.body.message)).toContain('create_matter');
  });
});

describe('each class of mistake inside a tool call is a tool result with isError', () => {
  it('an unknown operation given to describe_method names the closest ones too', async () => {
    const result = await call('describe_method', { service: 'slack', method: 'post_message' });
    expect(result).toMatchObject({ isError: true, body: { error: true, code: 'not_found' } });
    expect(suggested(result.body.message)[0]).toBe('send_message');
  });

  it('a missing method, or params that are not an object', async () => {
    const missing = await call('call_clio', { params: {} });
    expect(missing).toMatchObject({ isError: true, body: { code: 'bad_request' } });
    expect(missing.body.message).toContain('search_methods');
    const notObject = await call('call_clio', { method: 'list_matters', params: 'open ones' });
    expect(notObject).toMatchObject({ isError: true, body: { code: 'bad_request' } });
    expect(notObject.body.message).toContain('params must be an object');
    const describeWrong = await call('describe_method', { service: 'clio', method: 42 });
    expect(describeWrong).toMatchObject({ isError: true, body: { code: 'bad_request' } });
    expect(describeWrong.body.message).toContain('without method');
    const describeServiceMissing = await call('describe_method', { method: 'list_matters' });
    expect(describeServiceMissing).toMatchObject({ isError: true, body: { code: 'bad_request' } });
    const searchEmpty = await call('search_methods', {});
    expect(searchEmpty).toMatchObject({ isError: true, body: { code: 'bad_request' } });
  });

  it('bad, unknown and missing parameters name the parameter', async () => {
    const wrongType = await call('call_clio', { method: 'list_activities', params: { matter_id: 'the smith case' } });
    expect(wrongType).toMatchObject({ isError: true, body: { code: 'bad_request' } });
    expect(wrongType.body.message).toContain('matter_id');
    const unknown = await call('call_slack', { method: 'send_message', params: { channel: 'C05GENERAL1', text: 'hi', colour: 'red' } });
    expect(unknown).toMatchObject({ isError: true, body: { code: 'bad_request' } });
    expect(unknown.body.message).toContain('colour');
    const missing = await call('call_notion', { method: 'get_page', params: {} });
    expect(missing).toMatchObject({ isError: true, body: { code: 'bad_request' } });
    expect(missing.body.message).toContain('page_id');
  });

  it('a Slack channel given by name says to take its id from list_channels, over MCP and REST', async () => {
    for (const channel of ['#intake', 'general']) {
      const result = await call('call_slack', { method: 'send_message', params: { channel, text: 'New lead from the website' } });
      expect(result).toMatchObject({ isError: true, body: { code: 'bad_request' } });
      expect(result.body.message).toContain('take the id from list_channels');
    }
    // reading is refused alike, a number too, before anything reaches Slack
    for (const [method, channel] of [
      ['read_messages', 'intake'],
      ['read_messages', 12345],
      ['get_channel_info', '#intake'],
      ['list_pins', 'intake'],
    ] as const) {
      const result = await call('call_slack', { method, params: { channel } });
      expect(result, `${method} ${channel}`).toMatchObject({ isError: true, body: { code: 'bad_request' } });
      expect(result.body.message).toContain('channel ids look like C05GENERAL1 (C…, G… or D…) — take the id from list_channels');
    }
    // an id of the right form that names no channel says where ids come from too
    const unknown = await call('call_slack', { method: 'read_messages', params: { channel: 'C0NOSUCH000' } });
    expect(unknown).toMatchObject({ isError: true, body: { code: 'not_found' } });
    expect(unknown.body.message).toContain('channel_not_found');
    expect(unknown.body.message).toContain('come from list_channels');
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'slack', { restEnabled: true });
    const rest = await gateway.rest('POST', `/api/v1/slack/channels/${encodeURIComponent('#intake')}/messages`, { body: { text: 'hi' } });
    expect(rest.status).toBe(400);
    expect((rest.body as { message: string }).message).toContain('take the id from list_channels');
  });

  it('an upstream error is a tool result with the mapped code, and REST keeps its status', async () => {
    const origin = new URL(gateway.sandboxes.clio?.url as string).origin;
    const arm = () =>
      fetch(`${origin}/__sandbox/fail-next`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 503, message: 'maintenance' }),
      });
    await arm();
    const result = await call('call_clio', { method: 'list_matters', params: {} });
    expect(result).toMatchObject({ isError: true, body: { error: true, code: 'upstream_error' } });
    await arm();
    const rest = await gateway.rest('GET', '/api/v1/clio/matters');
    expect(rest.status).toBe(502);
    expect(rest.body).toEqual(result.body);
  });

  it('forbidden: outside the key scope, a write with a read-only key, outside its tool set, MCP switched off', async () => {
    const engine = gateway.runtime.engine;
    const scoped = await engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'notion only',
      scopes: { admin: false, services: ['notion'], readOnly: false },
    });
    const readOnly = await engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'reader',
      scopes: { admin: false, services: '*', readOnly: true },
    });
    const saved = await gateway.rest('PUT', '/api/admin/tool-sets/chat-readers', {
      body: { name: 'Chat readers', rules: ['slack:list_channels', 'slack:read_messages'] },
    });
    expect(saved.status).toBe(201);
    const bound = (
      (await gateway.rest('POST', '/api/admin/keys', { body: { name: 'chat reader', tool_set: 'chat-readers' } })).body as { key: string }
    ).key;
    for (const [key, name, args, words] of [
      [scoped.key, 'call_clio', { method: 'list_matters', params: {} }, 'may not call clio'],
      [readOnly.key, 'call_slack', { method: 'send_message', params: { channel: 'C05GENERAL1', text: 'hi' } }, 'read-only'],
      [bound, 'call_slack', { method: 'send_message', params: { channel: 'C05GENERAL1', text: 'hi' } }, 'tool set'],
    ] as const) {
      const via = await connectMcp(gateway.url, key);
      const result = await call(name, args, via);
      await via.close();
      expect(result, `${name} ${words}`).toMatchObject({ isError: true, body: { error: true, code: 'forbidden' } });
      expect(result.body.message).toContain(words);
    }
    // An unknown operation with a key that may not use the service is refused for the service, not suggested.
    const via = await connectMcp(gateway.url, scoped.key);
    expect((await call('call_clio', { method: 'list_time_entries' }, via)).body).toMatchObject({ code: 'forbidden' });
    await via.close();
    await engine.configureIntegration(DEFAULT_WORKSPACE, 'callrail', { mcpEnabled: false });
    try {
      const off = await call('call_callrail', { method: 'list_accounts', params: {} });
      expect(off).toMatchObject({ isError: true, body: { code: 'forbidden' } });
      expect(off.body.message).toContain('MCP access to callrail is disabled');
    } finally {
      await engine.configureIntegration(DEFAULT_WORKSPACE, 'callrail', { mcpEnabled: true });
    }
  });

  it('not connected: the call says to connect the service; REST answers 424', async () => {
    const engine = gateway.runtime.engine;
    await engine.disconnect(DEFAULT_WORKSPACE, 'callrail');
    const result = await call('call_callrail', { method: 'list_accounts', params: {} });
    expect(result).toMatchObject({ isError: true, body: { error: true, code: 'not_connected' } });
    expect(result.body.message).toContain('portico connect callrail');
    await engine.configureIntegration(DEFAULT_WORKSPACE, 'callrail', { restEnabled: true });
    const rest = await gateway.rest('GET', '/api/v1/callrail/accounts');
    expect(rest.status).toBe(424);
  });
});

describe('rate-limited', () => {
  it('is a tool result saying when to retry; REST answers 429 with Retry-After', async () => {
    const limited = await startTestGateway({
      sandbox: true,
      env: { PORTICO_PLUGINS: 'chat', PORTICO_RATE_LIMIT_PER_MINUTE: '1', PORTICO_RATE_LIMIT_BURST: '1' },
    });
    const via = await connectMcp(limited.url, limited.key);
    try {
      expect((await call('call_slack', { method: 'list_channels', params: {} }, via)).isError).toBe(false);
      const refused = await call('call_slack', { method: 'list_channels', params: {} }, via);
      expect(refused).toMatchObject({ isError: true, body: { error: true, code: 'rate_limited' } });
      expect(refused.body.message).toMatch(/retry after \d+ s/);
      // a wrong name is refused for the rate first: it costs a call like any other
      expect((await call('call_slack', { method: 'post_message', params: {} }, via)).body).toMatchObject({ code: 'rate_limited' });
      await limited.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'slack', { restEnabled: true });
      const rest = await limited.rest('GET', '/api/v1/slack/channels');
      expect(rest.status).toBe(429);
      expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await via.close();
      await limited.close();
    }
  });
});

describe('protocol mistakes stay JSON-RPC errors', () => {
  it('a tool that does not exist is -32602, a message that is not JSON-RPC -32700', async () => {
    await expect(client.callTool({ name: 'call_nosuch', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const response = await fetch(`${gateway.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: { method: 'list_matters' } } }),
    });
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32602);
    const garbage = await fetch(`${gateway.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(((await garbage.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});
