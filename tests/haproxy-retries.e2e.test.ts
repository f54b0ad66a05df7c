import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The shipped HAProxy configuration (deploy/haproxy.cfg) replays nothing that writes: two stand-in gateways behind it
 * die mid-call (they read the request, then drop the connection without an answer). A POST reaches them once and the
 * client sees the failure; a GET, which is safe to send again, is retried and answered. Needs HAProxy
 * (`apt-get install haproxy`); mandatory with PORTICO_REQUIRE_HAPROXY=1 (CI).
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const env = process.env;
const HAPROXY = env.PORTICO_HAPROXY ?? '/usr/sbin/haproxy';

function haproxyProblem(): string | undefined {
  if (existsSync(HAPROXY)) return undefined;
  const problem = `no HAProxy at ${HAPROXY} (apt-get install haproxy, or set PORTICO_HAPROXY)`;
  if (env.PORTICO_REQUIRE_HAPROXY === '1') throw new Error(`${problem}, and PORTICO_REQUIRE_HAPROXY=1 makes this test mandatory`);
  console.warn(`skipping: ${problem}`);
  return problem;
}

/** deploy/haproxy.cfg as shipped, pointed at loopback ports instead of the compose services (no engine DNS here). */
function localConfig(listen: number, ports: number[]): string {
  const shipped = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
  const config = shipped
    .replace(/^resolvers engine\n(?:[ \t]+.*\n)*/m, '')
    .replace(/ resolvers engine$/m, '')
    .replace(/^\s*bind :8080$/m, `  bind 127.0.0.1:${listen}`)
    .replace(/^\s*server gateway(\d) \S+ check$/gm, (_, n: string) => `  server gateway${n} 127.0.0.1:${ports[Number(n) - 1]} check`);
  expect(config).toContain(`bind 127.0.0.1:${listen}`);
  expect(config).not.toMatch(/gateway\d:8787|resolvers/);
  return config;
}

/** A stand-in gateway: answers its health checks; dies mid-call (drops the connection) on the next call when armed. */
interface StandIn {
  server: Server;
  port: number;
  calls: string[];
  armed: boolean;
}

async function standIn(): Promise<StandIn> {
  const state = { calls: [] as string[], armed: false } as StandIn;
  state.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/readyz') return res.end('{"status":"ready"}');
      state.calls.push(`${req.method} ${req.url}`);
      if (state.armed) {
        state.armed = false;
        req.socket.destroy(); // the process died with the call in flight: no answer
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.port = (state.server.address() as AddressInfo).port;
  return state;
}

/** One request on a connection of its own (HAProxy closes the client's connection after a 502). */
function send(url: string, method: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const skip = haproxyProblem();

describe.skipIf(skip)('the shipped HAProxy configuration, with a gateway dying mid-call', () => {
  const gateways: StandIn[] = [];
  let haproxy: ChildProcess | undefined;
  let output = '';
  let url = '';
  let dir = '';

  beforeAll(async () => {
    gateways.push(await standIn(), await standIn());
    const listen = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'portico-haproxy-retries-'));
    writeFileSync(
      join(dir, 'haproxy.cfg'),
      localConfig(
        listen,
        gateways.map((g) => g.port),
      ),
    );
    haproxy = spawn(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    haproxy.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    url = `http://127.0.0.1:${listen}`;
    const until = Date.now() + 10_000;
    for (;;) {
      const ok = await fetch(`${url}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > until) throw new Error(`HAProxy did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 20_000);

  afterAll(async () => {
    haproxy?.kill('SIGTERM');
    for (const gateway of gateways) gateway.server.closeAllConnections();
    await Promise.all(gateways.map((gateway) => new Promise((resolve) => gateway.server.close(resolve))));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const reset = () => {
    for (const gateway of gateways) {
      gateway.calls = [];
      gateway.armed = true;
    }
  };
  const received = () => gateways.flatMap((gateway) => gateway.calls);

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    it(`sends a ${method} once: the client sees the failure, no gateway gets it again`, async () => {
      reset();
      const status = await send(
        `${url}/api/mcp`,
        method,
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_contact"}}',
      );
      expect(status, output).toBe(502);
      expect(received()).toEqual([`${method} /api/mcp`]);
    });
  }

  it('sends a GET again until a gateway answers it', async () => {
    reset(); // both die on their next call: the GET is answered at the third try
    expect(await send(`${url}/api/v1/clio/contacts`, 'GET'), output).toBe(200);
    expect(received()).toEqual(['GET /api/v1/clio/contacts', 'GET /api/v1/clio/contacts', 'GET /api/v1/clio/contacts']);
  });
});
