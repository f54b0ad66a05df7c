// The built logger in a child process: what a reader of its stdout pipe sees, and when (the in-process lines: logger.test.ts).
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('stdout (the default destination)', () => {
  /**
   * A child process logging to its real stdout through the built logger: what a reader of that pipe sees, and when.
   * `script` runs with `logger` and `access` in scope.
   */
  function logInChild(script: string): {
    lines: () => string[];
    stderr: () => string;
    seenAt: Map<string, number>;
    exited: Promise<number | null>;
  } {
    const url = new URL('../../dist/observability/logger.js', import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { createLogger, accessLogger } = await import(${JSON.stringify(url)});
        const logger = createLogger('info'); const access = accessLogger(logger); ${script}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let text = '';
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    const seenAt = new Map<string, number>();
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      for (const line of text.split('\n').filter(Boolean)) {
        const { msg } = JSON.parse(line) as { msg: string };
        if (!seenAt.has(msg)) seenAt.set(msg, performance.now());
      }
    });
    return {
      lines: () => text.split('\n').filter(Boolean),
      stderr: () => errors,
      seenAt,
      exited: new Promise((resolve) => child.once('close', (code) => resolve(code))),
    };
  }

  it('access lines reach stdout while the process keeps running, not held until it exits', async () => {
    // 20 lines 5 ms apart (some written while an earlier write may be under way), then a quiet 3 s
    const run =
      logInChild(`let i = 0; const t = setInterval(() => { access.info({ i }, 'request ' + i); if (++i === 20) clearInterval(t); }, 5);
      setTimeout(() => {}, 3000);`);
    await run.exited;
    const exitedAt = performance.now();
    // A line held until the 4 KB fill or the exit would arrive with the exit; each arrived well before it.
    for (let i = 0; i < 20; i++) expect(exitedAt - (run.seenAt.get(`request ${i}`) ?? exitedAt)).toBeGreaterThan(1500);
  });

  it('a warning comes after the access lines written before it, and nothing is lost at exit', async () => {
    // 16 processes at once: with a batch still being written on the thread pool at the exit (an asynchronous stream),
    // the lines after it came out first in 2 to 6 of 16 such processes; one process alone rarely shows it
    const runs = Array.from({ length: 16 }, () =>
      logInChild(`for (let i = 0; i < 3; i++) access.info({ i }, 'request ' + i);
      logger.warn({ n: 1 }, 'a warning');
      for (let i = 3; i < 200; i++) access.info({ i }, 'request ' + i);
      process.exit(0);`),
    );
    for (const run of runs) {
      expect(await run.exited).toBe(0);
      const messages = run.lines().map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages).toHaveLength(201);
      expect(messages.slice(0, 4)).toEqual(['request 0', 'request 1', 'request 2', 'a warning']);
      expect(messages.at(-1)).toBe('request 199');
    }
  });

  it('many loggers in one process: the waiting lines of each are written at exit, with no listener warning', async () => {
    const run = logInChild(`for (let i = 0; i < 15; i++) accessLogger(createLogger('info')).info({ i }, 'logger ' + i);
      setTimeout(() => process.exit(0), 50);`);
    expect(await run.exited).toBe(0);
    const messages = run.lines().map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.sort()).toEqual(Array.from({ length: 15 }, (_, i) => `logger ${i}`).sort());
    expect(run.stderr()).not.toMatch(/MaxListenersExceeded/);
  });

  it('logger.flush() starts writing the waiting access lines, without waiting for the batch timer', async () => {
    // stdout a file the child reads back 30 ms after the flush: a line left for the 100 ms timer would not be in it yet
    const dir = mkdtempSync(join(tmpdir(), 'portico-log-'));
    const file = join(dir, 'stdout');
    const out = openSync(file, 'w');
    const url = new URL('../../dist/observability/logger.js', import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { readFileSync } = await import('node:fs');
        const { createLogger, accessLogger } = await import(${JSON.stringify(url)});
        const logger = createLogger('info');
        await new Promise((resolve) => setTimeout(resolve, 20));
        accessLogger(logger).info({ status: 200 }, 'flushed request');
        logger.flush();
        setTimeout(() => { process.stderr.write(readFileSync(${JSON.stringify(file)}, 'utf8')); process.exit(0); }, 30);`,
      ],
      { stdio: ['ignore', out, 'pipe'] },
    );
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
    });
    await new Promise((resolve) => child.once('close', resolve));
    closeSync(out);
    rmSync(dir, { recursive: true, force: true });
    expect(seen).toContain('"msg":"flushed request"');
  });
});
