#!/usr/bin/env node
// Lints what npm would publish: every workspace package (and packages/plugin-template, which plugin authors copy and
// publish) is packed with `pnpm pack` (run `pnpm build` first), and each tarball is checked, offline, by
//   - publint --strict: package.json against the files in the tarball (exports, types, files, module format);
//   - @arethetypeswrong/cli --profile esm-only: every `exports` entry resolves to JavaScript and types that agree,
//     for TypeScript's node16/nodenext and bundler resolution (CommonJS resolution is out of scope: ESM-only).
//   node scripts/check-packages.mjs        (also `pnpm check:packages`; run by .ci/run)
// Exits 1 when any package has a finding, printing the tools' own reports.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The tools as the root devDependencies installed them (pnpm's node_modules/.bin shims).
const publint = join(root, 'node_modules/.bin/publint');
const attw = join(root, 'node_modules/.bin/attw');

const folders = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(root, group, name))
    .filter((dir) => existsSync(join(dir, 'package.json'))),
);
const packages = folders
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ dir, manifest }) => !manifest.private || basename(dir) === 'plugin-template');

const out = mkdtempSync(join(tmpdir(), 'portico-check-packages-'));
let failed = 0;
try {
  const check = async ({ dir, manifest }) => {
    const dest = mkdtempSync(join(out, 'pkg-'));
    await run('pnpm', ['pack', '--pack-destination', dest], { cwd: dir });
    const [tarball] = readdirSync(dest).filter((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`${manifest.name}: pnpm pack made no tarball`);
    const file = join(dest, tarball);
    const results = await Promise.all([
      run(publint, ['run', file, '--strict']).then(
        (r) => ({ tool: 'publint --strict', ok: true, text: r.stdout }),
        (e) => ({ tool: 'publint --strict', ok: false, text: `${e.stdout}${e.stderr}` }),
      ),
      run(attw, [file, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'ascii', '--no-emoji', '--no-color']).then(
        (r) => ({ tool: 'attw --profile esm-only', ok: true, text: r.stdout }),
        (e) => ({ tool: 'attw --profile esm-only', ok: false, text: `${e.stdout}${e.stderr}` }),
      ),
    ]);
    for (const result of results) {
      if (result.ok) continue;
      failed++;
      console.error(`\n${manifest.name}: ${result.tool} found problems\n${result.text.trim()}\n`);
    }
    const verdict = results.every((r) => r.ok) ? 'ok' : 'PROBLEMS';
    console.log(`check-packages: ${manifest.name}@${manifest.version} (${tarball}): publint --strict, attw esm-only: ${verdict}`);
  };
  // Two at a time: each check is a few processes, and CI machines have few cores.
  const queue = [...packages];
  await Promise.all(
    [0, 1].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await check(next);
    }),
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (failed > 0) {
  console.error(`check-packages: ${failed} finding(s)`);
  process.exit(1);
}
console.log(`check-packages: ${packages.length} packages clean`);
