#!/usr/bin/env node
// Builds one workspace package (run from its folder by its `build` script):
//   1. JavaScript: esbuild bundles each entry point named in package.json (`exports` and `bin`) into dist/, with code
//      splitting so that entries of one package share one copy of their modules. A package's dependencies stay
//      external (imported from node_modules at run time) unless `--inline a,b,c` names them: an inlined dependency is
//      bundled together with everything it imports.
//   2. Type declarations: tsc --emitDeclarationOnly with the package's tsconfig.build.json.
// Why bundle at all: Node 20 loads ES modules file by file, and the dependency graph of the gateway is about two
// thousand files; loading them one at a time was most of the gateway's start-up time (docs/decisions.md, "Bundled
// builds").
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({
  options: { inline: { type: 'string', default: '' }, 'no-types': { type: 'boolean', default: false } },
});
const inline = new Set(values.inline.split(',').filter(Boolean));
const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// Entry points: every `exports` subpath's source (the `portico-source` condition) and its built file, plus `bin`.
const entries = new Map();
for (const target of Object.values(pkg.exports ?? {})) {
  if (typeof target !== 'object' || !target['portico-source'] || !target.default) continue;
  entries.set(target.default, target['portico-source']);
}
for (const binPath of Object.values(typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {}))) {
  entries.set(binPath, binPath.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts'));
}
if (entries.size === 0) throw new Error(`${pkg.name}: no entry points in package.json exports or bin`);

const declared = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...Object.keys(pkg.devDependencies ?? {}),
];
for (const name of inline) {
  if (!declared.includes(name)) throw new Error(`${pkg.name}: --inline ${name} is not a dependency of the package`);
}
// Externals: the package's own dependencies that are not inlined (and their subpaths). Whatever an inlined dependency
// imports is bundled with it.
const external = declared.filter((name) => !inline.has(name)).flatMap((name) => [name, `${name}/*`]);

rmSync(join(root, 'dist'), { recursive: true, force: true });
const entryPoints = [...entries].map(([out, source]) => ({
  in: join(root, source),
  out: relative(join(root, 'dist'), join(root, out)).replace(/\.js$/, ''),
}));
const result = await build({
  entryPoints,
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: 'linked',
  // Maps point at the original files by path (bench/cpuprofile.mjs reads `sources`); the sources themselves are not
  // embedded, so the published maps do not carry a second copy of every bundled library's code.
  sourcesContent: false,
  legalComments: 'linked',
  chunkNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  // CommonJS modules inside an ES module bundle (koa, pino, ajv…) call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __porticoCreateRequire } from 'node:module'; const require = __porticoCreateRequire(import.meta.url);",
  },
});

const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
const inputs = Object.keys(result.metafile.inputs).length;
console.log(
  `${pkg.name}: ${entries.size} entr${entries.size === 1 ? 'y' : 'ies'}, ${inputs} modules → ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KiB`,
);

if (!values['no-types']) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--emitDeclarationOnly'], { cwd: root, stdio: 'inherit' });
}
