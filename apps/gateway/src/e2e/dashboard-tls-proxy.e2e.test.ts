import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * The dashboard behind a proxy that ends TLS (Debian's HAProxy): the browser is on https, the gateway sees plain HTTP
 * and trusts no X-Forwarded-Proto. With an https PORTICO_PUBLIC_URL the session cookie is still `Secure`, set through
 * `ctx.cookies` without the `cookies` package refusing it, and the session works through the proxy. Needs HAProxy and
 * openssl; mandatory with PORTICO_REQUIRE_HAPROXY=1 (CI).
 */
const HAPROXY = process.env.PORTICO_HAPROXY ?? '/usr/sbin/haproxy';

function problem(): string | undefined {
  const missing = !existsSync(HAPROXY)
    ? `no HAProxy at ${HAPROXY} (apt-get install haproxy)`
    : spawnSync('openssl', ['version']).status !== 0
      ? 'no openssl (apt-get install openssl)'
      : undefined;
  if (!missing) return undefined;
  if (process.env.PORTICO_REQUIRE_HAPROXY === '1') throw new Error(`${missing}, and PORTICO_REQUIRE_HAPROXY=1 makes this test mandatory`);
  console.warn(`skipping: ${missing}`);
  return missing;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A Set-Cookie header's attributes, names in lower case (as browsers read them). */
function attributes(header: string): Map<string, string> {
  return new Map(
    header
      .split(/;\s*/)
      .slice(1)
      .map((a) => [(a.split('=')[0] as string).toLowerCase(), a.split(/=(.*)/s)[1] ?? '']),
  );
}

const skip = problem();

describe.skipIf(skip)('the dashboard behind a proxy that ends TLS', () => {
  let gateway: TestGateway;
  let haproxy: ChildProcess | undefined;
  let output = '';
  let dir = '';
  let origin = '';
  let ca: Buffer;

  /** One request through the proxy, over https, trusting only the test's own certificate. */
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
      const req = request(`${origin}${path}`, { method, ca, agent: false, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      });
      req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${method} ${path}`)));
      req.on('error', reject);
      req.end(body);
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portico-dashboard-tls-'));
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ].concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    ca = readFileSync(join(dir, 'cert.pem'));
    writeFileSync(join(dir, 'proxy.pem'), Buffer.concat([ca, readFileSync(join(dir, 'key.pem'))]));
    const listen = await freePort();
    origin = `https://127.0.0.1:${listen}`;
    gateway = await startTestGateway({ env: { PORTICO_PUBLIC_URL: origin } });
    const port = (gateway.server.address() as AddressInfo).port;
    writeFileSync(
      join(dir, 'haproxy.cfg'),
      [
        'defaults',
        '  mode http',
        '  timeout connect 5s',
        '  timeout client 30s',
        '  timeout server 30s',
        'frontend tls',
        `  bind 127.0.0.1:${listen} ssl crt ${join(dir, 'proxy.pem')}`,
        '  default_backend gateway',
        'backend gateway',
        `  server gateway1 127.0.0.1:${port}`,
        '',
      ].join('\n'),
    );
    haproxy = spawn(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    haproxy.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const until = Date.now() + 10_000;
    for (;;) {
      const ok = await send('GET', '/dashboard/sign-in').then(
        (answer) => answer.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > until) throw new Error(`HAProxy did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 30_000);

  afterAll(async () => {
    haproxy?.kill('SIGTERM');
    await gateway?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('signs in to a Secure session cookie, opens a page with it and signs out', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin };
    const signIn = await send('POST', '/dashboard/sign-in', form, new URLSearchParams({ key: gateway.key }).toString());
    expect(signIn.status, `${signIn.text.slice(0, 500)}\n${output}`).toBe(303);
    const header = (signIn.headers['set-cookie'] ?? [])[0] as string;
    expect(header).toMatch(/^portico_session=[A-Za-z0-9_-]{43};/);
    const set = attributes(header);
    expect(set.has('secure')).toBe(true);
    expect(set.has('httponly')).toBe(true);
    expect(set.get('path')).toBe('/dashboard');
    expect(set.get('samesite')?.toLowerCase()).toBe('lax');

    const cookie = header.split(';')[0] as string;
    const keys = await send('GET', '/dashboard/keys', { cookie });
    expect(keys.status).toBe(200);
    expect(keys.text).toContain('<h1>API keys</h1>');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(keys.text)?.[1] as string;

    const out = await send('POST', '/dashboard/sign-out', { ...form, cookie }, new URLSearchParams({ _csrf: csrf }).toString());
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/dashboard/sign-in?signed_out');
    const cleared = (out.headers['set-cookie'] ?? [])[0] as string;
    expect(cleared).toMatch(/^portico_session=;/);
    expect(Date.parse(attributes(cleared).get('expires') ?? '')).toBeLessThan(Date.now());
    expect(attributes(cleared).has('secure')).toBe(true);
    expect((await send('GET', '/dashboard/keys', { cookie })).headers.location).toBe('/dashboard/sign-in?expired');
  });
});
