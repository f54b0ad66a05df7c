import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Cross-origin calls to the doors, over real HTTP: a listed origin's preflight is answered and its answers (refusals
 * included) are readable by its page; an unlisted origin gets no CORS header and stays refused by the Origin check;
 * without the setting nothing changes.
 */
const APP = 'https://app.example.com';
const LOCAL_APP = 'http://127.0.0.1:5173';

let gateway: TestGateway;
let plain: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_CORS_ORIGINS: `${APP}, ${LOCAL_APP}` } });
  plain = await startTestGateway();
});
afterAll(async () => {
  await gateway?.close();
  await plain?.close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
});

const preflight = (url: string, path: string, origin: string, method = 'POST') =>
  fetch(`${url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  });

const post = (url: string, origin: string, key?: string) =>
  fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: {
      origin,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: INITIALIZE,
  });

describe('CORS on the doors for the origins of PORTICO_CORS_ORIGINS', () => {
  it('answers a listed origin’s preflight of /api/mcp with what an MCP client sends and reads', async () => {
    for (const origin of [APP, LOCAL_APP]) {
      const response = await preflight(gateway.url, '/api/mcp', origin);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-methods')).toBe('POST, GET, DELETE, OPTIONS');
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id',
      );
      expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(response.headers.get('vary')).toMatch(/origin/i);
    }
  });

  it('lets the listed origin read a 401 and its WWW-Authenticate, and call with a key', async () => {
    const refused = await post(gateway.url, APP);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
    expect(refused.headers.get('vary')).toMatch(/origin/i);
    expect(refused.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version');
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');

    const answered = await post(gateway.url, APP, gateway.key);
    expect(answered.status).toBe(200);
    expect(answered.headers.get('access-control-allow-origin')).toBe(APP);
    expect(((await answered.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('portico');
  });

  it('answers the REST door’s preflight too, but not the admin API’s', async () => {
    const rest = await preflight(gateway.url, '/api/v1/notion/users', APP, 'GET');
    expect(rest.status).toBe(204);
    expect(rest.headers.get('access-control-allow-origin')).toBe(APP);
    expect(rest.headers.get('access-control-allow-methods')).toContain('PATCH');
    const call = await fetch(`${gateway.url}/api/v1/notion/users`, { headers: { origin: APP } });
    expect(call.status).toBe(401);
    expect(call.headers.get('access-control-allow-origin')).toBe(APP);

    const admin = await fetch(`${gateway.url}/api/admin/keys`, { headers: { origin: APP, authorization: `Bearer ${gateway.key}` } });
    expect(admin.status).toBe(403);
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives an unlisted origin no CORS header, and its calls stay refused by the Origin check', async () => {
    for (const origin of ['https://evil.example', 'https://app.example.com:8443', 'http://app.example.com', 'null']) {
      const response = await preflight(gateway.url, '/api/mcp', origin);
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull();
      const call = await post(gateway.url, origin, gateway.key);
      expect(call.status, origin).toBe(403);
      expect(call.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('without the setting, a preflight of /api/mcp is answered as before and carries no CORS header', async () => {
    const response = await preflight(plain.url, '/api/mcp', APP);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.status).toBe(403);
    const sameOrigin = await post(plain.url, plain.url, plain.key);
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.headers.get('access-control-allow-origin')).toBeNull();
    expect(sameOrigin.headers.get('vary')).toBeNull();
  });

  it('refuses a setting that is not a list of origins', () => {
    for (const value of ['*', 'https://app.example.com/', 'app.example.com', 'ftp://files.example', 'https://app.example.com/path']) {
      expect(() => loadConfig({ PORTICO_CORS_ORIGINS: value }), value).toThrow(/PORTICO_CORS_ORIGINS/);
    }
    expect(loadConfig({ PORTICO_CORS_ORIGINS: ' https://a.example ,http://127.0.0.1:3000' }).corsOrigins).toEqual([
      'https://a.example',
      'http://127.0.0.1:3000',
    ]);
  });
});
