import { isDeepStrictEqual } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OperationDescription, SandboxServer } from '@portico/core';
import { METHOD_ENUM_LIMIT } from '@portico/core/mcp';
import { pinSandboxClock, RESET_PATH } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, restoreShortened, startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * End to end against every installed plugin's sandbox, through a real gateway: the official MCP client on one side,
 * plain HTTP on the other. For every operation that reads, the ready-to-use example that describe_method offers is
 * called over MCP and over REST, and both must succeed with the same JSON.
 */
let gateway: TestGateway;
let client: Client;

/**
 * The examples name records by ids that carry a date (a Slack message's ts) or a day near the one they were written
 * on (QuickBooks' changed_since): the sandbox clock is pinned to the days they were written against, Slack's seed
 * re-anchored on its own day first.
 */
beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
  const reseed = async (service: string, day: string) => {
    pinSandboxClock(day);
    const sandbox = gateway.sandboxes[service] as SandboxServer;
    expect((await fetch(new URL(RESET_PATH, sandbox.url), { method: 'POST' })).status).toBe(200);
  };
  await reseed('slack', '2024-04-26');
  await reseed('quickbooks', '2025-06-30');
});
afterAll(async () => {
  await stopSandboxedGateway({ gateway, client });
  pinSandboxClock();
});

function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The full description: its REST example is the same call as its MCP example. */
async function describeVia(service: string, method: string): Promise<OperationDescription> {
  const result = await client.callTool({ name: 'describe_method', arguments: { service, method, detail: 'full' } });
  expect(result.isError, `describe ${service}.${method}`).toBeFalsy();
  return result.structuredContent as unknown as OperationDescription;
}

async function callRest(described: OperationDescription) {
  const { method, url, query, body } = described.rest_example;
  return gateway.rest(method, `${url}${queryString(query)}`, body ? { body } : {});
}

describe('every sandboxed integration, over MCP and REST', () => {
  it('lists describe_method and one call tool per sandboxed integration', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'describe_method',
      'search_methods',
      'list_connections',
      'list_events',
      ...Object.keys(gateway.sandboxes).map((s) => `call_${s}`),
    ]);
  });

  // Both tests go through every operation and then list every one that failed, so that one run shows them all.
  it('answers every read operation’s example identically over both protocols', async () => {
    let checked = 0;
    const failures: string[] = [];
    for (const integration of gateway.runtime.registry.list()) {
      for (const operation of integration.operations.values()) {
        if (operation.access !== 'read') continue;
        const described = await describeVia(integration.service, operation.name);
        const mcp = await client.callTool({ name: `call_${integration.service}`, arguments: described.example.arguments });
        const rest = await callRest(described);
        const label = `${integration.service}.${operation.name}`;
        checked++;
        if (mcp.isError) failures.push(`${label} over MCP: ${JSON.stringify(mcp.structuredContent)}`);
        else if (rest.status !== 200) failures.push(`${label} over REST: ${rest.status} ${JSON.stringify(rest.body)}`);
        else if (!isDeepStrictEqual(restoreShortened(mcp.structuredContent, rest.body), rest.body))
          failures.push(`${label}: MCP and REST answers differ`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it('runs every write operation’s example successfully over MCP', async () => {
    const failures: string[] = [];
    for (const integration of gateway.runtime.registry.list()) {
      for (const operation of integration.operations.values()) {
        if (operation.access === 'read') continue;
        const described = await describeVia(integration.service, operation.name);
        const mcp = await client.callTool({ name: `call_${integration.service}`, arguments: described.example.arguments });
        if (mcp.isError) failures.push(`${integration.service}.${operation.name}: ${JSON.stringify(mcp.structuredContent)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('a read-only key', () => {
  it('reaches no write operation over either protocol, and sees only reads in tools/list', async () => {
    const { key } = await gateway.runtime.engine.createApiKey({
      workspaceId: 'default',
      name: 'read-only',
      scopes: { admin: false, services: '*', readOnly: true },
    });
    const readOnly = await connectMcp(gateway.url, key);
    const { tools } = await readOnly.listTools();
    let writes = 0;
    for (const integration of gateway.runtime.registry.list()) {
      const tool = tools.find((t) => t.name === `call_${integration.service}`);
      const reads = [...integration.operations.values()]
        .filter((op) => op.access === 'read')
        .map((op) => op.name)
        .sort();
      const method = tool?.inputSchema.properties?.method as { enum?: string[]; pattern?: string } | undefined;
      if (reads.length <= METHOD_ENUM_LIMIT) {
        expect(method?.enum?.slice().sort(), integration.service).toEqual(reads);
      } else {
        // Too many reads for an enum (Lawmatics has 63): the tool counts the reads alone, and search_methods, which
        // names the operations instead, offers this key only reads.
        expect(method?.enum, integration.service).toBeUndefined();
        expect(tool?.description).toContain(`one of its ${reads.length} operations`);
        // asked to write, and asked to read: whatever the ranking makes of the words, only reads come back
        const hits: string[] = [];
        for (const query of ['create update delete cancel attach detach', 'list get find']) {
          const found = await readOnly.callTool({ name: 'search_methods', arguments: { query, service: integration.service, limit: 25 } });
          hits.push(...(found.structuredContent as { results: Array<{ method: string }> }).results.map((r) => r.method));
        }
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) expect(reads, `${integration.service}.${hit} offered to a read-only key`).toContain(hit);
      }
      expect(tool?.annotations?.readOnlyHint).toBe(true);
      for (const operation of integration.operations.values()) {
        if (operation.access === 'read') continue;
        writes++;
        const described = await describeVia(integration.service, operation.name);
        const mcp = await readOnly.callTool({ name: `call_${integration.service}`, arguments: described.example.arguments });
        expect(mcp.structuredContent, `${operation.name} over MCP`).toMatchObject({ error: true, code: 'forbidden' });
        const { method, url, body } = described.rest_example;
        const rest = await gateway.rest(method, url, { key, ...(body ? { body } : {}) });
        expect(rest.status, `${operation.name} over REST`).toBe(403);
      }
    }
    expect(writes).toBeGreaterThan(15);
    await readOnly.close();
  });
});

describe('search_methods over MCP', () => {
  it('ranks operations of the connected services for a task in words', async () => {
    const result = await client.callTool({ name: 'search_methods', arguments: { query: 'post a message in a Slack channel', limit: 3 } });
    const { results } = result.structuredContent as { results: Array<{ service: string; method: string; tool: string }> };
    expect(results[0]).toMatchObject({ service: 'slack', method: 'send_message', tool: 'call_slack' });
    expect(results.length).toBeLessThanOrEqual(3);
    const scoped = await client.callTool({ name: 'search_methods', arguments: { query: 'list users', service: 'notion' } });
    const scopedResults = (scoped.structuredContent as { results: Array<{ service: string }> }).results;
    expect(scopedResults.length).toBeGreaterThan(0);
    expect(new Set(scopedResults.map((r) => r.service))).toEqual(new Set(['notion']));
    expect(await client.callTool({ name: 'search_methods', arguments: {} })).toMatchObject({
      isError: true,
      structuredContent: { code: 'bad_request' },
    });
  });
});
