import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Encryptor, parseEncryptionKey } from '../connections/crypto.js';
import { defineOperation } from '../contract/operation.js';
import { definePlugin, type Plugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { Params } from '../contract/schema.js';
import { errorBody, GatewayError } from '../errors.js';
import { Engine, type Principal } from '../pipeline/engine.js';
import { SqliteStore } from '../store/sqlite.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { UpstreamClient } from './client.js';
import { EGRESS_REFUSED, type EgressOptions, EgressPolicy, parseEgressAllowance, type Resolver } from './egress.js';

/**
 * The egress policy as a caller and an operator notice it: an address an upstream hands out is requested only on an
 * allowed host, base URLs may not point at link-local or metadata addresses, and a name that resolves to one is
 * refused at connection time. "Not contacted" is proven by a second loopback server that counts its connections, or
 * by the upstream client never being asked to send.
 */

const PRINCIPAL: Principal = { keyId: null, workspaceId: DEFAULT_WORKSPACE, scopes: { admin: true, services: '*', readOnly: false } };

/** A plugin with an upload flow: asks its base URL for a ticket, then posts the bytes to the address handed out. */
function uploadPlugin(service: string, displayName: string, egressHosts?: string[]): Plugin {
  return definePlugin({
    service,
    displayName,
    version: '0.0.0',
    description: 'Test: an upload flow.',
    contract: 1,
    upstream: { baseUrl: 'https://uploads.invalid/api', ...(egressHosts ? { egressHosts } : {}) },
    auth: { token: { description: 'a token' } },
    operations: [
      defineOperation({
        name: 'upload',
        method: 'POST',
        path: '/upload',
        summary: 'Upload to a handed-out address',
        description: 'Asks for an upload address, then posts the bytes there.',
        params: Params({}),
        run: async (_params, ctx) => {
          const ticket = (await ctx.send({ method: 'GET', path: '/ticket' })).body as { upload_url: string };
          await ctx.send({ method: 'POST', url: ticket.upload_url, raw: { data: Buffer.from('bytes'), contentType: 'text/plain' } });
          return { ok: true };
        },
      }),
    ],
  });
}

const listed = uploadPlugin('listed', 'Listed', ['localhost']);
const strict = uploadPlugin('strict', 'Strict');

/** A loopback server that records requests and counts connections. */
interface Stub {
  server: Server;
  port: number;
  connections: number;
  requests: string[];
  sockets: Set<Socket>;
}

async function startStub(answer: (url: string) => unknown): Promise<Stub> {
  const stub = { connections: 0, requests: [] as string[], sockets: new Set<Socket>() } as Stub;
  stub.server = createServer((req, res) => {
    stub.requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(req.url ?? ''))));
  });
  stub.server.on('connection', (socket) => {
    stub.connections++;
    stub.sockets.add(socket);
    socket.on('close', () => stub.sockets.delete(socket));
  });
  await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
  stub.port = (stub.server.address() as AddressInfo).port;
  return stub;
}

async function stopStub(stub: Stub): Promise<void> {
  for (const socket of stub.sockets) socket.destroy();
  await new Promise<void>((resolve) => stub.server.close(() => resolve()));
}

let base: Stub; // the integrations' base URL (127.0.0.1)
let other: Stub; // another host: must not be contacted unless allowed
let uploadUrl = '';
const engines: Engine[] = [];

async function engineWith(egress: EgressOptions = {}, baseUrl = `http://127.0.0.1:${base.port}/api`): Promise<Engine> {
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const registry = new Registry();
  registry.register(listed);
  registry.register(strict);
  const engine = new Engine({
    registry,
    store,
    encryptor: new Encryptor(parseEncryptionKey(randomBytes(32).toString('base64'))),
    // the stubs listen on loopback: approved for workspace base URLs as an operator would (workspace-base-urls.ts)
    egress: { workspaceHosts: ['127.0.0.1'], ...egress },
  });
  for (const service of ['listed', 'strict']) {
    await engine.connectToken(DEFAULT_WORKSPACE, service, 'secret-upstream-token');
    await engine.configureIntegration(DEFAULT_WORKSPACE, service, { baseUrl, restEnabled: true });
  }
  engines.push(engine);
  return engine;
}

async function call(engine: Engine, service: string) {
  try {
    const result = await engine.invoke({ principal: PRINCIPAL, protocol: 'rest', service, operation: 'upload', params: {} });
    return { status: 200, body: result.body };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return { status: error.status, body: errorBody(error) as unknown };
  }
}

beforeAll(async () => {
  base = await startStub((url) => (url.endsWith('/ticket') ? { upload_url: uploadUrl } : 'OK'));
  other = await startStub(() => 'OK');
});

beforeEach(() => {
  for (const stub of [base, other]) {
    stub.connections = 0;
    stub.requests = [];
  }
});

afterEach(() => vi.restoreAllMocks());

/**
 * Watches the upstream client: lets requests to the loopback stubs through and, should the policy ever fail, stops
 * any other request before it leaves the process (a test must never send traffic to a link-local address).
 */
function watchClient() {
  const original = UpstreamClient.prototype.send;
  return vi.spyOn(UpstreamClient.prototype, 'send').mockImplementation(function (this: UpstreamClient, request) {
    const host = new URL(request.url).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost') throw new Error(`test guard: would have sent a request to ${host}`);
    return original.call(this, request);
  });
}

afterAll(async () => {
  for (const engine of engines) await engine.close();
  await stopStub(base);
  await stopStub(other);
});

describe('an address the upstream hands out', () => {
  it('is fetched on a host the plugin declares, query string intact', async () => {
    const engine = await engineWith();
    uploadUrl = `http://localhost:${other.port}/upload/F1?sig=a%2Fb`;
    expect(await call(engine, 'listed')).toEqual({ status: 200, body: { ok: true } });
    expect(other.requests).toEqual(['POST /upload/F1?sig=a%2Fb']);
  });

  it('is fetched on the base URL’s host without being declared (sandboxes)', async () => {
    const engine = await engineWith();
    uploadUrl = `http://127.0.0.1:${base.port}/upload/F2`;
    expect(await call(engine, 'strict')).toEqual({ status: 200, body: { ok: true } });
    expect(base.requests).toEqual(['GET /api/ticket', 'POST /upload/F2']);
  });

  it('on another host is 502 upstream_error, and that host is never contacted', async () => {
    const engine = await engineWith();
    uploadUrl = `http://localhost:${other.port}/upload/F3`;
    expect(await call(engine, 'strict')).toEqual({
      status: 502,
      body: {
        error: true,
        code: 'upstream_error',
        message: 'Strict handed out an address on localhost, outside the hosts it may hand out (127.0.0.1); it was not requested',
      },
    });
    expect(other.connections).toBe(0);
    // the same host name on another port is another host
    uploadUrl = `http://127.0.0.1:${other.port}/upload/F4`;
    expect((await call(engine, 'strict')).status).toBe(502);
    expect(other.connections).toBe(0);
  });

  it('on a metadata or link-local address is refused even on a declared host, before the client is asked', async () => {
    const send = watchClient();
    const plugin = uploadPlugin('meta', 'Meta', ['169.254.169.254']);
    const policy = new EgressPolicy();
    expect(() =>
      policy.assertRequest(plugin, { method: 'POST', url: 'http://169.254.169.254/latest/meta-data/' }, 'https://a.example'),
    ).toThrow('Meta handed out an address on 169.254.169.254, a cloud metadata address; it was not requested');
    const engine = await engineWith();
    uploadUrl = 'http://[fe80::1]/upload';
    expect(await call(engine, 'listed')).toMatchObject({
      status: 502,
      body: { code: 'upstream_error', message: expect.stringContaining('link-local') },
    });
    expect(send).toHaveBeenCalledTimes(1); // the ticket only
  });

  it('matches *.domain below the domain only, whatever the case or a trailing dot', () => {
    const slack = uploadPlugin('chat', 'Slack', ['files.slack.com', '*.slack.com']);
    const policy = new EgressPolicy();
    const at = (url: string) => () => policy.assertRequest(slack, { method: 'POST', url }, 'https://slack.com/api');
    for (const url of [
      'https://files.slack.com/upload/v1/ABC?x=1',
      'https://FILES.slack.com./upload',
      'https://edge.files.slack.com/u',
      'https://slack.com/api/x',
    ]) {
      expect(at(url), url).not.toThrow();
    }
    for (const url of [
      'https://files.slack.com.evil.example/u',
      'https://evilslack.com/u',
      'https://slack.com.evil/u',
      'https://slack.co/u',
    ]) {
      expect(at(url), url).toThrow(/outside the hosts it may hand out \(slack\.com, files\.slack\.com, \*\.slack\.com\)/);
    }
  });

  it('lists of hosts are checked when a plugin is registered', () => {
    for (const hosts of [
      ['*'],
      ['*.com'],
      ['https://files.slack.com'],
      ['Files.Slack.com'],
      ['files.slack.com:443'],
      ['*.10.0.0.1'],
      'x',
    ]) {
      const registry = new Registry();
      expect(() => registry.register(uploadPlugin('bad', 'Bad', hosts as string[])), JSON.stringify(hosts)).toThrow(/egressHosts/);
    }
    expect(() => new Registry().register(uploadPlugin('good', 'Good', ['files.slack.com', '*.slack.com', '10.0.0.7']))).not.toThrow();
  });
});

const REFUSED_BASE_URLS: Array<[string, RegExp]> = [
  ['http://169.254.169.254/latest/', /points at 169\.254\.169\.254, a cloud metadata address/],
  ['http://[fe80::1]/', /points at fe80::1, a link-local address \(169\.254\.0\.0\/16, fe80::\/10\)/],
  ['http://metadata.google.internal/computeMetadata/v1/', /points at metadata\.google\.internal, a cloud metadata address/],
  ['file:///etc/passwd', /is not http or https \(got "file:"\)/],
  ['http://169.254.10.5:8080/', /a link-local address/],
  ['http://2852039166/', /points at 169\.254\.169\.254/], // the same address as a number
  ['http://[::ffff:169.254.169.254]/', /a cloud metadata address/],
  ['http://[fd00:ec2::254]/', /a cloud metadata address/],
  ['http://100.100.100.200/', /a cloud metadata address/],
  ['http://Metadata.Google.Internal./', /a cloud metadata address/],
  ['http://metadata.azure.internal/', /a cloud metadata address/],
  ['not a url', /is not a valid URL/],
];

describe('a base URL', () => {
  it('may not point at link-local or metadata addresses, or use another scheme', () => {
    const policy = new EgressPolicy();
    for (const [url, message] of REFUSED_BASE_URLS) expect(policy.baseUrlProblem(url, 'The base URL'), url).toMatch(message);
  });

  it('may point at loopback, private ranges and public hosts', () => {
    const policy = new EgressPolicy();
    for (const url of [
      'http://127.0.0.1:8080/v1',
      'http://localhost/',
      'http://[::1]/',
      'http://10.1.2.3/',
      'http://192.168.0.9/',
      'http://172.16.0.1/',
      'https://api.notion.com/v1',
      'http://proxy.internal:3128/slack',
    ]) {
      expect(policy.baseUrlProblem(url, 'The base URL'), url).toBeUndefined();
    }
  });

  it('is accepted anywhere the operator allows it: all, or a list of names, addresses and ranges', () => {
    const all = new EgressPolicy({ allowPrivate: 'all' });
    for (const [url] of REFUSED_BASE_URLS.filter(([url]) => url.startsWith('http')))
      expect(all.baseUrlProblem(url, 'x'), url).toBeUndefined();
    const some = new EgressPolicy({ allowPrivate: parseEgressAllowance('169.254.10.0/24, metadata.google.internal') as string[] });
    expect(some.baseUrlProblem('http://169.254.10.5:8080/', 'x')).toBeUndefined();
    expect(some.baseUrlProblem('http://metadata.google.internal/', 'x')).toBeUndefined();
    expect(some.baseUrlProblem('http://169.254.169.254/', 'x')).toMatch(/metadata/);
  });

  it('reads the operator setting strictly', () => {
    expect(parseEgressAllowance(undefined)).toBeUndefined();
    expect(parseEgressAllowance('off')).toBeUndefined();
    expect(parseEgressAllowance('1')).toBe('all');
    expect(parseEgressAllowance('on')).toBe('all');
    expect(parseEgressAllowance('169.254.1.0/24,fe80::/10,sidecar.local')).toEqual(['169.254.1.0/24', 'fe80::/10', 'sidecar.local']);
    for (const bad of ['169.254.1.0/33', 'http://x', 'a b', '10.0.0.1/8/2'])
      expect(() => parseEgressAllowance(bad), bad).toThrow(/not a host name/);
  });

  it('set through the engine (admin API, CLI) is refused with 400 naming the problem; allowed by the operator it is stored', async () => {
    const engine = await engineWith();
    for (const [url, message] of REFUSED_BASE_URLS) {
      const refused = engine.configureIntegration(DEFAULT_WORKSPACE, 'strict', { baseUrl: url });
      await expect(refused, url).rejects.toMatchObject({ code: 'bad_request', status: 400, message: expect.stringMatching(message) });
    }
    expect((await engine.integrationState(DEFAULT_WORKSPACE, 'strict')).baseUrl).toBe(`http://127.0.0.1:${base.port}/api`);
    const allowing = await engineWith({ allowPrivate: 'all', workspaceHosts: ['127.0.0.1', '169.254.169.254'] });
    const state = await allowing.configureIntegration(DEFAULT_WORKSPACE, 'strict', { baseUrl: 'http://169.254.169.254/' });
    expect(state.baseUrl).toBe('http://169.254.169.254/');
  });

  it('stored before the policy (or computed by a plugin) is refused at call time, before the client is asked', async () => {
    const engine = await engineWith();
    const state = await engine.integrationState(DEFAULT_WORKSPACE, 'strict');
    await engine.store.putIntegration({
      workspaceId: DEFAULT_WORKSPACE,
      service: 'strict',
      mcpEnabled: state.mcpEnabled,
      restEnabled: state.restEnabled,
      baseUrl: 'http://169.254.169.254/latest',
      settings: {},
      updatedAt: new Date().toISOString(),
    });
    const send = watchClient();
    expect(await call(engine, 'strict')).toMatchObject({
      status: 502,
      body: {
        code: 'upstream_error',
        message: expect.stringMatching(/^The base URL of Strict points at 169\.254\.169\.254, a cloud metadata address/),
      },
    });
    expect(send).not.toHaveBeenCalled();
  }, 10_000);
});

/**
 * A resolver for names that exist only in this test. `rebind.test` lists loopback first: were the guard to fail, the
 * socket would connect to the loopback stub (and the test fail), never to 169.254.169.254.
 */
const NAMES: Record<string, LookupAddress[]> = {
  'ok.test': [{ address: '127.0.0.1', family: 4 }],
  'rebind.test': [
    { address: '127.0.0.1', family: 4 },
    { address: '169.254.169.254', family: 4 },
  ],
  'meta.test': [{ address: '169.254.169.254', family: 4 }],
  'mixed.test': [
    { address: '127.0.0.1', family: 4 },
    { address: 'fe80::1', family: 6 },
  ],
};
const resolve: Resolver = (hostname, _options, callback) => {
  const found = NAMES[hostname];
  if (found) callback(null, found);
  else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};

function lookup(policy: EgressPolicy, hostname: string, all = false): Promise<{ error: NodeJS.ErrnoException | null; address: unknown }> {
  return new Promise((done) => policy.lookup(hostname, { all }, (error, address) => done({ error, address })));
}

describe('the connection-time guard (lookup)', () => {
  it('refuses a name resolving to a link-local or metadata address, checking every address', async () => {
    const policy = new EgressPolicy({ resolve });
    const meta = await lookup(policy, 'meta.test');
    expect(meta.error?.code).toBe(EGRESS_REFUSED);
    expect(meta.error?.message).toMatch(/^meta\.test resolves to 169\.254\.169\.254, a cloud metadata address/);
    expect((await lookup(policy, 'rebind.test')).error?.message).toMatch(/^rebind\.test resolves to 169\.254\.169\.254/);
    expect((await lookup(policy, 'mixed.test', true)).error?.message).toMatch(/resolves to fe80::1, a link-local address/);
    expect(await lookup(policy, 'ok.test')).toEqual({ error: null, address: '127.0.0.1' });
    expect(await lookup(policy, 'ok.test', true)).toEqual({ error: null, address: NAMES['ok.test'] });
  });

  it('refuses metadata names without resolving them, and lets the operator allow them', async () => {
    const spy = vi.fn(resolve);
    expect((await lookup(new EgressPolicy({ resolve: spy }), 'metadata.google.internal')).error?.code).toBe(EGRESS_REFUSED);
    expect(spy).not.toHaveBeenCalled();
    // allowed: the address is handed to the socket (no connection is made here)
    expect(await lookup(new EgressPolicy({ resolve, allowPrivate: 'all' }), 'meta.test')).toEqual({
      error: null,
      address: '169.254.169.254',
    });
    expect(await lookup(new EgressPolicy({ resolve, allowPrivate: ['meta.test'] }), 'meta.test')).toEqual({
      error: null,
      address: '169.254.169.254',
    });
    expect(await lookup(new EgressPolicy({ resolve, allowPrivate: ['169.254.169.254'] }), 'meta.test')).toEqual({
      error: null,
      address: '169.254.169.254',
    });
    expect((await lookup(new EgressPolicy({ resolve, allowPrivate: ['other.test'] }), 'meta.test')).error?.code).toBe(EGRESS_REFUSED);
  });

  it('is what the upstream client connects with: a name resolving to 169.254.169.254 is 502 and never connected', async () => {
    const ok = await engineWith({ resolve, workspaceHosts: ['ok.test'] }, `http://ok.test:${base.port}/api`);
    uploadUrl = `http://ok.test:${base.port}/upload/F5`;
    // ok.test exists only in the injected resolver: reaching the loopback stub proves the agents use it
    expect(await call(ok, 'strict')).toEqual({ status: 200, body: { ok: true } });
    expect(base.requests).toEqual(['GET /api/ticket', 'POST /upload/F5']);

    base.requests = [];
    const rebind = await engineWith({ resolve, workspaceHosts: ['rebind.test'] }, `http://rebind.test:${base.port}/api`);
    expect(await call(rebind, 'strict')).toEqual({
      status: 502,
      body: {
        error: true,
        code: 'upstream_error',
        message: expect.stringMatching(/^Strict was not contacted: rebind\.test resolves to 169\.254\.169\.254, a cloud metadata address/),
      },
    });
    expect(base.requests).toEqual([]);
  });
});
