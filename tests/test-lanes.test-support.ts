// The two test lanes (CONTRIBUTING.md, "Two test lanes"): `pnpm test` runs every `*.test.ts` from source, without a
// build; `pnpm test:e2e` builds, then runs every `*.e2e.test.ts`. A test file belongs in the e2e lane when it needs
// something beyond Node and the source: the built output, another process, a browser, PostgreSQL or a container.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A process started with anything but `git` (which lists the repository's files) or `openssl` (a test certificate). */
const PROCESS_CALL = /(?<![.\w$])(?:spawn|spawnSync|exec|execSync|execFile|execFileSync|fork)\((?!\s*['"](?:git|openssl)['"])/;
/** A process function wrapped (`promisify(execFile)`): its calls go by another name. */
const PROMISIFIED = /promisify\(\s*(?:spawn|exec|execFile|fork)\s*\)/;
const NEEDS = [
  { need: 'the built output', pattern: /(?:apps|packages)\/[\w.-]+\/dist\/|\.\.\/dist\/|\bdist\/bin\.js/ },
  { need: 'a browser', pattern: /playwright|chromium/i },
  {
    need: 'PostgreSQL',
    pattern:
      /\b(?:TEST_POSTGRES_URL|PORTICO_TEST_POSTGRES_URL|postgresProblem|storesOnOneSchema|PORTICO_REQUIRE_POSTGRES)\b|\bnew PostgresStore\(/,
  },
];

export const isE2e = (path: string) => path.endsWith('.e2e.test.ts') || path.endsWith('.browser.test.ts');

/** Local modules a file imports (`./x.js` → `./x.ts`), to follow a test into the helpers it starts processes with. */
function localImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [, spec] of text.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = join(dirname(file), (spec as string).replace(/\.js$/, '.ts'));
    if (existsSync(target)) found.push(target);
  }
  return found;
}

function startsProcess(file: string, seen: Set<string>): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (/['"]node:child_process['"]/.test(text) && (PROCESS_CALL.test(text) || PROMISIFIED.test(text))) return true;
  return localImports(file, text)
    .filter((target) => !target.endsWith('.test.ts'))
    .some((target) => startsProcess(target, seen));
}

/** What a test file needs beyond Node and the source; empty for a unit test. */
export function needsOf(root: string, path: string): string[] {
  const file = join(root, path);
  const text = readFileSync(file, 'utf8');
  const needs = NEEDS.filter(({ pattern }) => pattern.test(text)).map(({ need }) => need);
  if (startsProcess(file, new Set())) needs.push('another process');
  return needs;
}
