// Bounded soak test (`pnpm soak`, after `pnpm build`): the built gateway in a child process serving core's example
// plugin against a loopback upstream that fails 5 % of its requests (500, 503, 429 with Retry-After, a reset, a hang
// past the gateway's time budget), under a steady request rate for 60 s whose connection count climbs to 500 and comes
// back. It reports what an operator would ask: 5xx answers the injected faults do not explain (must be 0), audit
// records lost (must be 0), RSS of the gateway process (start, peak, end) and its heap after garbage collection before
// and after the load, and /healthz latency (p50, p99, max) during the load.
//
//   node bench/soak.mjs [--seconds 60] [--rate 600] [--peak 500] [--fault-rate 0.05] [--out FILE]
//
// Everything runs on 127.0.0.1, bounded in time and count, and stops by itself.
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { memoryMiB } from './harness/machine.mjs';
import { percentile } from './harness/stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '600' },
    peak: { type: 'string', default: '500' },
    'fault-rate': { type: 'string', default: '0.05' },
    out: { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const RATE = Number(args.rate);
const PEAK = Number(args.peak);
const FAULT_RATE = Number(args['fault-rate']);
const BUDGET_MS = 1_000;
/** @param {string} line */
const log = (line) => process.stderr.write(`[soak] ${line}\n`);

// ---- the upstream: the example plugin's routes, 5 % faults, each counted ------------------------------------------

/** @typedef {'500' | '503' | '429' | 'reset' | 'hang'} Fault */
/** @type {Record<Fault, number>} */
const injected = { 500: 0, 503: 0, 429: 0, reset: 0, hang: 0 };
const KINDS = /** @type {Fault[]} */ (Object.keys(injected));
let served = 0;
let faultTick = 0;
const LIST = JSON.stringify({
  items: [{ id: 'itm_0001', name: 'Item 1', status: 'open', tags: ['a'], created_at: '2025-01-01T00:00:00.000Z' }],
  next_cursor: null,
});
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    served++;
    // Deterministic: every (1 / FAULT_RATE)-th request fails, the kinds in turn.
    if (FAULT_RATE > 0 && served % Math.round(1 / FAULT_RATE) === 0) {
      const kind = /** @type {Fault} */ (KINDS[faultTick++ % KINDS.length]);
      injected[kind]++;
      if (kind === 'reset') return req.socket.destroy();
      if (kind === 'hang') return setTimeout(() => res.destroy(), BUDGET_MS * 3);
      const headers = { 'content-type': 'application/json', ...(kind === '429' ? { 'retry-after': '1' } : {}) };
      res.writeHead(Number(kind), headers);
      return res.end(JSON.stringify({ message: `injected ${kind}` }));
    }
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
    res.end(req.method === 'POST' ? JSON.stringify({ id: 'itm_0042', name: 'soak' }) : LIST);
  });
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', () => resolve(undefined)));
const upstreamUrl = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (upstream.address()).port}`;

// ---- the gateway ---------------------------------------------------------------------------------------------------

const child = fork(join(HERE, 'processes', 'soak-gateway.mjs'), [upstreamUrl], {
  env: { ...process.env, PORTICO_LOG_LEVEL: 'warn', PORTICO_UPSTREAM_TIMEOUT_MS: String(BUDGET_MS), PORTICO_UPSTREAM_RETRIES: '0' },
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  execArgv: ['--expose-gc'],
});
/** @type {{ url: string, key: string }} */
const ready = await new Promise((resolve, reject) => {
  child.once('message', resolve);
  child.once('exit', (code) => reject(new Error(`soak gateway exited with ${code}`)));
});
const { url, key } = ready;
const pid = /** @type {number} */ (child.pid);
/**
 * Sends a message to the soak gateway and resolves with its next answer.
 * @template Answer
 * @param {string} message
 * @returns {Promise<Answer>}
 */
const ask = (message) =>
  new Promise((resolve) => {
    child.once('message', (answer) => resolve(/** @type {Answer} */ (answer)));
    child.send(message);
  });
/** @type {import('./processes/soak-gateway.mjs').SoakMemory} */
const memoryStart = await ask('memory');
const rssStart = memoryMiB(pid).rss;
log(`gateway ${url}, upstream ${upstreamUrl}, RSS ${rssStart.toFixed(1)} MiB`);

// ---- /healthz while the load runs ----------------------------------------------------------------------------------

/** @type {number[]} */
const health = [];
let probing = true;
const probe = (async () => {
  while (probing) {
    const started = performance.now();
    const res = await fetch(`${url}/healthz`).catch(() => undefined);
    await res?.text();
    health.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();

// ---- load: a steady rate, connections 50 → PEAK → 50 over three phases -------------------------------------------

/** @type {Map<number, number>} */
const statuses = new Map();
/** @type {number[]} */
const rssSamples = [];
const rssTimer = setInterval(() => rssSamples.push(memoryMiB(pid).rss), 1_000);
/**
 * @param {number} connections
 * @param {number} seconds
 * @returns {Promise<import('autocannon').Result>}
 */
const phase = (connections, seconds) =>
  new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        overallRate: RATE,
        timeout: 10,
        requests: [
          { method: 'GET', path: '/api/v1/example/items?limit=5&status=open', headers: { authorization: `Bearer ${key}` } },
          {
            method: 'POST',
            path: '/api/v1/example/items',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'soak', notify: true }),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('response', (_client, status) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
  });
const third = Math.max(1, Math.round(SECONDS / 3));
const phases = [];
for (const [connections, seconds] of /** @type {[number, number][]} */ ([
  [50, third],
  [PEAK, third],
  [50, SECONDS - 2 * third],
])) {
  log(`${connections} connections for ${seconds} s at ${RATE} req/s`);
  const result = await phase(connections, seconds);
  phases.push({ connections, seconds, requests: result.requests.total, errors: result.errors, timeouts: result.timeouts });
}
clearInterval(rssTimer);
probing = false;
await probe;

// ---- what the gateway recorded --------------------------------------------------------------------------------------

const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
/** @type {{ count: number }} */
const audit = await ask('audit:count');
const rssEnd = memoryMiB(pid).rss;
/** @type {import('./processes/soak-gateway.mjs').SoakMemory} */
const memoryEnd = await ask('memory');
child.send('stop');
await new Promise((resolve) => child.once('exit', resolve));
upstream.close();

/** @param {(status: number) => boolean} predicate */
const count = (predicate) => [...statuses].filter(([s]) => predicate(s)).reduce((a, [, n]) => a + n, 0);
const fives = count((s) => s >= 500);
const explained = injected[500] + injected[503] + injected.reset + injected.hang;
const sortedHealth = Float64Array.from(health).sort();
const report = {
  seconds: SECONDS,
  rate: RATE,
  peakConnections: PEAK,
  phases,
  upstreamRequests: served,
  injected,
  answered,
  statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
  unexplained5xx: Math.max(0, fives - explained),
  auditRecords: audit.count,
  auditLost: Math.max(0, answered - audit.count),
  rssStartMiB: rssStart,
  rssPeakMiB: Math.max(rssStart, ...rssSamples),
  rssEndMiB: rssEnd,
  rssGrowth: (rssEnd - rssStart) / rssStart,
  afterGc: {
    rssStartMiB: memoryStart.rssMiB,
    rssEndMiB: memoryEnd.rssMiB,
    heapUsedStartMiB: memoryStart.heapUsedMiB,
    heapUsedEndMiB: memoryEnd.heapUsedMiB,
    heapGrowth: (memoryEnd.heapUsedMiB - memoryStart.heapUsedMiB) / memoryStart.heapUsedMiB,
  },
  healthz: { probes: health.length, p50: percentile(sortedHealth, 0.5), p99: percentile(sortedHealth, 0.99), max: sortedHealth.at(-1) },
};
console.log(JSON.stringify(report, null, 2));
if (args.out) writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
process.exitCode = report.unexplained5xx === 0 && report.auditLost === 0 ? 0 : 1;
