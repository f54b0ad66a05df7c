// Docs that are true: every repository path a document names (`packages/core/src/…`, `apps/gateway/src/…`, a link to
// another document) exists. A path with a placeholder (`<family>`, `*`, `{…}`) names a pattern, not a file, and is
// not checked.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const markdown = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => `${group}/${name}/README.md`)
      .filter((path) => existsSync(join(root, path))),
  ),
  'bench/README.md',
];

const ROOTS = /^(packages|apps|bench|scripts|docs|tests)\//;
const PATTERN = /[<>*{}]|\.\.\./;

/** Repository paths named in a document: in backticks, or as a relative link target. */
function pathsIn(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found = new Set<string>();
  for (const [, code] of text.matchAll(/`([^`\s]+)`/g)) {
    const path = (code as string).replace(/:\d+(-\d+)?$/, '').replace(/[),.;]+$/, '');
    if (ROOTS.test(path) && !PATTERN.test(path)) found.add(path);
  }
  for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)) {
    const link = target as string;
    if (/^[a-z]+:/.test(link) || PATTERN.test(link)) continue;
    found.add(normalize(join(dirname(file), link)));
  }
  return [...found];
}

/** Generated output (bench results, screenshots) is git-ignored: named in the docs, absent from a fresh clone. */
const ignored = (path: string) => {
  try {
    execFileSync('git', ['check-ignore', '-q', path], { cwd: root });
    return true;
  } catch {
    return false;
  }
};

describe('paths named in the docs', () => {
  it.each(markdown)('%s names only paths that exist', (file) => {
    // A package's README may name its own files relative to the package.
    const exists = (path: string) => existsSync(join(root, path)) || existsSync(join(root, dirname(file), path));
    expect(pathsIn(file).filter((path) => !exists(path) && !ignored(path))).toEqual([]);
  });
});
