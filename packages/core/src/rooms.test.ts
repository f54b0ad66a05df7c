import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Core stays in rooms of one job each: no source file grows past 400 lines (split it by responsibility instead). */
const SRC = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('packages/core/src', () => {
  it('has no source file over 400 lines', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(30);
    const large = files
      .map((file) => [file.slice(SRC.length), readFileSync(file, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 400);
    expect(large).toEqual([]);
  });
});
