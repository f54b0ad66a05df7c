import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRETENURING_OFF, pretenuringFlag, SEMI_SPACE_FLAG, startFlags } from './v8-flags.js';

describe('V8 flags of a portico process', () => {
  it('turns allocation-site pretenuring off unless node’s command line names it, in either spelling', () => {
    expect(pretenuringFlag([])).toBe(PRETENURING_OFF);
    expect(pretenuringFlag(['--max-old-space-size=512', '--enable-source-maps'])).toBe(PRETENURING_OFF);
    expect(pretenuringFlag(['--allocation-site-pretenuring'])).toBeUndefined();
    expect(pretenuringFlag(['--no-allocation_site_pretenuring'])).toBeUndefined();
  });

  it('starts a serving process with the young generation fixed at 16 MB a semi-space unless node’s command line sizes it', () => {
    expect(startFlags([])).toEqual([SEMI_SPACE_FLAG]);
    expect(startFlags(['--max-old-space-size=512'])).toEqual(['--min-semi-space-size=16']);
    expect(startFlags(['--max-semi-space-size=8'])).toEqual([]);
    expect(startFlags(['--min_semi_space_size=4'])).toEqual([]);
    // V8 takes the flag at start-up: the young generation holds 16 MB before any load (1 MB with the default)
    const script = "console.log(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)";
    const sized = spawnSync(process.execPath, [...startFlags([]), '-e', script], { encoding: 'utf8' });
    const plain = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(Number(sized.stdout)).toBeGreaterThanOrEqual(16 * 1024 * 1024);
    expect(Number(plain.stdout)).toBeLessThan(Number(sized.stdout));
  });

  it('the built CLI still starts and answers with the flag set (V8 accepts it at run time)', () => {
    const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
    const run = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\d+\.\d+\.\d+/);
    expect(run.stderr).not.toMatch(/unknown flag|Error/i);
  });
});
