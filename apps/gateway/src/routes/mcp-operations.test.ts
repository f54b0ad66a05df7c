import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';

let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_MCP_TOOLS: 'operations', PORTICO_PLUGINS: 'notes' } });
  client = await connectMcp(gateway.url, gateway.key);
});

afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

describe('PORTICO_MCP_TOOLS=operations', () => {
  it('lists one tool per operation with its own schema and truthful annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(20);
    const getPage = tools.find((t) => t.name === 'notion_get_page');
    expect(getPage?.inputSchema).toMatchObject({ type: 'object', required: ['page_id'] });
    expect(getPage?.outputSchema).toMatchObject({ type: 'object' });
    expect(getPage?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === 'notion_delete_block')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.find((t) => t.name === 'notion_search')?.annotations?.readOnlyHint).toBe(true); // a POST that reads
  });

  it('calls an operation tool; the SDK client validates structured content against the output schema', async () => {
    const users = await client.callTool({ name: 'notion_list_users', arguments: { page_size: 2 } });
    expect(users.isError).toBeFalsy();
    expect((users.structuredContent as { results: unknown[] }).results).toHaveLength(2);
    const bad = await client.callTool({ name: 'notion_get_page', arguments: { page_id: 'not-a-uuid' } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined(); // it would not match the tool's output schema
    expect(JSON.parse((bad.content as Array<{ text: string }>)[0]?.text ?? '')).toMatchObject({ error: true, code: 'bad_request' });
    await expect(client.callTool({ name: 'call_notion', arguments: { method: 'list_users' } })).rejects.toMatchObject({ code: -32602 });
  });
});
