import { describe, expect, it } from 'vitest';
import { localOffsetMinutes, reoffsetLocal, toZoned, zonedDate, zonedTimestamp, zoneOffsetMinutes } from './zone.js';

describe('the firm’s zone, America/Los_Angeles', () => {
  it('is daylight time in summer and standard time after the first Sunday of November', () => {
    expect(zonedTimestamp('2025-07-04', '09:30')).toBe('2025-07-04T09:30:00-07:00');
    expect(zonedTimestamp('2025-11-01', '09:30')).toBe('2025-11-01T09:30:00-07:00');
    expect(zonedTimestamp('2025-11-03', '09:30')).toBe('2025-11-03T09:30:00-08:00');
    expect(zonedTimestamp('2026-11-29', '16:42:10', { millis: true })).toBe('2026-11-29T16:42:10.000-08:00');
    // the changes themselves: 02:30 does not exist on the spring day, and 01:30 comes twice in autumn
    expect(localOffsetMinutes('2025-03-09', '01:59')).toBe(-480);
    expect(localOffsetMinutes('2025-03-09', '03:00')).toBe(-420);
    expect(localOffsetMinutes('2025-11-02', '00:30')).toBe(-420);
    expect(localOffsetMinutes('2025-11-02', '03:00')).toBe(-480);
  });

  it('reads an instant as the zone’s wall time, date and offset', () => {
    expect(zoneOffsetMinutes(Date.parse('2025-01-15T12:00:00Z'))).toBe(-480);
    expect(toZoned(Date.parse('2025-11-08T17:30:00Z'))).toBe('2025-11-08T09:30:00-08:00');
    expect(toZoned(Date.parse('2025-06-08T17:30:00.250Z'), { millis: true })).toBe('2025-06-08T10:30:00.250-07:00');
    // 03:00 UTC on the 29th is still the evening of the 28th in San Francisco
    expect(zonedDate(Date.parse('2026-11-29T03:00:00Z'))).toBe('2026-11-28');
  });

  it('gives a local time the offset of its date, and leaves other times alone', () => {
    expect(reoffsetLocal('2025-11-20T09:00:00-07:00')).toBe('2025-11-20T09:00:00-08:00');
    expect(reoffsetLocal('2025-07-20T09:00:00.123-08:00')).toBe('2025-07-20T09:00:00.123-07:00');
    expect(reoffsetLocal('2025-11-20T09:00:00+00:00')).toBe('2025-11-20T09:00:00+00:00');
    expect(reoffsetLocal('2025-11-20T09:00:00Z')).toBe('2025-11-20T09:00:00Z');
    expect(reoffsetLocal('2025-11-20T09:00:00-05:00')).toBe('2025-11-20T09:00:00-05:00');
    expect(reoffsetLocal('2025-11-20')).toBe('2025-11-20');
  });
});
