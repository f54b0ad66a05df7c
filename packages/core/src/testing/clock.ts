/**
 * The sandbox clock: the one "today" every plugin's sandbox seeds its data around, so that "yesterday's calls",
 * "overdue today" and "due in 10 days" mean the same day in all of them.
 *
 * Today is the real date in the firm's zone (America/Los_Angeles) when a sandbox starts (or is reset with `POST /__sandbox/reset`, which re-anchors it).
 * It can be pinned: `PORTICO_SANDBOX_TODAY=YYYY-MM-DD` in the environment (for a demo on a chosen day), or
 * {@link pinSandboxClock} in a test that asserts fixed dates. A pin in code wins over the environment.
 *
 * Seeds write their dates relative to it: {@link daysFromToday} (`daysFromToday(-3)` is three days ago) for new
 * records, {@link shiftFromAuthored} for data written against a fixed day (every date moves by the same number of days,
 * so the spacing the data was written with is kept). What the story says happened today (this morning's calls, leads
 * and posts) is never after now: {@link storyInstant}.
 */

import { localOffsetMinutes, reoffsetLocal, toZoned, zonedDate, zonedTimestamp } from './zone.js';

export const SANDBOX_TODAY_ENV = 'PORTICO_SANDBOX_TODAY';

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

let pinned: string | undefined;
let anchor: string | undefined;
/** The now the story's today was placed against (storyInstant): taken once a day, or again when a test pins the clock. */
let storyClock: { day: string; now: number } | undefined;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))).toISOString().slice(0, 10) === text;
}

function checked(date: string, source: string): string {
  if (!isIsoDate(date)) throw new Error(`${source} must be a date written YYYY-MM-DD; got "${date}"`);
  return date;
}

/** The day the clock would anchor to now: the pin, else `PORTICO_SANDBOX_TODAY`, else the real date in the firm's zone. */
function currentDay(): string {
  if (pinned) return pinned;
  const fromEnv = process.env[SANDBOX_TODAY_ENV]?.trim();
  if (fromEnv) return checked(fromEnv, SANDBOX_TODAY_ENV);
  return zonedDate(Date.now());
}

/**
 * The sandbox's now (milliseconds since the epoch): the real time of day in the firm's zone, on the sandbox's today,
 * moving with the process. Emulators stamp writes with it, never earlier than what they seeded (see their clocks).
 */
export function sandboxNow(): number {
  const real = Date.now();
  const moved = daysBetween(zonedDate(real), sandboxToday());
  return real + moved * DAY_MS;
}

/**
 * Pins the clock to a fixed day (a test that asserts fixed dates), or unpins it with no argument. Re-anchors at once,
 * and places the story's today again (storyInstant).
 * Pinning is per process (per test file under vitest).
 */
export function pinSandboxClock(date?: string): void {
  pinned = date === undefined ? undefined : checked(date, 'pinSandboxClock');
  anchor = currentDay();
  storyClock = undefined;
}

/** Whether a test pinned the clock to a day (pinSandboxClock): the sandboxes then reproduce that day exactly. */
export function sandboxClockPinned(): boolean {
  return pinned !== undefined;
}

/** Re-reads the day (pin, environment, real date): at each sandbox start and reset. Returns the new today. */
export function anchorSandboxClock(): string {
  anchor = currentDay();
  return anchor;
}

/** The sandbox's today, YYYY-MM-DD (anchored on first use). */
export function sandboxToday(): string {
  anchor ??= currentDay();
  return anchor;
}

/** `date` moved by `days` (negative: earlier). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The day `days` from the sandbox's today: `daysFromToday(-1)` is yesterday, `daysFromToday(10)` ten days ahead. */
export function daysFromToday(days: number): string {
  return addDays(sandboxToday(), days);
}

/**
 * For data written against a fixed day (`authoredToday`): a function that moves a date or timestamp
 * (`2024-11-08`, `2024-11-08 15:30`, `2024-11-08T15:30:00-08:00`) by as many days as the sandbox's today is from
 * `authoredToday`, leaving its time of day alone; a local time of the firm's zone takes the offset its new date has
 * there (daylight or standard time). With the clock pinned to `authoredToday` only such offsets change.
 */
export function shiftFromAuthored(authoredToday: string): (value: string) => string {
  const offset = daysBetween(checked(authoredToday, 'authoredToday'), sandboxToday());
  // A time written in the firm's local time keeps its wall time and takes the offset of its new date.
  return (value) =>
    !isIsoDate(value.slice(0, 10))
      ? value
      : reoffsetLocal(offset === 0 ? value : `${addDays(value.slice(0, 10), offset)}${value.slice(10)}`);
}

/** A timestamp (ISO, UTC) on the day `days` from today at `time` (`HH:MM`, UTC). */
export function timestampFromToday(days: number, time = '12:00'): string {
  return `${daysFromToday(days)}T${time}:00.000Z`;
}

/**
 * The story's today is a morning: everything the firm's story says happened today (calls, texts, new leads, posts in
 * #intake) happened before this time of day in the firm's zone.
 */
export const STORY_MORNING_ENDS = '10:00';

/**
 * The one rule for "today at HH:MM" in every sandbox: where a moment the story says happened (milliseconds) lies. On
 * any other day than the sandbox's today, as written. Today, never after now: once the firm's morning is over
 * ({@link STORY_MORNING_ENDS}) a moment still to come is placed at now; before then, the morning so far is all there is,
 * so today's moments up to then are drawn closer to midnight in proportion (at 02:00, this morning's 07:58 voicemail
 * came in at 01:35 and the 06:52 lead at 01:22). Today's moments keep their day and their order, the latest still the
 * most recent. Scheduled moments (a hearing this afternoon) must not be passed here. With the day pinned (a test that
 * replays it as written), every moment is as written.
 */
export function storyInstant(instant: number): number {
  const today = sandboxToday();
  if (pinned || zonedDate(instant) !== today) return instant;
  // one now per day for the whole process, so that every sandbox (and each reset) places the story alike
  if (storyClock?.day !== today) storyClock = { day: today, now: sandboxNow() };
  const { now } = storyClock;
  const midnight = Date.parse(zonedTimestamp(today, '00:00'));
  const morning = Date.parse(zonedTimestamp(today, STORY_MORNING_ENDS)) - midnight;
  const placed = now - midnight >= morning ? instant : midnight + Math.floor(((instant - midnight) * (now - midnight)) / morning);
  // in whole seconds, as every application writes its timestamps
  return Math.floor(Math.min(placed, now) / 1000) * 1000;
}

const STAMP = /^(\d{4}-\d{2}-\d{2})([T ])(\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * {@link storyInstant} for a timestamp written as seeds write them (`2024-11-08 07:58` in the firm's local time,
 * `2024-11-08T07:58:32.000-08:00`, `…Z`, `…+00:00`), returned in the same form. Plain dates are returned as they are.
 */
export function storyTimestamp(value: string): string {
  const match = STAMP.exec(value);
  if (!match) return value;
  const [, date, sep, time, fraction = '', zone = ''] = match as unknown as [string, string, string, string, string?, string?];
  const wall = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${fraction}Z`);
  const offset =
    zone === ''
      ? localOffsetMinutes(date, time)
      : zone === 'Z'
        ? 0
        : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  const instant = wall - offset * 60_000;
  const placed = storyInstant(instant);
  if (placed === instant) return value;
  if (zone === '') {
    const local = toZoned(placed, { millis: true });
    return `${local.slice(0, 10)}${sep}${local.slice(11, 11 + time.length)}${fraction ? local.slice(19, 19 + fraction.length) : ''}`;
  }
  const digits = fraction ? Math.min(fraction.length - 1, 3) : 0;
  const iso = (at: number) => new Date(at).toISOString().slice(0, digits ? 20 + digits : 19);
  // a local time of the firm's zone takes the offset of its new moment; UTC and other offsets keep theirs
  if (zone === 'Z') return `${iso(placed)}Z`;
  return offset === localOffsetMinutes(date, time) ? toZoned(placed, { millis: digits > 0 }) : `${iso(placed + offset * 60_000)}${zone}`;
}

/** Keys of seeded timestamps that say when something happened (not when something is due or scheduled). */
const HAPPENED = /^(created_at|updated_at|received_at|happened_at|date_of_last_contact|sent_at|last_message_at|start_time)$/;

const DATED = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Moves every date and timestamp string inside a seeded value (objects, arrays, Maps; in place) from the calendar it
 * was written against (`authoredToday`) onto the sandbox clock, keeping their spacing: a seed written as "due
 * 2024-11-19, today 2024-11-15" becomes "due in four days". The timestamps that say when something happened
 * (`created_at`, `received_at`, `happened_at`…) and fall today then follow {@link storyTimestamp}. Returns the value.
 */
export function shiftSeededDates<T>(value: T, authoredToday: string): T {
  const shift = shiftFromAuthored(authoredToday);
  const seen = new WeakSet<object>();
  const moved = (item: unknown): unknown => {
    if (typeof item === 'string') return DATED.test(item) ? shift(item) : item;
    walk(item);
    return item;
  };
  const walk = (item: unknown): void => {
    if (!item || typeof item !== 'object' || seen.has(item)) return;
    seen.add(item);
    if (item instanceof Map) for (const [key, entry] of item) item.set(key, moved(entry));
    else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) item[i] = moved(item[i]);
    } else if (Object.getPrototypeOf(item) === Object.prototype) {
      const record = item as Record<string, unknown>;
      for (const [key, entry] of Object.entries(record)) {
        record[key] = moved(entry);
        if (HAPPENED.test(key) && typeof record[key] === 'string') record[key] = storyTimestamp(record[key] as string);
      }
    }
  };
  walk(value);
  return value;
}
