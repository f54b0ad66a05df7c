import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createClient } from '@libsql/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';
import { createLogger } from '../observability/logger.js';

/**
 * Grants as principals, against an upstream that records every request it receives: the OpenAPI document's `oauth2`
 * scheme leads to a token that works on the REST door; a tool-set grant sees only its set and a read-only grant cannot
 * write, on both doors; and afterwards no token, code or verifier the flows produced is found upstream, in the database
 * or in the logs (which the test captures at debug level).
 */
type Json = Record<string, unknown>;

let upstream: StubUpstream;
let gateway: TestGateway;
const logs: string[] = [];
/** Every secret an OAuth flow of this file produced or sent: codes, verifiers, access and refresh tokens. */
const secrets: string[] = [];
const mcpClients: Client[] = [];

beforeAll(async () => {
  upstream = await startStubUpstream(() => ({ status: 200, body: { data: [] } }));
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const env = { PORTICO_CLIO_BASE_URL: upstream.url, PORTICO_LAWMATICS_BASE_URL: upstream.url };
  gateway = await startTestGateway({ env, logger: createLogger('debug', sink) });
  for (const service of ['clio', 'lawmatics']) {
    await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, service, `upstream-token-${service}`);
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, service, { restEnabled: true });
  }
});
afterAll(async () => {
  for (const client of mcpClients) await client.close();
  await gateway?.close();
  await upstream?.close();
});

async function grant(choices: Record<string, string>, endpoints?: { authorize: string; token: string }) {
  const obtained = await obtainGrant(gateway.url, gateway.key, choices, 'Grant suite client', endpoints);
  secrets.push(...obtained.secrets);
  return obtained;
}

async function mcpAs(token: string): Promise<Client> {
  const client = await connectMcp(gateway.url, token);
  mcpClients.push(client);
  return client;
}

/** The authorization code flow of a document's `oauth2` scheme. */
function oauthFlow(document: Json): Json {
  const schemes = (document.components as Json).securitySchemes as Record<string, Json>;
  const flows = schemes.oauth2?.flows as Json | undefined;
  return (flows?.authorizationCode ?? {}) as Json;
}

describe('a token obtained as the OpenAPI document describes', () => {
  it('names Portico’s own authorize and token endpoints beside the API key, and the token works on the REST door', async () => {
    const metadata = (await (await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).json()) as Json;
    for (const service of ['clio', 'lawmatics']) {
      const document = (await gateway.rest('GET', `/api/v1/${service}/openapi.json`)).body as Json;
      const schemes = (document.components as Json).securitySchemes as Record<string, Json>;
      const flow = oauthFlow(document);
      expect(flow.authorizationUrl, service).toBe(metadata.authorization_endpoint);
      expect(flow.tokenUrl, service).toBe(metadata.token_endpoint);
      const apiKeyScheme = service === 'lawmatics' ? 'bearerApiKey' : 'bearerAuth';
      expect(schemes[apiKeyScheme]).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(document.security).toEqual([{ [apiKeyScheme]: [] }, { oauth2: [] }]);
    }

    // a client generated from the CRM's document: its flow, then a read operation of the document at its server URL
    const document = (await gateway.rest('GET', '/api/v1/lawmatics/openapi.json')).body as Json;
    const flow = oauthFlow(document);
    const obtained = await grant(
      { access_lawmatics: 'read', expires: '1' },
      { authorize: flow.authorizationUrl as string, token: flow.tokenUrl as string },
    );
    const server = ((document.servers as Json[])[0] as Json).url as string;
    const path = Object.entries(document.paths as Record<string, Json>).find(
      ([p, item]) => !p.includes('{') && (item.get as Json | undefined)?.['x-portico-access'] === 'read',
    )?.[0] as string;
    const before = upstream.requests.length;
    const answer = await fetch(`${server}${path}`, { headers: { authorization: `Bearer ${obtained.accessToken}` } });
    expect(answer.status, `GET ${path}`).toBe(200);
    expect(upstream.requests.length).toBe(before + 1);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer upstream-token-lawmatics');
  });
});

describe('the scope of a grant, on both doors', () => {
  it('a tool-set grant sees only its set: tools/list, describe_method, REST', async () => {
    const saved = await gateway.rest('PUT', '/api/admin/tool-sets/intake', {
      body: { name: 'Intake', rules: ['clio:list_matters', 'clio:get_matter'] },
    });
    expect(saved.status).toBe(201);
    const obtained = await grant({ access_clio: 'write', tool_set: 'intake', expires: '1' });
    const client = await mcpAs(obtained.accessToken);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).filter((name) => name.startsWith('call_'))).toEqual(['call_clio']);
    const properties = tools.find((t) => t.name === 'call_clio')?.inputSchema.properties as Record<string, { enum?: string[] }> | undefined;
    const methods = properties?.method?.enum;
    expect([...(methods ?? [])].sort()).toEqual(['get_matter', 'list_matters']);
    expect((await client.callTool({ name: 'describe_method', arguments: { service: 'clio', method: 'get_matter' } })).isError).toBeFalsy();
    for (const [service, method] of [
      ['clio', 'create_contact'],
      ['lawmatics', 'list_contacts'],
    ]) {
      const outside = await client.callTool({ name: 'describe_method', arguments: { service, method } });
      expect(outside.structuredContent, `${service}:${method}`).toMatchObject({ error: true, code: 'forbidden' });
    }

    const before = upstream.requests.length;
    for (const [method, path] of [
      ['POST', '/api/v1/clio/contacts'],
      ['GET', '/api/v1/clio/tasks'],
      ['GET', '/api/v1/lawmatics/contacts'],
    ] as const) {
      const refused = await gateway.rest(method, path, {
        key: obtained.accessToken,
        ...(method === 'POST' ? { body: { name: 'X', type: 'Person' } } : {}),
      });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    }
    expect(upstream.requests.length).toBe(before);
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: obtained.accessToken })).status).toBe(200);
    expect(upstream.requests.length).toBe(before + 1);
  });

  it('a read-only grant cannot write on either door: both answer 403 with a step-up challenge, nothing reaches the upstream', async () => {
    const obtained = await grant({ access_clio: 'read', expires: '1' });
    const client = await mcpAs(obtained.accessToken);
    const before = upstream.requests.length;
    const mcp = await fetch(`${gateway.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${obtained.accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'call_clio', arguments: { method: 'create_contact', params: { body: { name: 'X', type: 'Person' } } } },
      }),
    });
    expect(mcp.status).toBe(403);
    const rest = await gateway.rest('POST', '/api/v1/clio/contacts', { key: obtained.accessToken, body: { name: 'X', type: 'Person' } });
    expect(rest.status).toBe(403);
    for (const challenge of [mcp.headers.get('www-authenticate'), rest.headers.get('www-authenticate')]) {
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain('scope="clio:read clio:write"');
    }
    expect(((await mcp.json()) as { message: string }).message).toMatch(/^This token is read-only; create_contact writes data/);
    expect(upstream.requests.length).toBe(before);
    const read = await client.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } });
    expect(read.isError).toBeFalsy();
    expect(upstream.requests.length).toBe(before + 1);
  });
});

describe('where the gateway’s tokens never go', () => {
  it('a refreshed grant calls both doors; then no token, code or verifier is upstream, in the database or in the logs', async () => {
    const obtained = await grant({ access_clio: 'write', expires: '1' });
    const refreshed = await fetch(`${gateway.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: obtained.refreshToken, client_id: obtained.clientId }),
    });
    expect(refreshed.status).toBe(200);
    const tokens = (await refreshed.json()) as { access_token: string; refresh_token: string };
    secrets.push(tokens.access_token, tokens.refresh_token);
    const client = await mcpAs(tokens.access_token);
    expect((await client.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } })).isError).toBeFalsy();
    const created = await gateway.rest('POST', '/api/v1/clio/contacts', { key: tokens.access_token, body: { name: 'X', type: 'Person' } });
    expect(created.status).toBeLessThan(300);

    expect(secrets.length).toBeGreaterThanOrEqual(18); // four grants, a refresh: the search below has something to find
    // upstream: every request's URL, headers and body
    expect(upstream.requests.length).toBeGreaterThan(3);
    for (const request of upstream.requests) {
      const seen = JSON.stringify(request);
      expect(seen).not.toContain('portico_'); // no token, code or API key of the gateway, whatever its kind
      for (const secret of secrets) expect(seen.includes(secret), 'a secret reached the upstream').toBe(false);
      expect(request.headers.authorization).toMatch(/^Bearer upstream-token-(clio|lawmatics)$/);
    }

    // the database: its files as bytes, and every row of every table as text
    const dataDir = gateway.runtime.config.dataDir;
    for (const file of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, file));
      for (const secret of secrets) expect(bytes.includes(secret), `a secret in ${file}`).toBe(false);
    }
    const db = createClient({ url: `file:${join(dataDir, 'portico.db')}` });
    const tables = (await db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((row) => String(row.name));
    let dump = '';
    for (const table of tables) dump += JSON.stringify((await db.execute(`SELECT * FROM "${table}"`)).rows);
    db.close();
    expect(tables).toEqual(expect.arrayContaining(['oauth_grants', 'oauth_tokens', 'oauth_codes']));
    expect(dump).toContain('Grant suite client'); // the dump holds the grants
    for (const secret of secrets) expect(dump.includes(secret), 'a secret in a table').toBe(false);

    // the logs, at debug level
    const logged = logs.join('');
    expect(logged).toContain('/oauth/token'); // the token requests were logged
    for (const secret of secrets) expect(logged.includes(secret), 'a secret in the logs').toBe(false);
  });
});
