import { request } from 'node:http';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * One path, one guard: the Host check, the doors' dispatch and the key checks compare paths exactly, so the router must
 * too. A spelling of a guarded route in other letter case, with a trailing slash or with a letter percent-encoded is
 * either refused exactly as the route itself is, or is no route at all (404); it never reaches a handler past a guard.
 */

const ALLOWED = 'gateway.example';
const FOREIGN = 'evil.example';

/** Every route behind a guard (Host check and/or key check), as its method and a concrete path. */
const ADMIN_ROUTES: Array<[string, string]> = [
  ['GET', '/keys'],
  ['POST', '/keys'],
  ['GET', '/keys/k1'],
  ['DELETE', '/keys/k1'],
  ['GET', '/integrations'],
  ['PATCH', '/integrations/example'],
  ['GET', '/connections'],
  ['GET', '/connections/example'],
  ['PUT', '/connections/example'],
  ['DELETE', '/connections/example'],
  ['POST', '/connections/example/authorize'],
  ['GET', '/tool-sets'],
  ['GET', '/tool-sets/t1'],
  ['PUT', '/tool-sets/t1'],
  ['DELETE', '/tool-sets/t1'],
  ['GET', '/audit'],
];
const GUARDED: Array<[string, string]> = [
  ['GET', '/healthz'],
  ['GET', '/metrics'],
  ['POST', '/api/mcp'],
  ['GET', '/api/mcp'],
  ['DELETE', '/api/mcp'],
  ['GET', '/api/mcp/sse'],
  ['POST', '/api/mcp/messages'],
  ['GET', '/api/v1/connections'],
  ['GET', '/api/v1/example/openapi.json'],
  ['GET', '/api/v1/example/items'],
  ['POST', '/api/v1/example/items'],
  ['GET', '/api/connect/example'],
  ['GET', '/api/connect/example/callback'],
  ['GET', '/api/admin/workspaces'],
  ['POST', '/api/admin/workspaces'],
  ['GET', `/api/admin/workspaces/${DEFAULT_WORKSPACE}`],
  ['PATCH', `/api/admin/workspaces/${DEFAULT_WORKSPACE}`],
  ['DELETE', `/api/admin/workspaces/${DEFAULT_WORKSPACE}`],
  ...ADMIN_ROUTES.map(([method, path]): [string, string] => [method, `/api/admin${path}`]),
  ...ADMIN_ROUTES.map(([method, path]): [string, string] => [method, `/api/admin/workspaces/${DEFAULT_WORKSPACE}${path}`]),
];

/** The other spellings of a path: upper case, each segment capitalised, a trailing slash, a percent-encoded letter. */
function variants(path: string): string[] {
  const capitalised = path.replace(/\/([a-z])/g, (_, letter: string) => `/${letter.toUpperCase()}`);
  const encoded = path.replace(/\/([a-z])/, (_, letter: string) => `/%${letter.charCodeAt(0).toString(16)}`);
  return [path.toUpperCase(), capitalised, `${path}/`, `${path.toUpperCase()}/`, encoded];
}

interface Answer {
  status: number;
  code?: string;
}

function send(port: number, method: string, path: string, host: string, key?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const req = request({ port, host: '127.0.0.1', method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(Buffer.concat(chunks).toString()) as { code?: string }).code;
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, ...(code ? { code } : {}) });
      });
      // the legacy SSE stream stays open: its head is the answer
      if (res.headers['content-type']?.startsWith('text/event-stream')) {
        resolve({ status: res.statusCode ?? 0 });
        res.destroy();
      }
    });
    req.on('error', reject);
    req.end(method === 'GET' || method === 'DELETE' ? undefined : '{}');
  });
}

let gateway: TestGateway;
let port: number;
let readOnlyKey: string;

beforeAll(async () => {
  gateway = await startTestGateway({
    plugins: [examplePlugin],
    env: { PORTICO_ALLOWED_HOSTS: ALLOWED, PORTICO_MCP_LEGACY_SSE: 'on' },
  });
  port = Number(new URL(gateway.url).port);
  const created = await new Promise<string>((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/admin/keys',
        headers: { host: ALLOWED, authorization: `Bearer ${gateway.key}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ name: 'not an admin', admin: false, operator: false }));
  });
  readOnlyKey = (JSON.parse(created) as { key: string }).key;
});

afterAll(async () => {
  await gateway?.close();
});

/** A variant answers as the route itself does under the same guard, or 404: never a handler's answer past the guard. */
async function expectSameGuard(
  host: string,
  key: string | undefined,
  canonicalExpected: (method: string, path: string) => Answer | undefined,
) {
  const seen: string[] = [];
  for (const [method, path] of GUARDED) {
    const canonical = await send(port, method, path, host, key);
    const expected = canonicalExpected(method, path);
    if (expected) expect(canonical, `${method} ${path}`).toEqual(expected);
    for (const variant of variants(path)) {
      const answer = await send(port, method, variant, host, key);
      const same = answer.status === canonical.status && answer.code === canonical.code;
      const absent = answer.status === 404 && answer.code === 'not_found';
      if (!same && !absent) seen.push(`${method} ${variant}: ${answer.status} ${answer.code ?? ''} (the route: ${canonical.status})`);
    }
  }
  expect(seen).toEqual([]);
}

describe('every spelling of a guarded route meets the same guard', () => {
  it('the Host check: a foreign Host is refused on every spelling, with an operator key', async () => {
    await expectSameGuard(FOREIGN, gateway.key, () => ({ status: 403, code: 'forbidden' }));
  });

  it('the key check: without a key, every spelling of an authenticated route answers 401 or 404', async () => {
    // /healthz and the OAuth callback take no key; GET and DELETE /api/mcp answer 405 to anyone
    const open = (method: string, path: string) =>
      path === '/healthz' || path.endsWith('/callback') || (path === '/api/mcp' && method !== 'POST');
    await expectSameGuard(ALLOWED, undefined, (method, path) => (open(method, path) ? undefined : { status: 401, code: 'unauthorized' }));
  });

  it('the admin check: a key without admin rights is refused on every spelling of an admin route', async () => {
    await expectSameGuard(ALLOWED, readOnlyKey, (_, path) =>
      path.startsWith('/api/admin') || path === '/metrics' ? { status: 403, code: 'forbidden' } : undefined,
    );
  });

  it('the route itself still answers under its one spelling', async () => {
    expect(await send(port, 'GET', '/healthz', ALLOWED)).toEqual({ status: 200 });
    expect(await send(port, 'GET', '/api/admin/keys', ALLOWED, gateway.key)).toEqual({ status: 200 });
  });
});
