import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_WORKSPACE, type SandboxServer } from '@portico/core';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * A token refresh that a call starts is part of that call: the request to the provider's token URL carries the call's
 * trace id in `traceparent`, as do the call's upstream requests before and after it. Clio's sandbox plays the API and
 * its OAuth provider; a recording proxy in front of it (our own, on loopback) keeps the headers of every request the
 * gateway sends there.
 */
let sandbox: SandboxServer;
let proxy: Server;
let gateway: TestGateway;
const seen: { method: string; path: string; traceparent: string | undefined }[] = [];

/** Passes every request on to the sandbox and records its method, path and traceparent. */
function recordingProxy(target: string): Promise<{ server: Server; origin: string }> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0] ?? '',
      traceparent: req.headers.traceparent as string | undefined,
    });
    const forward = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

beforeAll(async () => {
  sandbox = await (await (clioPlugin.sandbox as NonNullable<typeof clioPlugin.sandbox>)()).startSandbox();
  const sandboxUrl = new URL(sandbox.url);
  const recorded = await recordingProxy(sandboxUrl.origin);
  proxy = recorded.server;
  gateway = await startTestGateway({
    plugins: [clioPlugin],
    env: {
      PORTICO_CLIO_BASE_URL: `${recorded.origin}${sandboxUrl.pathname}`,
      PORTICO_CLIO_CLIENT_ID: 'portico-test-app',
      PORTICO_CLIO_CLIENT_SECRET: 'portico-test-secret',
      PORTICO_CLIO_OAUTH_AUTHORIZE_URL: `${sandboxUrl.origin}/oauth/authorize`,
      PORTICO_CLIO_OAUTH_TOKEN_URL: `${recorded.origin}/oauth/token`,
    },
  });
  await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, 'clio', { restEnabled: true });
  const start = await fetch(`${gateway.url}/api/connect/clio`, { headers: { authorization: `Bearer ${gateway.key}` }, redirect: 'manual' });
  const atClio = await fetch(new URL(start.headers.get('location') as string), { redirect: 'manual' });
  expect((await fetch(new URL(atClio.headers.get('location') as string))).status).toBe(200);
});
afterAll(async () => {
  await gateway?.close();
  proxy?.close();
  await sandbox?.close();
});

describe('a token refresh started by a call', () => {
  it('carries the call’s trace id to the token URL, as the call’s requests before and after it do', async () => {
    const apiPath = new URL(sandbox.url).pathname.replace(/\/$/, '');
    const failed = await fetch(`${new URL(sandbox.url).origin}/__sandbox/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 401, match: `${apiPath}/users/who_am_i` }),
    });
    expect(failed.status).toBe(200);
    seen.length = 0;
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await gateway.rest('GET', '/api/v1/clio/users/who_am_i?fields=id,name', {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // the refused request, the refresh, the request sent again: in that order, each with the call's trace id
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${apiPath}/users/who_am_i.json`,
      'POST /oauth/token',
      `GET ${apiPath}/users/who_am_i.json`,
    ]);
    for (const r of seen) expect(r.traceparent, `${r.method} ${r.path}`).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    // each request is a span of its own within the trace
    expect(new Set(seen.map((r) => r.traceparent)).size).toBe(3);
  });
});
