import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import { DatabaseOutage, isDatabaseDown, OUTAGE_LOG_INTERVAL_MS } from './outage.js';

/** Degraded mode's rules, on a clock the test moves (the gateway against a real PostgreSQL cut off: degraded-postgres.e2e.test.ts). */
function recordingLogger(): { logger: Logger; lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> } {
  const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => lines.push({ level, msg, fields });
  const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  return { logger, lines };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('isDatabaseDown', () => {
  it('recognises a database that does not answer, and leaves every other failure alone', () => {
    expect(isDatabaseDown(refused)).toBe(true);
    expect(isDatabaseDown(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseDown(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseDown(new Error('wrapped', { cause: refused }))).toBe(true);
    expect(isDatabaseDown(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }))).toBe(false);
    expect(isDatabaseDown(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });
});

describe('DatabaseOutage', () => {
  it('answers from memory for the grace after the first failure, then 503 unavailable with Retry-After', async () => {
    let now = 1_000_000;
    const outage = new DatabaseOutage(30_000, undefined, () => now);
    const fail = () => Promise.reject(refused);
    expect(
      await outage.read(
        'key',
        () => Promise.resolve('fresh'),
        () => ({ value: 'old' }),
      ),
    ).toBe('fresh');
    expect(await outage.read('key', fail, () => ({ value: 'old' }))).toBe('old');
    expect(outage.since).toBe(now);
    const unknown = await outage.read('key', fail, () => undefined).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(GatewayError);
    expect(unknown).toMatchObject({ code: 'unavailable', status: 503, retryAfter: 5 });
    now += 29_000;
    expect(await outage.read('key', fail, () => ({ value: 'old' }))).toBe('old');
    now += 2_000;
    await expect(outage.read('key', fail, () => ({ value: 'old' }))).rejects.toMatchObject({ code: 'unavailable' });
    expect(
      await outage.read(
        'key',
        () => Promise.resolve('fresh'),
        () => ({ value: 'old' }),
      ),
    ).toBe('fresh');
    expect(outage.since).toBeUndefined();
  });

  it('while down, asks the database once a second and answers from memory in between', async () => {
    let now = 0;
    const outage = new DatabaseOutage(60_000, undefined, () => now);
    let asked = 0;
    const fail = () => {
      asked++;
      return Promise.reject(refused);
    };
    await outage.read('key', fail, () => ({ value: 1 }));
    for (let i = 0; i < 100; i++) {
      now += 50;
      expect(await outage.read('key', fail, () => ({ value: 1 }))).toBe(1);
    }
    expect(asked).toBeLessThanOrEqual(6); // 5 s of calls every 50 ms
  });

  it('throws other failures as they are: a bug stays a bug', async () => {
    const outage = new DatabaseOutage(60_000);
    const bug = new TypeError('not a function');
    await expect(
      outage.read(
        'key',
        () => Promise.reject(bug),
        () => ({ value: 1 }),
      ),
    ).rejects.toBe(bug);
    expect(outage.since).toBeUndefined();
  });

  it('logs one line per kind per interval, counting those not logged, and one line at each end', async () => {
    let now = 0;
    const { logger, lines } = recordingLogger();
    const outage = new DatabaseOutage(600_000, logger, () => now);
    for (let i = 0; i < 1_100; i++) {
      now += 10;
      await outage
        .read(
          i % 2 ? 'api key lookup' : 'integration settings lookup',
          () => Promise.reject(refused),
          () => undefined,
        )
        .catch(() => {});
    }
    // 1,100 failures in 11 s, two kinds: the start, then one line per kind per interval
    expect(now).toBeGreaterThan(OUTAGE_LOG_INTERVAL_MS);
    expect(lines.map((l) => l.msg)).toEqual([
      'the database does not answer: serving known keys, tokens and settings from memory (degraded mode)',
      'database unavailable',
      'database unavailable',
      'database unavailable',
      'database unavailable',
    ]);
    expect(lines[3]?.fields.notLogged).toBeGreaterThan(0);
    outage.up();
    expect(lines.at(-1)?.msg).toBe('the database answers again: degraded mode ends');
  });
});
