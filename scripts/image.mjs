#!/usr/bin/env node
// pnpm image [options]: stages the gateway as an operator installs it (the packed packages and the PostgreSQL driver
// installed with npm, production dependencies only) and builds deploy/Dockerfile on it with podman or docker. See
// docs/deploy.md.
//
//   node scripts/image.mjs [--engine podman|docker] [--base IMAGE] [--tag NAME] [--stage DIR] [--stage-only]
//
// --stage-only writes the build context (DIR/Dockerfile, DIR/app/) and stops: what a CI without a container engine
// can still check, and what an operator can hand to another builder.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The packages in the image: core, the gateway and every first-party plugin. */
export const IMAGE_PACKAGES = [
  'packages/core',
  'apps/gateway',
  'packages/plugin-crm',
  'packages/plugin-accounting',
  'packages/plugin-practice',
  'packages/plugin-notes',
  'packages/plugin-chat',
  'packages/plugin-calls',
];

const HELP = `Usage: node scripts/image.mjs [options]   (pnpm image [options])

Builds the Portico gateway image from deploy/Dockerfile, after staging its context: the packages packed with
pnpm pack and, with the PostgreSQL driver (pg), installed with npm (production dependencies only) into <stage>/app.
With podman the image is written in docker format, which keeps its HEALTHCHECK. Needs pnpm build first.

Options:
  --engine podman|docker  container engine (default: podman if installed, else docker)
  --base IMAGE            base image with Node >= 20 and glibc (default: the Dockerfile's, node:20-bookworm-slim)
  --tag NAME              image name (default: portico-gateway:dev)
  --stage DIR             where to stage the build context (default: a new directory under the system's tmp)
  --stage-only            stage the context and print its path; build nothing
  --help                  this text
`;

/**
 * Stages the build context in `dir`: Dockerfile and app/ (package.json naming the tarballs, node_modules installed by
 * npm with --omit=dev). Returns the directory.
 * @param {string} dir
 * @param {{ log?: (line: string) => void }} [options]
 */
export async function stageContext(dir, options = {}) {
  const log = options.log ?? (() => {});
  const missing = IMAGE_PACKAGES.filter((pkg) => !existsSync(join(ROOT, pkg, 'dist')));
  if (missing.length > 0) throw new Error(`not built: ${missing.join(', ')} (run pnpm build)`);
  const tarballs = join(dir, 'tarballs');
  const app = join(dir, 'app');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(tarballs, { recursive: true });
  mkdirSync(app, { recursive: true });
  for (const pkg of IMAGE_PACKAGES) {
    // pnpm pack rewrites workspace: ranges into the versions being packed.
    await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(ROOT, pkg) });
  }
  const files = readdirSync(tarballs).sort();
  log(`packed ${files.length} packages`);
  const dependencies = Object.fromEntries(
    files.map((file) => {
      const name = `@portico/${file.replace(/^portico-/, '').replace(/-\d+\.\d+\.\d+.*\.tgz$/, '')}`;
      return [name, `file:../tarballs/${file}`];
    }),
  );
  // The PostgreSQL driver, an optional peer of core: the image runs what docs/deploy.md deploys (PostgreSQL), so it
  // is installed, at the version core's tests run against.
  dependencies.pg = postgresDriverVersion();
  const manifest = { name: 'portico-image', private: true, type: 'module', dependencies };
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: app,
    timeout: 600_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  // The tarballs are installed copies now; the image needs none of them.
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'portico-image', private: true, type: 'module' }, null, 2)}\n`);
  rmSync(tarballs, { recursive: true, force: true });
  rmSync(join(app, 'package-lock.json'), { force: true });
  cpSync(join(ROOT, 'deploy/Dockerfile'), join(dir, 'Dockerfile'));
  log(`staged ${dir}`);
  return dir;
}

/** The version range of `pg` the image installs: core's development version of it, within its peer range. */
export function postgresDriverVersion() {
  const core = JSON.parse(readFileSync(join(ROOT, 'packages/core/package.json'), 'utf8'));
  const version = core.devDependencies?.pg ?? core.peerDependencies?.pg;
  if (!version) throw new Error('packages/core/package.json names no pg version');
  return version;
}

/**
 * The engine's build command for the staged context. Podman writes OCI images by default, a format with no
 * HEALTHCHECK: `--format docker` keeps it (docker's own builder writes that format anyway and has no such option).
 * @param {string} engine
 * @param {{ tag: string, base?: string, stage: string, extra?: string[] }} options
 */
export function buildArgs(engine, options) {
  const args = ['build'];
  if (/(^|\/)podman$/.test(engine)) args.push('--format', 'docker');
  args.push(...(options.extra ?? []), '-t', options.tag);
  if (options.base) args.push('--build-arg', `BASE_IMAGE=${options.base}`);
  args.push(options.stage);
  return args;
}

/** @returns {Promise<string | undefined>} */
async function defaultEngine() {
  for (const engine of ['podman', 'docker']) {
    try {
      await run(engine, ['--version']);
      return engine;
    } catch {}
  }
  return undefined;
}

async function main() {
  // `pnpm image -- --tag x` hands the script a leading `--`: the options follow it.
  const argv = process.argv.slice(2);
  const { values } = parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: {
      engine: { type: 'string' },
      base: { type: 'string' },
      tag: { type: 'string', default: 'portico-gateway:dev' },
      stage: { type: 'string' },
      'stage-only': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const stage = values.stage ?? mkdtempSync(join(tmpdir(), 'portico-image-'));
  await stageContext(stage, { log: (line) => console.error(`image: ${line}`) });
  if (values['stage-only']) {
    console.log(stage);
    return;
  }
  const engine = values.engine ?? (await defaultEngine());
  if (!engine) throw new Error('no container engine (podman or docker) found; --stage-only stages the context without one');
  const args = buildArgs(engine, { tag: values.tag, ...(values.base ? { base: values.base } : {}), stage });
  console.error(`image: ${engine} ${args.join(' ')}`);
  const { stdout } = await run(engine, args, { timeout: 900_000, maxBuffer: 64 * 1024 * 1024 });
  process.stderr.write(stdout.split('\n').slice(-3).join('\n'));
  console.log(values.tag);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(`image: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
