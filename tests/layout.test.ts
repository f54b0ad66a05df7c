// The one plugin layout (docs/plugins.md, "Layout"), held for every plugin package of the repository, the template too:
// knowing one plugin is knowing all seven. And no file anywhere is named by a letter range or a part number.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isE2e, needsOf } from './test-lanes.test-support.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const plugins = readdirSync(join(root, 'packages')).filter((name) => name.startsWith('plugin-'));

/** Top-level files a plugin's src/ may hold besides its tests and JSON data. */
const TOP_LEVEL = new Set(['index.ts', 'upstream.ts', 'schemas.ts', 'vocabulary.ts', 'identify.ts', 'events.ts']);
const FOLDERS = new Set(['operations', 'fixtures', 'sandbox']);
/** Fixture files that cut across families. */
const CROSS_CUTTING_FIXTURES = new Set(['upstream-errors.ts', 'refused.ts', 'kit.ts']);

const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
const isTest = (name: string) => name.endsWith('.test.ts');

describe('plugin layout', () => {
  it('finds the seven plugin packages', () => {
    expect(plugins.sort()).toEqual([
      'plugin-accounting',
      'plugin-calls',
      'plugin-chat',
      'plugin-crm',
      'plugin-notes',
      'plugin-practice',
      'plugin-template',
    ]);
  });

  describe.each(plugins)('%s', (plugin) => {
    const src = join(root, 'packages', plugin, 'src');

    it('has src/index.ts, src/upstream.ts, src/operations/, src/fixtures/ and src/sandbox/index.ts', () => {
      const missing = ['index.ts', 'upstream.ts', 'operations', 'fixtures', 'sandbox/index.ts'].filter((p) => !existsSync(join(src, p)));
      expect(missing).toEqual([]);
    });

    it('keeps at the top of src/ only the plugin, upstream, schemas, vocabulary, identify, events, tests and data', () => {
      const stray = entries(src).filter((name) => {
        if (statSync(join(src, name)).isDirectory()) return !FOLDERS.has(name);
        return !TOP_LEVEL.has(name) && !isTest(name) && !name.endsWith('.json');
      });
      expect(stray).toEqual([]);
    });

    it('declares operations in one file per resource family, with kit.ts (or kit/) for builders', () => {
      const dir = join(src, 'operations');
      const stray = entries(dir).filter((name) => {
        if (statSync(join(dir, name)).isDirectory()) return name !== 'kit';
        return !name.endsWith('.ts') || isTest(name);
      });
      expect(stray).toEqual([]);
      expect(entries(dir).filter((name) => name.endsWith('.ts') && name !== 'kit.ts').length).toBeGreaterThan(0);
    });

    it('has fixtures that mirror operations/: a file per family, plus upstream errors, refused input and a kit', () => {
      const families = entries(join(src, 'operations')).filter((name) => name.endsWith('.ts') && name !== 'kit.ts');
      const fixtures = entries(join(src, 'fixtures'));
      expect(
        families.filter((name) => !fixtures.includes(name)),
        'families without a fixtures file',
      ).toEqual([]);
      expect(
        fixtures.filter((name) => !families.includes(name) && !CROSS_CUTTING_FIXTURES.has(name)),
        'fixture files named for no family',
      ).toEqual([]);
    });

    it('declares its vocabulary for search_methods in src/vocabulary.ts', () => {
      expect(readFileSync(join(src, 'vocabulary.ts'), 'utf8')).toMatch(/defineVocabulary\(/);
      expect(readFileSync(join(src, 'index.ts'), 'utf8')).toMatch(/from '\.\/vocabulary\.js'/);
    });

    it('builds the plugin in index.ts from the operation arrays of operations/', () => {
      expect(readFileSync(join(src, 'index.ts'), 'utf8')).toMatch(/from '\.\/operations\//);
    });
  });
});

describe('file names', () => {
  // A letter range (`collections-a-f`) or a part number (`collections-g-z-4`, `part2`) records how a file was cut, not
  // what it holds.
  const LETTER_RANGE = /(^|[-_.])[a-z]-[a-z]($|[-_.])/;
  const PART_NUMBER = /([-_]\d+$)|(part-?\d)/i;

  it('name no file by a letter range or a part number', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .filter((path) => existsSync(join(root, path)));
    const offending = files.filter((path) => {
      const stem = basename(path).replace(/\..*$/, '');
      return LETTER_RANGE.test(stem) || PART_NUMBER.test(stem);
    });
    expect(offending).toEqual([]);
  });
});

describe('test lanes', () => {
  const tests = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.test.ts'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((path) => path !== '' && existsSync(join(root, path)));

  it('finds tests in both lanes', () => {
    expect(tests.filter(isE2e).length).toBeGreaterThan(0);
    expect(tests.filter((path) => !isE2e(path)).length).toBeGreaterThan(0);
  });

  it('keeps out of the unit lane every test that needs a build, another process, a browser or PostgreSQL', () => {
    const misplaced = tests
      // This file names what it looks for, in the examples below.
      .filter((path) => !isE2e(path) && path !== 'tests/layout.test.ts')
      .flatMap((path) => {
        const needs = needsOf(root, path);
        return needs.length > 0 ? [`${path} needs ${needs.join(', ')}: name it *.e2e.test.ts`] : [];
      });
    expect(misplaced).toEqual([]);
  });

  it('tells a process test from a unit test', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portico-lanes-'));
    const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
    write('spawns.test-support.ts', "import { spawn } from 'node:child_process';\nexport const run = () => spawn(process.execPath, []);\n");
    write('via-helper.test.ts', "import { run } from './spawns.test-support.js';\nrun();\n");
    write('lists.test.ts', "import { execFileSync } from 'node:child_process';\nexecFileSync('git', ['ls-files']);\n/x/.exec('x');\n");
    write('wrapped.test.ts', "import { execFile } from 'node:child_process';\nconst run = promisify(execFile);\n");
    write('built.test.ts', "const bin = 'apps/gateway/dist/bin.js';\n");
    write('database.test.ts', 'const problem = await postgresProblem();\n');
    expect(needsOf(dir, 'via-helper.test.ts')).toEqual(['another process']);
    expect(needsOf(dir, 'lists.test.ts')).toEqual([]);
    expect(needsOf(dir, 'wrapped.test.ts')).toEqual(['another process']);
    expect(needsOf(dir, 'built.test.ts')).toEqual(['the built output']);
    expect(needsOf(dir, 'database.test.ts')).toEqual(['PostgreSQL']);
    rmSync(dir, { recursive: true, force: true });
  });
});
