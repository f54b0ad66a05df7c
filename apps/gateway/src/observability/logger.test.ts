import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { accessLogger, childLogger, createLogger } from './logger.js';

/** The lines written to a stream, parsed, once pino and the access line have written them. */
function capture() {
  const stream = new PassThrough();
  const text: string[] = [];
  stream.on('data', (chunk: Buffer) => text.push(chunk.toString('utf8')));
  return { stream, lines: () => text.join('').split('\n').filter(Boolean) };
}

const FIELDS = {
  requestId: 'req-1',
  traceId: 'a'.repeat(32),
  method: 'GET',
  path: '/api/v1/notion/pages/"quoted"\\back\u0001slash',
  status: 200,
  client: '127.0.0.1',
  ms: 1.5,
  keyId: undefined,
  service: 'notion',
  operation: undefined,
};

describe('the access line', () => {
  it('is the line pino writes for the same fields: same keys in the same order, strings escaped, undefined left out', () => {
    const ours = capture();
    accessLogger(createLogger('info', ours.stream)).info(FIELDS, 'request');
    const theirs = capture();
    pino({ level: 'info', base: { app: 'portico' } }, theirs.stream).info(FIELDS, 'request');
    const [line] = ours.lines();
    const [reference] = theirs.lines();
    const withoutTime = (text: string | undefined) => text?.replace(/"time":\d+/, '"time":0');
    expect(withoutTime(line)).toBe(withoutTime(reference));
    expect(JSON.parse(line ?? '')).toMatchObject({ level: 30, app: 'portico', path: FIELDS.path, status: 200, msg: 'request' });
  });

  it('of a worker’s child logger is pino’s child line too: its bindings after `app`, then the fields', () => {
    const ours = capture();
    const child = childLogger(createLogger('info', ours.stream), { worker: 2, pid: 4321, role: 'wor"ker' });
    accessLogger(child).info(FIELDS, 'request');
    child.info({ note: 'pino line' }, 'other');
    const theirs = capture();
    pino({ level: 'info', base: { app: 'portico' } }, theirs.stream)
      .child({ worker: 2, pid: 4321, role: 'wor"ker' })
      .info(FIELDS, 'request');
    const withoutTime = (text: string | undefined) => text?.replace(/"time":\d+/, '"time":0');
    const [line, other] = ours.lines();
    expect(withoutTime(line)).toBe(withoutTime(theirs.lines()[0]));
    // hand-built, not pino's: the child's access logger is not the child itself
    expect(accessLogger(child)).not.toBe(child);
    expect(JSON.parse(other ?? '')).toMatchObject({ worker: 2, pid: 4321, note: 'pino line', msg: 'other' });
  });

  it('of a child bound to a redacted name is pino’s own, redacted', () => {
    const ours = capture();
    const child = childLogger(createLogger('info', ours.stream), { token: 'secret-value' });
    expect(accessLogger(child)).toBe(child);
    accessLogger(child).info(FIELDS, 'request');
    expect(ours.lines()[0]).not.toContain('secret-value');
    expect(JSON.parse(ours.lines()[0] ?? '')).toMatchObject({ token: '[redacted]', status: 200 });
  });

  it('follows the logger’s level: nothing at warn, a line again once the level is info', () => {
    const { stream, lines } = capture();
    const logger = createLogger('warn', stream);
    const access = accessLogger(logger);
    access.info(FIELDS, 'request');
    expect(lines()).toEqual([]);
    logger.level = 'info';
    access.info(FIELDS, 'request');
    expect(lines()).toHaveLength(1);
  });
});

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
