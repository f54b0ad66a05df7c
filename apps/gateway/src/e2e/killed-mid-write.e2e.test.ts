import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresProblem } from '../gateway.test-support.js';
import {
  type BalancerName,
  balancerProblem,
  type Fleet,
  freePort,
  openFleet,
  shippedHaproxy,
  shippedNginx,
  startBalancer,
} from './balancers.test-support.js';

/**
 * A gateway killed mid-write behind each balancer configuration we ship (deploy/haproxy.cfg, deploy/nginx.conf): two
 * gateway processes (the built CLI) on one PostgreSQL schema, each with its own upstream, which holds every create a
 * moment before answering. An MCP `tools/call` that creates an item goes through the balancer; once the upstream has
 * it, the gateway that sent it is SIGKILLed. The upstream must receive the write once: the client sees the failure,
 * and the balancer does not send the call again to the other gateway, which would create the item twice. Needs
 * `pnpm build` first; skipped, and listed, without PostgreSQL, HAProxy or nginx (balancers.test-support.ts);
 * mandatory with PORTICO_REQUIRE_POSTGRES=1, PORTICO_REQUIRE_HAPROXY=1 and PORTICO_REQUIRE_NGINX=1 (CI).
 */
const postgres = await postgresProblem();
const problems = { HAProxy: postgres ?? balancerProblem('HAProxy'), nginx: postgres ?? balancerProblem('nginx') };
/** How long the upstream holds a create: long enough to kill the gateway while the call is in flight. */
const HOLD_MS = 1_500;

const configs: Record<BalancerName, (listen: number, ports: number[]) => (dir: string) => string> = {
  HAProxy: (listen, ports) => () => shippedHaproxy(listen, ports),
  nginx: (listen, ports) => (dir) => shippedNginx(listen, ports, dir),
};

/** The upstream of one gateway; `writes` is shared by both, in the order they arrived. */
interface Upstream {
  server: Server;
  url: string;
}

let fleet: Fleet | undefined;
const upstreams: Upstream[] = [];
const writes: Array<{ upstream: number; name: string }> = [];
let onWrite: (() => void) | undefined;

async function upstream(index: number): Promise<Upstream> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/items')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      const { name } = JSON.parse(body) as { name: string };
      writes.push({ upstream: index, name });
      onWrite?.();
      setTimeout(() => {
        if (res.destroyed) return; // the gateway that sent it is gone
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `it_${writes.length}`, name }));
      }, HOLD_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function create(balancer: string, apiKey: string, name: string): Promise<Response> {
  return fetch(`${balancer}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: name,
      method: 'tools/call',
      params: { name: 'call_example', arguments: { method: 'create_item', params: { name } } },
    }),
  });
}

beforeAll(async () => {
  if (problems.HAProxy && problems.nginx) return;
  upstreams.push(await upstream(0), await upstream(1));
  fleet = await openFleet({ readOnly: false });
});

afterAll(async () => {
  await fleet?.close();
  for (const { server } of upstreams) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

for (const name of ['HAProxy', 'nginx'] as const) {
  const problem = problems[name];
  describe.skipIf(problem !== undefined)(
    `a gateway killed mid-write behind the shipped ${name} configuration${problem ? ` (skipped: ${problem})` : ''}`,
    () => {
      it('the upstream receives the write once; the client sees the failure; the next write goes to the other gateway', async () => {
        const gateways = fleet as Fleet;
        const ports = [await freePort(), await freePort()];
        const instances = await Promise.all(
          ports.map((port, i) => gateways.spawn(port, { PORTICO_EXAMPLE_BASE_URL: (upstreams[i] as Upstream).url })),
        );
        const listen = await freePort();
        const balancer = await startBalancer(name, listen, configs[name](listen, ports));
        try {
          writes.length = 0;
          const received = new Promise<void>((resolve) => (onWrite = resolve));
          const call = create(balancer.url, gateways.apiKey, `killed behind ${name}`);
          await received;
          const sender = writes[0]?.upstream as number;
          instances[sender]?.child.kill('SIGKILL'); // the gateway dies with the write in flight upstream
          const answer = await call;
          await new Promise((resolve) => setTimeout(resolve, HOLD_MS + 1_000)); // time for a replay to arrive
          expect(writes, balancer.output()).toEqual([{ upstream: sender, name: `killed behind ${name}` }]);
          expect(answer.status, balancer.output()).toBe(502);

          const next = await create(balancer.url, gateways.apiKey, `after the kill behind ${name}`);
          expect(next.status, balancer.output()).toBe(200);
          const body = (await next.json()) as { result?: { isError?: boolean; content?: Array<{ text?: string }> } };
          expect(body.result?.isError, JSON.stringify(body)).toBeUndefined();
          expect(body.result?.content?.[0]?.text).toContain(`after the kill behind ${name}`);
          expect(writes).toEqual([
            { upstream: sender, name: `killed behind ${name}` },
            { upstream: 1 - sender, name: `after the kill behind ${name}` },
          ]);
        } finally {
          onWrite = undefined;
          await balancer.stop();
          for (const instance of instances) instance.child.kill('SIGKILL');
        }
      });
    },
  );
}
