import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  anchorSandboxClock,
  pinSandboxClock,
  STORY_MORNING_ENDS,
  sandboxNow,
  sandboxToday,
  shiftSeededDates,
  storyInstant,
  storyTimestamp,
} from './clock.js';
import { zonedDate, zonedTimestamp } from './zone.js';

/** The process's clock set to a wall time in the firm's zone, and the sandbox clock anchored on it. */
function clockAt(date: string, time: string): number {
  vi.useFakeTimers({ toFake: ['Date'] });
  const now = Date.parse(zonedTimestamp(date, time));
  vi.setSystemTime(now);
  pinSandboxClock();
  expect(anchorSandboxClock()).toBe(date);
  return now;
}

afterEach(() => {
  vi.useRealTimers();
  pinSandboxClock();
  anchorSandboxClock();
});

const DAY = '2026-11-26';
const at = (time: string, date = DAY) => Date.parse(zonedTimestamp(date, time));
/** This morning's story, in the order it happened: a lead by the web form, two voicemails, a lead from the second. */
const MORNING = ['06:52', '07:41:05', '07:58:32', '08:05'];

describe('what the story says happened today is never after now', () => {
  it('early in the morning, today’s moments are drawn into the part of the day gone by: same day, same order', () => {
    const now = clockAt(DAY, '02:00');
    const placed = MORNING.map((time) => storyInstant(at(time)));
    for (const moment of placed) {
      expect(moment).toBeLessThanOrEqual(now);
      expect(zonedDate(moment)).toBe(DAY);
    }
    expect(placed).toEqual([...placed].sort((a, b) => a - b));
    expect(new Set(placed).size).toBe(placed.length);
    // the voicemail is still the latest call, and after yesterday's calls, which are as written
    const yesterday = at('16:42:10', '2026-11-25');
    expect(storyInstant(yesterday)).toBe(yesterday);
    expect(placed[2]).toBeGreaterThan(yesterday);
    // every sandbox seeded later that day (or reset) places the story alike
    vi.setSystemTime(now + 90_000);
    expect(MORNING.map((time) => storyInstant(at(time)))).toEqual(placed);
    // tomorrow's and later moments are not the story's past: left alone
    expect(storyInstant(at('09:00', '2026-11-27'))).toBe(at('09:00', '2026-11-27'));
  });

  it('one minute after midnight, this morning has happened within that minute, in order', () => {
    const now = clockAt(DAY, '00:01');
    const placed = MORNING.map((time) => storyInstant(at(time)));
    expect(placed.every((moment) => moment <= now && moment >= at('00:00'))).toBe(true);
    expect(placed).toEqual([...placed].sort((a, b) => a - b));
  });

  it('late in the evening, today’s moments are as written; during the day, one still to come is placed at now', () => {
    clockAt(DAY, '23:30');
    for (const time of [...MORNING, '16:30']) expect(storyInstant(at(time))).toBe(at(time));
    const noon = clockAt(DAY, '12:00');
    for (const time of MORNING) expect(storyInstant(at(time))).toBe(at(time));
    expect(storyInstant(at('16:30'))).toBe(noon);
    expect(sandboxNow()).toBe(noon);
    expect(STORY_MORNING_ENDS <= '12:00').toBe(true);
  });

  it('keeps the form a seed writes a timestamp in', () => {
    clockAt(DAY, '02:00');
    const local = storyTimestamp(`${DAY} 07:58`);
    expect(local).toMatch(/^2026-11-26 0[01]:\d{2}$/);
    const offset = storyTimestamp(`${DAY}T07:58:32.000-08:00`);
    expect(offset).toMatch(/^2026-11-26T0[01]:\d{2}:\d{2}\.\d{3}-08:00$/);
    const utc = storyTimestamp('2026-11-26T15:58:32Z');
    expect(utc).toMatch(/^2026-11-26T(08|09):\d{2}:\d{2}Z$/);
    expect(Date.parse(utc)).toBe(Date.parse(offset.replace(/\.\d{3}/, '')) - (Date.parse(offset.replace(/\.\d{3}/, '')) % 1000));
    expect(storyTimestamp('2026-11-26')).toBe('2026-11-26');
    expect(storyTimestamp('2026-11-25T16:42:10-08:00')).toBe('2026-11-25T16:42:10-08:00');
  });

  it('in a seed moved onto the clock, what happened today moves and what is scheduled today does not', () => {
    const now = clockAt(DAY, '02:00');
    const seeded = {
      lead: { created_at: '2024-11-15T08:05:00.000-08:00', updated_at: '2024-11-15T08:05:00.000-08:00' },
      hearing: { start_at: '2024-11-15T15:00:00-08:00', due_at: '2024-11-15T17:00:00-08:00' },
    };
    shiftSeededDates(seeded, '2024-11-15');
    expect(Date.parse(seeded.lead.created_at)).toBeLessThanOrEqual(now);
    expect(seeded.lead.created_at.slice(0, 10)).toBe(sandboxToday());
    expect(seeded.hearing).toEqual({ start_at: '2026-11-26T15:00:00-08:00', due_at: '2026-11-26T17:00:00-08:00' });
  });

  it('a test that pinned the day replays it as written', () => {
    clockAt(DAY, '02:00');
    pinSandboxClock(DAY);
    expect(storyInstant(at('07:58:32'))).toBe(at('07:58:32'));
  });
});
