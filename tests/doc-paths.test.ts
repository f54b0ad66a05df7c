// Docs that are true: every repository path a document names (`packages/core/src/…`, `apps/gateway/src/…`, a link to
// another document) exists, and so does every path a code comment names (`docs/adr/…`, `scripts/…`). A path with a
// placeholder (`<family>`, `*`, `{…}`) names a pattern, not a file, and is not checked.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const markdown = [
  'README.md',
  'CONTRIBUTING.md',
  '.changeset/README.md',
  ...['docs', 'docs/adr'].flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `${dir}/${f}`),
  ),
  ...['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => `${group}/${name}/README.md`)
      .filter((path) => existsSync(join(root, path))),
  ),
  'bench/README.md',
];

const ROOTS = /^(packages|apps|bench|scripts|docs|tests|deploy)\//;
const PATTERN = /[<>*{}…]|\.\.\./;

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

/** The comment text of a source line: a whole `//`, `/*` or ` *` line, or what follows ` // ` after code. */
function commentOf(line: string): string | undefined {
  const trimmed = line.trim();
  if (/^(\/\/|\/\*|\*)/.test(trimmed)) return trimmed;
  const at = line.indexOf(' // ');
  return at === -1 ? undefined : line.slice(at + 4);
}

/** Repository paths named in the comments of a source file, with the line that names each. */
function commentPaths(file: string): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const comment = commentOf(line);
      if (comment === undefined) return;
      for (const [, named] of comment.matchAll(/(?<![\w./@-])((?:packages|apps|bench|scripts|docs|tests|deploy)\/[^\s`'"),;\]]*)/g)) {
        const path = (named as string).replace(/:\d+(-\d+)?$/, '').replace(/[.:]+$/, '');
        if (!PATTERN.test(path) && path.split('/')[1] !== '') found.push([path, index + 1]);
      }
    });
  return found;
}

const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => path !== '' && existsSync(join(root, path)));

/** The package a source file belongs to (`apps/gateway`), whose own paths its comments may name relative to it. */
const packageOf = (file: string) => /^(packages|apps)\/[^/]+/.exec(file)?.[0];

describe('paths named in code comments', () => {
  it('reads the sources', () => {
    expect(sources.length).toBeGreaterThan(100);
  });

  it('names only paths that exist', () => {
    const missing = sources.flatMap((file) =>
      commentPaths(file)
        .filter(([path]) => {
          const own = packageOf(file);
          return !existsSync(join(root, path)) && !(own && existsSync(join(root, own, path))) && !ignored(path);
        })
        .map(([path, line]) => `${file}:${line}: ${path}`),
    );
    expect(missing).toEqual([]);
  });
});
