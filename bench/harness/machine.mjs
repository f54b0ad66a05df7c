// Readings from /proc: a process' CPU time and memory, how busy the whole machine is, and waiting for it to be quiet.
import { readdirSync, readFileSync } from 'node:fs';

export const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every mainstream Linux build (getconf CLK_TCK)

/**
 * utime + stime of a process, in seconds (from /proc/<pid>/stat).
 * @param {number} pid
 */
export function cpuSeconds(pid) {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/**
 * utime and stime of a process apart, in seconds (from /proc/<pid>/stat): system time is the kernel's work on the
 * process's behalf (its syscalls, and loopback networking that runs in its context).
 * @param {number} pid
 */
export function cpuTimes(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ", field 3 (state) is index 0; utime is field 14 → index 11, stime field 15 → index 12.
  return { user: Number(fields[11]) / CLOCK_TICKS_PER_SECOND, system: Number(fields[12]) / CLOCK_TICKS_PER_SECOND };
}

/**
 * How many times the scheduler took the CPU from a running thread of the process (its threads'
 * `nonvoluntary_ctxt_switches`, from /proc/<pid>/task): on a machine with no idle core, each one is a stretch of the
 * process's work cut off, to go on later on caches that whatever ran meanwhile may have cooled.
 * @param {number} pid
 */
export function preemptions(pid) {
  let count = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      count += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // the thread ended meanwhile
    }
  }
  return count;
}

/**
 * @typedef {object} Memory
 * @property {number} rss VmRSS, MiB
 * @property {number} peak VmHWM, MiB
 */

/**
 * VmRSS and VmHWM (peak) of a process in MiB, from /proc/<pid>/status.
 * @param {number} pid
 * @returns {Memory}
 */
export function memoryMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  /** @param {string} name */
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** The machine's tick counters (first line of /proc/stat): idle, total, and spent in processes. */
export function machineTicks() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  /** @param {number} i */
  const at = (i) => v[i] ?? 0;
  const idle = at(3) + at(4);
  // Guest time is already included in user time.
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  // Time spent in processes (user, nice, system); irq and softirq (loopback networking) belong to no process.
  const processes = at(0) + at(1) + at(2);
  return { idle, total, processes };
}

/** Whole-machine busy share (0–1) over `ms` (nothing of ours running): how loaded the machine is by others. */
export async function sampleMachineBusy(ms = 1000) {
  const before = machineTicks();
  await new Promise((r) => setTimeout(r, ms));
  const after = machineTicks();
  const total = after.total - before.total;
  return total > 0 ? 1 - (after.idle - before.idle) / total : Number.NaN;
}

/**
 * Other jobs on the machine distort every figure: the returned function waits for a quiet moment (< 25% busy over
 * 1 s), within one waiting budget shared by all its calls, and resolves with how busy the machine was at the end.
 * @param {number} budgetMs
 * @param {(line: string) => void} log
 * @returns {(when: string) => Promise<number>}
 */
export function quietWaiter(budgetMs, log) {
  let left = budgetMs;
  return async (when) => {
    let busy = await sampleMachineBusy();
    while (busy > 0.25 && left > 0) {
      log(`machine ${Math.round(busy * 100)}% busy ${when} (other processes): waiting for it to quiet down`);
      const t = performance.now();
      await new Promise((r) => setTimeout(r, 3000));
      busy = await sampleMachineBusy();
      left -= performance.now() - t;
    }
    return busy;
  };
}
