import { DEFAULT_WORKSPACE } from '@portico/core';
import { pendingMcpPosts } from '@portico/core/mcp';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';

let upstream: StubUpstream;
let gateway: TestGateway;

const connectClient = (key: string) => connectMcp(gateway.url, key);

beforeAll(async () => {
  upstream = await startStubUpstream((method, url) => {
    if (url.pathname === '/items' && method === 'GET') return { status: 200, body: { items: [{ id: '1' }] } };
    if (url.pathname === '/v2/items/7') return { status: 200, body: { id: '7', name: 'seven' } };
    // Answers of every JSON shape, for the tool call's answer written as JSON once
    if (url.pathname === '/v2/items/quoted') return { status: 200, body: { id: 'q', name: 'say "hi"\n\tü 😀 \u2028 </script>', n: -0.5 } };
    if (url.pathname === '/v2/items/listed') return { status: 200, body: [{ id: '1' }, { id: '2', result: null }] };
    if (url.pathname === '/v2/items/worded') return { status: 200, body: 'just "words"' };
    if (url.pathname === '/v2/items/nothing') return { status: 200, body: null };
    if (url.pathname === '/v2/items/resulting') return { status: 200, body: { result: 'not wrapped' } };
    return { status: 404, body: { message: 'no such item' } };
  });
  gateway = await startTestGateway({ plugins: [examplePlugin], env: { PORTICO_EXAMPLE_BASE_URL: upstream.url } });
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'tok');
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('MCP over Streamable HTTP (official SDK client)', () => {
  it('lists describe_method and one call tool per connected integration', async () => {
    const client = await connectClient(gateway.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['describe_method', 'search_methods', 'list_connections', 'list_events', 'call_example']);
    const call = tools.find((t) => t.name === 'call_example');
    expect(call?.inputSchema.properties?.method).toMatchObject({
      enum: ['list_items', 'get_item', 'get_current_item', 'create_item', 'delete_item'],
    });
    expect(call?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    await client.close();
  });

  it('describes an operation with a line per parameter and a ready-to-use example, its JSON Schema on request', async () => {
    const client = await connectClient(gateway.key);
    const result = await client.callTool({ name: 'describe_method', arguments: { service: 'example', method: 'get_item' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      service: 'example',
      method: 'get_item',
      access: 'read',
      writes: false,
      http: { method: 'GET', path: '/api/v1/example/items/:item_id' },
      params: { item_id: expect.stringMatching(/^string, required/) },
    });
    const full = await client.callTool({
      name: 'describe_method',
      arguments: { service: 'example', method: 'get_item', detail: 'full' },
    });
    const described = full.structuredContent as Record<string, unknown>;
    expect(described).toMatchObject({
      service: 'example',
      method: 'get_item',
      http: { method: 'GET', path: '/api/v1/example/items/:item_id' },
      params: { type: 'object', required: ['item_id'] },
      example: { tool: 'call_example', arguments: { method: 'get_item', params: { item_id: '<item_id>' } } },
    });
    await client.close();
  });

  it('calls an operation and returns structured content plus a JSON text block', async () => {
    const client = await connectClient(gateway.key);
    const result = await client.callTool({ name: 'call_example', arguments: { method: 'get_item', params: { item_id: '7' } } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: '7', name: 'seven' });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual({ id: '7', name: 'seven' });
    await client.close();
  });

  it('returns failures while running a tool as isError results with the error body', async () => {
    const client = await connectClient(gateway.key);
    const invalid = await client.callTool({ name: 'call_example', arguments: { method: 'list_items', params: { limit: 'many' } } });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ error: true, code: 'bad_request' });
    const missing = await client.callTool({ name: 'call_example', arguments: { method: 'get_item', params: { item_id: '404' } } });
    expect(missing.structuredContent).toMatchObject({ error: true, code: 'not_found' });
    await client.close();
  });

  it('answers an unknown tool with a JSON-RPC error, an unknown operation or malformed arguments with isError results', async () => {
    const client = await connectClient(gateway.key);
    await expect(client.callTool({ name: 'call_nosuch', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const unknown = await client.callTool({ name: 'call_example', arguments: { method: 'fly_away' } });
    expect(unknown).toMatchObject({ isError: true, structuredContent: { error: true, code: 'not_found' } });
    const malformed = await client.callTool({ name: 'call_example', arguments: { method: 'list_items', params: 'x' } });
    expect(malformed).toMatchObject({ isError: true, structuredContent: { error: true, code: 'bad_request' } });
    await client.close();
  });

  it('shows a key only the integrations it may call that are enabled for MCP and connected', async () => {
    const scoped = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'scoped',
      scopes: { admin: false, services: ['notion'], readOnly: false },
    });
    let client = await connectClient(scoped.key);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'describe_method',
      'search_methods',
      'list_connections',
      'list_events',
    ]);
    await client.close();
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { mcpEnabled: false });
    client = await connectClient(gateway.key);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'describe_method',
      'search_methods',
      'list_connections',
      'list_events',
    ]);
    const refused = await client.callTool({ name: 'call_example', arguments: { method: 'list_items' } });
    expect(refused.structuredContent).toMatchObject({ code: 'forbidden' });
    await client.close();
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { mcpEnabled: true });
  });
});

describe('REST and MCP give the same result and the same error', () => {
  const cases = [
    { method: 'get_item', params: { item_id: '7' }, rest: ['GET', '/api/v1/example/items/7'] },
    { method: 'list_items', params: { limit: 3 }, rest: ['GET', '/api/v1/example/items?limit=3'] },
    { method: 'get_item', params: { item_id: '404' }, rest: ['GET', '/api/v1/example/items/404'] },
    { method: 'list_items', params: { limit: 0 }, rest: ['GET', '/api/v1/example/items?limit=0'] },
    { method: 'create_item', params: { name: '' }, rest: ['POST', '/api/v1/example/items'], body: { name: '' } },
  ] as const;

  it.each(cases)('$method $params', async (c) => {
    const client = await connectClient(gateway.key);
    const mcp = await client.callTool({ name: 'call_example', arguments: { method: c.method, params: c.params } });
    await client.close();
    const rest = await gateway.rest(c.rest[0], c.rest[1], 'body' in c ? { body: c.body } : {});
    expect(mcp.structuredContent).toEqual(rest.body);
    expect(Boolean(mcp.isError)).toBe(rest.status >= 400);
  });
});

describe('protocol versions', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const initialize = (protocolVersion: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])('agrees to %s when a client asks for it', async (version) => {
    const res = await post(initialize(version));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
  });

  it('answers an unknown requested version with the latest it supports', async () => {
    const res = await post(initialize('2099-01-01'));
    expect(((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-11-25');
  });

  it('refuses a request whose MCP-Protocol-Version header names an unsupported version', async () => {
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': '1999-01-01' });
    expect(res.status).toBe(400);
    const ok = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-protocol-version': '2025-06-18' });
    expect(ok.status).toBe(200);
  });

  it('answers a POST of notifications only with 202 and no body', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('answers a batch with an array of answers, in order', async () => {
    const res = await post([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
    ]);
    const body = (await res.json()) as Array<{ id: string }>;
    expect(body.map((m) => m.id)).toEqual(['a', 'b']);
  });

  // A lone tools/call is answered without the SDK Server (answerMcpPost's fast path; the plainest ones, checked by hand,
  // have their answer written as JSON once); inside a batch it goes through the Server. Both must give the same
  // answer, errors included.
  it('answers a tools/call alone exactly as the SDK Server answers it in a batch', async () => {
    const item = (item_id: string) => ({ name: 'call_example', arguments: { method: 'get_item', params: { item_id } } });
    const calls = [
      { name: 'call_example', arguments: { method: 'get_item', params: { item_id: '7' } } },
      item('quoted'),
      item('listed'),
      item('worded'),
      item('nothing'),
      item('resulting'),
      { ...item('7'), unknown: 'ignored' },
      { ...item('7'), _meta: { progressToken: 'p' } },
      { name: 'call_example', arguments: { method: 'list_items', params: {} } },
      { name: 'list_connections' },
      { name: 'search_methods', arguments: { query: 'create an item' } },
      { name: 'call_example', arguments: { method: 'get_item', params: { item_id: '404' } } },
      { name: 'call_example', arguments: { method: 'list_items', params: { limit: 'many' } } },
      { name: 'describe_method', arguments: { service: 'example', method: 'create_item' } },
      { name: 'call_nosuch', arguments: {} },
      { name: 'call_example', arguments: { method: 'fly_away' } },
      { name: 'call_example' },
    ];
    for (const [i, params] of calls.entries()) {
      for (const id of [`call-${i}`, i, -i]) {
        const message = { jsonrpc: '2.0', id, method: 'tools/call', params };
        const alone = await post(message);
        const batched = await post([message]);
        expect(alone.status).toBe(200);
        expect(alone.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const [viaServer] = (await batched.json()) as unknown[];
        const text = await alone.text();
        expect(JSON.parse(text), JSON.stringify(params)).toEqual(viaServer);
        // what JSON.stringify writes (no member twice, nothing between): only the order of the members may differ
        expect(text).toBe(JSON.stringify(JSON.parse(text)));
      }
    }
    // the shapes the answers above must have had, so that the comparison covered each of them
    const shapes = async (item_id: string) => {
      const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: item(item_id) });
      return ((await res.json()) as { result: { structuredContent: unknown; content: Array<{ text: string }> } }).result;
    };
    expect(await shapes('listed')).toMatchObject({ structuredContent: { result: [{ id: '1' }, { id: '2', result: null }] } });
    expect(await shapes('worded')).toMatchObject({ structuredContent: { result: 'just "words"' } });
    expect(await shapes('nothing')).toMatchObject({ structuredContent: { result: null }, content: [{ text: 'null' }] });
    expect(await shapes('resulting')).toMatchObject({ structuredContent: { result: 'not wrapped' } });
    expect(JSON.parse((await shapes('quoted')).content[0]?.text ?? '')).toEqual({
      id: 'q',
      name: 'say "hi"\n\tü 😀 \u2028 </script>',
      n: -0.5,
    });
  });

  it('answers a tools/call of any valid shape, and refuses an invalid one, as before the fast path', async () => {
    const call = { name: 'call_example', arguments: { method: 'get_item', params: { item_id: '7' } } };
    const ok = async (message: unknown) => {
      const res = await post(message);
      expect(res.status).toBe(200);
      return (await res.json()) as { id: unknown; result?: { structuredContent: unknown }; error?: { code: number } };
    };
    // valid, each outside the plainest shape: answered with the item all the same
    for (const message of [
      { jsonrpc: '2.0', id: 'm', method: 'tools/call', params: { ...call, _meta: { progressToken: 5 } } },
      { jsonrpc: '2.0', id: 'n', method: 'tools/call', params: { ...call, extra: [1, 2] } },
    ]) {
      expect((await ok(message)).result?.structuredContent).toEqual({ id: '7', name: 'seven' });
    }
    // arguments that are not an object, or an id that is no JSON-RPC id: the SDK's errors
    expect((await ok({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'call_example', arguments: [] } })).error?.code).toBe(
      -32602,
    );
    for (const message of [
      { jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: call },
      { jsonrpc: '2.0', id: null, method: 'tools/call', params: call },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: call, extra: true },
      { jsonrpc: '1.0', id: 1, method: 'tools/call', params: call },
    ]) {
      const res = await post(message);
      expect(res.status, JSON.stringify(message)).toBe(400);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
    }
    // the MCP-Protocol-Version rule holds for a lone tools/call too
    const old = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call }, { 'mcp-protocol-version': '1999-01-01' });
    expect(old.status).toBe(400);
    expect(await old.text()).toMatch(/Unsupported protocol version: 1999-01-01/);
  });

  it('refuses a message nested past 1,024 levels before parsing it, the shortest such message included', async () => {
    for (const depth of [1_025, 5_000]) {
      const res = await fetch(`${gateway.url}/api/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${gateway.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringMatching(/Too deeply nested/) } });
    }
  });

  it('refuses a body over PORTICO_BODY_LIMIT_BYTES with 413, declared or streamed, and still answers the next call', async () => {
    const small = await startTestGateway({
      plugins: [examplePlugin],
      env: { PORTICO_EXAMPLE_BASE_URL: upstream.url, PORTICO_BODY_LIMIT_BYTES: '2048' },
    });
    try {
      await small.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'tok');
      const headers = {
        authorization: `Bearer ${small.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const message = (name: string) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'call_example', arguments: { method: 'get_item', params: { item_id: '7', name } } },
        });
      const declared = await fetch(`${small.url}/api/mcp`, { method: 'POST', headers, body: message('x'.repeat(4000)) });
      expect(declared.status).toBe(413);
      expect(await declared.json()).toMatchObject({ error: true, code: 'payload_too_large' });
      // no Content-Length: the body is cut off as it passes the limit
      const chunks = [message('y'.repeat(1500)).slice(0, 1200), 'y'.repeat(3000)];
      const streamed = await fetch(`${small.url}/api/mcp`, {
        method: 'POST',
        headers,
        body: new ReadableStream({
          pull(controller) {
            const next = chunks.shift();
            if (next === undefined) controller.close();
            else controller.enqueue(new TextEncoder().encode(next));
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(await streamed.json()).toMatchObject({ error: true, code: 'payload_too_large' });
      const fine = await fetch(`${small.url}/api/mcp`, { method: 'POST', headers, body: message('z') });
      expect(fine.status).toBe(200);
      expect(((await fine.json()) as { result: { isError?: boolean } }).result.isError).toBeTruthy(); // name is no param of get_item
    } finally {
      await small.close();
    }
  });

  // Where the SDK Server answers a malformed tools/call with a generic internal error (-32603), the fast path says
  // what JSON-RPC means: invalid params (-32602), naming the problem.
  it('answers a malformed tools/call with an invalid-params error that names the problem', async () => {
    for (const params of [{ arguments: { method: 'get_item' } }, { name: 42 }]) {
      const res = await post({ jsonrpc: '2.0', id: 'bad', method: 'tools/call', params });
      const body = (await res.json()) as { id: string; error: { code: number; message: string } };
      expect(body.id).toBe('bad');
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(/^Invalid tools\/call request: .*name/s);
    }
  });

  it('refuses a client that does not accept event streams, or a body that is not JSON-RPC', async () => {
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'application/json' })).status).toBe(406);
    const bad = await post({ hello: 'world' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('issues no session id (stateless)', async () => {
    const res = await post(initialize('2025-11-25'));
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });
});

// A POST whose answer never came held its connection until the client gave up, and its Server and transport with it.
describe('batches that were never answered, and requests with bad params', () => {
  /** Posts to /api/mcp; a client that waits at most `waitMs` for the answer, as an impatient MCP client would. */
  const post = async (body: unknown, waitMs = 2_000) => {
    const res = await fetch(`${gateway.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(waitMs),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const ping = (id: string | number) => ({ jsonrpc: '2.0', id, method: 'ping' });
  const cancel = (requestId: string | number) => ({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId, reason: 'changed my mind' },
  });
  const repeated = [ping(1), ping(1)];
  const cancelledInBatch = [ping(1), cancel(1)];

  it('refuses a batch with a repeated request id at once, as a whole: 400, -32600', async () => {
    const answer = await post(repeated);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: request ids must be unique within a batch' },
    });
    // 1 and "1" are different ids (JSON-RPC 2.0): answered as usual.
    const distinct = await post([ping(1), ping('1')]);
    expect(distinct.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: '1', result: {} },
    ]);
  });

  it('does not run a request cancelled in its own batch, does not answer it, and answers the rest at once', async () => {
    const alone = await post(cancelledInBatch);
    expect(alone.status).toBe(202);
    expect(alone.text).toBe('');
    const rest = await post([ping('a'), cancel('b'), ping('b'), ping('c')]);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual([
      { jsonrpc: '2.0', id: 'a', result: {} },
      { jsonrpc: '2.0', id: 'c', result: {} },
    ]);
    const before = upstream.requests.length;
    const create = { name: 'call_example', arguments: { method: 'create_item', params: { name: 'never' } } };
    const write = await post([{ jsonrpc: '2.0', id: 'w', method: 'tools/call', params: create }, cancel('w')]);
    expect(write.status).toBe(202);
    expect(upstream.requests.length).toBe(before);
  });

  it('answers hundreds of such POSTs and keeps none of them', async () => {
    const bodies = [repeated, cancelledInBatch, [ping(2), ping(3), cancel(2), ping(3)], [ping(4), cancel(4), ping(5)]];
    for (let round = 0; round < 50; round++) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(bodies[i % bodies.length], 5_000)));
      expect(answers.map((a) => a.status)).toEqual([400, 202, 400, 200, 400, 202, 400, 200]);
    }
    expect(pendingMcpPosts()).toBe(0);
  });

  const expectInvalidParams = (answer: unknown, id: string | number, problem: RegExp) => {
    const { error } = answer as { error: { code: number; message: string } };
    expect(answer).toMatchObject({ jsonrpc: '2.0', id });
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(problem);
    expect(error.message.length).toBeLessThan(300);
    expect(error.message).not.toMatch(/[[{]\s*"|\n\s+at |ZodError/);
  };
  const badInitialize = {
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: 5, capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const badList = { jsonrpc: '2.0', id: 'list', method: 'tools/list', params: { cursor: {} } };

  it('answers initialize and tools/list with bad params -32602, naming the problem in a few words', async () => {
    const init = await post(badInitialize);
    expect(init.status).toBe(200);
    expectInvalidParams(init.body, 'init', /^Invalid initialize request: params\.protocolVersion: expected string, received number$/);
    const list = await post(badList);
    expectInvalidParams(list.body, 'list', /^Invalid tools\/list request: params\.cursor: expected string, received object$/);
    const wide = await post({ ...badInitialize, params: { protocolVersion: [], capabilities: 1, clientInfo: { name: 2, version: 3 } } });
    expectInvalidParams(wide.body, 'init', /^Invalid initialize request: params\.protocolVersion: .*; .*; .* \(and 1 more\)$/);
  });

  it('answers a batch of requests with bad params one by one, next to the good ones', async () => {
    const batch = await post([
      badInitialize,
      badList,
      { jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 42 } },
      ping('ok'),
    ]);
    expect(batch.status).toBe(200);
    const [init, list, call, ok] = batch.body as unknown[];
    expectInvalidParams(init, 'init', /params\.protocolVersion/);
    expectInvalidParams(list, 'list', /params\.cursor/);
    expectInvalidParams(call, 'call', /^Invalid tools\/call request: params\.name: expected string, received number$/);
    expect(ok).toEqual({ jsonrpc: '2.0', id: 'ok', result: {} });
  });
});
