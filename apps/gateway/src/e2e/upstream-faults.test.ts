import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_WORKSPACE } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Upstream faults, for every installed plugin (the registry is iterated: a plugin added later is covered without new
 * test code): one read operation of each, sent over REST to an upstream that misbehaves in one way at a time. Each
 * fault must come back as the mapped error with the documented body, within the call's time budget, and the gateway
 * must stay up with its memory back near where it started.
 */
const BUDGET_MS = 600;
const MAX_BODY = 1024 * 1024;

type Fault = (req: IncomingMessage, res: ServerResponse) => void;
let fault: Fault = (_req, res) => res.end('{}');
let server: Server;
let origin: string;
const sockets = new Set<Socket>();
let gateway: TestGateway;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => fault(req, res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const services = ['lawmatics', 'quickbooks', 'clio', 'notion', 'slack', 'callrail'];
  gateway = await startTestGateway({
    env: {
      PORTICO_UPSTREAM_TIMEOUT_MS: String(BUDGET_MS),
      PORTICO_UPSTREAM_MAX_RESPONSE_BYTES: String(MAX_BODY),
      ...Object.fromEntries(services.map((s) => [`PORTICO_${s.toUpperCase()}_BASE_URL`, `${origin}/${s}-base`])),
      // The upstreams' own limits (QuickBooks' 10 a second…) would pace the faults, which come faster than that.
      ...Object.fromEntries(services.map((s) => [`PORTICO_${s.toUpperCase()}_UPSTREAM_LIMITS`, 'none'])),
    },
  });
  for (const integration of gateway.runtime.registry.list()) {
    await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, integration.service, 'fault-token', { realmId: '9130354' });
    await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, integration.service, { restEnabled: true });
  }
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

/** One read operation of each integration, as a REST path built from its example (GET, no body). */
function probes(gateway: TestGateway): Array<{ service: string; name: string; path: string }> {
  const out: Array<{ service: string; name: string; path: string }> = [];
  for (const integration of gateway.runtime.registry.list()) {
    const operation = [...integration.operations.values()].find((op) => op.access === 'read' && op.definition.method === 'GET');
    if (!operation) continue;
    const example = (operation.definition.example ?? {}) as Record<string, unknown>;
    const query = new URLSearchParams();
    const path = operation.definition.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, n: string) =>
      encodeURIComponent(String(example[n] ?? '1')),
    );
    for (const [name, value] of Object.entries(example)) {
      if (operation.pathParams.includes(name)) continue;
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === 'string' ? item : JSON.stringify(item));
    }
    const search = query.toString();
    out.push({
      service: integration.service,
      name: operation.name,
      path: `/api/v1/${integration.service}${path}${search ? `?${search}` : ''}`,
    });
  }
  return out;
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Fault =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

interface Case {
  name: string;
  fault: Fault;
  status: number | number[];
  code: string | string[];
  retryAfter?: 'absent' | string | ((value: string | null) => boolean);
}

const CASES: Case[] = [
  { name: 'connection closed before an answer', fault: (req) => req.socket.destroy(), status: 502, code: 'upstream_error' },
  {
    name: 'connection reset mid-body',
    fault: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data": [1, 2, ');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    status: 502,
    code: 'upstream_error',
  },
  { name: 'hang', fault: () => undefined, status: 504, code: 'upstream_timeout' },
  {
    name: 'trickle (a byte every 100 ms)',
    fault: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => {
        if (res.destroyed) clearInterval(timer);
        else res.write(' ');
      }, 100);
      res.on('close', () => clearInterval(timer));
    },
    status: [502, 504],
    code: ['upstream_timeout', 'upstream_error'],
  },
  { name: '500', fault: json(500, { message: 'boom' }), status: 502, code: 'upstream_error' },
  { name: '502', fault: json(502, { message: 'bad gateway' }), status: 502, code: 'upstream_error' },
  { name: '503', fault: json(503, { message: 'maintenance' }), status: 502, code: 'upstream_error' },
  {
    name: '429 Retry-After 7',
    fault: json(429, { message: 'slow down' }, { 'retry-after': '7' }),
    status: 429,
    code: 'rate_limited',
    retryAfter: '7',
  },
  {
    name: '429 Retry-After as an HTTP date',
    fault: (req, res) => json(429, { message: 'slow down' }, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() })(req, res),
    status: 429,
    code: 'rate_limited',
    retryAfter: (value) => value !== null && Number(value) >= 28 && Number(value) <= 31,
  },
  {
    name: '429 Retry-After negative and junk',
    fault: json(429, { message: 'slow down' }, { 'retry-after': '-5, junk' }),
    status: 429,
    code: 'rate_limited',
    retryAfter: (value) => value === null || Number(value) > 0,
  },
  { name: '429 without Retry-After', fault: json(429, { message: 'slow down' }), status: 429, code: 'rate_limited' },
  {
    name: 'broken JSON',
    fault: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": [1, 2,');
    },
    status: 502,
    code: 'upstream_error',
  },
  {
    name: 'empty body (200, JSON declared)',
    fault: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' });
      res.end();
    },
    // Nothing to relay: the call succeeds with no content, or the plugin says the answer was not what it expects.
    status: [200, 204, 502],
    code: ['upstream_error'],
  },
  {
    name: 'redirect',
    fault: (_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    },
    status: 502,
    code: 'upstream_error',
  },
  {
    name: 'huge body (3 MiB over a 1 MiB cap)',
    fault: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const push = () => {
        while (sent < 3 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end('{}');
      };
      push();
    },
    status: 502,
    code: 'upstream_error',
  },
  {
    name: 'huge headers (64 KiB)',
    fault: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-filler': 'x'.repeat(64 * 1024) });
      res.end('{}');
    },
    status: 502,
    code: 'upstream_error',
  },
];

describe('upstream faults, every plugin', () => {
  it('maps each fault to its error with the documented body, within the budget, and stays up with flat memory', async () => {
    const problems: string[] = [];
    // RSS after a first round of every fault has warmed the process up (code loaded, pools grown), and after a
    // second: the second round must leave memory where the first did, within 20 %.
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    let baseline = 0;
    for (const round of [1, 2]) {
      if (round === 2) {
        gc();
        baseline = process.memoryUsage().rss;
      }
      await faultRound(problems);
    }
    fault = json(200, { ok: true });
    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);
    gc();
    const grown = (process.memoryUsage().rss - baseline) / baseline;
    expect(problems).toEqual([]);
    expect(grown, `RSS grew by ${Math.round(grown * 100)}%`).toBeLessThan(0.2);
  }, 120_000);

  async function faultRound(problems: string[]): Promise<void> {
    // One fault at a time, sent to every integration at once: each has its own upstream state (limits, breaker).
    for (const c of CASES) {
      fault = c.fault;
      await Promise.all(probes(gateway).map((probe) => probeOnce(probe, c, problems)));
    }
  }

  async function probeOnce(probe: { service: string; name: string; path: string }, c: Case, problems: string[]): Promise<void> {
    const started = performance.now();
    const res = await gateway.rest('GET', probe.path);
    const elapsed = performance.now() - started;
    const label = `${probe.service}.${probe.name} / ${c.name}`;
    const statuses = Array.isArray(c.status) ? c.status : [c.status];
    const codes = Array.isArray(c.code) ? c.code : [c.code];
    const body = res.body as { error?: unknown; code?: string; message?: unknown };
    if (!statuses.includes(res.status)) problems.push(`${label}: status ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    else if (res.status < 400) {
      // a success: no error body to check
    } else if (body?.error !== true || !codes.includes(body.code as string) || typeof body.message !== 'string') {
      problems.push(`${label}: body ${JSON.stringify(res.body).slice(0, 120)}`);
    } else if (Object.keys(body).sort().join() !== 'code,error,message') problems.push(`${label}: extra keys in the body`);
    if (/\n\s+at /.test(String(body?.message))) problems.push(`${label}: a stack in the message`);
    if (elapsed > BUDGET_MS + 1_500) problems.push(`${label}: answered after ${Math.round(elapsed)} ms (budget ${BUDGET_MS} ms)`);
    const retryAfter = res.headers.get('retry-after');
    if (typeof c.retryAfter === 'string' && retryAfter !== c.retryAfter) problems.push(`${label}: retry-after ${retryAfter}`);
    if (typeof c.retryAfter === 'function' && !c.retryAfter(retryAfter)) problems.push(`${label}: retry-after ${retryAfter}`);
    if (retryAfter !== null && !(Number(retryAfter) > 0)) problems.push(`${label}: retry-after ${retryAfter} forwarded`);
  }

  it('answers 502 upstream_error at once when nothing listens at the upstream’s address', async () => {
    const services = gateway.runtime.registry.list().map((i) => i.service);
    // A port nothing listens on: bind one, note it, close it, just before the calls (a port closed long before could
    // have been taken by another test's server since).
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const refused = await startTestGateway({
      env: Object.fromEntries(services.map((s) => [`PORTICO_${s.toUpperCase()}_BASE_URL`, `http://127.0.0.1:${closedPort}/${s}-base`])),
    });
    try {
      for (const integration of refused.runtime.registry.list()) {
        await refused.runtime.engine.connectToken(DEFAULT_WORKSPACE, integration.service, 'fault-token', { realmId: '9130354' });
        await refused.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, integration.service, { restEnabled: true });
      }
      for (const probe of probes(refused)) {
        const res = await refused.rest('GET', probe.path);
        expect(res.status, `${probe.service}.${probe.name}`).toBe(502);
        expect(res.body).toMatchObject({ error: true, code: 'upstream_error', message: expect.stringContaining('ECONNREFUSED') });
      }
    } finally {
      await refused.close();
    }
  });
});
