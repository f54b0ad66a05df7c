import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Balancer,
  type BalancerName,
  balancerProblem,
  freePort,
  shippedHaproxy,
  shippedNginx,
  startBalancer,
} from '../apps/gateway/src/e2e/balancers.test-support.js';

/**
 * The shipped balancer configurations (deploy/haproxy.cfg, deploy/nginx.conf) send no POST or PATCH twice: two
 * stand-in gateways behind each die mid-call (they read the request, then drop the connection without an answer). A
 * POST or PATCH (behind HAProxy also a PUT or DELETE) reaches them once and the client sees the failure; a GET (behind
 * nginx also a PUT or DELETE, idempotent methods) is sent again and answered. Needs HAProxy (`apt-get install
 * haproxy`) and nginx (`apt-get install nginx-light`); each part is mandatory with PORTICO_REQUIRE_HAPROXY=1 or
 * PORTICO_REQUIRE_NGINX=1 (CI).
 */

/** Calls that die mid-call before one is answered, whichever stand-in gets them. */
let dying = 0;

/** A stand-in gateway: answers its health checks; dies mid-call (drops the connection) while `dying` calls are left. */
interface StandIn {
  server: Server;
  port: number;
  calls: string[];
}

async function standIn(): Promise<StandIn> {
  const state = { calls: [] as string[] } as StandIn;
  state.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/readyz') return res.end('{"status":"ready"}');
      state.calls.push(`${req.method} ${req.url} ${body}`.trim());
      if (dying > 0) {
        dying -= 1;
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

/** One request on a connection of its own (a balancer closes the client's connection after a 502). */
function send(url: string, method: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {};
    const req = request(url, { method, agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const configs: Record<BalancerName, (listen: number, ports: number[]) => (dir: string) => string> = {
  HAProxy: (listen, ports) => () => shippedHaproxy(listen, ports),
  nginx: (listen, ports) => (dir) => shippedNginx(listen, ports, dir),
};
/** How many tries a GET gets: HAProxy's `retries 3`; nginx tries each gateway once. */
const tries: Record<BalancerName, number> = { HAProxy: 3, nginx: 2 };
/**
 * The methods sent again after a gateway got them and died: HAProxy's file retries only the safe ones; nginx retries
 * every idempotent method (PUT and DELETE too, as the gateway does upstream), never a POST or PATCH.
 */
const replayed: Record<BalancerName, string[]> = { HAProxy: [], nginx: ['PUT', 'DELETE'] };
const WRITE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_contact"}}';

for (const name of ['HAProxy', 'nginx'] as const) {
  const skip = balancerProblem(name);
  describe.skipIf(skip)(`the shipped ${name} configuration, with a gateway dying mid-call${skip ? ` (skipped: ${skip})` : ''}`, () => {
    const gateways: StandIn[] = [];
    let balancer: Balancer | undefined;

    beforeAll(async () => {
      gateways.push(await standIn(), await standIn());
    });

    // A balancer of its own for each test: nginx sets a gateway that died aside for a while (fail_timeout).
    beforeEach(async () => {
      const listen = await freePort();
      balancer = await startBalancer(
        name,
        listen,
        configs[name](
          listen,
          gateways.map((g) => g.port),
        ),
      );
    }, 20_000);

    afterEach(async () => {
      await balancer?.stop();
    });

    afterAll(async () => {
      for (const gateway of gateways) gateway.server.closeAllConnections();
      await Promise.all(gateways.map((gateway) => new Promise((resolve) => gateway.server.close(resolve))));
    });

    const reset = (deaths: number) => {
      dying = deaths;
      for (const gateway of gateways) gateway.calls = [];
    };
    const received = () => gateways.flatMap((gateway) => gateway.calls);

    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE'].filter((m) => !replayed[name].includes(m))) {
      it(`sends a ${method} once: the client sees the failure, no gateway gets it again`, async () => {
        reset(1);
        const status = await send(`${balancer?.url}/api/mcp`, method, WRITE);
        expect(received(), balancer?.output()).toEqual([`${method} /api/mcp ${WRITE}`]);
        expect(status).toBe(502);
      });
    }

    for (const method of ['GET', ...replayed[name]]) {
      it(`sends a ${method} again until a gateway answers it`, async () => {
        reset(tries[name] - 1); // every try but the last dies
        const body = method === 'GET' ? undefined : WRITE;
        expect(await send(`${balancer?.url}/api/v1/clio/contacts`, method, body), balancer?.output()).toBe(200);
        expect(received()).toEqual(Array.from({ length: tries[name] }, () => `${method} /api/v1/clio/contacts ${body ?? ''}`.trim()));
      });
    }
  });
}
