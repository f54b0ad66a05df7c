import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import { defineOperation, fillPath } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { Params, Type } from '../contract/schema.js';
import { errorBody, GatewayError } from '../errors.js';
import { Engine, type Principal } from '../pipeline/engine.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { examplePlugin } from '../testing/example-plugin.js';
import type { UpstreamClientOptions } from './client.js';
import { parseTraceparent, runInTrace, traceFromHeaders } from './trace-context.js';

/**
 * The upstream call as a caller sees it: one engine per set of client options, against a loopback upstream that
 * misbehaves in one way per test. Error checks are on what the REST door sends (status + `errorBody`), which is also
 * the whole of what an MCP client sees.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.end('{}');
let server: Server;
let origin: string;
const sockets = new Set<Socket>();
/** Requests the upstream received (method and raw request target). */
let received: Array<{ method: string; url: string; at: number; traceparent?: string | undefined }> = [];

const PRINCIPAL: Principal = { keyId: null, workspaceId: DEFAULT_WORKSPACE, scopes: { admin: true, services: '*', readOnly: false } };

/** A plugin whose operations send to absolute URLs, as an upload flow does with the address an upstream handed out. */
const linkPlugin = definePlugin({
  service: 'links',
  displayName: 'Links',
  version: '0.0.0',
  description: 'Test: absolute upstream URLs.',
  contract: 1,
  upstream: { baseUrl: 'https://links.invalid/api' },
  auth: { token: { description: 'a token' } },
  operations: [
    defineOperation({
      name: 'upload',
      method: 'POST',
      path: '/upload',
      summary: 'Upload to a handed-out address',
      description: 'Asks the upstream for an upload address, then posts the bytes there.',
      params: Params({ extra: Type.Optional(Type.String()) }),
      run: async (params, ctx) => {
        const ticket = (await ctx.send({ method: 'GET', path: '/ticket' })).body as { upload_url: string };
        const query = params.extra ? { extra: params.extra } : undefined;
        await ctx.send({ method: 'POST', url: ticket.upload_url, raw: { data: Buffer.from('bytes'), contentType: 'text/plain' }, query });
        return { ok: true };
      },
    }),
  ],
});

const engines: Engine[] = [];
async function engineWith(upstream: Partial<UpstreamClientOptions>): Promise<Engine> {
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const registry = new Registry();
  registry.register(examplePlugin);
  registry.register(linkPlugin);
  const engine = new Engine({
    registry,
    store,
    encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))),
    upstream,
    egress: { workspaceHosts: ['127.0.0.1'] }, // the stubs listen on loopback: approved as an operator would
  });
  for (const service of ['example', 'links']) {
    await engine.connectToken(DEFAULT_WORKSPACE, service, 'secret-upstream-token');
    await engine.configureIntegration(DEFAULT_WORKSPACE, service, { baseUrl: origin, restEnabled: true });
  }
  engines.push(engine);
  return engine;
}

/** Invokes and returns what the REST door would answer: status and body. */
async function call(engine: Engine, operation: string, params: Record<string, unknown> = {}, service = 'example') {
  try {
    const result = await engine.invoke({ principal: PRINCIPAL, protocol: 'rest', service, operation, params });
    return { status: 200, body: result.body, error: undefined };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return { status: error.status, body: errorBody(error) as unknown, error };
  }
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push({
      method: req.method ?? '',
      url: req.url ?? '',
      at: performance.now(),
      traceparent: req.headers.traceparent as string | undefined,
    });
    req.resume();
    req.on('end', () => handler(req, res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  received = [];
  handler = (_req, res) => res.end('{}');
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the size cap of an upstream answer', () => {
  const FIFTY_MB = 50 * 1024 * 1024;

  /** Streams 50 MB (with or without a declared length) and reports how much the gateway let it send. */
  function hugeBody(declared: boolean): { handler: Handler; sent: () => number; closed: Promise<void> } {
    let sent = 0;
    let onClose: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => {
      onClose = resolve;
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    return {
      sent: () => sent,
      closed,
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(FIFTY_MB) } : {}) });
        res.on('close', onClose);
        const push = () => {
          while (sent < FIFTY_MB && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', push);
          }
          if (!res.destroyed) res.end();
        };
        push();
      },
    };
  }

  /** Peak growth of heap + buffers while `run` runs, sampled every 2 ms. */
  async function peakGrowth<T>(run: () => Promise<T>): Promise<{ result: T; grownMb: number }> {
    const used = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const baseline = used();
    let peak = baseline;
    const timer = setInterval(() => {
      peak = Math.max(peak, used());
    }, 2);
    try {
      const result = await run();
      peak = Math.max(peak, used());
      return { result, grownMb: (peak - baseline) / 1024 / 1024 };
    } finally {
      clearInterval(timer);
    }
  }

  it('refuses a declared 50 MB body before reading it (default cap 10 MiB)', async () => {
    const engine = await engineWith({ retryLimit: 0 });
    const body = hugeBody(true);
    handler = body.handler;
    const { result, grownMb } = await peakGrowth(() => call(engine, 'list_items'));
    expect(result.status).toBe(502);
    expect(result.body).toEqual({
      error: true,
      code: 'upstream_error',
      message: 'Example answered with more than the 10485760 bytes an upstream answer may have',
    });
    await body.closed; // the gateway hung up: the body is not read
    expect(body.sent()).toBeLessThan(FIFTY_MB / 4);
    expect(grownMb).toBeLessThan(20);
  });

  it('cuts off a 50 MB body without a length as soon as it passes the cap', async () => {
    const engine = await engineWith({ retryLimit: 0, maxResponseBytes: 1024 * 1024 });
    const body = hugeBody(false);
    handler = body.handler;
    const { result, grownMb } = await peakGrowth(() => call(engine, 'list_items'));
    expect(result.status).toBe(502); // first: a failure must not diff a 50 MB body
    expect(result.body).toMatchObject({ code: 'upstream_error', message: expect.stringContaining('1048576 bytes') });
    await body.closed;
    expect(body.sent()).toBeLessThan(FIFTY_MB / 4);
    expect(grownMb).toBeLessThan(25); // 50 MB read and parsed would be well over 100
  });

  it('takes a configured cap; answers within it are read as before', async () => {
    const engine = await engineWith({ retryLimit: 0, maxResponseBytes: 2048 });
    handler = json(200, { items: ['x'.repeat(1000)] });
    expect((await call(engine, 'list_items')).status).toBe(200);
    handler = json(200, { items: ['x'.repeat(3000)] });
    expect(await call(engine, 'list_items')).toMatchObject({ status: 502, body: { message: expect.stringContaining('2048 bytes') } });
  });
});

describe('the time budget of an upstream call', () => {
  it('answers 504 within the budget when the upstream hangs, retries included', async () => {
    const engine = await engineWith({ timeoutMs: 300, retryLimit: 2 });
    handler = () => undefined; // never answers
    const started = performance.now();
    const result = await call(engine, 'list_items');
    const elapsed = performance.now() - started;
    expect(result.status).toBe(504);
    expect(result.body).toEqual({ error: true, code: 'upstream_timeout', message: 'Example did not answer within the 300 ms budget' });
    expect(elapsed).toBeLessThan(300 + 400);
    expect(received).toHaveLength(1); // no retry that could not finish in time
  });

  it('retries only while the retry fits in the budget, waits included', async () => {
    const engine = await engineWith({ timeoutMs: 1_600, retryLimit: 5 });
    handler = json(503, { message: 'maintenance' }, { 'retry-after': '1' });
    const started = performance.now();
    const result = await call(engine, 'list_items');
    const elapsed = performance.now() - started;
    // 0 s: 503, wait 1 s (0.6 s left ≥ a quarter of the budget) → 1 s: 503, a second wait would leave nothing → final.
    expect(received).toHaveLength(2);
    expect(result).toMatchObject({ status: 502, body: { code: 'upstream_error' } });
    expect(elapsed).toBeLessThan(1_600);
  });

  it('does not retry a POST', async () => {
    const engine = await engineWith({ timeoutMs: 5_000, retryLimit: 2 });
    handler = json(503, { message: 'maintenance' }, { 'retry-after': '0' });
    expect((await call(engine, 'create_item', { name: 'x' })).status).toBe(502);
    expect(received).toHaveLength(1);
  });
});

describe('idle upstream connections', () => {
  it('are closed before the keep-alive timeout the upstream announces, so a write is never sent on a closing one', async () => {
    // An upstream that closes idle connections after 2 s and says so (`Keep-Alive: timeout=2`, as Node's servers do):
    // a write sent on a connection it is closing fails with a reset and is not retried.
    const connections: Socket[] = [];
    const upstream = createServer((req, res) => {
      req.resume();
      req.on('end', () => json(201, { id: 'itm_1' })(req, res));
    });
    upstream.keepAliveTimeout = 2_000;
    upstream.on('connection', (socket) => connections.push(socket));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const engine = await engineWith({ timeoutMs: 5_000, retryLimit: 0 });
      await engine.configureIntegration(DEFAULT_WORKSPACE, 'example', {
        baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      });
      expect((await call(engine, 'create_item', { name: 'a' })).status).toBe(200);
      const first = connections[0] as Socket;
      const closedByGateway = new Promise<number>((resolve) => {
        first.once('end', () => resolve(performance.now()));
        setTimeout(() => resolve(Number.POSITIVE_INFINITY), 3_000).unref(); // the upstream closed it first, or nobody did
      });
      const idleFrom = performance.now();
      // the gateway lets the connection go a second before the announced two
      expect((await closedByGateway) - idleFrom).toBeLessThan(1_900);
      expect((await call(engine, 'create_item', { name: 'b' })).status).toBe(200);
      expect(connections).toHaveLength(2);
    } finally {
      upstream.closeAllConnections();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });
});

describe('a slow upstream answer', () => {
  it('is waited for beyond the idle time of a pooled connection, within the budget', async () => {
    const engine = await engineWith({ timeoutMs: 10_000, retryLimit: 0 });
    handler = (req, res) => setTimeout(() => json(200, { items: [] })(req, res), 4_500);
    expect(await call(engine, 'list_items')).toMatchObject({ status: 200, body: { items: [] } });
    expect(received).toHaveLength(1);
  }, 15_000);
});

describe('W3C trace context on upstream calls', () => {
  it("each attempt, a retry included, carries the request's trace id under a span id of its own", async () => {
    const engine = await engineWith({ timeoutMs: 5_000, retryLimit: 1 });
    let answered = 0;
    handler = (req, res) =>
      (answered++ === 0 ? json(503, { message: 'maintenance' }, { 'retry-after': '0' }) : json(200, { items: [] }))(req, res);
    const trace = traceFromHeaders('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', undefined);
    expect((await runInTrace(trace, () => call(engine, 'list_items'))).status).toBe(200);
    const sent = received.map((request) => parseTraceparent(request.traceparent));
    expect(sent).toHaveLength(2);
    expect(sent.map((parent) => parent?.traceId)).toEqual([trace.traceId, trace.traceId]);
    expect(new Set(sent.map((parent) => parent?.parentId)).size).toBe(2);
    expect(sent.map((parent) => parent?.parentId)).not.toContain('00f067aa0ba902b7');
  });
});

describe('Retry-After', () => {
  it('is not obeyed nor passed on when it is not a number of seconds or a date', async () => {
    const engine = await engineWith({ timeoutMs: 5_000, retryLimit: 1, backoffLimitMs: 300 });
    handler = json(429, { message: 'slow down' }, { 'retry-after': '-5, junk' });
    const result = await call(engine, 'list_items');
    expect(received).toHaveLength(2);
    // The junk header is absent: the back-off applies, not "retry at once".
    expect((received[1]?.at ?? 0) - (received[0]?.at ?? 0)).toBeGreaterThanOrEqual(250);
    expect(result.status).toBe(429);
    expect(result.error?.retryAfter).toBeUndefined(); // no retry-after header at the REST door
    expect(result.body).toEqual({ error: true, code: 'rate_limited', message: 'Example is rate limiting this connection: slow down' });
  });

  it('is said in the message (all an MCP client sees) and kept for the REST header, never as 0', async () => {
    const engine = await engineWith({ retryLimit: 0 });
    handler = json(429, { message: 'slow down' }, { 'retry-after': '30' });
    let result = await call(engine, 'list_items');
    expect(result.error?.retryAfter).toBe(30);
    expect(result.body).toEqual({
      error: true,
      code: 'rate_limited',
      message: 'Example is rate limiting this connection: slow down; retry after 30 s',
    });
    handler = json(429, { message: 'slow down' }, { 'retry-after': '0' });
    result = await call(engine, 'list_items');
    expect(result.error?.retryAfter).toBe(1);
    handler = json(503, {}, { 'retry-after': new Date(Date.now() + 120_000).toUTCString() });
    result = await call(engine, 'list_items');
    expect(result.error?.retryAfter).toBeGreaterThanOrEqual(119);
    expect((result.body as { message: string }).message).toMatch(/; retry after 1[12]\d s$/);
  });

  it('a long one is passed on instead of waited out', async () => {
    const engine = await engineWith({ timeoutMs: 5_000, retryLimit: 2, retryAfterCapMs: 1_000 });
    handler = json(429, { message: 'slow down' }, { 'retry-after': '120' });
    const started = performance.now();
    const result = await call(engine, 'list_items');
    expect(performance.now() - started).toBeLessThan(1_000); // waiting would take at least the 1 s cap
    expect(received).toHaveLength(1);
    expect(result.error?.retryAfter).toBe(120);
  });
});

describe('upstream faults are reported as the upstream’s', () => {
  it('a 200 that says JSON but is not is 502 upstream_error, not a text result', async () => {
    const engine = await engineWith({ retryLimit: 0 });
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"items": [1, 2,');
    };
    expect(await call(engine, 'list_items')).toEqual({
      status: 502,
      body: { error: true, code: 'upstream_error', message: 'Example answered with invalid JSON (200)' },
      error: expect.any(GatewayError),
    });
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('plain text is still a text result');
    };
    expect(await call(engine, 'list_items')).toMatchObject({ status: 200, body: 'plain text is still a text result' });
  });

  it('does not relay a server fault’s free text; a structured message is kept, with secrets hidden', async () => {
    const engine = await engineWith({ retryLimit: 0 });
    handler = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('TypeError: x is undefined\n    at handler (/srv/upstream/app.js:12:3)\n config: password=hunter2');
    };
    let result = await call(engine, 'list_items');
    expect(result.body).toEqual({ error: true, code: 'upstream_error', message: 'Example failed (500): Internal Server Error' });
    handler = json(500, { message: 'database down (password=hunter2, api_key: x, "token": "abc123")' });
    result = await call(engine, 'list_items');
    const message = (result.body as { message: string }).message;
    expect(message).toMatch(/^Example failed \(500\): database down \(password=\[redacted\]/);
    expect(message).not.toMatch(/hunter2|abc123/);
    handler = json(400, { message: 'bad request: client_secret=s3cr3t&x=1' });
    result = await call(engine, 'list_items');
    expect((result.body as { message: string }).message).toBe('Example rejected the request: bad request: client_secret=[redacted]&x=1');
  });

  it('an upload address that is not http(s) is the upstream’s fault: 502, not 400', async () => {
    const engine = await engineWith({ retryLimit: 0 });
    handler = json(200, { upload_url: 'file:///etc/passwd' });
    expect(await call(engine, 'upload', {}, 'links')).toMatchObject({
      status: 502,
      body: { error: true, code: 'upstream_error', message: 'The address Links handed out is not http or https' },
    });
  });

  it('keeps the query string of an upload address exactly (pre-signed URLs)', async () => {
    const engine = await engineWith({ retryLimit: 0 });
    const signed = '/upload/F1?X-Amz-Credential=AKIA%2F20240101%2Fus-east-1&X-Amz-Signature=ab%2Bcd~&sp=a+b&empty=';
    handler = (req, res) => (req.method === 'GET' ? json(200, { upload_url: `${origin}${signed}` })(req, res) : res.end());
    expect((await call(engine, 'upload', {}, 'links')).status).toBe(200);
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /ticket', `POST ${signed}`]);
    received = [];
    expect((await call(engine, 'upload', { extra: 'a b' }, 'links')).status).toBe(200);
    expect(received[1]?.url).toBe(`${signed}&extra=a+b`);
  });
});

describe('path parameters', () => {
  it('fillPath never makes a "." or ".." segment', () => {
    for (const value of ['.', '..']) {
      expect(() => fillPath('/accounts/:id/calls', { id: value })).toThrow(GatewayError);
      expect(() => fillPath('/accounts/:id/calls', { id: value })).toThrow('Path parameter id may not be "." or ".."');
      expect(() => fillPath('/calls/:id?expand=1', { id: value })).toThrow(GatewayError);
    }
    expect(() => fillPath('/a/:x:y', { x: '.', y: '.' })).toThrow(GatewayError);
    expect(fillPath('/accounts/:id/calls', { id: '...' })).toBe('/accounts/.../calls');
    expect(fillPath('/accounts/:id/calls', { id: '%2e%2e' })).toBe('/accounts/%252e%252e/calls');
    expect(fillPath('/accounts/:id/calls', { id: '../x' })).toBe('/accounts/..%2Fx/calls');
    expect(fillPath('/calls/:id.json', { id: '.' })).toBe('/calls/..json');
    try {
      fillPath('/items/:id', {});
    } catch (error) {
      expect(error).toMatchObject({ code: 'bad_request', message: 'Missing path parameter id' });
    }
  });

  it('a ".." item id is refused before the upstream is called', async () => {
    const engine = await engineWith({ retryLimit: 0 });
    expect(await call(engine, 'get_item', { item_id: '..' })).toMatchObject({ status: 400, body: { code: 'bad_request' } });
    expect(received).toHaveLength(0);
  });
});
