#!/usr/bin/env node
// Builds one workspace package (run from its folder by its `build` script) the conventional way: `tsc -p
// tsconfig.build.json` compiles every source file to its own ES module in dist/ (one .js, one .d.ts and one .js.map per
// .ts file, the folder structure kept). Nothing is bundled: a package's dependencies are imported from node_modules at
// run time, so they are declared, deduplicated and patched through the user's lock file like any other package's.
// Source maps name the original files by path and do not embed their text (TypeScript's default).
// Why not bundle: docs/adr/0014-unbundled-packages.md.
// The script then checks that every entry point the package.json names (`exports` and `bin`) was written.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });

const targets = [];
for (const target of Object.values(pkg.exports ?? {})) {
  if (typeof target === 'string') targets.push(target);
  else if (target && typeof target === 'object') targets.push(...Object.values(target).filter((t) => t.startsWith('./dist/')));
}
const bins = Object.values(typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {}));
for (const file of [...targets, ...bins]) {
  if (!existsSync(join(root, file))) throw new Error(`${pkg.name}: package.json names ${file}, which the build did not write`);
}
// npm sets the executable bit on install; a bin run from the workspace (node_modules/.bin) needs it too.
for (const file of bins) chmodSync(join(root, file), 0o755);

const count = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (n, entry) => n + (entry.isDirectory() ? count(join(dir, entry.name)) : entry.name.endsWith('.js') ? 1 : 0),
    0,
  );
console.log(`${pkg.name}: ${count(join(root, 'dist'))} modules in dist/ (unbundled, tsc)`);
