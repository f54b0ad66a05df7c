import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * The published types of @portico/core and @portico/gateway compile for a TypeScript user (strict, nodenext,
 * skipLibCheck false) when both are installed from their tarballs with npm outside the workspace:
 * scripts/check-consumer-types.mjs. It needs the packages built and the npm registry; it skips, saying why, otherwise.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const built = ['packages/core/dist/index.d.ts', 'apps/gateway/dist/index.d.ts'].every((file) => existsSync(join(ROOT, file)));

it.skipIf(!built)(
  'core and gateway types compile for a consumer installing the tarballs with npm',
  () => {
    const output = execFileSync(process.execPath, [join(ROOT, 'scripts/check-consumer-types.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (output.includes('skipped')) console.log(output.trim());
    expect(output).toMatch(/check-consumer-types: (ok|skipped)/);
  },
  120_000,
);
