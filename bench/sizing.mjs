// pnpm bench:sizing: what a deployment of several instances with workers carries (docs/deploy.md, "Sizing"). Starts
// `--instances` gateways (the built CLI, `serve --workers N` each) on one PostgreSQL schema, in front of them HAProxy
// with deploy/haproxy.cfg as shipped (pointed at loopback ports) when it is installed, else the load generator deals
// its connections to the instances in turn; then REST and MCP reads (the example plugin's list_items, against the
// bench's loopback upstream) for `--duration` seconds each. Prints calls a second, p50 and p99 latency, non-2xx
// answers, errors and timeouts, and how busy the machine was with other work. `node bench/sizing.mjs --help`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, processFile, startChild, stopChild } from './harness/children.mjs';
import { runLoad } from './harness/load.mjs';
import { probe, requestFor } from './measure/scenarios.mjs';
import { GATEWAY_BIN, gatewayNodeFlags, importPg, ROOT } from './workspace.mjs';

const { values: options } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    workers: { type: 'string', default: '2' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '48' },
    'pool-size': { type: 'string', default: '4' },
    'lock-pool-size': { type: 'string', default: '2' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    haproxy: { type: 'string', default: '/usr/sbin/haproxy' },
    'no-balancer': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (options.help) {
  console.log(`node bench/sizing.mjs [options] (after pnpm build)
  --instances N        gateways, each \`serve --workers W\` (3)
  --workers W          workers per gateway (2)
  --duration S         seconds of measured load per path, REST then MCP (20)
  --warmup S           seconds of load before each path (3)
  --connections C      kept-alive client connections (48)
  --pool-size P        PORTICO_DATABASE_POOL_SIZE of each process (4); with the lock pool and LISTEN, each
  --lock-pool-size L   worker and primary holds P + L + 1 PostgreSQL connections (2)
  --database-url URL   the PostgreSQL server (postgres://postgres@127.0.0.1:5432/test);
                       a schema of its own is made and dropped
  --haproxy PATH       HAProxy in front with deploy/haproxy.cfg, when there is one (/usr/sbin/haproxy)
  --no-balancer        deal the client's connections to the instances in turn instead`);
  process.exit(0);
}

/** @param {'instances' | 'workers' | 'duration' | 'connections' | 'pool-size' | 'lock-pool-size'} name */
const count = (name) => {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number above 0 (got ${options[name]})`);
  return value;
};
const instances = count('instances');
const workers = count('workers');
const duration = count('duration');
const warmup = Number(options.warmup);
const connections = count('connections');
const databaseUrl = /** @type {string} */ (options['database-url']);
const schema = `portico_sizing_${randomBytes(4).toString('hex')}`;
const haproxy = options['no-balancer'] || !existsSync(/** @type {string} */ (options.haproxy)) ? undefined : options.haproxy;

/** @type {Array<() => Promise<void>>} */
const cleanups = [];
const env = {
  PORTICO_DATABASE_URL: databaseUrl,
  PORTICO_DATABASE_SCHEMA: schema,
  PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  PORTICO_DATABASE_POOL_SIZE: String(count('pool-size')),
  PORTICO_DATABASE_LOCK_POOL_SIZE: String(count('lock-pool-size')),
  PORTICO_PLUGINS: join(ROOT, 'packages/core/dist/testing/example-plugin.js'),
  PORTICO_LOG_LEVEL: 'warn',
  PORTICO_DASHBOARD: 'off',
  PORTICO_RATE_LIMIT_PER_MINUTE: '1000000000',
  PORTICO_RATE_LIMIT_BURST: '1000000000',
};

/**
 * `portico serve --workers W` on `port`; resolves with its URL and the key its first start made (if it made one).
 * @param {number} port
 * @param {string} upstreamUrl
 */
async function startInstance(port, upstreamUrl) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-sizing-'));
  const child = spawn(process.execPath, [...(await gatewayNodeFlags()), GATEWAY_BIN, 'serve', '--workers', String(workers)], {
    env: { ...process.env, ...env, PORTICO_DATA_DIR: dataDir, PORTICO_PORT: String(port), PORTICO_EXAMPLE_BASE_URL: `${upstreamUrl}/api` },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanups.push(async () => {
    await stopChild(child, 30_000);
    rmSync(dataDir, { recursive: true, force: true });
  });
  let banner = '';
  return /** @type {Promise<{ url: string, key: string | undefined }>} */ (
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`an instance did not start:\n${banner}`)), 90_000);
      child.once('exit', (code) => reject(new Error(`an instance exited (${code}):\n${banner}`)));
      child.stderr.on('data', (chunk) => {
        banner += chunk;
        const url = /is listening on (http:\/\/[0-9.:]+)/.exec(banner)?.[1];
        if (!url || !banner.includes('Stop with Ctrl-C.')) return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ url, key: /API key \(admin[^\n]*\n\s+(\S+)/.exec(banner)?.[1] });
      });
    })
  );
}

/**
 * HAProxy in the foreground with deploy/haproxy.cfg as shipped, bound to `listen` and pointed at the instances' ports
 * (no engine DNS here); resolves with its URL once it answers /readyz.
 * @param {number} listen
 * @param {number[]} ports
 */
async function startHaproxy(listen, ports) {
  const shipped = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
  // the server lines end the file (the backend's): the instances' take their place
  if (!/\n {2}server gateway\d \S+ check\n$/.test(shipped)) {
    throw new Error('deploy/haproxy.cfg no longer ends with its server lines: bench/sizing.mjs must follow it');
  }
  let config = shipped
    .replace(/^resolvers engine\n(?:[ \t]+.*\n)*/m, '')
    .replace(/ resolvers engine$/m, '')
    .replace(/^\s*bind :8080$/m, `  bind 127.0.0.1:${listen}`)
    .replace(/^ {2}server gateway\d \S+ check\n/gm, '');
  config += ports.map((port, i) => `  server gateway${i + 1} 127.0.0.1:${port} check\n`).join('');
  const dir = mkdtempSync(join(tmpdir(), 'portico-sizing-haproxy-'));
  writeFileSync(join(dir, 'haproxy.cfg'), config);
  const child = spawn(/** @type {string} */ (haproxy), ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'inherit'] });
  cleanups.push(async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${listen}`;
  for (let tries = 0; ; tries++) {
    const ready = await fetch(`${url}/readyz`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ready) return url;
    if (tries > 100 || child.exitCode !== null) throw new Error('HAProxy did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** @param {number} value */
const ms = (value) => `${value.toFixed(2)} ms`;

async function main() {
  // Other work on the machine skews every figure: its load before anything of ours starts.
  console.log(
    `load average before the start: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} on ${cpus().length} cores`,
  );
  const upstream = /** @type {import('./harness/children.mjs').Started<{ url: string }>} */ (await startChild(processFile('upstream.mjs')));
  cleanups.push(() => stopChild(upstream.child));
  const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
  // The first start migrates the schema and makes the operator key; the others start on it together.
  const first = await startInstance(/** @type {number} */ (ports[0]), upstream.url);
  const key = first.key;
  if (!key) throw new Error('the first instance made no operator key');
  /** @param {string} method @param {string} path @param {unknown} body */
  const admin = async (method, path, body) => {
    const answer = await fetch(`${first.url}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  };
  await admin('PUT', '/connections/example', { token: 'bench-upstream-token' });
  await admin('PATCH', '/integrations/example', { rest_enabled: true });
  const others = await Promise.all(ports.slice(1).map((port) => startInstance(port, upstream.url)));
  const urls = [first.url, ...others.map((instance) => instance.url)];
  const target = haproxy ? await startHaproxy(await freePort(), ports) : urls;
  const front = haproxy
    ? `HAProxy ${haproxy} with deploy/haproxy.cfg`
    : 'no balancer: the client deals its connections to the instances in turn';
  console.log(
    `${instances} instances × ${workers} workers on PostgreSQL (schema ${schema}), ${front}; ${connections} kept-alive connections, ` +
      `${duration} s per path after ${warmup} s of warm-up`,
  );
  for (const path of /** @type {const} */ (['rest', 'mcp'])) {
    const request = requestFor(path, 'GET', { key });
    for (const url of urls) await probe(url, request);
    if (warmup > 0) await runLoad({ url: target, requests: [request], connections, duration: warmup });
    const run = await runLoad({ url: target, requests: [request], connections, duration });
    console.log(
      `${path === 'rest' ? 'REST GET list_items     ' : 'MCP tools/call list_items'}: ${Math.round(run.rps)} calls/s, ` +
        `p50 ${ms(run.p50)}, p99 ${ms(run.p99)}, ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts ` +
        `(machine ${(run.machineBusy * 100).toFixed(0)}% busy)`,
    );
  }
}

try {
  await main();
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  const { default: pg } = await importPg();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
