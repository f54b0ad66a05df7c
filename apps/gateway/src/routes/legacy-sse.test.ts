import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_MCP_LEGACY_SSE: 'on', PORTICO_PLUGINS: 'notes' } });
});
afterAll(() => gateway?.close());

const sseClient = async (key: string) => {
  const client = new Client({ name: 'legacy', version: '1.0.0' });
  const headers = { authorization: `Bearer ${key}` };
  await client.connect(
    new SSEClientTransport(new URL(`${gateway.url}/api/mcp/sse`), {
      requestInit: { headers },
      eventSourceInit: {
        fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
      },
    }),
  );
  return client;
};

describe('legacy HTTP+SSE transport (PORTICO_MCP_LEGACY_SSE=on)', () => {
  it('lists and calls tools like the Streamable HTTP endpoint', async () => {
    const client = await sseClient(gateway.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['describe_method', 'search_methods', 'list_connections', 'list_events', 'call_notion']);
    const users = await client.callTool({ name: 'call_notion', arguments: { method: 'list_users', params: { page_size: 1 } } });
    expect((users.structuredContent as { results: unknown[] }).results).toHaveLength(1);
    await client.close();
  });

  it('needs a key to open a stream, and refuses messages from another key', async () => {
    expect((await fetch(`${gateway.url}/api/mcp/sse`)).status).toBe(401);
    const client = await sseClient(gateway.key);
    const other = await gateway.runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'other',
      scopes: { admin: false, services: '*', readOnly: false },
    });
    // find this client's session id from the transport, then post to it as someone else
    const sessionId = (client.transport as unknown as { _endpoint?: URL })._endpoint?.searchParams.get('sessionId');
    expect(sessionId).toBeTruthy();
    const hijack = await gateway.rest('POST', `/api/mcp/messages?sessionId=${sessionId}`, {
      key: other.key,
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list' },
    });
    expect(hijack.status).toBe(403);
    const unknown = await gateway.rest('POST', '/api/mcp/messages?sessionId=nope', {
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list' },
    });
    expect(unknown.status).toBe(404);
    await client.close();
  });

  it('is not served unless enabled', async () => {
    const plain = await startTestGateway({ plugins: [] });
    expect((await plain.rest('GET', '/api/mcp/sse')).status).toBe(404);
    await plain.close();
  });
});
