/**
 * The firm's time zone in the sandboxes: America/Los_Angeles, with daylight saving as the zone's rules say (read
 * through `Intl`, never a fixed offset), so that a November afternoon is `-08:00` and a July one `-07:00` in every
 * emulator's own format (an ISO offset, Slack's `tz_offset` seconds).
 */

export const FIRM_ZONE = 'America/Los_Angeles';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    formatters.set(zone, found);
  }
  return found;
}

/** The zone's offset from UTC at an instant, in minutes (−480 for Pacific standard time). */
export function zoneOffsetMinutes(instant: number | Date, zone: string = FIRM_ZONE): number {
  const name = formatter(zone)
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** An offset in minutes written as ISO 8601 does: −480 → `-08:00`. */
export function isoOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The offset of a wall-clock time in the zone (`2025-11-08`, `09:30`): the offset in force at that local time. A
 * time skipped by the spring change takes the offset after it; one repeated in autumn, the first (daylight) one.
 */
export function localOffsetMinutes(date: string, time = '12:00', zone: string = FIRM_ZONE): number {
  const wall = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}Z`);
  // The offsets in force a day either side: the wall time is valid with those of them that map it back to itself.
  const around = [...new Set([zoneOffsetMinutes(wall - DAY_MS, zone), zoneOffsetMinutes(wall + DAY_MS, zone)])];
  const valid = around.filter((offset) => zoneOffsetMinutes(wall - offset * MINUTE_MS, zone) === offset);
  // Repeated (both valid): the first, daylight one, the larger. Skipped (none): the offset after the change.
  if (valid.length > 0) return Math.max(...valid);
  return zoneOffsetMinutes(wall + DAY_MS, zone);
}

/**
 * A wall-clock time in the zone as an ISO timestamp with its offset: (`2025-11-08`, `09:30`) →
 * `2025-11-08T09:30:00-08:00`; with `millis`, `2025-11-08T09:30:00.000-08:00`.
 */
export function zonedTimestamp(date: string, time = '12:00', options: { millis?: boolean; zone?: string } = {}): string {
  const full = time.length === 5 ? `${time}:00` : time.slice(0, 8);
  const ms = options.millis ? `.${(time.split('.')[1] ?? '000').padEnd(3, '0').slice(0, 3)}` : '';
  return `${date}T${full}${ms}${isoOffset(localOffsetMinutes(date, full, options.zone))}`;
}

/** An instant as the zone's wall time with its offset: `2025-11-08T17:30:00Z` → `2025-11-08T09:30:00-08:00`. */
export function toZoned(instant: number | Date, options: { millis?: boolean; zone?: string } = {}): string {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const offset = zoneOffsetMinutes(ms, options.zone);
  const local = new Date(ms + offset * MINUTE_MS).toISOString();
  return `${local.slice(0, options.millis ? 23 : 19)}${isoOffset(offset)}`;
}

/** The zone's date (YYYY-MM-DD) at an instant. */
export function zonedDate(instant: number | Date, zone: string = FIRM_ZONE): string {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  return new Date(ms + zoneOffsetMinutes(ms, zone) * MINUTE_MS).toISOString().slice(0, 10);
}

const OFFSET_STAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(\.\d+)?([+-]\d{2}:\d{2})$/;

/**
 * A timestamp written in the zone's local time whose offset may be wrong for its date (a seed written in July with
 * `-07:00` moved into November) with the offset the zone has at that wall time. Other timestamps (UTC, `Z`, another
 * zone's offsets) and plain dates are returned as they are.
 */
export function reoffsetLocal(value: string, zone: string = FIRM_ZONE): string {
  const match = OFFSET_STAMP.exec(value);
  if (!match) return value;
  const [, date, time, fraction = '', offset] = match as unknown as [string, string, string, string | undefined, string];
  const standard = isoOffset(localOffsetMinutes(`${date.slice(0, 4)}-01-15`, '12:00', zone));
  const daylight = isoOffset(localOffsetMinutes(`${date.slice(0, 4)}-07-15`, '12:00', zone));
  if (offset !== standard && offset !== daylight) return value;
  return `${date}T${time}${fraction}${isoOffset(localOffsetMinutes(date as string, time as string, zone))}`;
}
