#!/usr/bin/env node
// Do the published types of @portico/core and @portico/gateway compile for a TypeScript user? Packs both packages
// (run `pnpm build` first), installs the tarballs with npm into an empty directory outside the workspace, and compiles
// a file importing both with the workspace's tsc: --strict, --module nodenext and --skipLibCheck false, so that every
// .d.ts the packages ship — and every import in them — is checked against what npm installed, not what this workspace
// happens to have.
//   node scripts/check-consumer-types.mjs
// Needs the npm registry; exits 0 with a "skipped" line when it cannot be reached.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const dir = mkdtempSync(join(tmpdir(), 'portico-consumer-'));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  try {
    run('npm', ['ping'], dir);
  } catch {
    console.log('check-consumer-types: skipped — the npm registry cannot be reached');
    process.exit(0);
  }
  const tarballs = ['packages/core', 'apps/gateway'].map((pkg) => {
    const before = new Set(readdirSync(dir));
    run('pnpm', ['pack', '--pack-destination', dir], join(root, pkg));
    const made = readdirSync(dir).find((file) => file.endsWith('.tgz') && !before.has(file));
    if (!made) throw new Error(`pnpm pack in ${pkg} made no tarball`);
    return join(dir, made);
  });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`);
  run('npm', ['install', '--no-audit', '--no-fund', ...tarballs], dir);
  writeFileSync(
    join(dir, 'consumer.ts'),
    `import { GatewayError, type Plugin } from '@portico/core';
import { createApp, type GatewayConfig, loadConfig, type RunningGateway, startGateway } from '@portico/gateway';

export const plugins: readonly Plugin[] = [];
export const config: GatewayConfig = loadConfig({});
export type Started = Awaited<ReturnType<typeof startGateway>> extends RunningGateway ? true : false;
export const app: ReturnType<typeof createApp> | undefined = undefined;
export const isError = (e: unknown): e is GatewayError => e instanceof GatewayError;
`,
  );
  const args = ['--noEmit', '--skipLibCheck', 'false', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
  args.push('--strict', '--target', 'es2022', 'consumer.ts');
  try {
    run(process.execPath, [tsc, ...args], dir);
  } catch (error) {
    console.error(`check-consumer-types: tsc failed in ${dir}\n${error.stdout}${error.stderr}`);
    process.exitCode = 1;
  }
  if (process.exitCode !== 1) console.log(`check-consumer-types: ok — tsc ${args.join(' ')} (core + gateway from npm tarballs)`);
} finally {
  if (process.exitCode !== 1) rmSync(dir, { recursive: true, force: true });
}
