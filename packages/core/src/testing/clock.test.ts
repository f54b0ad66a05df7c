import { afterEach, describe, expect, it } from 'vitest';
import {
  addDays,
  anchorSandboxClock,
  daysFromToday,
  pinSandboxClock,
  SANDBOX_TODAY_ENV,
  sandboxNow,
  sandboxToday,
  shiftFromAuthored,
  shiftSeededDates,
} from './clock.js';
import { RESET_PATH, startEmulator, textReply } from './emulator.js';

afterEach(() => {
  delete process.env[SANDBOX_TODAY_ENV];
  pinSandboxClock();
});

describe('the sandbox clock', () => {
  it("is today's date in the firm's zone unless pinned, and its now moves with the process", () => {
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
    expect(anchorSandboxClock()).toBe(local);
    expect(daysFromToday(-1)).toBe(addDays(local, -1));
    const before = Date.now();
    expect(sandboxNow()).toBeGreaterThanOrEqual(before);
    // pinned to another day: the same time of day, on that day
    pinSandboxClock(addDays(local, -10));
    expect(Math.round((Date.now() - sandboxNow()) / 86_400_000)).toBe(10);
    pinSandboxClock();
  });

  it('takes PORTICO_SANDBOX_TODAY, and a pin in code over it', () => {
    process.env[SANDBOX_TODAY_ENV] = '2027-02-28';
    expect(anchorSandboxClock()).toBe('2027-02-28');
    expect(daysFromToday(1)).toBe('2027-03-01');
    pinSandboxClock('2025-06-15');
    expect(sandboxToday()).toBe('2025-06-15');
    pinSandboxClock();
    expect(sandboxToday()).toBe('2027-02-28');
  });

  it('refuses a day that is not a real YYYY-MM-DD', () => {
    process.env[SANDBOX_TODAY_ENV] = '2025-02-30';
    expect(() => anchorSandboxClock()).toThrow(/PORTICO_SANDBOX_TODAY must be a date written YYYY-MM-DD/);
    expect(() => pinSandboxClock('tomorrow')).toThrow(/YYYY-MM-DD/);
  });

  it('moves dates written against a fixed day by the distance to today, keeping time and offset', () => {
    pinSandboxClock('2026-11-26');
    const shift = shiftFromAuthored('2024-11-15');
    expect(shift('2024-11-14')).toBe('2026-11-25');
    expect(shift('2024-11-19T00:00:00.000-08:00')).toBe('2026-11-30T00:00:00.000-08:00');
    expect(shift('not a date')).toBe('not a date');
    const seeded = { due: '2024-11-05', nested: [{ at: '2024-11-15 09:30' }], map: new Map([['a', '2024-11-16']]), id: '20241115' };
    shiftSeededDates(seeded, '2024-11-15');
    expect(seeded).toEqual({
      due: '2026-11-16',
      nested: [{ at: '2026-11-26 09:30' }],
      map: new Map([['a', '2026-11-27']]),
      id: '20241115',
    });
  });

  it('re-anchors at every emulator start and reset, so a reset on a new day seeds around the new day', async () => {
    const seen: string[] = [];
    pinSandboxClock('2026-01-01');
    const emulator = await startEmulator({ token: 't', seed: () => seen.push(sandboxToday()), handle: () => textReply(204, '') });
    try {
      pinSandboxClock('2026-01-02');
      process.env[SANDBOX_TODAY_ENV] = '2026-03-04';
      pinSandboxClock();
      const reset = await fetch(`${emulator.origin}${RESET_PATH}`, { method: 'POST' });
      expect(reset.status).toBe(200);
      expect(seen).toEqual(['2026-01-01', '2026-03-04']);
    } finally {
      await emulator.close();
    }
  });
});
