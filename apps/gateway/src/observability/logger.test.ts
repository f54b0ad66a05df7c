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
