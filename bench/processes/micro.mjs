// Per-request building blocks, measured one at a time in-process (no profiler, so nothing is distorted): what each
// step of a REST or MCP request costs on its own, as wall time per call (calls made one after another) and as CPU
// time of this process per call (for steps that wait on the upstream or a thread, the two differ). Run as a child by
// run.mjs (with --experimental-import-meta-resolve) with the upstream URL as its argument; reports its MicroRow list
// over IPC. A step whose export no longer exists is skipped.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  importCore,
  importCoreMcp,
  importCoreTesting,
  importDashboardRoutes,
  importGateway,
  importGot,
  importSdkAjv,
  importSdkServer,
  importSdkTransport,
  importSdkTypes,
} from '../workspace.mjs';

/**
 * One step: wall and CPU µs per call, or why it was skipped (`us` null).
 * @typedef {object} MicroRow
 * @property {string} step what was measured; a leading two-space indent marks a part of the step above
 * @property {string} where the code it runs
 * @property {number | null} us wall time per call
 * @property {number} [cpuUs] CPU time of the process per call
 * @property {number} [iterations]
 * @property {string} [skipped]
 */

const { createLogger, loadConfig, startGateway } = await importGateway();
const core = { ...(await importCore()), ...(await importCoreMcp()) };
const { examplePlugin } = await importCoreTesting();
const { default: got } = await importGot();

const upstream = process.argv[2] ?? '';
const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-micro-'));
const config = loadConfig({
  PORTICO_DATA_DIR: dataDir,
  PORTICO_PORT: '0',
  PORTICO_LOG_LEVEL: 'silent',
  PORTICO_EXAMPLE_BASE_URL: `${upstream}/api`,
  PORTICO_RATE_LIMIT_PER_MINUTE: '1000000000',
  PORTICO_RATE_LIMIT_BURST: '1000000000',
});
const gateway = await startGateway({ config, logger: core.silentLogger, plugins: [examplePlugin] });
const { engine } = gateway.runtime;
const ws = core.DEFAULT_WORKSPACE;
await engine.connectToken(ws, 'example', 'bench-upstream-token');
await engine.configureIntegration(ws, 'example', { restEnabled: true, mcpEnabled: true });
const key = gateway.createdKey?.key;
if (!key) throw new Error('the gateway created no admin key');
const principal = await engine.authenticate(key);
const operation = engine.registry.get('example')?.operations.get('list_items');
if (!operation) throw new Error('the example plugin has no list_items');
const stringParams = { limit: '5', status: 'open', tags: ['a', 'b'] };

/** @type {MicroRow[]} */
const rows = [];
/** @param {unknown} error */
const reason = (error) => String(error instanceof Error ? error.message : error).slice(0, 200);

/**
 * @param {string} step
 * @param {string} where
 * @param {() => unknown} fn
 */
async function measure(step, where, fn, { iterations = 2000, warmup = 500 } = {}) {
  try {
    for (let i = 0; i < warmup; i++) await fn();
    const cpu = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    const wall = ((performance.now() - t) * 1000) / iterations;
    const used = process.cpuUsage(cpu);
    rows.push({ step, where, us: wall, cpuUs: (used.user + used.system) / iterations, iterations });
  } catch (error) {
    rows.push({ step, where, us: null, skipped: reason(error) });
  }
}

// ---- floors: one upstream round trip -------------------------------------------------------------------------
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** @returns {Promise<void>} */
const rawGet = () =>
  new Promise((resolve, reject) => {
    request(`${upstream}/api/items?limit=5&status=open&tags=a&tags=b`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    })
      .on('error', reject)
      .end();
  });
await measure('upstream round trip, bare node:http client (keep-alive)', 'floor', rawGet, { iterations: 1000, warmup: 300 });
const client = got.extend({
  agent: { http: new Agent({ keepAlive: true, maxSockets: 256 }) },
  timeout: { request: 30_000 },
  followRedirect: false,
  responseType: 'buffer',
  retry: { limit: 2 },
});
await measure(
  'upstream round trip, one tuned got instance',
  'got (floor of the engine)',
  () => client(`${upstream}/api/items`, { searchParams: new URLSearchParams('limit=5&status=open&tags=a&tags=b') }),
  { iterations: 1000, warmup: 300 },
);
// The same instance with its cache options emptied as core's UpstreamClient empties them (public options of got):
// the options object got hands to http.request is then cheap to build on Node 20 (docs/performance.md).
const withoutCacheOptions = client.extend({ mutableDefaults: true });
withoutCacheOptions.defaults.options.cacheOptions = {};
await measure(
  "upstream round trip, the same got instance, got's cache options emptied",
  'got, as core/src/upstream/client.ts sets it',
  () => withoutCacheOptions(`${upstream}/api/items`, { searchParams: new URLSearchParams('limit=5&status=open&tags=a&tags=b') }),
  { iterations: 1000, warmup: 300 },
);

// ---- the REST pipeline, step by step --------------------------------------------------------------------------
await measure('request id (randomUUID)', 'apps/gateway/src/server/middleware.ts', () => randomUUID(), { iterations: 20000, warmup: 2000 });
await measure(
  'authenticate: key checks + SHA-256 + SQLite look-up by hash',
  'Engine.authenticate (core/src/pipeline/engine.ts, access/api-keys.ts)',
  () => engine.authenticate(key),
);
const hash = core.hashApiKey(key);
await measure('  of which: SQLite query findApiKeyByHash', 'SqliteStore (core/src/store/sqlite.ts)', () =>
  engine.store.findApiKeyByHash(hash),
);
await measure('authorize (cached integration state)', 'Engine.authorize', () => engine.authorize(principal, 'example', 'rest'));
// The tool-set check a key bound to a set adds to every call: the cached resolved set, then one membership test.
if (engine.toolSets) {
  await engine.toolSets.save(ws, { id: 'bench', rules: [{ match: 'example:list_*', readOnly: false }] });
  const bound = { ...principal, scopes: { ...principal.scopes, toolSet: 'bench' } };
  await measure(
    'tool-set check (cached set, one membership test)',
    'Engine.allowedOperations + AllowedOperations.has (core/src/access/tool-sets.ts)',
    async () => {
      if (!(await engine.allowedOperations(bound))?.has('example', 'list_items')) throw new Error('not allowed');
    },
    { iterations: 20000, warmup: 2000 },
  );
}
// What the dashboard adds to an /api request: its middleware, passing a path outside /dashboard straight on.
{
  const { dashboardMiddleware } = await importDashboardRoutes();
  // Neither the assets nor more of the request than its path are read on the way through.
  const none = { name: 'none', type: 'text/plain', body: Buffer.alloc(0), gzip: Buffer.alloc(0) };
  const passThrough = dashboardMiddleware({
    engine,
    logger: core.silentLogger,
    assets: { script: none, style: none, byName: new Map() },
    hostAllowed: () => true,
  });
  const ctx = /** @type {Parameters<typeof passThrough>[0]} */ (/** @type {unknown} */ ({ path: '/api/v1/example/items' }));
  const next = () => Promise.resolve();
  await measure(
    'dashboard middleware on an /api request (pass-through)',
    'dashboardMiddleware (apps/gateway/src/routes/dashboard/index.ts)',
    () => passThrough(ctx, next),
    { iterations: 50000, warmup: 5000 },
  );
}
await measure(
  'coerce query strings + validate params',
  'queryParams + coerceParams + compiled TypeBox validator',
  () => {
    const schema = operation.definition.params;
    const params = core.coerceParams(schema, core.queryParams(schema, stringParams));
    if (!operation.validator.check(params)) throw new Error('invalid');
  },
  { iterations: 20000, warmup: 2000 },
);
await measure('credentials: SQLite query getConnection', 'SqliteStore.getConnection', () => engine.store.getConnection(ws, 'example'));
{
  const encryptor = new core.Encryptor(core.parseEncryptionKey(core.generateEncryptionKey()));
  const aad = core.connectionAad(ws, 'example');
  const secret = encryptor.encrypt(JSON.stringify({ accessToken: 'bench-upstream-token' }), aad);
  await measure(
    'credentials: AES-256-GCM decrypt + JSON.parse',
    'Encryptor.decrypt (core/src/connections/crypto.ts)',
    () => JSON.parse(encryptor.decrypt(secret, aad)),
    { iterations: 20000, warmup: 2000 },
  );
}
await measure(
  'engine.invoke list_items, whole pipeline incl. the upstream round trip',
  'Engine.invoke',
  () => engine.invoke({ principal, protocol: 'rest', service: 'example', operation: 'list_items', stringParams }),
  { iterations: 1000, warmup: 300 },
);
{
  const logger = createLogger('info'); // stdout is /dev/null in this child
  const line = {
    requestId: randomUUID(),
    method: 'GET',
    path: '/api/v1/example/items',
    status: 200,
    ms: 1.2,
    keyId: 'k',
    service: 'example',
    operation: 'list_items',
  };
  await measure('access-log line (pino, redaction on)', 'apps/gateway/src/observability/logger.ts', () => logger.info(line, 'request'), {
    iterations: 20000,
    warmup: 2000,
  });
}

// ---- the MCP door ------------------------------------------------------------------------------------------------
// What the door adds to the pipeline REST shares: a tools/call of call_example from its body's text to its answer's
// JSON, with an engine whose invoke answers at once with the upstream's list_items answer.
{
  const params = { limit: 5, status: 'open', tags: ['a', 'b'] };
  const text = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'call_example', arguments: { method: 'list_items', params } },
  });
  const answered = await engine.invoke({ principal, protocol: 'mcp', service: 'example', operation: 'list_items', params });
  const stub = Object.create(engine, { invoke: { value: async () => answered } });
  const options = { name: 'portico', version: 'bench', clientAddress: null };
  const headers = { accept: 'application/json, text/event-stream', contentType: 'application/json', protocolVersion: undefined };
  await measure(
    'MCP door: a tools/call from its body to its answer JSON (invoke answering at once)',
    'answerMcpPost + mcpToolCaller (core/src/doors/mcp-http.ts, mcp-calls.ts)',
    async () => {
      const answer = await core.answerMcpPost(
        () => core.createMcpServer(stub, principal, options),
        { ...headers, body: JSON.parse(text) },
        core.mcpToolCaller(stub, principal, options),
      );
      if (answer.status !== 200) throw new Error(`MCP answered ${answer.status}`);
      return answer.json ?? JSON.stringify(answer.body);
    },
    { iterations: 20000, warmup: 2000 },
  );
}
await measure(
  'createMcpServer (new SDK Server + handlers), per request',
  'core/src/doors/mcp.ts',
  () => core.createMcpServer(engine, principal, { name: 'portico', version: 'bench' }),
  { iterations: 300, warmup: 100 },
);
try {
  const { AjvJsonSchemaValidator } = await importSdkAjv();
  await measure(
    '  of which: new AjvJsonSchemaValidator() (the SDK Server default)',
    '@modelcontextprotocol/sdk Server constructor',
    () => new AjvJsonSchemaValidator(),
    {
      iterations: 300,
      warmup: 100,
    },
  );
} catch (error) {
  rows.push({ step: 'new AjvJsonSchemaValidator()', where: 'sdk', us: null, skipped: reason(error) });
}
try {
  const { Server } = await importSdkServer();
  const { AjvJsonSchemaValidator } = await importSdkAjv();
  const shared = new AjvJsonSchemaValidator();
  await measure(
    '  for comparison: new SDK Server with a shared jsonSchemaValidator',
    '@modelcontextprotocol/sdk Server',
    () => new Server({ name: 'portico', version: 'bench' }, { capabilities: { tools: {} }, jsonSchemaValidator: shared }),
    { iterations: 2000, warmup: 300 },
  );
} catch (error) {
  rows.push({ step: 'new Server (shared validator)', where: 'sdk', us: null, skipped: reason(error) });
}
try {
  const { StreamableHTTPServerTransport } = await importSdkTransport();
  const server = core.createMcpServer(engine, principal, { name: 'portico', version: 'bench' });
  await measure(
    'new StreamableHTTPServerTransport + server.connect + close',
    'apps/gateway/src/routes/mcp.ts',
    async () => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      await transport.close();
    },
    { iterations: 1000, warmup: 200 },
  );
} catch (error) {
  rows.push({ step: 'transport connect', where: 'sdk', us: null, skipped: reason(error) });
}
try {
  const { CallToolRequestSchema, JSONRPCMessageSchema, McpError, ErrorCode } = await importSdkTypes();
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'call_example', arguments: { method: 'list_items', params: { limit: 5, status: 'open', tags: ['a', 'b'] } } },
  };
  await measure(
    'zod: parse the JSON-RPC message + the tools/call request',
    '@modelcontextprotocol/sdk (JSONRPCMessageSchema, CallToolRequestSchema)',
    () => {
      JSONRPCMessageSchema.parse(message);
      CallToolRequestSchema.parse(message);
    },
    { iterations: 5000, warmup: 1000 },
  );
  await measure(
    'McpError "Connection closed" created on every transport close',
    'sdk shared/protocol.js _onclose',
    () => McpError.fromError(ErrorCode.ConnectionClosed, 'Connection closed'),
    {
      iterations: 5000,
      warmup: 1000,
    },
  );
} catch (error) {
  rows.push({ step: 'zod parse', where: 'sdk', us: null, skipped: reason(error) });
}

await gateway.close();
agent.destroy();
rmSync(dataDir, { recursive: true, force: true });
process.send?.({ rows });
