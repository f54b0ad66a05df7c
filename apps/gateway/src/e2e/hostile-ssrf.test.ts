import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.js';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { callWith, dashboardAs, tenantAdmin } from './hostile.test-support.js';

/**
 * A workspace admin may point Notion's base URL at a loopback service (`http://127.0.0.1:<port>/metrics#`), where the
 * `#` would swallow the operation's path and the service would receive the workspace's upstream token. Here ten inward forms are tried as a workspace admin through the admin API, the
 * dashboard form and the CLI (`--workspace`): every one is refused and stored nowhere; stored anyway (straight into the
 * database), a call over REST and MCP is refused before any connection; a recorder on loopback receives nothing. An
 * operator's explicit allowance (PORTICO_WORKSPACE_UPSTREAM_HOSTS) still works, with the path appended as a path.
 */

let recorder: StubUpstream;
const gateways: TestGateway[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  recorder = await startStubUpstream(() => ({ status: 200, body: { object: 'list', results: [], has_more: false, next_cursor: null } }));
});
afterAll(async () => {
  for (const client of clients) await client.close();
  for (const gateway of gateways) await gateway.close();
  await recorder?.close();
});

function inwardForms(): string[] {
  const port = new URL(recorder.url).port;
  return [
    `http://127.0.0.1:${port}/metrics#`, // loopback, and a # to swallow the path
    `http://[::1]:${port}/`,
    `http://2130706433:${port}/`, // 127.0.0.1 in decimal
    `http://0177.0.0.1:${port}/`, // 127.0.0.1 in octal
    'http://10.0.0.5/v1', // private
    'http://169.254.10.5/', // link-local
    'http://169.254.169.254/latest/', // cloud metadata
    `http://localhost:${port}/`, // a name resolving to loopback
    'https://api.notion.com/v1?', // the plugin's own host, with a ? to swallow the path
    `https://api.notion.com@127.0.0.1:${port}/`, // userinfo
  ];
}

async function cli(argv: string[], env: Record<string, string>) {
  const err: string[] = [];
  const io = { out: () => {}, err: (line: string) => err.push(line), stdin: () => '' };
  const code = await main(argv, { ...env, PORTICO_LOG_LEVEL: 'silent' }, io);
  return { code, err: err.join('\n') };
}

describe('a workspace admin setting an inward base URL', () => {
  it('is refused on the admin API, the dashboard form and the CLI, and nothing reaches the loopback recorder', async () => {
    const gateway = await startTestGateway({ env: { PORTICO_PLUGINS: 'notes' } });
    gateways.push(gateway);
    const admin = await tenantAdmin(gateway, 'tenant');
    expect((await callWith(gateway, admin.key, 'PUT', '/api/admin/connections/notion', { token: 'secret_tenant_token' })).status).toBe(200);
    expect((await callWith(gateway, admin.key, 'PATCH', '/api/admin/integrations/notion', { rest_enabled: true })).status).toBe(200);
    const user = (await callWith(gateway, admin.key, 'POST', '/api/admin/keys', { name: 'agent' })).body as { key: string };
    const dashboard = await dashboardAs(gateway, admin.key);
    const env = { PORTICO_DATA_DIR: gateway.runtime.config.dataDir, PORTICO_PLUGINS: 'notes' };
    const stored = async () => (await gateway.runtime.engine.integrationState('tenant', 'notion')).baseUrl;
    const client = await connectMcp(gateway.url, user.key);
    clients.push(client);

    for (const url of inwardForms()) {
      for (const path of ['/api/admin/integrations/notion', '/api/admin/workspaces/tenant/integrations/notion']) {
        const res = await callWith(gateway, admin.key, 'PATCH', path, { base_url: url });
        expect(res.status, `${path} ${url}`).toBe(400);
        expect(res.body, url).toEqual({ error: true, code: 'bad_request', message: expect.stringMatching(/^The base URL /) });
      }
      const form = await dashboard.post('/dashboard/integrations/notion/base-url', { base_url: url });
      expect(form.status, url).toBe(303);
      expect(await (await dashboard.get(form.headers.get('location') as string)).text(), url).toMatch(
        /class="flash error"[^<]*>[^<]*The base URL/,
      );
      const command = await cli(['integrations', 'configure', 'notion', '--workspace', 'tenant', '--base-url', url], env);
      expect(command.code, url).toBe(2);
      expect(command.err, url).toContain('The base URL');
      expect(await stored(), url).toBeNull();

      // stored before the rule (or straight into the database): refused before any connection, on both doors
      const state = await gateway.runtime.engine.integrationState('tenant', 'notion');
      await gateway.runtime.engine.store.putIntegration({
        workspaceId: 'tenant',
        service: 'notion',
        mcpEnabled: state.mcpEnabled,
        restEnabled: state.restEnabled,
        baseUrl: url,
        settings: {},
        updatedAt: new Date().toISOString(),
      });
      const rest = await callWith(gateway, user.key, 'GET', '/api/v1/notion/users');
      expect(rest.status, url).toBe(502);
      expect(JSON.stringify(rest.body), url).toMatch(/The base URL of Notion/);
      const mcp = await client.callTool({ name: 'call_notion', arguments: { method: 'list_users', params: {} } });
      expect(mcp.isError, url).toBe(true);
      expect(JSON.stringify(mcp.content), url).toMatch(/The base URL of Notion/);
      await gateway.runtime.engine.store.putIntegration({
        ...state,
        workspaceId: 'tenant',
        baseUrl: null,
        updatedAt: new Date().toISOString(),
      });
    }
    expect(recorder.requests).toEqual([]);
  }, 60_000);

  it('still works on a host the operator approves, with the operation’s path appended as a path', async () => {
    const gateway = await startTestGateway({ env: { PORTICO_PLUGINS: 'notes', PORTICO_WORKSPACE_UPSTREAM_HOSTS: '127.0.0.1' } });
    gateways.push(gateway);
    const admin = await tenantAdmin(gateway, 'tenant');
    await callWith(gateway, admin.key, 'PUT', '/api/admin/connections/notion', { token: 'secret_tenant_token' });
    const set = await callWith(gateway, admin.key, 'PATCH', '/api/admin/integrations/notion', {
      rest_enabled: true,
      base_url: `${recorder.url}/v1`,
    });
    expect(set.status).toBe(200);
    // still refused: another loopback form than the approved one, userinfo, a # suffix
    for (const url of [`http://[::1]:${new URL(recorder.url).port}/`, `${recorder.url}/metrics#`, `http://u:p@127.0.0.1:1/`]) {
      expect((await callWith(gateway, admin.key, 'PATCH', '/api/admin/integrations/notion', { base_url: url })).status, url).toBe(400);
    }
    const res = await callWith(gateway, admin.key, 'GET', '/api/v1/notion/users');
    expect(res.status).toBe(200);
    expect(recorder.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/users']);
    expect(recorder.requests[0]?.headers.authorization).toBe('Bearer secret_tenant_token');
  }, 30_000);
});
