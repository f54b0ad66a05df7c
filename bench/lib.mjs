// Helpers shared by the benchmark scripts: child processes, /proc readings, a load run with exact latency
// percentiles, and a sequential keep-alive client for single-request latencies.
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import autocannon from 'autocannon';

export const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every mainstream Linux build (getconf CLK_TCK)

/** Starts a bench child (fork, IPC) and resolves with its ready message. stdout goes to /dev/null (access logs). */
export function startChild(file, env = {}, execArgv = [], args = []) {
  return new Promise((resolve, reject) => {
    const child = fork(file, args, {
      env: { ...process.env, ...env },
      execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => reject(new Error(`${file} did not start within 30 s`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${file} exited early with code ${code}`)));
    child.once('message', (message) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ child, pid: child.pid, ...message });
    });
  });
}

/** SIGTERM, then wait for the exit (a --cpu-prof child writes its profile on the way out). */
export function stopChild(child, timeoutMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A TCP port that was free a moment ago (for children that must be told their port in advance). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** utime + stime of a process, in seconds (from /proc/<pid>/stat). */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ", field 3 (state) is index 0; utime is field 14 → index 11, stime field 15 → index 12.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** VmRSS and VmHWM (peak) of a process in MiB, from /proc/<pid>/status. */
export function memoryMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Whole-machine busy share (0–1) between two readings of /proc/stat. */
export function machineTicks() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] ?? 0);
  // Guest time is already included in user time.
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  // Time spent in processes (user, nice, system); irq and softirq (loopback networking) belong to no process.
  const processes = v[0] + v[1] + v[2];
  return { idle, total, processes };
}

export function percentile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return percentile(sorted, 0.5);
}

/**
 * One closed-loop load run with autocannon. Latencies come from autocannon's per-response event (hrtime, float ms),
 * kept whole and sorted here: autocannon's own histogram has 1 ms resolution, too coarse for sub-millisecond p50s.
 * `watch` lists pids whose CPU time is read before and after the run.
 */
export async function runLoad({ url, requests, connections, duration, watch = {} }) {
  const latencies = [];
  let ok = 0;
  let non2xx = 0;
  const cpuBefore = Object.fromEntries(Object.entries(watch).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const selfBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const started = performance.now();
  const startedNs = process.hrtime.bigint();
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
  const cpu = {};
  for (const [name, pid] of Object.entries(watch)) {
    const seconds = cpuSeconds(pid) - cpuBefore[name];
    cpu[name] = { share: seconds / (elapsedMs / 1000), usPerRequest: ok > 0 ? (seconds * 1e6) / ok : Number.NaN };
  }
  cpu.loadgen = { share: (self.user + self.system) / 1e3 / elapsedMs, usPerRequest: ok > 0 ? (self.user + self.system) / ok : Number.NaN };
  const totalTicks = machineAfter.total - machineBefore.total;
  const machineBusy = totalTicks > 0 ? 1 - (machineAfter.idle - machineBefore.idle) / totalTicks : Number.NaN;
  // CPU used by processes outside the benchmark (other jobs on the machine), in cores: flags a contaminated run.
  const ours = Object.values(cpu).reduce((a, c) => a + c.share, 0);
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

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request over a keep-alive connection; resolves with status, body text and the client-side latency in ms. */
export function send(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({
          status: res.statusCode,
          headers: res.headers,
          bytes: raw.length,
          text: raw.toString('utf8'),
          ms: performance.now() - started,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function closeAgent() {
  agent.destroy();
}

/** Sends a message to a forked child and resolves with the `key` field of its next message that has one. */
export function ask(child, message, key) {
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (m && m[key] !== undefined) {
        child.off('message', onMessage);
        resolve(m[key]);
      }
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** Whole-machine busy share over `ms` (nothing of ours running): how loaded the machine is by others. */
export async function sampleMachineBusy(ms = 1000) {
  const before = machineTicks();
  await new Promise((r) => setTimeout(r, ms));
  const after = machineTicks();
  const total = after.total - before.total;
  return total > 0 ? 1 - (after.idle - before.idle) / total : Number.NaN;
}

/** Polls GET <url>/healthz with fresh connections until it answers 200; resolves with the time of that answer. */
export async function waitHealthy(url, child, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with code ${child.exitCode} before it was healthy`);
    const status = await new Promise((resolve) => {
      const req = request(`${url}/healthz`, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
    if (status === 200) return performance.now();
    if (performance.now() > deadline) throw new Error(`${url}/healthz did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Spawns a process (not a fork) and collects its stdout. */
export function spawnCollect(args, env) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += c;
  });
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}
