import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';

// The client address in the audit trail: a REST and an MCP call, made with the official MCP client, keep
// the address a trusted proxy forwarded, and the socket's address when no proxy is trusted.

let upstream: StubUpstream;
const gateways: TestGateway[] = [];

beforeAll(async () => {
  upstream = await startStubUpstream(() => ({ status: 200, body: { items: [] } }));
});

afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
  await upstream?.close();
});

async function start(env: Record<string, string>): Promise<TestGateway> {
  const gateway = await startTestGateway({ plugins: [examplePlugin], env: { PORTICO_EXAMPLE_BASE_URL: upstream.url, ...env } });
  gateways.push(gateway);
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true, mcpEnabled: true });
  return gateway;
}

/** One REST and one MCP call, each sent with this X-Forwarded-For; the protocol and client address of their records. */
async function callBothDoors(gateway: TestGateway, forwardedFor: string): Promise<Array<[string, string, unknown]>> {
  const rest = await gateway.rest('GET', '/api/v1/example/items', { headers: { 'x-forwarded-for': forwardedFor } });
  expect(rest.status).toBe(200);
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'portico-test', version: '1.0.0' });
  const headers = { authorization: `Bearer ${gateway.key}`, 'x-forwarded-for': forwardedFor };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/api/mcp`), { requestInit: { headers } }));
  try {
    const result = await client.callTool({ name: 'call_example', arguments: { method: 'list_items', params: {} } });
    expect(result.isError ?? false).toBe(false);
  } finally {
    await client.close();
  }
  const page = await gateway.rest('GET', '/api/admin/audit?service=example&operation=list_items');
  expect(page.status).toBe(200);
  const records = (page.body as { records: Array<{ protocol: string; operation: string; clientAddress: unknown }> }).records;
  return records.map((r) => [r.protocol, r.operation, r.clientAddress]);
}

describe('the client address in audit records', () => {
  it('behind a trusted proxy (PORTICO_TRUST_PROXY): the forwarded address, over REST and MCP', async () => {
    const gateway = await start({ PORTICO_TRUST_PROXY: '127.0.0.1, ::1' });
    expect(await callBothDoors(gateway, '198.51.100.9, 203.0.113.7')).toEqual([
      ['mcp', 'list_items', '203.0.113.7'],
      ['rest', 'list_items', '203.0.113.7'],
    ]);
  });

  it('without a trusted proxy: the socket address, whatever X-Forwarded-For claims', async () => {
    const gateway = await start({});
    const records = await callBothDoors(gateway, '203.0.113.7');
    expect(records.map(([protocol]) => protocol)).toEqual(['mcp', 'rest']);
    for (const [, , address] of records) expect(['127.0.0.1', '::1']).toContain(address);
  });
});
