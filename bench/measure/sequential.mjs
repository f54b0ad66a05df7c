// Own CPU at one connection, in one process (processes/sequential.mjs): the gateway's and the Koa + got hop's CPU per
// request when the client, the upstream and the server under test share one process and requests go one at a time.
import { fork } from 'node:child_process';
import { processFile } from '../harness/children.mjs';

/** @typedef {import('../processes/sequential.mjs').SequentialRun} SequentialRun */

/**
 * @typedef {object} Sequential
 * @property {number} requests requests per target and round
 * @property {number} warmup requests per target before the first round
 * @property {SequentialRun[]} runs
 */

/**
 * @param {{ mode: 'full' | 'quick' | 'smoke', rounds: number }} settings
 * @param {(line: string) => void} log
 * @returns {Promise<Sequential>}
 */
export function measureSequential(settings, log) {
  const requests = { full: 2000, quick: 1000, smoke: 50 }[settings.mode];
  const warmup = { full: 1000, quick: 500, smoke: 20 }[settings.mode];
  const rounds = Math.max(settings.rounds, 3);
  return new Promise((resolve, reject) => {
    const child = fork(processFile('sequential.mjs'), [String(requests), String(warmup), String(rounds)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('sequential.mjs did not finish within 10 minutes'));
    }, 600_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sequential.mjs exited with code ${code} before reporting`));
    });
    child.once('message', (message) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const { runs } = /** @type {{ runs: SequentialRun[] }} */ (message);
      for (const run of runs.filter((r) => r.round === rounds - 1)) {
        log(`one connection, one process: ${run.op} ${run.target} ${run.usPerRequest.toFixed(0)} µs CPU/request (last round)`);
      }
      resolve({ requests, warmup, runs });
    });
  });
}
