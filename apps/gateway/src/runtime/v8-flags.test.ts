import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRETENURING_OFF, pretenuringFlag } from './v8-flags.js';

describe('V8 flags of a portico process', () => {
  it('turns allocation-site pretenuring off unless node’s command line names it, in either spelling', () => {
    expect(pretenuringFlag([])).toBe(PRETENURING_OFF);
    expect(pretenuringFlag(['--max-old-space-size=512', '--enable-source-maps'])).toBe(PRETENURING_OFF);
    expect(pretenuringFlag(['--allocation-site-pretenuring'])).toBeUndefined();
    expect(pretenuringFlag(['--no-allocation_site_pretenuring'])).toBeUndefined();
  });

  it('the built CLI still starts and answers with the flag set (V8 accepts it at run time)', () => {
    const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
    const run = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\d+\.\d+\.\d+/);
    expect(run.stderr).not.toMatch(/unknown flag|Error/i);
  });
});
