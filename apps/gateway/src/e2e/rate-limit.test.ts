import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** A gateway serving the example plugin against a stub upstream, REST on, with these rate-limit settings. */
async function gatewayWith(env: Record<string, string>): Promise<{ gateway: TestGateway; upstream: StubUpstream }> {
  const upstream = await startStubUpstream(() => ({ status: 200, body: { items: [] } }));
  opened.push(upstream);
  const gateway = await startTestGateway({ plugins: [examplePlugin], env: { PORTICO_EXAMPLE_BASE_URL: upstream.url, ...env } });
  opened.push(gateway);
  await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'example', { restEnabled: true });
  return { gateway, upstream };
}

const list = (gateway: TestGateway, key?: string) => gateway.rest('GET', '/api/v1/example/items', key ? { key } : {});

async function mcpList(client: Client) {
  const result = await client.callTool({ name: 'call_example', arguments: { method: 'list_items', params: {} } });
  return { isError: Boolean(result.isError), body: result.structuredContent };
}

const refusal = {
  error: true,
  code: 'rate_limited',
  message: 'Rate limit of this API key exceeded (60 calls a minute, bursts of 5); retry after 1 s',
};

describe('per-key rate limit, one instance', () => {
  it('defaults to 600 calls a minute with bursts of 60; 0 turns it off; nonsense is refused', () => {
    expect(loadConfig({})).toMatchObject({ rateLimitPerMinute: 600, rateLimitBurst: 60 });
    expect(loadConfig({ PORTICO_RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBe(0);
    expect(() => loadConfig({ PORTICO_RATE_LIMIT_BURST: '0' })).toThrow(/PORTICO_RATE_LIMIT_BURST must be a whole number from 1/);
    expect(() => loadConfig({ PORTICO_RATE_LIMIT_PER_MINUTE: 'lots' })).toThrow(/PORTICO_RATE_LIMIT_PER_MINUTE/);
  });

  it('refuses a burst over the limit with 429, Retry-After and the error body over REST and MCP, audits it, spares other keys, and refills', async () => {
    // one token a second, five at once: the refusal says 1 s, and a second later there is a token again
    const { gateway, upstream } = await gatewayWith({ PORTICO_RATE_LIMIT_PER_MINUTE: '60', PORTICO_RATE_LIMIT_BURST: '5' });
    const client = await connectMcp(gateway.url, gateway.key); // initialize and tools/list are not operation calls
    opened.push(client);

    for (let i = 0; i < 5; i++) expect((await list(gateway)).status).toBe(200);
    const refused = await list(gateway);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual(refusal);
    // the same key over MCP draws on the same bucket: the tool result carries the same body, wait included
    expect(await mcpList(client)).toEqual({ isError: true, body: refusal });
    expect(upstream.requests).toHaveLength(5); // refused calls reach nobody

    // another key is unaffected, and its MCP calls count against its own bucket
    const other = (await gateway.rest('POST', '/api/admin/keys', { body: { name: 'other' } })).body as { key: string; id: string };
    const otherClient = await connectMcp(gateway.url, other.key);
    opened.push(otherClient);
    for (let i = 0; i < 5; i++) expect((await mcpList(otherClient)).isError).toBe(false);
    expect(await mcpList(otherClient)).toEqual({ isError: true, body: refusal });
    expect((await list(gateway, other.key)).status).toBe(429);

    // neither the health check nor the admin API is limited
    expect((await gateway.rest('GET', '/healthz')).status).toBe(200);
    expect((await gateway.rest('GET', '/api/admin/keys')).status).toBe(200);

    // refused calls are audited like any other refused call
    await gateway.runtime.engine.flushAudit();
    const audit = await gateway.runtime.store.listAudit(DEFAULT_WORKSPACE, 100);
    const limited = audit.filter((record) => record.code === 'rate_limited');
    expect(limited.map((r) => [r.status, r.protocol, r.keyId === other.id ? 'other' : 'first']).sort()).toEqual(
      [
        [429, 'mcp', 'first'],
        [429, 'rest', 'first'],
        [429, 'mcp', 'other'],
        [429, 'rest', 'other'],
      ].sort(),
    );
    expect(limited.every((r) => r.service === 'example' && r.operation === 'list_items')).toBe(true);

    // the bucket refills: after the second it asked for, the call goes through
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await list(gateway)).status).toBe(200);
  });

  it('with the limit off (0), a burst far over what the limit would allow all goes through', async () => {
    const { gateway, upstream } = await gatewayWith({ PORTICO_RATE_LIMIT_PER_MINUTE: '0', PORTICO_RATE_LIMIT_BURST: '1' });
    const statuses = await Promise.all(Array.from({ length: 40 }, () => list(gateway).then((r) => r.status)));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(upstream.requests).toHaveLength(40);
  });
});
