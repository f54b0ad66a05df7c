import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { BlockList, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../apps/gateway/src/config/environment.js';
import { loadConfig } from '../apps/gateway/src/config/load.js';
import { schemas } from '../apps/gateway/src/e2e/cluster.test-support.js';
import { postgresProblem, TEST_POSTGRES_URL } from '../apps/gateway/src/gateway.test-support.js';
// @ts-expect-error: a script of ours without declarations (its JSDoc types are checked by its own run)
import { buildArgs, stageContext } from '../scripts/image.mjs';
import { composeGatewayEnv, parseCompose } from './compose.test-support.js';

/**
 * What docs/deploy.md gives an operator, tried: the files in deploy/ hold together (HAProxy accepts its configuration;
 * every PORTICO_ variable they set is one the gateway reads), the image's context is staged as `pnpm image` stages it
 * and the staged gateway starts, and — where a container engine can be had — the image is built from a base made of
 * Debian's packages (no registry image can be pulled here) and started read-only as a non-root user, answering
 * /healthz and its own HEALTHCHECK.
 *
 * Needs: `pnpm build` and the npm registry (staging), HAProxy (the configuration check), podman + runc + debootstrap
 * (the image). Each part skips, saying why, without them; CI makes them mandatory (PORTICO_REQUIRE_HAPROXY=1,
 * PORTICO_REQUIRE_IMAGE=1, CI=true for staging).
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);
const env = process.env;
const HAPROXY = env.PORTICO_HAPROXY ?? '/usr/sbin/haproxy';

function skipOrFail(requiredBy: string | undefined, problem: string): string {
  if (requiredBy) throw new Error(`${problem}, and ${requiredBy} makes this test mandatory`);
  console.warn(`skipping: ${problem}`);
  return problem;
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('deploy/: the files an operator starts from', () => {
  it('sets only variables the gateway reads', () => {
    const known = new Set(ENVIRONMENT.map((entry) => entry.name));
    for (const file of ['deploy/compose.yaml', 'deploy/Dockerfile']) {
      const used = [...read(file).matchAll(/\bPORTICO_[A-Z0-9_]+\b/g)].map((m) => m[0]).filter((name) => name !== 'PORTICO_IMAGE');
      expect(used.length, file).toBeGreaterThan(0);
      // a secret may come as NAME_FILE (which variables may is the configuration's rule: loadConfig is run below)
      for (const name of used.map((used) => used.replace(/_FILE$/, '')))
        expect(known.has(name), `${file} sets ${name}, which the gateway does not read`).toBe(true);
    }
  });

  it('balances the gateways the compose file runs, on the port the image exposes', () => {
    const compose = read('deploy/compose.yaml');
    const haproxy = read('deploy/haproxy.cfg');
    const port = /EXPOSE (\d+)/.exec(read('deploy/Dockerfile'))?.[1];
    const servers = [...haproxy.matchAll(/^\s*server (\S+) (\S+):(\d+)/gm)].map((m) => ({ name: m[1], host: m[2], port: m[3] }));
    expect(servers.length).toBe(2);
    for (const server of servers) {
      expect(compose, `compose defines the service ${server.host}`).toMatch(new RegExp(`^  ${server.host}:`, 'm'));
      expect(server.port).toBe(port);
    }
    expect(haproxy).toMatch(/uri \/readyz/);
  });

  it('hands the compose stack its secrets as files, with no password in the file and no default one', () => {
    const text = read('deploy/compose.yaml');
    const compose = parseCompose(text);
    expect(text).not.toMatch(/PASSWORD:-|POSTGRES_PASSWORD:|PORTICO_ENCRYPTION_KEY:|PORTICO_DATABASE_URL:/);
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [variable, value] of Object.entries(service.environment ?? {})) {
        expect(String(value), `${name} ${variable}`).not.toMatch(/:\/\/[^/@\s]*:[^/@\s]*@/); // no user:password@ in a URL
        const secret = /^\/run\/secrets\/(.+)$/.exec(String(value))?.[1];
        if (!secret) continue;
        expect(variable, `${name} ${variable}`).toMatch(/_FILE$/);
        expect(service.secrets, `${name} mounts ${secret}`).toContain(secret);
        expect(compose.secrets?.[secret]?.file, `the secret ${secret} comes from a file`).toBeTruthy();
      }
    }
    expect(compose.services.gateway1?.environment).toMatchObject({
      PORTICO_ENCRYPTION_KEY_FILE: '/run/secrets/encryption_key',
      PORTICO_DATABASE_URL_FILE: '/run/secrets/database_url',
    });
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
  });

  it('sets gateway settings the gateway accepts, trusting its own balancer and nothing else', () => {
    const text = read('deploy/compose.yaml');
    const compose = parseCompose(text);
    const secrets = mkdtempSync(join(tmpdir(), 'portico-compose-'));
    try {
      const databaseUrl = 'postgres://portico:s3cret@postgres:5432/portico';
      const env = composeGatewayEnv(text, secrets, { database_url: databaseUrl });
      const config = loadConfig(env);
      expect(config.databaseUrl).toBe(databaseUrl);
      expect(config.encryptionKey).toBe(readFileSync(env.PORTICO_ENCRYPTION_KEY_FILE as string, 'utf8').trim());
      const balancer = compose.services.balancer?.networks as Record<string, { ipv4_address?: string }>;
      const address = Object.values(balancer)[0]?.ipv4_address;
      expect(address).toBeTruthy();
      expect(config.trustProxy).toEqual([address]);
      const subnet = Object.values(compose.networks ?? {})[0]?.ipam?.config?.[0]?.subnet ?? '';
      const list = new BlockList();
      list.addSubnet(subnet.split('/')[0] as string, Number(subnet.split('/')[1]), 'ipv4');
      expect(list.check(address as string, 'ipv4'), `${address} in ${subnet}`).toBe(true);
    } finally {
      rmSync(secrets, { recursive: true, force: true });
    }
  });

  it('limits every service’s CPU, memory and processes', () => {
    const compose = parseCompose(read('deploy/compose.yaml'));
    for (const [name, service] of Object.entries(compose.services)) {
      const limits = service.deploy?.resources?.limits;
      expect(limits?.cpus, name).toMatch(/^\d+(\.\d+)?$/);
      expect(limits?.memory, name).toMatch(/^\d+[MG]$/);
      expect(limits?.pids, name).toBeGreaterThan(0);
    }
  });

  const haproxyProblem = existsSync(HAPROXY)
    ? undefined
    : skipOrFail(
        env.PORTICO_REQUIRE_HAPROXY === '1' ? 'PORTICO_REQUIRE_HAPROXY=1' : undefined,
        `no HAProxy at ${HAPROXY} (apt-get install haproxy)`,
      );
  it.skipIf(haproxyProblem)('has a configuration HAProxy accepts', async () => {
    const { stdout, stderr } = await run(HAPROXY, ['-c', '-f', join(ROOT, 'deploy/haproxy.cfg')]);
    expect(`${stdout}${stderr}`).toContain('Configuration file is valid');
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitHealthy(url: string, timeoutMs: number, output: () => string): Promise<unknown> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) return response.json();
    } catch {}
    if (Date.now() > until) throw new Error(`no /healthz answer at ${url} within ${timeoutMs} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The last /readyz answer: the first 200, or the 503 still answered after `timeoutMs`. */
async function waitReady(url: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${url}/readyz`);
    const answer = { status: response.status, body: await response.text() };
    if (answer.status === 200 || Date.now() > until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const STAGE_REQUIRED = env.CI === 'true' || env.PORTICO_REQUIRE_IMAGE === '1';

async function stagingProblem(): Promise<string | undefined> {
  const requiredBy = STAGE_REQUIRED ? 'CI (CI=true or PORTICO_REQUIRE_IMAGE=1)' : undefined;
  if (!existsSync(join(ROOT, 'apps/gateway/dist/bin.js'))) return skipOrFail(requiredBy, 'the packages are not built (run pnpm build)');
  try {
    await run('npm', ['ping'], { timeout: 30_000 });
  } catch {
    return skipOrFail(requiredBy, 'the npm registry cannot be reached');
  }
  return undefined;
}

async function engineProblem(): Promise<string | undefined> {
  const requiredBy = env.PORTICO_REQUIRE_IMAGE === '1' ? 'PORTICO_REQUIRE_IMAGE=1' : undefined;
  for (const [tool, args] of [
    ['podman', ['--version']],
    ['/usr/sbin/runc', ['--version']],
    ['/usr/sbin/debootstrap', ['--version']],
  ] as const) {
    try {
      await run(tool, [...args]);
    } catch {
      return skipOrFail(requiredBy, `${tool} is not installed (apt-get install podman runc debootstrap)`);
    }
  }
  if (process.getuid?.() !== 0) return skipOrFail(requiredBy, 'building the Debian base image with debootstrap needs root');
  return undefined;
}

const staging = await stagingProblem();
const engine = staging ?? (await engineProblem());
const postgres = staging ?? (await postgresProblem());

describe.skipIf(staging)('the image', () => {
  let work = '';
  let stage = '';
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'portico-image-test-'));
    stage = await stageContext(join(work, 'stage'));
  }, 600_000);

  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is staged with production dependencies only and no test helper', () => {
    const modules = join(stage, 'app/node_modules');
    expect(readdirSync(join(modules, '@portico')).sort()).toEqual([
      'core',
      'gateway',
      'plugin-accounting',
      'plugin-calls',
      'plugin-chat',
      'plugin-crm',
      'plugin-notes',
      'plugin-practice',
    ]);
    for (const dev of ['vitest', 'typescript', '@biomejs/biome', 'turbo']) expect(existsSync(join(modules, dev)), dev).toBe(false);
    const dist = join(modules, '@portico/gateway/dist');
    const files = readdirSync(dist, { recursive: true }).map(String);
    expect(files.some((file) => /test-support|\.test\./.test(file))).toBe(false);
    expect(existsSync(join(stage, 'Dockerfile'))).toBe(true);
  });

  it('starts from the staged tree as the image starts it, with all six integrations', async () => {
    const port = await freePort();
    const data = join(work, 'data');
    mkdirSync(data);
    const child = spawn(process.execPath, [join(stage, 'app/node_modules/@portico/gateway/dist/bin.js'), 'serve'], {
      cwd: join(stage, 'app'),
      env: { PATH: process.env.PATH, NODE_ENV: 'production', PORTICO_PORT: String(port), PORTICO_DATA_DIR: data },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const health = (await waitHealthy(`http://127.0.0.1:${port}`, 30_000, () => output)) as { integrations: string[] };
    expect(health.integrations.sort()).toEqual(['callrail', 'clio', 'lawmatics', 'notion', 'quickbooks', 'slack']);
    child.kill('SIGTERM');
  }, 60_000);

  it('has the PostgreSQL driver where core loads it', async () => {
    const core = join(stage, 'app/node_modules/@portico/core');
    const { stdout } = await run(process.execPath, ['-e', "console.log(typeof require('pg').Pool)"], { cwd: core });
    expect(stdout.trim()).toBe('function');
  });

  it.skipIf(postgres)(
    'starts from the staged tree on PostgreSQL with the compose file’s settings and secret files',
    async () => {
      const port = await freePort();
      const schema = schemas('deploy_image');
      const secrets = join(work, 'secrets');
      mkdirSync(secrets);
      // the compose file's environment, its /run/secrets files made here: the database URL is the test server's
      const composed = composeGatewayEnv(read('deploy/compose.yaml'), secrets, { database_url: TEST_POSTGRES_URL });
      const child = spawn(process.execPath, [join(stage, 'app/node_modules/@portico/gateway/dist/bin.js'), 'serve'], {
        cwd: join(stage, 'app'),
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          ...composed,
          PORTICO_DATABASE_SCHEMA: schema.fresh(),
          PORTICO_HOST: '127.0.0.1',
          PORTICO_PORT: String(port),
          PORTICO_DATA_DIR: mkdtempSync(join(work, 'data-pg-')),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        await waitHealthy(`http://127.0.0.1:${port}`, 30_000, () => output);
        // as a balancer asks: ready within a few seconds of answering (the LISTEN connection opens beside the server)
        const ready = await waitReady(`http://127.0.0.1:${port}`, 15_000);
        expect(ready.status, `${ready.body}\n${output}`).toBe(200);
        expect(output).not.toMatch(/needs the pg package/);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
        await schema.dropAll();
      }
    },
    60_000,
  );

  describe.skipIf(engine)('built and run with podman', () => {
    const name = `portico-image-test-${process.pid}`;
    const volume = `${name}-data`;
    let podman: (args: string[], timeout?: number) => Promise<{ stdout: string; stderr: string }>;

    beforeAll(async () => {
      // This machine's cgroup layout and ulimits need these settings (TOOLCHAIN notes, docs/deploy.md).
      const conf = join(work, 'containers.conf');
      writeFileSync(conf, '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\n');
      const env = { ...process.env, CONTAINERS_CONF: conf };
      podman = (args, timeout = 300_000) =>
        run('podman', ['--runtime', '/usr/sbin/runc', ...args], { env, timeout, maxBuffer: 64 * 1024 * 1024 });
      await buildBase(work, podman);
      // the build command `pnpm image` runs (docker format under podman: the HEALTHCHECK is kept)
      await podman(buildArgs('podman', { tag: `${name}:test`, base: BASE, stage, extra: ['--isolation', 'chroot'] }), 600_000);
    }, 900_000);

    afterAll(async () => {
      await podman?.(['rm', '-f', name]).catch(() => {});
      await podman?.(['volume', 'rm', '-f', volume]).catch(() => {});
      await podman?.(['rmi', '-f', `${name}:test`]).catch(() => {});
    }, 60_000);

    it('runs read-only as a non-root user and answers /healthz and its HEALTHCHECK', async () => {
      const port = await freePort();
      await podman([
        'run',
        '-d',
        '--name',
        name,
        '--network',
        'host',
        '--read-only',
        '--tmpfs',
        '/tmp',
        '-v',
        `${volume}:/data`,
        '-e',
        `PORTICO_PORT=${port}`,
        '-e',
        `PORTICO_PUBLIC_URL=http://127.0.0.1:${port}`,
        `${name}:test`,
      ]);
      const logs = async () => (await podman(['logs', name]).catch((error: Error) => ({ stdout: error.message, stderr: '' }))).stdout;
      let seen = '';
      await waitHealthy(`http://127.0.0.1:${port}`, 60_000, () => seen).catch(async (error: Error) => {
        seen = await logs();
        throw new Error(`${error.message}\n${seen}`);
      });
      expect((await podman(['exec', name, 'id', '-u'])).stdout.trim()).toBe('10001');
      // The root filesystem is read-only: only /data (the volume) and /tmp take writes.
      await expect(podman(['exec', name, 'touch', '/opt/portico/x'])).rejects.toThrow(/Read-only file system/);
      const inspect = JSON.parse((await podman(['image', 'inspect', `${name}:test`])).stdout)[0];
      expect(inspect.Config.User ?? inspect.User).toBe('10001:10001');
      expect(JSON.stringify(inspect.Healthcheck ?? inspect.Config.Healthcheck)).toContain('/healthz');
      await podman(['healthcheck', 'run', name]);
      // the PostgreSQL driver is in the image, where core loads it from
      const pg = await podman([
        'exec',
        '-w',
        '/opt/portico/node_modules/@portico/core',
        name,
        'node',
        '-e',
        "console.log(typeof require('pg').Pool)",
      ]);
      expect(pg.stdout.trim()).toBe('function');
      // A stop is a SIGTERM: the gateway exits by itself, well within the engine's grace period.
      await podman(['stop', '-t', '20', name], 60_000);
      const state = JSON.parse((await podman(['inspect', name])).stdout)[0].State;
      expect(state.ExitCode).toBe(0);
    }, 120_000);
  });
});

const BASE = 'localhost/portico-node-base:20';

/**
 * A base image with this machine's Node on a minimal Debian (debootstrap from the machine's apt mirror), made once and
 * kept by the engine: no registry image can be pulled here.
 */
async function buildBase(work: string, podman: (args: string[], timeout?: number) => Promise<unknown>): Promise<void> {
  const exists = await podman(['image', 'exists', BASE]).then(
    () => true,
    () => false,
  );
  if (exists) return;
  const rootfs = join(work, 'rootfs');
  const sources = existsSync('/etc/apt/sources.list.d/debian.sources')
    ? readFileSync('/etc/apt/sources.list.d/debian.sources', 'utf8')
    : '';
  const mirror = /^URIs:\s*(\S+)/m.exec(sources)?.[1] ?? 'http://deb.debian.org/debian';
  await run('/usr/sbin/debootstrap', ['--variant=minbase', 'bookworm', rootfs, mirror], { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  await run('sh', ['-c', `tar -C '${rootfs}' -c . | podman --runtime /usr/sbin/runc import - localhost/debian-min:bookworm`], {
    env: { ...process.env, CONTAINERS_CONF: join(work, 'containers.conf') },
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  rmSync(rootfs, { recursive: true, force: true });
  const context = join(work, 'base');
  mkdirSync(context);
  await run('cp', [process.execPath, join(context, 'node')]);
  writeFileSync(join(context, 'Containerfile'), 'FROM localhost/debian-min:bookworm\nCOPY node /usr/local/bin/node\nRUN node --version\n');
  await podman(['build', '--isolation', 'chroot', '-t', BASE, context], 300_000);
}
