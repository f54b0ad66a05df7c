import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { InitializeRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Encryptor, generateEncryptionKey, parseEncryptionKey } from '../connections/crypto.js';
import { defineOperation } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { Params } from '../contract/schema.js';
import { Engine } from '../pipeline/engine.js';
import { SqliteStore } from '../store/sqlite.js';
import { createMcpServer, type McpToolMode, METHOD_ENUM_LIMIT, parseRequest } from './mcp.js';

const engines: Engine[] = [];
afterAll(async () => {
  for (const engine of engines) await engine.close();
});

async function engineWith(operationCount: number) {
  const operations = Array.from({ length: operationCount }, (_, i) =>
    defineOperation({
      name: `get_thing_${i}`,
      method: 'GET',
      path: `/things${i}`,
      summary: `Thing ${i}`,
      description: 'Returns a thing.',
      params: Params({}),
      upstream: { method: 'GET', path: `/things${i}` },
    }),
  );
  const registry = new Registry();
  registry.register(
    definePlugin({
      service: 'big',
      displayName: 'Big',
      version: '1',
      description: 'Big.',
      contract: 1,
      upstream: { baseUrl: 'http://x.invalid' },
      auth: {},
      operations,
    }),
  );
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const engine = new Engine({ registry, store, encryptor: new Encryptor(parseEncryptionKey(generateEncryptionKey())) });
  engines.push(engine);
  await engine.connectToken('default', 'big', 't');
  return engine;
}

const admin = { keyId: null, workspaceId: 'default', scopes: { admin: true, services: '*' as const, readOnly: false } };

async function toolsFor(operationCount: number, options: { toolSet?: string[]; mode?: McpToolMode } = {}) {
  const engine = await engineWith(operationCount);
  if (options.toolSet) {
    await engine.toolSets.save('default', { id: 'chosen', rules: options.toolSet.map((match) => ({ match, readOnly: false })) });
  }
  const scopes = { admin: true, services: '*' as const, readOnly: false, ...(options.toolSet ? { toolSet: 'chosen' } : {}) };
  const server = createMcpServer(engine, { keyId: null, workspaceId: 'default', scopes }, { mode: options.mode ?? 'compact' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe('call_{service} for large integrations', () => {
  it(`lists operation names as an enum up to ${METHOD_ENUM_LIMIT} operations, and points to search_methods beyond`, async () => {
    const small = (await toolsFor(METHOD_ENUM_LIMIT)).find((t) => t.name === 'call_big');
    expect((small?.inputSchema.properties?.method as { enum?: string[] } | undefined)?.enum).toHaveLength(METHOD_ENUM_LIMIT);
    const large = await toolsFor(METHOD_ENUM_LIMIT + 1);
    const method = large.find((t) => t.name === 'call_big')?.inputSchema.properties?.method as { enum?: string[]; description: string };
    expect(method.enum).toBeUndefined();
    expect(method.description).toContain('search_methods');
    expect(JSON.stringify(large).length).toBeLessThan(3_000);
  });
});

describe('a key bound to a tool set', () => {
  it('lists only the set’s operations, as an enum even when the integration is large, and in operations mode', async () => {
    const rules = ['big:get_thing_1', 'big:get_thing_7*'];
    const compact = (await toolsFor(METHOD_ENUM_LIMIT + 20, { toolSet: rules })).find((t) => t.name === 'call_big');
    const method = compact?.inputSchema.properties?.method as { enum?: string[] };
    expect(method.enum).toEqual(['get_thing_1', 'get_thing_7', ...Array.from({ length: 10 }, (_, i) => `get_thing_${70 + i}`)]);
    const operations = await toolsFor(METHOD_ENUM_LIMIT + 20, { toolSet: rules, mode: 'operations' });
    expect(operations.map((t) => t.name)).toEqual(method.enum?.map((name) => `big_${name}`));
  });
});

// The SDK answers a request whose params do not fit with -32603 and the validator's JSON dump; every transport
// (Streamable HTTP, legacy SSE) goes through createMcpServer's Server, so the rule is checked on a bare transport.
describe('requests with bad params, on any transport', () => {
  async function answersTo(messages: object[]): Promise<JSONRPCMessage[]> {
    const server = createMcpServer(await engineWith(1), admin);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const answers: JSONRPCMessage[] = [];
    clientSide.onmessage = (message) => {
      answers.push(message);
    };
    await server.connect(serverSide);
    await clientSide.start();
    for (const message of messages) await clientSide.send(message as JSONRPCMessage);
    for (let i = 0; i < 100 && answers.length < messages.length; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    return answers;
  }

  it('answers -32602 naming the problem, and the good requests as usual', async () => {
    const answers = await answersTo([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: 5, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: {} } },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ]);
    expect(answers).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: 'Invalid initialize request: params.protocolVersion: expected string, received number' },
      },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32602, message: 'Invalid tools/list request: params.cursor: expected string, received object' },
      },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]);
  });

  it('answers an unknown tool -32602 "Unknown tool", which a client shows with one "MCP error -32602: " prefix', async () => {
    const answers = await answersTo([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope', arguments: {} } }]);
    expect(answers).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: nope' } }]);
    const server = createMcpServer(await engineWith(1), admin);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/^MCP error -32602: Unknown tool: nope$/);
    await client.close();
  });

  it('keeps the message short however hostile the request', () => {
    const key = 'k'.repeat(10_000);
    const parsed = parseRequest(InitializeRequestSchema, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: 1, capabilities: { experimental: { [key]: 1 } }, clientInfo: { name: 2, version: 3 } } as never,
    });
    expect(parsed.success).toBe(false);
    const { message } = (parsed as { error: { message: string } }).error;
    expect(message).toMatch(/^Invalid initialize request: params\.protocolVersion: expected string, received number; .* \(and \d+ more\)$/);
    expect(message.length).toBeLessThan(400);
    expect(message).not.toContain(key);
  });
});
