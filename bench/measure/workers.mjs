// Throughput of `portico serve --workers N` (the built CLI, node:cluster) against the benchmark upstream: one process
// (--workers 1, the default: no cluster, no IPC) and two workers, REST GET at the highest connection count, and the
// CPU time of every gateway process (the primary and its workers, from /proc) over each run: requests per CPU-second
// is the throughput at the same CPU budget, the load generator sharing the machine. A third run gives the example
// integration a declared limit (PORTICO_EXAMPLE_UPSTREAM_LIMITS) so that every call borrows its slot from the primary
// over IPC: its extra CPU per request is the cost of that round trip. After the rounds, one process and two workers
// started side by side are measured in alternating slices (as the paired slices are): the machine's speed can drift by
// half within minutes, and a ratio of
// two configurations measured minutes apart is as much a draw of that drift as of the code. The target takes the
// median of the pairs. Each pair also measures two separate one-worker processes sharing the load: what twice one
// worker does on this machine, so that a reader can tell the machine's price of a second busy process from Portico's.
// Every run and slice also records the gateway's user and system time apart, how often its threads were preempted, and
// how idle the machine was: two workers beside the load generator and the upstream leave a 2-core machine no idle core,
// one process leaves it a third idle.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processFile, startChild, stopChild } from '../harness/children.mjs';
import { closeAgent } from '../harness/client.mjs';
import { runLoad } from '../harness/load.mjs';
import { cpuTimes, machineTicks, preemptions } from '../harness/machine.mjs';
import { median } from '../harness/stats.mjs';
import { GATEWAY_BIN, gatewayNodeFlags, importCore, importCoreTesting, importWorkerCoordination, ROOT } from '../workspace.mjs';
import { requestFor } from './scenarios.mjs';

/**
 * @typedef {object} WorkersRun
 * @property {string} id
 * @property {number} workers
 * @property {boolean} sharedLimit the integration declares a limit: every call asks the primary for its slot
 * @property {number} connections
 * @property {number} rps
 * @property {number} p50 ms
 * @property {number} p99 ms
 * @property {number} gatewayCores CPU time of the primary and its workers, in cores over the run
 * @property {number} gatewayUsPerRequest their CPU time per 2xx answer, µs
 * @property {number} rpsPerCpuSecond 2xx answers per CPU-second of the gateway processes
 * @property {number} userUs their user time per 2xx answer, µs (absent in results of runs before 2026-11-28)
 * @property {number} systemUs their system time per 2xx answer, µs (absent likewise)
 * @property {number} preemptions times their threads were preempted, per 2xx answer (absent likewise)
 * @property {number} machineIdle the whole machine's idle share over the run, 0–1 (absent likewise)
 * @property {number} non2xx
 * @property {number} errors
 * @property {number} processes gateway processes measured (1, or the primary and its workers)
 */

/**
 * One set of slices seconds apart: requests per CPU-second of the gateway processes of each configuration (one
 * process, two workers, and since 2026-11-28 two separate processes: `split`), and what each side spent per request.
 * @typedef {{ one: number, two: number, split?: number, efficiency: number, againstSplit?: number, non2xx: number,
 *   sides?: { one: Spent, two: Spent, split?: Spent } }} WorkersPair
 */

/** @type {ReadonlyArray<{ id: string, workers: number, sharedLimit: boolean }>} */
const CONFIGURATIONS = [
  { id: '1 worker', workers: 1, sharedLimit: false },
  { id: '2 workers', workers: 2, sharedLimit: false },
  { id: '2 workers, declared limit (IPC per call)', workers: 2, sharedLimit: true },
];

/**
 * The pids of a process and its children (a cluster primary's workers), from /proc.
 * @param {number} pid
 */
function processTree(pid) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return [pid, ...children];
}

/**
 * The counters of the gateway processes (the primary and its workers) and of the machine, read before and after a run.
 * @param {number[]} pids
 */
function counters(pids) {
  let user = 0;
  let system = 0;
  let preempted = 0;
  for (const pid of pids) {
    const times = cpuTimes(pid);
    user += times.user;
    system += times.system;
    preempted += preemptions(pid);
  }
  return { user, system, preempted, machine: machineTicks() };
}

/**
 * What the gateway processes spent between two readings of {@link counters}, per 2xx answer, and how idle the machine
 * was meanwhile: with no idle core left, the scheduler preempts the workers, and a preemption can cost CPU.
 * @typedef {{ cpu: number, perCpuSecond: number, userUs: number, systemUs: number, preemptions: number, machineIdle: number }} Spent
 * @param {ReturnType<typeof counters>} before
 * @param {ReturnType<typeof counters>} after
 * @param {number} requests
 * @returns {Spent}
 */
function spent(before, after, requests) {
  const ticks = after.machine.total - before.machine.total;
  /** @param {number} value */
  const per = (value) => (requests > 0 ? value / requests : Number.NaN);
  const cpu = after.user - before.user + (after.system - before.system);
  return {
    cpu,
    perCpuSecond: cpu > 0 ? requests / cpu : Number.NaN,
    userUs: per((after.user - before.user) * 1e6),
    systemUs: per((after.system - before.system) * 1e6),
    preemptions: per(after.preempted - before.preempted),
    machineIdle: ticks > 0 ? (after.machine.idle - before.machine.idle) / ticks : Number.NaN,
  };
}

/**
 * `portico serve --workers N` on a fresh SQLite database, connected to the upstream with REST on.
 * @param {string} upstreamUrl
 * @param {number} workers
 * @param {boolean} sharedLimit
 * @param {string} logLevel
 */
async function startServe(upstreamUrl, workers, sharedLimit, logLevel) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-workers-'));
  const child = spawn(process.execPath, [...(await gatewayNodeFlags()), GATEWAY_BIN, 'serve', '--workers', String(workers)], {
    env: {
      ...process.env,
      PORTICO_DATA_DIR: dataDir,
      PORTICO_PORT: '0',
      PORTICO_LOG_LEVEL: logLevel,
      PORTICO_PLUGINS: join(ROOT, 'packages/core/dist/testing/example-plugin.js'),
      PORTICO_EXAMPLE_BASE_URL: `${upstreamUrl}/api`,
      PORTICO_RATE_LIMIT_PER_MINUTE: '1000000000',
      PORTICO_RATE_LIMIT_BURST: '1000000000',
      ...(sharedLimit ? { PORTICO_EXAMPLE_UPSTREAM_LIMITS: 'concurrency=10000' } : {}),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let banner = '';
  /** @type {{ url: string, key: string }} */
  const started = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve --workers ${workers} did not start:\n${banner}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`serve --workers ${workers} exited (${code}):\n${banner}`)));
    child.stderr.on('data', (chunk) => {
      banner += chunk;
      const url = /is listening on (http:\/\/[0-9.:]+)/.exec(banner)?.[1];
      const key = /API key \(admin[^\n]*\n\s+(\S+)/.exec(banner)?.[1];
      if (!url || !key || !banner.includes('Stop with Ctrl-C.')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ url, key });
    });
  });
  /** @param {string} method @param {string} path @param {unknown} body */
  const admin = async (method, path, body) => {
    const answer = await fetch(`${started.url}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${started.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  };
  await admin('PUT', '/connections/example', { token: 'bench-upstream-token' });
  await admin('PATCH', '/integrations/example', { rest_enabled: true });
  const pids = processTree(/** @type {number} */ (child.pid));
  if (pids.length !== (workers > 1 ? workers + 1 : 1)) throw new Error(`expected ${workers} workers, found processes ${pids.join(', ')}`);
  return {
    ...started,
    pids,
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One slot borrowed and given back over real IPC, alone: this process holds the primary's half (CoordinationHost with
 * core's UpstreamLimiter), a forked child the worker's (WorkerLink), sequential acquire + release. Per call: the wall
 * time of the round trip, and the CPU of each side. The child waits on every answer, so the CPU is the work per call.
 * @typedef {{ count: number, roundTripUs: number, workerCpuUs: number, primaryCpuUs: number }} IpcCost
 * @returns {Promise<IpcCost>}
 */
async function measureIpcRoundTrip(count = 20_000) {
  const { CoordinationHost } = await importWorkerCoordination();
  const { Registry, UpstreamLimiter, silentLogger } = await importCore();
  const { examplePlugin } = await importCoreTesting();
  const registry = new Registry();
  registry.register(examplePlugin);
  const host = new CoordinationHost(new UpstreamLimiter({ services: { example: { concurrency: 10 } } }), registry, silentLogger);
  const child = fork(processFile('slot-borrower.mjs'), [String(count)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  host.attach({ id: 1, send: (message) => child.send(message) });
  /** @type {{ count: number, elapsedMs: number, workerCpuUs: number }} */
  const borrowed = await new Promise((resolve, reject) => {
    let cpu = process.cpuUsage();
    let measuring = false;
    child.on('message', (/** @type {any} */ message) => {
      if (message?.borrowed) {
        const used = process.cpuUsage(cpu);
        resolve({ ...message.borrowed, primaryCpuUs: used.user + used.system });
        return;
      }
      // The warm-up's calls first: the primary's CPU counts from the measured run's first request.
      if (!measuring && message?.kind === 'portico.slot' && message.id > Math.min(2_000, count)) {
        measuring = true;
        cpu = process.cpuUsage();
      }
      host.receive(1, message);
    });
    child.once('exit', (code) => reject(new Error(`slot-borrower exited (${code}) before reporting`)));
  });
  await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
  const result = /** @type {typeof borrowed & { primaryCpuUs: number }} */ (borrowed);
  return {
    count: result.count,
    roundTripUs: (result.elapsedMs * 1000) / result.count,
    workerCpuUs: result.workerCpuUs / result.count,
    primaryCpuUs: result.primaryCpuUs / result.count,
  };
}

/**
 * @param {import('./settings.mjs').Settings} settings
 * @param {(line: string) => void} log
 * @returns {Promise<{ runs: WorkersRun[], rounds: WorkersRun[][], ipc: IpcCost, pairs: WorkersPair[], pairSeconds: number }>}
 */
export async function measureWorkers(settings, log) {
  const { duration, warmup, prime, rounds: roundCount, connections: connectionCounts, logLevel } = settings;
  const connections = Math.max(...connectionCounts);
  const ipc = await measureIpcRoundTrip();
  log(
    `one slot over IPC, alone: ${ipc.roundTripUs.toFixed(1)} µs round trip, CPU ${ipc.workerCpuUs.toFixed(1)} µs in the worker + ${ipc.primaryCpuUs.toFixed(1)} µs in the primary`,
  );
  /** @type {import('../harness/children.mjs').Started<{ url: string }>} */
  const upstream = await startChild(processFile('upstream.mjs'));
  /** @type {WorkersRun[][]} */
  const rounds = [];
  /** @type {WorkersPair[]} */
  let pairs = [];
  try {
    for (let round = 0; round < roundCount; round++) {
      /** @type {WorkersRun[]} */
      const runs = [];
      for (const { id, workers, sharedLimit } of round % 2 === 0 ? CONFIGURATIONS : [...CONFIGURATIONS].reverse()) {
        const serve = await startServe(upstream.url, workers, sharedLimit, logLevel);
        try {
          const requests = [requestFor('rest', 'GET', { key: serve.key })];
          // Warm every worker (each has its own JIT and caches) before the measured run: as long as every other process
          // is primed, times the workers, since each worker sees only its share of the load.
          await runLoad({ url: serve.url, requests, connections, duration: Math.max(prime, warmup, 1) * workers });
          const before = counters(serve.pids);
          const run = await runLoad({ url: serve.url, requests, connections, duration });
          const used = spent(before, counters(serve.pids), run.requests);
          const { cpu } = used;
          /** @type {WorkersRun} */
          const result = {
            id,
            workers,
            sharedLimit,
            connections,
            rps: run.rps,
            p50: run.p50,
            p99: run.p99,
            gatewayCores: cpu / run.durationS,
            gatewayUsPerRequest: run.requests > 0 ? (cpu * 1e6) / run.requests : Number.NaN,
            rpsPerCpuSecond: used.perCpuSecond,
            userUs: used.userUs,
            systemUs: used.systemUs,
            preemptions: used.preemptions,
            machineIdle: used.machineIdle,
            non2xx: run.non2xx,
            errors: run.errors + run.timeouts,
            processes: serve.pids.length,
          };
          runs.push(result);
          log(
            `round ${round + 1} ${id}: ${result.rps.toFixed(0)} req/s on ${result.gatewayCores.toFixed(2)} cores, ${result.rpsPerCpuSecond.toFixed(0)} req per CPU-s, ${result.gatewayUsPerRequest.toFixed(0)} µs CPU/request` +
              ` (user ${used.userUs.toFixed(0)} + system ${used.systemUs.toFixed(0)}), preempted ${used.preemptions.toFixed(2)}× per request, machine ${(used.machineIdle * 100).toFixed(0)}% idle` +
              (result.non2xx || result.errors ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''),
          );
        } finally {
          closeAgent();
          await serve.stop();
        }
      }
      rounds.push(runs);
    }
    pairs = await measureWorkerPairs(upstream.url, settings, connections, log);
  } finally {
    await stopChild(upstream.child);
  }
  const runs = CONFIGURATIONS.map(({ id }) => {
    const all = rounds.map((r) => /** @type {WorkersRun} */ (r.find((run) => run.id === id)));
    /** @param {(run: WorkersRun) => number} f */
    const pick = (f) => median(all.map(f));
    const first = /** @type {WorkersRun} */ (all[0]);
    return {
      ...first,
      rps: pick((r) => r.rps),
      p50: pick((r) => r.p50),
      p99: pick((r) => r.p99),
      gatewayCores: pick((r) => r.gatewayCores),
      gatewayUsPerRequest: pick((r) => r.gatewayUsPerRequest),
      rpsPerCpuSecond: pick((r) => r.rpsPerCpuSecond),
      userUs: pick((r) => r.userUs),
      systemUs: pick((r) => r.systemUs),
      preemptions: pick((r) => r.preemptions),
      machineIdle: pick((r) => r.machineIdle),
      non2xx: all.reduce((a, r) => a + r.non2xx, 0),
      errors: all.reduce((a, r) => a + r.errors, 0),
    };
  });
  return { runs, rounds, ipc, pairs, pairSeconds: settings.pairSeconds };
}

/**
 * `serve --workers 1`, `serve --workers 2` and two more `serve --workers 1` (the "two processes": what twice one worker
 * does on this machine, each given half the connections by the same load generator) started side by side, each warmed
 * as in the rounds, then `settings.pairs` sets of slices (`settings.pairSeconds` each, after `settings.warmup` of load),
 * the order rotated from one set to the next. Two workers ÷ one process per CPU-second is the efficiency; two workers ÷
 * two processes leaves out what the machine charges any second busy process.
 * @param {string} upstreamUrl
 * @param {import('./settings.mjs').Settings} settings
 * @param {number} connections
 * @param {(line: string) => void} log
 * @returns {Promise<WorkersPair[]>}
 */
export async function measureWorkerPairs(upstreamUrl, settings, connections, log) {
  const { pairs: count, pairSeconds, warmup, prime, logLevel } = settings;
  if (count <= 0) return [];
  /** @type {WorkersPair[]} */
  const pairs = [];
  /** @typedef {Awaited<ReturnType<typeof startServe>>} Serve */
  /** @type {Serve[]} */
  const started = [];
  try {
    for (const workers of [1, 2, 1, 1]) started.push(await startServe(upstreamUrl, workers, false, logLevel));
    const [one, two, a, b] = /** @type {[Serve, Serve, Serve, Serve]} */ (started);
    /** @param {Serve} serve @param {number} share */
    const target = (serve, share) => ({ url: serve.url, requests: [requestFor('rest', 'GET', { key: serve.key })], connections: share });
    const half = Math.max(1, Math.floor(connections / 2));
    /** @type {{ side: 'one' | 'two' | 'split', workers: number, pids: number[], targets: ReturnType<typeof target>[] }[]} */
    const sides = [
      { side: 'one', workers: 1, pids: one.pids, targets: [target(one, connections)] },
      { side: 'two', workers: 2, pids: two.pids, targets: [target(two, connections)] },
      { side: 'split', workers: 1, pids: [...a.pids, ...b.pids], targets: [target(a, half), target(b, connections - half)] },
    ];
    /** @param {(typeof sides)[number]} side @param {number} duration */
    const load = async (side, duration) => {
      const runs = await Promise.all(side.targets.map((t) => runLoad({ ...t, duration })));
      return runs.reduce(
        (sum, r) => ({
          requests: sum.requests + r.requests,
          failed: sum.failed + r.non2xx + r.errors + r.timeouts,
        }),
        { requests: 0, failed: 0 },
      );
    };
    for (const side of sides) await load(side, Math.max(prime, warmup, 1) * side.workers);
    for (let pair = 0; pair < count; pair++) {
      /** @type {Partial<Record<'one' | 'two' | 'split', Spent>>} */
      const sideOf = {};
      let non2xx = 0;
      for (const side of [...sides.slice(pair % 3), ...sides.slice(0, pair % 3)]) {
        if (warmup > 0) await load(side, warmup);
        const before = counters(side.pids);
        const run = await load(side, pairSeconds);
        sideOf[side.side] = spent(before, counters(side.pids), run.requests);
        non2xx += run.failed;
      }
      const { one: oneSide, two: twoSide, split: splitSide } = sideOf;
      if (!oneSide || !twoSide || !splitSide) throw new Error('a workers pair measured only some of its sides');
      const result = { one: oneSide.perCpuSecond, two: twoSide.perCpuSecond, split: splitSide.perCpuSecond, non2xx };
      pairs.push({
        ...result,
        efficiency: result.two / result.one,
        againstSplit: result.two / result.split,
        sides: { one: oneSide, two: twoSide, split: splitSide },
      });
      log(
        `workers pair ${pair + 1}: 1 worker ${result.one.toFixed(0)}, 2 workers ${result.two.toFixed(0)}, 2 processes ${result.split.toFixed(0)} req per CPU-s; ` +
          `2 workers ÷ 1 ${(result.two / result.one).toFixed(2)}×, ÷ 2 processes ${(result.two / result.split).toFixed(2)}×; ` +
          `preempted ${oneSide.preemptions.toFixed(2)}, ${twoSide.preemptions.toFixed(2)} and ${splitSide.preemptions.toFixed(2)} times per request, ` +
          `machine ${(oneSide.machineIdle * 100).toFixed(0)}%, ${(twoSide.machineIdle * 100).toFixed(0)}% and ${(splitSide.machineIdle * 100).toFixed(0)}% idle` +
          (non2xx ? `, ${non2xx} non-2xx or errors` : ''),
      );
    }
  } finally {
    closeAgent();
    for (const serve of started.reverse()) await serve.stop();
  }
  return pairs;
}
