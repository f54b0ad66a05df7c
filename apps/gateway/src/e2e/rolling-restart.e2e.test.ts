import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresProblem } from '../gateway.test-support.js';
import {
  type BalancerName,
  balancerProblem,
  type Fleet,
  freePort,
  type Instance,
  openFleet,
  shippedNginx,
  startBalancer,
  waitFor,
} from './balancers.test-support.js';

/**
 * A rolling restart behind a real balancer: three gateway processes (the built CLI) on one PostgreSQL schema behind
 * Debian's HAProxy, which keeps connections to them alive and checks `/readyz` every 250 ms (out after two failures),
 * then behind Debian's nginx with the shipped deploy/nginx.conf, which keeps connections alive and checks nothing.
 * Under a steady load of MCP POSTs through the balancer, each instance in turn gets SIGTERM, exits, and starts again on
 * its port: no call may fail. Neither balancer sends a POST again once it was written onto a connection, even one the
 * gateway was closing, so this holds only if the instance drains (PORTICO_DRAIN_SECONDS) before it stops listening and
 * closes no kept-alive connection the balancer may be writing onto. Needs `pnpm build` first; skipped, and listed,
 * without PostgreSQL, HAProxy or nginx (balancers.test-support.ts); mandatory with PORTICO_REQUIRE_POSTGRES=1,
 * PORTICO_REQUIRE_HAPROXY=1 and PORTICO_REQUIRE_NGINX=1 (CI).
 */

const postgres = await postgresProblem();
const problems = { HAProxy: postgres ?? balancerProblem('HAProxy'), nginx: postgres ?? balancerProblem('nginx') };
const INSTANCES = 3;
const WORKERS = 6;

let upstream: Server;
let upstreamUrl: string;
let fleet: Fleet | undefined;

/** HAProxy with a shorter check interval than the shipped file's (so that a drain of 2 s is enough). */
function haproxyConfig(listen: number, ports: number[]): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  option http-keep-alive',
    '  http-reuse always',
    '  retries 3',
    '  option redispatch',
    'listen portico',
    `  bind 127.0.0.1:${listen}`,
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  timeout check 1500ms',
    '  http-check expect status 200',
    '  default-server inter 250ms fall 2 rise 2',
    ...ports.map((port, i) => `  server g${i + 1} 127.0.0.1:${port} check`),
    '',
  ].join('\n');
}

const configs: Record<BalancerName, (listen: number, ports: number[]) => (dir: string) => string> = {
  HAProxy: (listen, ports) => () => haproxyConfig(listen, ports),
  nginx: (listen, ports) => (dir) => shippedNginx(listen, ports, dir),
};

const nginxConf = readFileSync(new URL('../../../../deploy/nginx.conf', import.meta.url), 'utf8');
const nginxSeconds = (directive: string) => Number(new RegExp(`${directive}[ =](\\d+)s`).exec(nginxConf)?.[1]);

/**
 * How long a balancer takes to send to an instance again once it is ready: HAProxy's rise (two checks 250 ms apart);
 * nginx's fail_timeout (it set the instance aside when a connection to it was refused, and tries it again after that).
 */
const backInRotationMs: Record<BalancerName, number> = { HAProxy: 1_000, nginx: nginxSeconds('fail_timeout') * 1_000 + 500 };

beforeAll(async () => {
  if (problems.HAProxy && problems.nginx) return;
  upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [{ id: 'it_1', name: 'rolled' }] }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  fleet = await openFleet({ readOnly: true });
});

afterAll(async () => {
  await fleet?.close();
  if (upstream) {
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
});

for (const name of ['HAProxy', 'nginx'] as const) {
  const problem = problems[name];
  describe.skipIf(problem !== undefined)(`a rolling restart behind ${name}${problem ? ` (skipped: ${problem})` : ''}`, () => {
    const lost = name === 'nginx' ? 'no failed call but the one a closing port may reset' : '0 failed calls';
    it(`restarts three instances one by one under MCP POST load with ${lost}`, { timeout: 120_000 }, async () => {
      const gateways = fleet as Fleet;
      const env = {
        PORTICO_EXAMPLE_BASE_URL: upstreamUrl,
        PORTICO_DRAIN_SECONDS: '2',
        PORTICO_SHUTDOWN_GRACE_MS: '5000',
      };
      const ports = await Promise.all(Array.from({ length: INSTANCES }, freePort));
      const instances = await Promise.all(ports.map((port) => gateways.spawn(port, env)));
      const listen = await freePort();
      const balancer = await startBalancer(name, listen, configs[name](listen, ports));
      let stop = false;
      let calls = 0;
      const failures: string[] = [];
      const call = async (worker: number, n: number) => {
        const id = `w${worker}-${n}`;
        try {
          const response = await fetch(`${balancer.url}/api/mcp`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${gateways.apiKey}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id,
              method: 'tools/call',
              params: { name: 'call_example', arguments: { method: 'list_items', params: {} } },
            }),
          });
          const text = await response.text();
          if (!text.startsWith('{')) {
            failures.push(`${id}: ${response.status} ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
            calls += 1;
            return;
          }
          const body = JSON.parse(text) as { id?: string; result?: { isError?: boolean; structuredContent?: unknown } };
          if (response.status !== 200 || body.id !== id || !body.result || body.result.isError) {
            failures.push(`${id}: ${response.status} ${text.slice(0, 200)}`);
          }
        } catch (error) {
          failures.push(`${id}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
        }
        calls += 1;
      };
      const load = Array.from({ length: WORKERS }, async (_, worker) => {
        for (let n = 0; !stop; n++) await call(worker, n);
      });

      try {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        for (let i = 0; i < INSTANCES; i++) {
          const old = instances[i] as Instance;
          old.child.kill('SIGTERM');
          expect(await old.exited, old.output()).toBe(0);
          instances[i] = await gateways.spawn(ports[i] as number, env);
          await waitFor(async () => (await fetch(`http://127.0.0.1:${ports[i]}/readyz`)).status === 200, 10_000, `instance ${i + 1}`);
          await new Promise((resolve) => setTimeout(resolve, backInRotationMs[name]));
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      } finally {
        stop = true;
        await Promise.all(load);
        await balancer.stop();
      }
      console.info(`behind ${name}: ${calls} calls, ${failures.length} failed`);
      if (name === 'nginx' && failures.length === 1 && /recv\(\) failed \(104/.test(balancer.output())) {
        // The window ADR 27 leaves open behind a balancer that checks no health: a connection nginx opened as the port
        // closed, completed by the kernel but not yet accepted, is reset with its request. One such call, never more.
        console.warn(`behind nginx: one call reset as a port closed (docs/adr/0027-drain-and-keep-alive.md): ${failures[0]}`);
      } else expect(failures, balancer.output()).toEqual([]);
      expect(calls).toBeGreaterThan(500);
    });
  });
}
