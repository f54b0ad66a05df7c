// The processes of a measurement: forking a bench child and waiting for its ready message, stopping it, asking it
// something over IPC, spawning the `portico` CLI and waiting until it answers /healthz.
import { fork, spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** @typedef {import('node:child_process').ChildProcess} ChildProcess */

/**
 * A started bench child: its ready message, the process and its pid.
 * @template Ready
 * @typedef {Ready & { child: ChildProcess, pid: number }} Started
 */

/**
 * The path of a module of bench/processes/, each run as a process of its own.
 * @param {string} name
 */
export const processFile = (name) => fileURLToPath(new URL(`../processes/${name}`, import.meta.url));

/**
 * Starts a bench child (fork, IPC) and resolves with its ready message. stdout goes to /dev/null (access logs).
 * @template {object} Ready the message the child sends when it is ready
 * @param {string} file
 * @param {NodeJS.ProcessEnv} [env]
 * @param {string[]} [execArgv]
 * @param {string[]} [args]
 * @returns {Promise<Started<Ready>>}
 */
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
      resolve({ .../** @type {Ready} */ (message), child, pid: /** @type {number} */ (child.pid) });
    });
  });
}

/**
 * SIGTERM, then wait for the exit (a --cpu-prof child writes its profile on the way out).
 * @param {ChildProcess} child
 * @returns {Promise<void>}
 */
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

/**
 * Sends a message to a forked child and resolves with the `key` field of its next message that has one.
 * @template Answer the type of that field
 * @param {ChildProcess} child
 * @param {string} message
 * @param {string} key
 * @returns {Promise<Answer>}
 */
export function ask(child, message, key) {
  return new Promise((resolve) => {
    /** @param {unknown} m */
    const onMessage = (m) => {
      if (typeof m === 'object' && m !== null && key in m) {
        child.off('message', onMessage);
        resolve(/** @type {Answer} */ (/** @type {Record<string, unknown>} */ (m)[key]));
      }
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/**
 * A TCP port that was free a moment ago (for children that must be told their port in advance).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns a Node process (not a fork) and collects its output.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
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

/**
 * Polls GET <url>/healthz with fresh connections until it answers 200; resolves with the time of that answer.
 * @param {string} url
 * @param {ChildProcess} child
 */
export async function waitHealthy(url, child, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with code ${child.exitCode} before it was healthy`);
    /** @type {number} */
    const status = await new Promise((resolve) => {
      const req = request(`${url}/healthz`, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
    if (status === 200) return performance.now();
    if (performance.now() > deadline) throw new Error(`${url}/healthz did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
