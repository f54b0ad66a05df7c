// Signatures are verified by `jose`, never by hand: no shipped source of the repository (tests and test support aside,
// which sign forgeries on purpose) verifies a signature with node:crypto or WebCrypto itself.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const RULES: ReadonlyArray<[string, RegExp]> = [
  ['imports verify or createVerify from node:crypto', /import\s*\{[^}]*\b(verify|createVerify)\b[^}]*\}\s*from\s*'(node:)?crypto'/],
  ['calls crypto.verify or createVerify', /\b(crypto\.verify|createVerify)\s*\(/],
  ['verifies with WebCrypto', /\bsubtle\s*\.\s*verify\s*\(/],
];

/** What a source text does that hand-written verification would. */
function handWritten(text: string): string[] {
  return RULES.filter(([, rule]) => rule.test(text)).map(([why]) => why);
}

const isShipped = (path: string) =>
  /^(packages|apps)\/[^/]+\/src\/.*\.(ts|mts|mjs|js)$/.test(path) && !/\.test(-support)?\.(ts|mjs)$/.test(path);

describe('signature verification', () => {
  it('tells hand-written verification from jose', () => {
    expect(handWritten("import { createPublicKey, verify } from 'node:crypto';")).toHaveLength(1);
    expect(handWritten("import { createVerify } from 'crypto';\nconst v = createVerify('sha256');")).toHaveLength(2);
    expect(handWritten('await crypto.subtle.verify(alg, key, signature, data);')).toHaveLength(1);
    expect(handWritten("import { compactVerify, jwtVerify } from 'jose';\nawait jwtVerify(token, key);")).toEqual([]);
  });

  it('is left to jose everywhere the gateway and its packages ship', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'packages', 'apps'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(isShipped);
    expect(files.length).toBeGreaterThan(100);
    const offending = files.flatMap((file) => handWritten(readFileSync(join(root, file), 'utf8')).map((why) => `${file}: ${why}`));
    expect(offending).toEqual([]);
  });
});
