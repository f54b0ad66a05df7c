import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `portico … | head`: a reader that closes the pipe early ends the output quietly — no EPIPE stack, the command's own
 * exit code. Runs the built CLI (`pnpm build` first).
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'apps/gateway/dist/bin.js');
const dir = mkdtempSync(join(tmpdir(), 'portico-closed-pipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the CLI with its stdout a pipe whose reader goes away: at once (`at: 'start'`, before anything is written), or
 * after the first chunk, as `head -n 1` does. Answers the exit code and what went to stderr.
 */
function run(args: string[], at: 'start' | 'first-chunk'): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  if (!existsSync(bin)) throw new Error('this test runs the built gateway: run `pnpm build` first');
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH, PORTICO_DATA_DIR: mkdtempSync(join(dir, 'data-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (at === 'start') child.stdout.destroy();
  else child.stdout.once('data', () => child.stdout.destroy());
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
}

describe('a CLI whose output pipe is closed early', () => {
  for (const args of [['env'], ['migrate', 'status', '--create'], ['audit', '--create']]) {
    for (const at of ['start', 'first-chunk'] as const) {
      it(`portico ${args.join(' ')}: exits 0 without an error or a stack (reader gone at ${at})`, async () => {
        const result = await run(args, at);
        // stderr keeps the command's own lines (a warning at --create), nothing about the pipe
        expect(result.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
        expect(result).toMatchObject({ code: 0, signal: null });
      });
    }
  }
});
