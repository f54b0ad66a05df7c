import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_WORKSPACE, silentLogger } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { loadConfig } from '../config/load.js';
import { TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { openRuntime } from '../runtime/runtime.js';

/**
 * The balancers we ship a configuration for (deploy/haproxy.cfg, deploy/nginx.conf), run as child processes of a test
 * in front of gateways on loopback ports: Debian's HAProxy (`apt-get install haproxy`) and Debian's nginx
 * (`apt-get install nginx-light`). Without one, its tests are skipped with the reason; PORTICO_REQUIRE_HAPROXY=1 and
 * PORTICO_REQUIRE_NGINX=1 (CI) make them mandatory.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const HAPROXY = process.env.PORTICO_HAPROXY ?? '/usr/sbin/haproxy';
export const NGINX = process.env.PORTICO_NGINX ?? '/usr/sbin/nginx';

export type BalancerName = 'HAProxy' | 'nginx';

/** Why a balancer's tests cannot run here, or undefined; throws when the flag makes them mandatory. */
export function balancerProblem(name: BalancerName): string | undefined {
  const [binary, variable, flag, install] =
    name === 'HAProxy'
      ? [HAPROXY, 'PORTICO_HAPROXY', 'PORTICO_REQUIRE_HAPROXY', 'apt-get install haproxy']
      : [NGINX, 'PORTICO_NGINX', 'PORTICO_REQUIRE_NGINX', 'apt-get install nginx-light'];
  if (existsSync(binary)) return undefined;
  const problem = `no ${name} at ${binary} (${install}, or set ${variable})`;
  if (process.env[flag] === '1') throw new Error(`${problem}, and ${flag}=1 makes this test mandatory`);
  console.warn(`skipping: ${problem}`);
  return problem;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function replaceOnce(text: string, pattern: RegExp, by: string | ((...groups: string[]) => string)): string {
  const found = text.match(new RegExp(pattern.source, pattern.flags.replace('g', '')));
  if (!found) throw new Error(`the shipped configuration no longer matches ${pattern}`);
  return text.replace(pattern, by as string);
}

/**
 * The shipped server lines replaced by one per port, each like the first shipped one (its parameters kept): the
 * shipped files name two gateways, a test may run more.
 */
function servers(config: string, pattern: RegExp, line: (n: number, port: number, rest: string) => string, ports: number[]): string {
  const shipped = [...config.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
  const first = shipped[0];
  if (!first || first.index === undefined) throw new Error(`the shipped configuration no longer matches ${pattern}`);
  const rest = first[1] ?? '';
  const lines = ports.map((port, i) => line(i + 1, port, rest)).join('\n');
  let out = config.replace(first[0], lines);
  for (const other of shipped.slice(1)) out = out.replace(`${other[0]}\n`, '');
  return out;
}

/** deploy/haproxy.cfg as shipped, pointed at loopback ports instead of the compose services (no engine DNS here). */
export function shippedHaproxy(listen: number, ports: number[]): string {
  let config = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
  config = replaceOnce(config, /^resolvers engine\n(?:[ \t]+.*\n)*/m, '');
  config = replaceOnce(config, / resolvers engine$/m, '');
  config = replaceOnce(config, /^\s*bind :8080$/m, `  bind 127.0.0.1:${listen}`);
  return servers(config, /^ {2}server gateway\d \S+( check)$/m, (n, port, rest) => `  server gateway${n} 127.0.0.1:${port}${rest}`, ports);
}

/**
 * deploy/nginx.conf as shipped, pointed at loopback ports, with its pid file, logs and temporary files under `dir`
 * (nothing of the system's nginx is used).
 */
export function shippedNginx(listen: number, ports: number[], dir: string): string {
  let config = readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8');
  config = replaceOnce(config, /^worker_processes .*$/m, (line) => `${line}\npid ${join(dir, 'nginx.pid')};`);
  config = replaceOnce(
    config,
    /^http \{$/m,
    [
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`),
    ].join('\n'),
  );
  config = replaceOnce(config, /^\s*listen 8080;$/m, `    listen 127.0.0.1:${listen};`);
  return servers(config, /^ {4}server gateway\d:8787( .*)$/m, (_, port, rest) => `    server 127.0.0.1:${port}${rest}`, ports);
}

export interface Balancer {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts a balancer in the foreground as a child of this process on 127.0.0.1:`listen` with `config` (a whole file),
 * and waits until it answers `/readyz` through a gateway.
 */
export async function startBalancer(name: BalancerName, listen: number, config: (dir: string) => string): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), `portico-${name.toLowerCase()}-`));
  chmodSync(dir, 0o755); // nginx's workers run as nobody when the test runs as root
  let child: ChildProcess;
  if (name === 'HAProxy') {
    writeFileSync(join(dir, 'haproxy.cfg'), config(dir));
    child = spawn(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
  } else {
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'nginx.conf'), config(dir));
    child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${listen}`;
  const until = Date.now() + 10_000;
  for (;;) {
    const ok = await fetch(`${url}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until || child.exitCode !== null) {
      await stop();
      throw new Error(`${name} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, output: () => output, stop };
}

export interface Instance {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

/** Gateways of one PostgreSQL schema: the example integration connected and one API key. */
export interface Fleet {
  apiKey: string;
  /** Starts a gateway (the built CLI) on `port`; resolves once it listens. */
  spawn(port: number, env: Record<string, string>): Promise<Instance>;
  /** Kills what is still running and drops the schema. */
  close(): Promise<void>;
}

export async function openFleet(options: { readOnly: boolean }): Promise<Fleet> {
  const schema = `portico_lb_${randomBytes(5).toString('hex')}`;
  const encryptionKey = randomBytes(32).toString('base64');
  const base = {
    PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
    PORTICO_DATABASE_SCHEMA: schema,
    PORTICO_ENCRYPTION_KEY: encryptionKey,
  };
  const runtime = await openRuntime(loadConfig({ ...base, PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-lb-')) }), silentLogger, {
    plugins: [examplePlugin],
  });
  let apiKey: string;
  try {
    await runtime.engine.connectToken(DEFAULT_WORKSPACE, 'example', 'upstream-token');
    const created = await runtime.engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'behind-a-balancer',
      scopes: { admin: false, services: '*', readOnly: options.readOnly },
    });
    apiKey = created.key;
  } finally {
    await runtime.close();
  }
  const children: ChildProcess[] = [];
  return {
    apiKey,
    spawn(port, env) {
      const child = spawn(process.execPath, [join(ROOT, 'apps/gateway/dist/bin.js'), 'serve'], {
        env: {
          PATH: process.env.PATH,
          ...base,
          PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-lb-')),
          PORTICO_PLUGINS: join(ROOT, 'packages/core/dist/testing/example-plugin.js'),
          PORTICO_PORT: String(port),
          PORTICO_LOG_LEVEL: 'warn',
          PORTICO_DASHBOARD: 'off',
          PORTICO_RATE_LIMIT_PER_MINUTE: '60000000',
          PORTICO_RATE_LIMIT_BURST: '1000000',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 20_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('is listening on')) {
            clearTimeout(timer);
            resolve({ child, exited, output: () => output });
          }
        };
        child.stdout?.on('data', read);
        child.stderr?.on('data', read);
        void exited.then((code) => reject(new Error(`gateway exited (${code}):\n${output}`)));
      });
    },
    async close() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
