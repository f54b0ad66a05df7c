import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What a platform team and a plugin author get from npm, tried as they would on each supported Node line (20, 22, 24):
 * core, the gateway, one first-party plugin (chat) and a plugin made from packages/plugin-template are packed, the
 * tarballs installed with npm (run by that Node) into an empty directory outside the workspace, a TypeScript file
 * importing the gateway and core compiled with skipLibCheck false, and `npx portico serve --sandbox` started there with
 * the template plugin added by PORTICO_EXTRA_PLUGINS (docs/plugins.md); both plugins are called over MCP and REST.
 * The installed package count and size are printed (`pack-install:` lines).
 *
 * Needs `pnpm build` and the npm registry (for the dependencies, and for the `node` package that provides the Node
 * lines other than this machine's). Without them the tests skip, saying why, except in CI (CI=true, or
 * PORTICO_REQUIRE_NODE_LINES=1), where they are mandatory.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LINES = [20, 22, 24] as const;
const REQUIRED = process.env.CI === 'true' || process.env.PORTICO_REQUIRE_NODE_LINES === '1';
const TEMPLATE_NAME = '@acme/portico-plugin-acmetasks';
const run = promisify(execFile);

const mandatory = (problem: string) => {
  if (REQUIRED) throw new Error(`${problem}, and CI (CI=true or PORTICO_REQUIRE_NODE_LINES=1) makes the pack-and-install tests mandatory`);
  console.warn(`skipping pack-and-install tests: ${problem}`);
  return problem;
};

async function setupProblem(): Promise<string | undefined> {
  const needed = ['packages/core/dist/index.js', 'apps/gateway/dist/bin.js', 'packages/plugin-chat/dist/index.js'];
  needed.push('packages/plugin-template/dist/index.js');
  if (!needed.every((file) => existsSync(join(ROOT, file)))) return mandatory('the packages are not built (run pnpm build)');
  try {
    await run('npm', ['ping'], { timeout: 30_000 });
  } catch {
    return mandatory('the npm registry cannot be reached');
  }
  return undefined;
}

/** A Node binary of a given major line: this process's, or the `node` package from the registry, cached. */
async function nodeLine(major: number): Promise<{ bin?: string; problem?: string }> {
  if (Number(process.versions.node.split('.')[0]) === major) return { bin: process.execPath };
  const dir = join(ROOT, 'node_modules/.cache/portico-node', String(major));
  const bin = join(dir, 'node_modules/.bin/node');
  try {
    if (!existsSync(bin)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
      await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node@${major}`], { cwd: dir, timeout: 300_000 });
    }
    const { stdout } = await run(bin, ['--version']);
    if (!stdout.startsWith(`v${major}.`)) throw new Error(`it is ${stdout.trim()}`);
    return { bin };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { problem: mandatory(`Node ${major} could not be installed from the registry (${(error as Error).message.split('\n')[0]})`) };
  }
}

const problem = await setupProblem();
const nodes = new Map<number, { bin?: string; problem?: string }>();
for (const major of LINES) nodes.set(major, problem ? { problem } : await nodeLine(major));

/** The line the consumer's TypeScript file is compiled on: this machine's, or the first one available. */
const TYPES_LINE = LINES.find((major) => nodes.get(major)?.bin === process.execPath) ?? LINES.find((major) => nodes.get(major)?.bin);

let work = '';
let tarballs: string[] = [];

/** Packs the four packages once: pnpm pack for ours (it rewrites workspace: ranges), npm pack for the template copy. */
async function packAll(): Promise<string[]> {
  work = mkdtempSync(join(tmpdir(), 'portico-pack-install-'));
  const out = join(work, 'tarballs');
  mkdirSync(out);
  for (const pkg of ['packages/core', 'apps/gateway', 'packages/plugin-chat']) {
    await run('pnpm', ['pack', '--pack-destination', out], { cwd: join(ROOT, pkg) });
  }
  // A plugin made from the template as docs/plugins.md says: the template copied, renamed, its peer range a plain one.
  const plugin = join(work, 'portico-plugin-acmetasks');
  cpSync(join(ROOT, 'packages/plugin-template'), plugin, { recursive: true, filter: (src) => !src.includes('node_modules') });
  const manifest = JSON.parse(readFileSync(join(plugin, 'package.json'), 'utf8'));
  manifest.name = TEMPLATE_NAME;
  delete manifest.private;
  delete manifest.devDependencies;
  manifest.peerDependencies = { '@portico/core': '>=0.1.0 <1.0.0' };
  writeFileSync(join(plugin, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['pack', '--pack-destination', out], { cwd: plugin });
  return readdirSync(out).map((file) => join(out, file));
}

const CONSUMER = `import { GatewayError, type Plugin } from '@portico/core';
import { createApp, type GatewayConfig, loadConfig, type RunningGateway, startGateway } from '@portico/gateway';

export const plugins: readonly Plugin[] = [];
export const config: GatewayConfig = loadConfig({});
export type Started = Awaited<ReturnType<typeof startGateway>> extends RunningGateway ? true : false;
export const app: ReturnType<typeof createApp> | undefined = undefined;
export const isError = (e: unknown): e is GatewayError => e instanceof GatewayError;
`;

/** Everything under a folder: files and bytes. */
function sizeOf(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += sizeOf(path);
    else if (entry.isFile()) bytes += statSync(path).size;
  }
  return bytes;
}

/** The environment of a user's shell with this Node first on PATH (no settings of the test run leaking in). */
function userEnv(bin: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(PORTICO_|VITEST|NODE_OPTIONS$|NODE_PATH$|NODE_ENV$|npm_)/.test(name)) env[name] = value;
  }
  // Without the workspace's node_modules/.bin folders that the test runner's shims put on PATH.
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '' && !dir.includes('node_modules'));
  return { ...env, PATH: [dirname(bin), ...path].join(delimiter), ...extra };
}

interface Served {
  child: ChildProcess;
  url: string;
  key: string;
}

async function serveSandbox(dir: string, bin: string): Promise<Served> {
  const child = spawn('npx', ['portico', 'serve', '--sandbox', '--port', '0'], {
    cwd: dir,
    env: userEnv(bin, { PORTICO_EXTRA_PLUGINS: TEMPLATE_NAME, PORTICO_LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // npx runs the gateway as a child of its own: a process group of their own lets stop() end both.
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    // The banner, admin key included, goes to stderr; stdout is the JSON log, which must never carry the key.
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
    const key = /^\s+(portico_\S+)$/m.exec(stderr)?.[1];
    if (url && key) {
      if (stdout.includes(key)) throw new Error('the admin key was written to stdout, with the JSON log');
      return { child, url, key };
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  signal(child, 'SIGKILL');
  throw new Error(`npx portico serve --sandbox did not start:\n${stdout}\n${stderr}`);
}

/** Signals npx and the gateway it started (their process group). */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, name);
  } catch {
    // already gone
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return signal(child, 'SIGKILL');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signal(child, 'SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  signal(child, 'SIGKILL');
}

describe.skipIf(problem !== undefined)(`packed tarballs installed with npm${problem ? ` (skipped: ${problem})` : ''}`, () => {
  beforeAll(async () => {
    tarballs = await packAll();
  }, 120_000);
  // Three installs of about 65 MiB each: removing them takes more than the default 30 s on a busy machine.
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  for (const major of LINES) {
    const line = nodes.get(major) ?? {};
    describe.skipIf(line.bin === undefined)(`on Node ${major}${line.problem ? ` (skipped: ${line.problem})` : ''}`, () => {
      const bin = line.bin as string;
      const dir = () => join(work, `node-${major}`);
      let served: Served | undefined;
      let started = 0;
      beforeAll(() => {
        started = performance.now();
      });
      afterAll(async () => {
        if (served) await stop(served.child);
        console.log(
          `pack-install: Node ${major}: install, ${major === TYPES_LINE ? 'tsc, ' : ''}serve and calls in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      });

      it('installs core, the gateway, chat and the template plugin, and not pg (an optional peer)', async () => {
        mkdirSync(dir());
        writeFileSync(join(dir(), 'package.json'), '{ "name": "platform", "private": true, "type": "module" }\n');
        const t0 = performance.now();
        await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs], { cwd: dir(), env: userEnv(bin), timeout: 240_000 });
        const seconds = (performance.now() - t0) / 1000;
        const lock = JSON.parse(readFileSync(join(dir(), 'node_modules/.package-lock.json'), 'utf8'));
        const installed = Object.keys(lock.packages).filter((path) => path.includes('node_modules/'));
        const mib = sizeOf(join(dir(), 'node_modules')) / 2 ** 20;
        console.log(
          `pack-install: Node ${major}: npm installed ${installed.length} packages, ${mib.toFixed(1)} MiB, in ${seconds.toFixed(1)} s`,
        );
        const { stdout } = await run(bin, ['--version']);
        expect(stdout.trim()).toMatch(new RegExp(`^v${major}\\.`));
        for (const name of ['@portico/core', '@portico/gateway', '@portico/plugin-chat', TEMPLATE_NAME]) {
          expect(installed, name).toContain(`node_modules/${name}`);
        }
        expect(installed).not.toContain('node_modules/pg');
      }, 300_000);

      // The types are the same whichever Node runs tsc (about 30 s with skipLibCheck false): checked on one line.
      if (major === TYPES_LINE)
        it('compiles a TypeScript file importing the gateway and core (strict, nodenext, skipLibCheck false)', async () => {
          writeFileSync(join(dir(), 'consumer.ts'), CONSUMER);
          const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
          const args = ['--noEmit', '--skipLibCheck', 'false', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
          const result = await run(bin, [tsc, ...args, '--target', 'es2022', 'consumer.ts'], { cwd: dir() }).catch(
            (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
          );
          expect(result.stdout).toBe('');
          expect('failed' in result).toBe(false);
        }, 120_000);

      it('serves chat and the template plugin from npx portico serve --sandbox over MCP and REST', async () => {
        served = await serveSandbox(dir(), bin);
        const { url, key } = served;
        const auth = { authorization: `Bearer ${key}` };
        const health = (await (await fetch(`${url}/healthz`)).json()) as { integrations: string[] };
        expect([...health.integrations].sort()).toEqual(['acmetasks', 'slack']);

        const mcp = async (service: string, method: string, params: Record<string, unknown>) => {
          const res = await fetch(`${url}/api/mcp`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: `call_${service}`, arguments: { method, params } },
            }),
          });
          expect(res.status).toBe(200);
          const body = (await res.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
          expect(body.result.isError ?? false).toBe(false);
          return JSON.parse(body.result.content[0]?.text ?? 'null');
        };
        expect(await mcp('acmetasks', 'get_task', { task_id: 'tsk_7' })).toMatchObject({ id: 'tsk_7', title: 'Task number 7' });
        const channels = (await mcp('slack', 'list_channels', { limit: 2 })) as { channels: Array<{ name: string }> };
        expect(channels.channels.map((c) => c.name)).toContain('general');

        // REST as an operator turns it on and off: the admin API (the CLI's `integrations configure` does the same).
        const configure = (service: string, restEnabled: boolean) =>
          fetch(`${url}/api/admin/integrations/${service}`, {
            method: 'PATCH',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ rest_enabled: restEnabled }),
          });
        for (const service of ['acmetasks', 'slack']) expect((await configure(service, false)).status).toBe(200);
        expect((await fetch(`${url}/api/v1/acmetasks/tasks`, { headers: auth })).status).toBe(403);
        for (const service of ['acmetasks', 'slack']) expect((await configure(service, true)).status).toBe(200);
        const done = await fetch(`${url}/api/v1/acmetasks/tasks?status=done&per_page=2`, { headers: auth });
        expect(done.status).toBe(200);
        const tasks = (await done.json()) as { data: Array<{ status: string }>; has_more: boolean };
        expect(tasks.data.map((task) => task.status)).toEqual(['done', 'done']);
        expect(tasks.has_more).toBe(true);
        const slack = await fetch(`${url}/api/v1/slack/channels?limit=2`, { headers: auth });
        expect(slack.status).toBe(200);
        expect(((await slack.json()) as { channels: unknown[] }).channels).toHaveLength(2);
        await stop(served.child);
        served = undefined;
      }, 120_000);

      it('refuses a PostgreSQL URL without pg installed, saying what to install', async () => {
        const result = await run('npx', ['portico', 'serve', '--port', '0'], {
          cwd: dir(),
          env: userEnv(bin, { PORTICO_DATABASE_URL: 'postgres://portico@127.0.0.1:1/portico' }),
          timeout: 60_000,
        }).catch((error: { code: number; stderr: string }) => error);
        expect('code' in result && result.code).toBe(1);
        expect(result.stderr).toMatch(/needs the pg package .*npm install pg/);
      }, 90_000);
    });
  }
});
