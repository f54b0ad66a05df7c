// Code speaks of the product, not of how it came to be: no comment, string or test title names an issue, a pull
// request or a numbered finding of a review. Say what the code does instead; git keeps the history.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `issue 31`, `issue-31`, `Issue #31`, `issues 27 and 28`, `PR 12`, `pull request #4`, `finding 5`, `findings 2 and 3`. */
const HISTORY = /\b(?:issues?|PR|pull requests?|findings?)[\s-]+#?\d{1,4}\b/i;

const code = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mts', '*.mjs', '*.js', '*.cjs'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => path !== '' && path !== 'tests/no-history.test.ts' && existsSync(join(root, path)));

describe('history out of the code', () => {
  it('finds the code to read', () => {
    expect(code.length).toBeGreaterThan(100);
  });

  it('names no issue, pull request or review finding in code, comments or test titles', () => {
    const found = code.flatMap((path) =>
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => (HISTORY.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ['// measured on 500-record batches (issue 31)', true],
    ["describe('minor points of Issue #29', () => {", true],
    ['/** Findings 2 and 3, as a property */', true],
    ['// the issue-31 targets', true],
    ['// see pull request 12', true],
    ["it('retries 3 times on issues with the upstream', () => {", false],
    ['// HTTP 429 when the issuer answers 503', false],
  ])('reads %j as history: %s', (line, history) => {
    expect(HISTORY.test(line)).toBe(history);
  });
});
