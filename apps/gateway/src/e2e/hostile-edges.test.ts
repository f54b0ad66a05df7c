import { request as httpRequest } from 'node:http';
import { generateApiKey } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { callWith, dashboardAs } from './hostile.test-support.js';

/**
 * Attacks on the edges: sign-ins sent at once to race the dashboard's sign-in limit; the dashboard's OpenAPI document,
 * which follows the key's services, tool set and read-only flag (as the API's listing does: no writes for a read-only
 * key); `/healthz` asked with a foreign Host, which names neither the version nor the integrations.
 */

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { PORTICO_PLUGINS: 'notes,chat' } });
  expect((await callWith(gateway, gateway.key, 'PUT', '/api/admin/tool-sets/one', { rules: ['notion:list_users'] })).status).toBe(201);
}, 30_000);
afterAll(async () => {
  await gateway?.close();
});

/** A GET with a Host header of our choosing (fetch would not send it). */
function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the dashboard sign-in limit under a race', () => {
  it('checks at most the limit of 300 sign-ins sent at once from one address; the rest are 429', async () => {
    // a gateway of its own: the address is locked out afterwards
    const target = await startTestGateway({ env: { PORTICO_PLUGINS: 'notes' } });
    // well-formed keys that exist nowhere; every request's headers are sent first and its body only once all 300 are
    // in: each sign-in is then in flight at once, the window the race needs
    const keys = Array.from({ length: 300 }, () => generateApiKey());
    const url = new URL(target.url);
    const requests = keys.map((key) => {
      const body = new URLSearchParams({ key }).toString();
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: '/dashboard/sign-in',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) },
      });
      const status = new Promise<number>((resolve, reject) => {
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      req.flushHeaders();
      return { req, body, status };
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const { req, body } of requests) req.end(body);
    const statuses = await Promise.all(requests.map((r) => r.status)).finally(() => target.close());
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBe(300 - checked);
  }, 60_000);
});

describe('OpenAPI documents narrowed to what the key may call', () => {
  const pathsOf = (doc: unknown) => Object.keys((doc as { paths: Record<string, unknown> }).paths);
  const operationsOf = (doc: unknown) =>
    Object.values((doc as { paths: Record<string, Record<string, { operationId: string }>> }).paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
  const accessOf = (name: string) => gateway.runtime.registry.get('notion')?.operations.get(name)?.access;

  it('on the dashboard, follow the signed-in key’s tool set and services as the API’s does', async () => {
    const setKey = (await callWith(gateway, gateway.key, 'POST', '/api/admin/keys', { name: 'set', admin: true, tool_set: 'one' }))
      .body as {
      key: string;
    };
    const inSet = await dashboardAs(gateway, setKey.key);
    const doc = await (await inSet.get('/dashboard/integrations/notion/openapi.json')).json();
    expect(pathsOf(doc)).toEqual(['/users']);
    const slackOnly = (await callWith(gateway, gateway.key, 'POST', '/api/admin/keys', { name: 's', admin: true, services: ['slack'] }))
      .body as {
      key: string;
    };
    const outside = await (await dashboardAs(gateway, slackOnly.key)).get('/dashboard/integrations/notion/openapi.json');
    expect(outside.status).toBe(403);
    expect(await outside.text()).not.toContain('"paths"');
  });

  it('list no write operation to a read-only key, on the dashboard and the API', async () => {
    await callWith(gateway, gateway.key, 'PATCH', '/api/admin/integrations/notion', { rest_enabled: true });
    const full = await gateway.rest('GET', '/api/v1/notion/openapi.json');
    expect(operationsOf(full.body).some((name) => accessOf(name) !== 'read')).toBe(true);
    const readOnly = (await callWith(gateway, gateway.key, 'POST', '/api/admin/keys', { name: 'ro', admin: true, read_only: true }))
      .body as {
      key: string;
    };
    const api = await gateway.rest('GET', '/api/v1/notion/openapi.json', { key: readOnly.key });
    const dashboard = await (await (await dashboardAs(gateway, readOnly.key)).get('/dashboard/integrations/notion/openapi.json')).json();
    for (const doc of [api.body, dashboard]) {
      expect(operationsOf(doc).length).toBeGreaterThan(0);
      expect(operationsOf(doc).filter((name) => accessOf(name) !== 'read')).toEqual([]);
    }
  });
});

describe('/healthz asked with a foreign Host', () => {
  it('refuses a foreign Host without naming the version or the integrations; answers its own', async () => {
    const foreign = await getWithHost('/healthz', 'evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toMatch(/version|notion|slack/);
    const own = await getWithHost('/healthz', new URL(gateway.url).host);
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body)).toMatchObject({ status: 'ok' });
  });
});

describe('the Origin check (minor point)', () => {
  it('refuses an Origin on another port of an allowed name, and accepts the gateway’s own', async () => {
    const url = new URL(gateway.url);
    const send = (origin: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: url.hostname, port: url.port, path: '/api/admin/keys', headers: { authorization: `Bearer ${gateway.key}`, origin } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await send(`http://127.0.0.1:${Number(url.port) === 1 ? 2 : 1}`)).toBe(403);
    expect(await send('http://localhost:3000')).toBe(403);
    expect(await send(`http://127.0.0.1:${url.port}`)).toBe(200);
  });
});
