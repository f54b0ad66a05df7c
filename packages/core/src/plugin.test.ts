import { readFileSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as contract from './plugin.js';

const SRC = dirname(fileURLToPath(import.meta.url));

/** The core modules a module loads, transitively (static and dynamic imports, type-only ones left out). */
function closure(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(posix.join(SRC, path), 'utf8').replace(/^(import|export) type .*$/gm, '');
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (fileName.startsWith('.')) visit(posix.normalize(posix.join(posix.dirname(path), fileName)).replace(/\.js$/, '.ts'));
    }
  };
  visit(start);
  return seen;
}

describe('@portico/core/plugin', () => {
  it('loads the contract, the errors and the upstream readers, none of the runtime', () => {
    const runtime = [...closure('plugin.ts')].filter(
      (path) => !/^(contract\/|errors\.ts$|plugin\.ts$|upstream\/(failures|declarative)\.ts$)/.test(path),
    );
    expect(runtime).toEqual([]);
  });

  it('gives a plugin what it is written with', () => {
    for (const name of [
      'definePlugin',
      'defineOperation',
      'Params',
      'Type',
      'StringEnum',
      'GatewayError',
      'upstreamInspector',
      'CONTRACT_VERSION',
    ]) {
      expect(contract, name).toHaveProperty(name);
    }
    for (const name of ['Engine', 'SqliteStore', 'PostgresStore', 'AuthorizationServer', 'MIGRATIONS', 'Registry']) {
      expect(contract, name).not.toHaveProperty(name);
    }
  });
});
