import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { type IdentityProvider, startIdentityProvider } from '../identity-provider.test-support.js';

/**
 * A firm's own identity provider (PORTICO_OAUTH_ISSUER), run by the test on loopback: its JWTs are taken on both doors
 * with the scopes its `portico` claim names, and every token it would not have issued, or not for this gateway, is
 * refused with the same 401.
 */
let idp: IdentityProvider;
let gateway: TestGateway;

beforeAll(async () => {
  idp = await startIdentityProvider();
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_OAUTH_ISSUER: idp.issuer, PORTICO_OAUTH_JWKS_REFETCH_SECONDS: '1' } });
});
afterAll(async () => {
  await gateway?.close();
  await idp?.close();
});

const now = () => Math.floor(Date.now() / 1000);
/** What the provider puts in a token for this gateway, for a person allowed to read clio in the default workspace. */
const claims = (extra: Record<string, unknown> = {}) => ({
  iss: idp.issuer,
  sub: 'ada@firm.example',
  aud: `${gateway.url}/api/mcp`,
  iat: now(),
  exp: now() + 300,
  portico: 'workspace:default service:clio',
  ...extra,
});

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'idp-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe('an external identity provider', () => {
  it('is named first by the protected-resource metadata, beside the built-in server', async () => {
    const metadata = (await (await fetch(`${gateway.url}/.well-known/oauth-protected-resource/api/mcp`)).json()) as Record<string, unknown>;
    expect(metadata.authorization_servers).toEqual([idp.issuer, gateway.url]);
  });

  it('its RS256 and ES256 tokens are taken on both doors, with the claim’s scopes: read-only clio', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const token = idp.sign(claims(), { alg });
      const read = await gateway.rest('GET', '/api/v1/clio/matters', { key: token });
      expect(read.status, `${alg}: ${JSON.stringify(read.body)}`).toBe(200);
      const write = await gateway.rest('POST', '/api/v1/clio/contacts', { key: token, body: { name: 'X', type: 'Person' } });
      expect(write.status).toBe(403);
      expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect((await gateway.rest('GET', '/api/v1/lawmatics/contacts', { key: token })).status).toBe(403);

      const client = await mcpClient(token);
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('call_clio');
      expect(tools).not.toContain('call_lawmatics');
      const listed = await client.callTool({ name: 'call_clio', arguments: { method: 'list_matters', params: {} } });
      expect(listed.isError, JSON.stringify(listed.structuredContent)).toBeFalsy();
      const created = await client.callTool({
        name: 'call_clio',
        arguments: { method: 'create_contact', params: { body: { name: 'X', type: 'Person' } } },
      });
      expect(created.structuredContent).toMatchObject({ error: true, code: 'forbidden' });
      await client.close();
    }
  });

  it('`write` in the claim allows writes; an audience of the REST door or the gateway is as good as the MCP door’s', async () => {
    const token = idp.sign(
      claims({ aud: [`${gateway.url}/api/v1`, 'another-api'], portico: ['workspace:default', 'service:clio', 'write'] }),
    );
    const created = await gateway.rest('POST', '/api/v1/clio/contacts', { key: token, body: { name: 'X', type: 'Person' } });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: idp.sign(claims({ aud: gateway.url })) })).status).toBe(200);
  });

  it('a tool set named in the claim narrows the token as it narrows a key: tools/list, describe_method, REST', async () => {
    const saved = await gateway.rest('PUT', '/api/admin/tool-sets/matters', { body: { rules: ['clio:list_matters', 'clio:get_matter'] } });
    expect(saved.status).toBe(201);
    const token = idp.sign(claims({ portico: 'workspace:default tool_set:matters write' }));
    const client = await mcpClient(token);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).filter((name) => name.startsWith('call_'))).toEqual(['call_clio']);
    const properties = tools.find((t) => t.name === 'call_clio')?.inputSchema.properties as Record<string, { enum?: string[] }> | undefined;
    expect([...(properties?.method?.enum ?? [])].sort()).toEqual(['get_matter', 'list_matters']);
    const outside = await client.callTool({ name: 'describe_method', arguments: { service: 'clio', method: 'create_contact' } });
    expect(outside.structuredContent).toMatchObject({ error: true, code: 'forbidden' });
    await client.close();
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: token })).status).toBe(200);
    expect((await gateway.rest('POST', '/api/v1/clio/contacts', { key: token, body: { name: 'X', type: 'Person' } })).status).toBe(403);
  });

  it('fetches the keys again when a token names a new kid (rotation), but a flood of unknown kids right after costs none', async () => {
    const kid = idp.rotate();
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the floor (1 s here) since the last fetch
    const before = idp.fetches;
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: idp.sign(claims(), { kid }) })).status).toBe(200);
    expect(idp.fetches).toBe(before + 1);
    const flood = Array.from({ length: 20 }, (_, i) => idp.sign(claims(), { kid: `unknown-${i}` }));
    const answers = await Promise.all(flood.map((token) => gateway.rest('GET', '/api/v1/clio/matters', { key: token })));
    expect(answers.map((a) => a.status)).toEqual(flood.map(() => 401));
    expect(idp.fetches).toBe(before + 1);
    // the keys known stay good
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: idp.sign(claims(), { kid }) })).status).toBe(200);
  });

  it('refuses, each with the same 401 and invalid_token: bad signature, wrong issuer or audience, expired, not yet valid, unknown kid, alg none, HS256 keyed with the public key, no workspace', async () => {
    const good = idp.sign(claims());
    const [head, body] = good.split('.') as [string, string];
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims(), portico: 'workspace:default service:* write' })).toString('base64url')}.${good.split('.')[2]}`;
    const refused: Record<string, string> = {
      'bad signature': tampered,
      'signature of another key under a known kid': idp.forge.foreignKey(claims()),
      'wrong issuer': idp.sign(claims({ iss: `${idp.issuer}/other` })),
      'wrong audience': idp.sign(claims({ aud: 'https://another-gateway.example/api/mcp' })),
      'no audience': idp.sign(claims({ aud: undefined })),
      expired: idp.sign(claims({ exp: now() - 120 })),
      'no expiry': idp.sign(claims({ exp: undefined })),
      'not yet valid': idp.sign(claims({ nbf: now() + 600 })),
      'unknown kid': idp.sign(claims(), { kid: 'nobody-has-this-key' }),
      'alg none': idp.forge.none(claims()),
      'alg none with the original signature removed': `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`,
      'HS256 keyed with the public key': idp.forge.hmacWithPublicKey(claims()),
      'no workspace in the claim': idp.sign(claims({ portico: 'service:clio' })),
      'a workspace that does not exist': idp.sign(claims({ portico: 'workspace:nowhere service:clio' })),
    };
    for (const [why, token] of Object.entries(refused)) {
      const answer = await gateway.rest('GET', '/api/v1/clio/matters', { key: token });
      expect(answer.status, why).toBe(401);
      expect(answer.body, why).toEqual({ error: true, code: 'unauthorized', message: 'The access token is not valid: authorize again' });
      expect(answer.headers.get('www-authenticate'), why).toContain('error="invalid_token"');
      const mcp = await fetch(`${gateway.url}/api/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(mcp.status, why).toBe(401);
    }
    // a small clock difference is forgiven
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: idp.sign(claims({ exp: now() - 5 })) })).status).toBe(200);
  });

  it('API keys and the built-in server’s tokens keep working beside it', async () => {
    expect((await gateway.rest('GET', '/api/v1/clio/matters')).status).toBe(200);
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: 'portico_at_unknown' })).status).toBe(401);
  });
});
