// What a package publishes is its dist/: no test helper may ship in it. `pnpm test:e2e` builds every package first, so a
// missing dist/ is a failure here, not a skip. Two rules, because a name alone proves nothing: a helper named by the
// convention (`*.test-support.ts`, `*.test.ts`, `src/fixtures/`) must have been excluded by the build, and a module
// compiled from src/ that nothing the package names (its `exports` and `bin`) imports, by value or by type, is a module
// only tests use — whatever its name.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, 'package.json')))
    .map((entry) => `${group}/${entry.name}`),
);

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? [`${entry.name}/`, ...filesUnder(join(dir, entry.name)).map((f) => `${entry.name}/${f}`)] : [entry.name],
  );

/** Relative specifiers of static imports and re-exports, dynamic `import('…')` and inline `import("…")` types. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every file of dist/ reached from the entry points by following relative imports in .js and .d.ts files. */
function reachable(dist: string, entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = entries.map((entry) => resolve(dist, '..', entry));
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) queue.push(resolve(dirname(file), match[1] as string));
  }
  return new Set([...seen].map((file) => relative(dist, file)));
}

function entryPoints(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
    exports?: Record<string, string | Record<string, string>>;
    bin?: string | Record<string, string>;
  };
  const targets = Object.values(pkg.exports ?? {}).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
  const bins = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {});
  return [...targets, ...bins].filter((target) => target.startsWith('./dist/'));
}

describe('dist/ of every package', () => {
  it('finds the packages and the gateway', () => {
    expect(packages).toContain('packages/core');
    expect(packages).toContain('apps/gateway');
    expect(packages.length).toBeGreaterThanOrEqual(9);
  });

  describe.each(packages)('%s', (dir) => {
    const dist = join(root, dir, 'dist');

    it('was built (pnpm test:e2e builds every package first)', () => {
      expect(existsSync(dist), `${dir}/dist is missing: run pnpm build`).toBe(true);
      expect(filesUnder(dist).some((file) => file.endsWith('.js'))).toBe(true);
    });

    it('holds no file or folder named as a test helper', () => {
      const helpers = existsSync(dist)
        ? filesUnder(dist).filter((file) => /\.test(-support)?\.|(^|\/)fixtures\//.test(file) || /(^|\/)fixtures\/$/.test(file))
        : [];
      expect(helpers).toEqual([]);
    });

    it('holds no compiled module that its entry points never import (a helper only tests use)', () => {
      if (!existsSync(dist)) throw new Error(`${dir}/dist is missing`);
      const reached = reachable(dist, entryPoints(dir));
      // A module tsc compiled from src/ has its source map beside it; other build outputs (browser assets) have none.
      const compiled = filesUnder(dist).filter((file) => file.endsWith('.js') && existsSync(join(dist, `${file}.map`)));
      // A module of types only compiles to `export {};`: nothing to ship by mistake, whoever imports its types.
      const typesOnly = (file: string) =>
        readFileSync(join(dist, file), 'utf8')
          .replace(/\/\/.*$/gm, '')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .trim() === 'export {};';
      const unused = compiled.filter((file) => !reached.has(file) && !reached.has(file.replace(/\.js$/, '.d.ts')) && !typesOnly(file));
      expect(unused).toEqual([]);
    });
  });
});
