// A closed-loop load run with autocannon, with exact latency percentiles and the CPU time of the processes watched.
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { cpuSeconds, machineTicks } from './machine.mjs';
import { percentile } from './stats.mjs';

/** @typedef {import('autocannon').Request} LoadRequest */

/**
 * @typedef {object} CpuUse
 * @property {number} share CPU time as a share of one core over the run
 * @property {number} usPerRequest CPU time per 2xx answer, µs
 */

/** @typedef {'hop' | 'upstream'} Watched the processes whose CPU time a run reads: the hop under test, the upstream */

/**
 * One load run. Latencies come from autocannon's per-response event (hrtime, float ms), kept whole and sorted here:
 * autocannon's own histogram has 1 ms resolution, too coarse for sub-millisecond p50s. `watch` gives the pids whose CPU
 * time is read before and after the run; the load generator's own is always read. Several URLs: the connections are dealt to
 * them in turn.
 * @param {{ url: string | string[], requests: LoadRequest[], connections: number, duration: number, watch?: Partial<Record<Watched, number>> }} options
 */
export async function runLoad({ url, requests, connections, duration, watch = {} }) {
  /** @type {number[]} */
  const latencies = [];
  let ok = 0;
  let non2xx = 0;
  const watched = /** @type {[Watched, number][]} */ (Object.entries(watch));
  const cpuBefore = new Map(watched.map(([name, pid]) => [name, cpuSeconds(pid)]));
  const selfBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const started = performance.now();
  const startedNs = process.hrtime.bigint();
  /** @type {import('autocannon').Result} */
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, duration, pipelining: 1, timeout: 10, requests }, (error, res) =>
      error ? reject(error) : resolve(res),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) {
        ok++;
        latencies.push(responseTime);
      } else non2xx++;
    });
  });
  const elapsedMs = performance.now() - started;
  const endedNs = process.hrtime.bigint();
  const machineAfter = machineTicks();
  const self = process.cpuUsage(selfBefore);
  /** @type {Partial<Record<Watched, CpuUse>> & { loadgen: CpuUse }} */
  const cpu = {
    loadgen: { share: (self.user + self.system) / 1e3 / elapsedMs, usPerRequest: ok > 0 ? (self.user + self.system) / ok : Number.NaN },
  };
  for (const [name, pid] of watched) {
    const seconds = cpuSeconds(pid) - (cpuBefore.get(name) ?? 0);
    cpu[name] = { share: seconds / (elapsedMs / 1000), usPerRequest: ok > 0 ? (seconds * 1e6) / ok : Number.NaN };
  }
  const totalTicks = machineAfter.total - machineBefore.total;
  const machineBusy = totalTicks > 0 ? 1 - (machineAfter.idle - machineBefore.idle) / totalTicks : Number.NaN;
  // CPU used by processes outside the benchmark (other jobs on the machine), in cores: flags a contaminated run.
  const ours = [cpu.loadgen, cpu.hop, cpu.upstream].reduce((a, c) => a + (c?.share ?? 0), 0);
  const processCores = totalTicks > 0 ? ((machineAfter.processes - machineBefore.processes) / totalTicks) * cpus().length : 0;
  const foreignCores = Math.max(0, processCores - ours);
  const sorted = Float64Array.from(latencies).sort();
  return {
    connections,
    durationS: elapsedMs / 1000,
    requests: ok,
    rps: ok / (elapsedMs / 1000),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    mean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpu,
    machineBusy,
    foreignCores,
    window: { startNs: startedNs, endNs: endedNs },
  };
}

/** @typedef {Awaited<ReturnType<typeof runLoad>>} LoadRun */
