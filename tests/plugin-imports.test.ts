// A plugin is written against the contract only: every plugin package of the repository (the template too) takes
// @portico/core through `@portico/core/plugin`, and its tests and sandbox through `@portico/core/testing` (and the
// emulator under it). The gateway's runtime (`@portico/core`, `@portico/core/mcp`) is the gateway's, not a plugin's.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const plugins = readdirSync(join(root, 'packages')).filter((name) => name.startsWith('plugin-'));

const ALLOWED = ['@portico/core/plugin', '@portico/core/testing', '@portico/core/testing/emulator'];
const SOURCE = /\.(ts|mts|mjs|js)$/;

/** Every source file of a package, outside node_modules and dist. */
function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** The @portico/core specifiers a text imports (static, dynamic, type-only and re-exports) that a plugin may not. */
function forbiddenImports(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => /^@portico\/core(\/|$)/.test(specifier) && !ALLOWED.includes(specifier));
}

describe('what a plugin imports from @portico/core', () => {
  it('tells the contract entry from the runtime', () => {
    const text = [
      "import { definePlugin } from '@portico/core/plugin';",
      "import { useSandbox } from '@portico/core/testing';",
      "import { startEmulator } from '@portico/core/testing/emulator';",
      "import type { Store } from '@portico/core';",
      "export { Engine } from '@portico/core';",
      "const mcp = await import('@portico/core/mcp');",
      "import { x } from '@portico/core/src/store/sqlite.js';",
    ].join('\n');
    expect(forbiddenImports(text)).toEqual(['@portico/core', '@portico/core', '@portico/core/mcp', '@portico/core/src/store/sqlite.js']);
  });

  it.each(plugins)('%s imports only @portico/core/plugin and the testing entries', (plugin) => {
    const files = sources(join(root, 'packages', plugin));
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((file) =>
      forbiddenImports(readFileSync(file, 'utf8')).map((specifier) => `${relative(root, file)}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('names @portico/core/plugin in the plugin guide, the contract reference and the template, not the runtime entry', () => {
    for (const doc of ['docs/plugins.md', 'docs/plugin-contract.md', 'packages/plugin-template/README.md']) {
      const text = readFileSync(join(root, doc), 'utf8');
      expect(text, doc).not.toMatch(/from '@portico\/core'/);
    }
  });
});
