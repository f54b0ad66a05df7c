import { readdirSync, readFileSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Core is grouped by layer, one folder each: a module imports from its own folder, from the layers below its own that
 * the table names, and from the shared modules at the top. docs/adr/0019-core-by-layer.md holds the same table and
 * says why; the first test keeps the two equal.
 */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  contract: [],
  store: [],
  upstream: ['contract'],
  access: ['contract', 'store', 'upstream'],
  connections: ['contract', 'store', 'upstream'],
  authorization: ['contract', 'store', 'upstream', 'access'],
  pipeline: ['contract', 'store', 'upstream', 'access', 'connections', 'authorization'],
  doors: ['contract', 'store', 'upstream', 'access', 'connections', 'authorization', 'pipeline'],
  testing: ['contract', 'store', 'upstream', 'access', 'connections', 'authorization', 'pipeline', 'doors'],
};

/**
 * Modules at the top of src/: the shared ones every layer may import, and the public entries (`@portico/core`, which
 * re-exports what the gateway needs of every layer but testing, `@portico/core/mcp`, the MCP door, and
 * `@portico/core/plugin`, the contract plugins are written against).
 */
const SHARED = ['errors.ts', 'logger.ts'];
const ENTRIES = ['index.ts', 'mcp.ts', 'plugin.ts'];

const SRC = dirname(fileURLToPath(import.meta.url));
const DECISIONS = fileURLToPath(new URL('../../../docs/adr/0019-core-by-layer.md', import.meta.url));

/** Every `.ts` file below src/, as a path relative to it (`contract/registry.ts`). */
function sources(dir = ''): string[] {
  return readdirSync(posix.join(SRC, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Tests and the modules only tests import: they sit above every layer and may import any of them. */
const isTestCode = (path: string) => path.endsWith('.test.ts') || path.endsWith('.test-support.ts');

/** The layer a module belongs to: its folder, or the file name for a module at the top. */
const layerOf = (path: string) => (path.includes('/') ? (path.split('/')[0] as string) : path);

/** The core modules `path` imports (static, dynamic, type-only and re-exports), as paths relative to src/. */
function importsOf(path: string, text = readFileSync(posix.join(SRC, path), 'utf8')): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => posix.normalize(posix.join(posix.dirname(path), specifier)).replace(/\.js$/, '.ts'));
}

/** Why `from` may not import `to`, or undefined when it may. */
function wrongWay(from: string, to: string): string | undefined {
  const source = layerOf(from);
  const target = layerOf(to);
  if (target.startsWith('..')) return 'imports from outside packages/core/src';
  if (source === target && from.includes('/')) return undefined;
  if (SHARED.includes(source)) return `${source} is shared by every layer and imports no other module of core`;
  if (SHARED.includes(target)) return undefined;
  if (ENTRIES.includes(target)) return 'imports a public entry';
  if (ENTRIES.includes(source))
    return target === 'testing' ? 'the public entry does not carry the test helpers (@portico/core/testing does)' : undefined;
  const allowed = LAYERS[source];
  if (!allowed) return `${source} is in no layer: add its folder to the table here and in docs/adr/0019-core-by-layer.md`;
  if (!Object.hasOwn(LAYERS, target)) return `${target} is in no layer`;
  return allowed.includes(target) ? undefined : `${source}/ may import ${allowed.join(', ') || 'nothing but itself'}, not ${target}/`;
}

function violations(files: readonly string[], read?: (path: string) => string): string[] {
  return files
    .filter((file) => !isTestCode(file))
    .flatMap((file) =>
      importsOf(file, read?.(file)).flatMap((target) => {
        const reason = wrongWay(file, target);
        return reason ? [`${file} → ${target}: ${reason}`] : [];
      }),
    );
}

describe('packages/core/src by layer', () => {
  const files = sources();

  it('has the layer table of docs/adr/0019-core-by-layer.md', () => {
    const section = readFileSync(DECISIONS, 'utf8');
    // | `folder/` | what it holds | `below/`, `other/` (or —) |
    const rows = [...section.matchAll(/^\|\s*`([a-z-]+)\/`\s*\|.*\|([^|]*)\|\s*$/gm)].map(([, folder, imports]) => [
      folder,
      [...(imports as string).matchAll(/`([a-z-]+)\/`/g)].map(([, name]) => name),
    ]);
    expect(Object.fromEntries(rows)).toEqual(LAYERS);
  });

  it('puts every module in a layer: a folder of the table, or a shared module or the entry at the top', () => {
    const placed = files.filter((file) => !isTestCode(file)).map(layerOf);
    expect([...new Set(placed)].sort()).toEqual([...Object.keys(LAYERS), ...SHARED, ...ENTRIES].sort());
  });

  it('imports only downward: each module from its own folder, the layers its own may use, and the shared modules', () => {
    expect(files.length).toBeGreaterThan(60);
    expect(violations(files)).toEqual([]);
  });

  it('finds an import against the table (a check that could not fail would prove nothing)', () => {
    const reading = (text: string) => () => text;
    expect(violations(['contract/registry.ts'], reading("import type { Engine } from '../pipeline/engine.js';"))).toEqual([
      'contract/registry.ts → pipeline/engine.ts: contract/ may import nothing but itself, not pipeline/',
    ]);
    expect(violations(['access/tool-sets.ts'], reading("export { Encryptor } from '../connections/crypto.js';"))).toHaveLength(1);
    expect(violations(['store/types.ts'], reading("const engine = await import('../pipeline/engine.js');"))).toHaveLength(1);
    expect(violations(['errors.ts'], reading("import type { Logger } from './logger.js';"))).toHaveLength(1);
    expect(violations(['index.ts'], reading("export { examplePlugin } from './testing/example-plugin.js';"))).toHaveLength(1);
    expect(violations(['access/tool-sets.test.ts'], reading("import { createFixtureHarness } from '../testing/fixtures.js';"))).toEqual([]);
  });

  it('ships no test helper: no module outside testing/ imports testing/ (tests and *.test-support.ts may)', () => {
    const users = files
      .filter((file) => !isTestCode(file) && layerOf(file) !== 'testing')
      .filter((file) => importsOf(file).some((target) => layerOf(target) === 'testing'));
    expect(users).toEqual([]);
  });

  it('has no source file over 400 lines: a file too long splits by a sub-job named from the domain', () => {
    const large = files
      .filter((file) => !file.endsWith('.test.ts'))
      .map((file) => [file, readFileSync(posix.join(SRC, file), 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 400);
    expect(large).toEqual([]);
  });
});
