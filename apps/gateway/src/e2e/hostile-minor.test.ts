import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';

/** Smaller attacks on a tenant's limits, each as the attacker tried it. */

let gateway: TestGateway;
let readOnly: Client;
let full: Client;

beforeAll(async () => {
  gateway = await startTestGateway({
    plugins: [examplePlugin],
    env: {
      PORTICO_EXAMPLE_CLIENT_ID: 'id',
      PORTICO_EXAMPLE_CLIENT_SECRET: 'secret-value',
      PORTICO_EXAMPLE_OAUTH_AUTHORIZE_URL: 'http://127.0.0.1:9/authorize',
      PORTICO_EXAMPLE_OAUTH_TOKEN_URL: 'http://127.0.0.1:9/token',
    },
  });
  const key = (await gateway.rest('POST', '/api/admin/keys', { body: { name: 'ro', read_only: true } })).body as { key: string };
  readOnly = await connectMcp(gateway.url, key.key);
  full = await connectMcp(gateway.url, gateway.key);
}, 30_000);
afterAll(async () => {
  await readOnly?.close();
  await full?.close();
  await gateway?.close();
});

const text = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.stringify(result.content);

describe('smaller attacks on what a key may see and do', () => {
  it('describe_method does not describe a write operation to a read-only key', async () => {
    const write = [...(gateway.runtime.registry.get('example')?.operations.values() ?? [])].find((op) => op.access !== 'read');
    expect(write).toBeDefined();
    const refused = await readOnly.callTool({ name: 'describe_method', arguments: { service: 'example', method: write?.name } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('read-only');
    const shown = await full.callTool({ name: 'describe_method', arguments: { service: 'example', method: write?.name } });
    expect(shown.isError).toBeFalsy();
  });

  it('does not send back a 2 MB method name', async () => {
    const method = 'm'.repeat(2_000_000);
    for (const [name, args] of [
      ['call_example', { method, params: {} }],
      ['describe_method', { service: 'example', method }],
    ] as const) {
      const res = await fetch(`${gateway.url}/api/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${gateway.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      const body = await res.text();
      expect(body.length, name).toBeLessThan(2_000);
    }
  });

  it('answers an empty JSON-RPC batch with an Invalid Request error, not 202', async () => {
    const res = await fetch(`${gateway.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '[]',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  it('sends the OAuth callback page with a CSP that forbids scripts and framing', async () => {
    const res = await fetch(`${gateway.url}/api/connect/example/callback?state=forged&code=x`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuses integration settings the plugin does not declare, and stores nothing', async () => {
    const res = await gateway.rest('PATCH', '/api/admin/integrations/example', {
      body: { settings: { api_version: '2025-01-01', evil: 'x' } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', message: expect.stringContaining('"evil" is not a setting of Example') });
    const state = await gateway.runtime.engine.integrationState('default', 'example');
    expect(state.settings).not.toHaveProperty('evil');
    expect(state.settings.api_version).not.toBe('2025-01-01');
  });
});
