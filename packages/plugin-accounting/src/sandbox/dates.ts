import { sandboxToday, shiftFromAuthored } from '@portico/core/testing/emulator';
import { invalidParameter } from './errors.js';

// The sandbox's calendar: the seeded books are written as six months (January to June 2025) ending on AUTHORED_TODAY,
// and every seeded date is moved to end on the shared sandbox clock's today (seedCompany), so date macros ("This
// Month", "Last Fiscal Quarter"…), aging and "overdue" are relative to the real date (or PORTICO_SANDBOX_TODAY).

/** The day the seeded books were written against: with the clock pinned to it, every seeded date is as written. */
export const AUTHORED_TODAY = '2025-06-30';

/** The sandbox's today (the shared sandbox clock). */
export function today(): string {
  return sandboxToday();
}

/** A date or timestamp of the seeded books, moved from the authored calendar to the sandbox clock. */
export function fromAuthored(value: string): string {
  return shiftFromAuthored(AUTHORED_TODAY)(value);
}
/** The company's fiscal (and tax) year starts in January. */
export const FISCAL_YEAR_START_MONTH = 1;

export interface Period {
  start: string;
  end: string;
}

const DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}

export function isValidDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

const ymd = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
const parts = (date: string) => date.split('-').map(Number) as [number, number, number];

function monthOf(date: string, shift = 0): Period {
  const [y, m] = parts(date);
  return { start: ymd(y, m + shift, 1), end: ymd(y, m + shift + 1, 0) };
}

function quarterOf(date: string, shift = 0): Period {
  const [y, m] = parts(date);
  const first = Math.floor((m - 1) / 3) * 3 + 1 + shift * 3;
  return { start: ymd(y, first, 1), end: ymd(y, first + 3, 0) };
}

function yearOf(date: string, shift = 0): Period {
  const [y] = parts(date);
  return { start: ymd(y + shift, FISCAL_YEAR_START_MONTH, 1), end: ymd(y + shift + 1, FISCAL_YEAR_START_MONTH, 0) };
}

function weekOf(date: string, shift = 0): Period {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  const start = addDays(date, -day + shift * 7);
  return { start, end: addDays(start, 6) };
}

const toDate = (period: Period, today: string): Period => ({ start: period.start, end: today });

/** QuickBooks' `date_macro` values (case-insensitive), relative to the sandbox's today. */
const MACROS: Record<string, (today: string) => Period> = {
  today: (t) => ({ start: t, end: t }),
  yesterday: (t) => ({ start: addDays(t, -1), end: addDays(t, -1) }),
  'this week': (t) => weekOf(t),
  'this week-to-date': (t) => toDate(weekOf(t), t),
  'last week': (t) => weekOf(t, -1),
  'last week-to-date': (t) => ({ start: weekOf(t, -1).start, end: addDays(t, -7) }),
  'next week': (t) => weekOf(t, 1),
  'this month': (t) => monthOf(t),
  'this month-to-date': (t) => toDate(monthOf(t), t),
  'last month': (t) => monthOf(t, -1),
  'last month-to-date': (t) => ({ start: monthOf(t, -1).start, end: addDays(t, -30) }),
  'next month': (t) => monthOf(t, 1),
  'this fiscal quarter': (t) => quarterOf(t),
  'this fiscal quarter-to-date': (t) => toDate(quarterOf(t), t),
  'last fiscal quarter': (t) => quarterOf(t, -1),
  'next fiscal quarter': (t) => quarterOf(t, 1),
  'this fiscal year': (t) => yearOf(t),
  'this fiscal year-to-date': (t) => toDate(yearOf(t), t),
  'last fiscal year': (t) => yearOf(t, -1),
  'next fiscal year': (t) => yearOf(t, 1),
  'this calendar quarter': (t) => quarterOf(t),
  'this calendar quarter-to-date': (t) => toDate(quarterOf(t), t),
  'last calendar quarter': (t) => quarterOf(t, -1),
  'this calendar year': (t) => yearOf(t),
  'this calendar year-to-date': (t) => toDate(yearOf(t), t),
  'last calendar year': (t) => yearOf(t, -1),
  'last year': (t) => yearOf(t, -1),
  'last year-to-date': (t) => ({ start: yearOf(t, -1).start, end: addDays(t, -365) }),
  'all dates': (t) => ({ start: fromAuthored('2025-01-01'), end: t }),
};

export function dateMacro(name: string, on = today()): Period | undefined {
  return MACROS[name.trim().toLowerCase()]?.(on);
}

/**
 * The period of a report request: `start_date`/`end_date` win, then `date_macro`, then the report's default macro.
 * A date that is not a real YYYY-MM-DD, or an unknown macro, is a Fault as on QuickBooks.
 */
export function reportPeriod(query: URLSearchParams, defaultMacro: string): Period & { macro?: string } {
  for (const name of ['start_date', 'end_date']) {
    const value = query.get(name);
    if (value !== null && !isValidDate(value)) throw invalidParameter(name, `"${value}" is not a date in yyyy-MM-dd format`);
  }
  const macroName = query.get('date_macro');
  const macro = macroName === null ? undefined : dateMacro(macroName);
  if (macroName !== null && !macro) throw invalidParameter('date_macro', `"${macroName}" is not a supported date macro`);
  const fallback = macro ?? (dateMacro(defaultMacro) as Period);
  const start = query.get('start_date') ?? fallback.start;
  const end = query.get('end_date') ?? fallback.end;
  if (start > end) throw invalidParameter('start_date', `start_date ${start} is after end_date ${end}`);
  const explicit = query.get('start_date') !== null || query.get('end_date') !== null;
  return { start, end, ...(explicit ? {} : { macro: (macroName ?? defaultMacro).toLowerCase() }) };
}

/** Column periods of `summarize_column_by` Month/Quarter/Year/Week/Days within a report period. */
export function splitPeriod(period: Period, by: 'Month' | 'Quarter' | 'Year' | 'Week' | 'Days'): Period[] {
  const result: Period[] = [];
  let cursor = period.start;
  while (cursor <= period.end) {
    const unit =
      by === 'Month'
        ? monthOf(cursor)
        : by === 'Quarter'
          ? quarterOf(cursor)
          : by === 'Year'
            ? yearOf(cursor)
            : by === 'Week'
              ? weekOf(cursor)
              : { start: cursor, end: cursor };
    const end = [unit.end, period.end].sort()[0] as string;
    result.push({ start: cursor, end });
    cursor = addDays(end, 1);
  }
  return result;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A column title as QuickBooks writes it: "Jan 2025", "Jan - Mar, 2025", "Jan 1 - Jan 4, 2025", "2025". */
export function periodTitle(period: Period, by: string): string {
  const [y, m, d] = parts(period.start);
  const [, m2, d2] = parts(period.end);
  if (by === 'Month') return `${MONTHS[m - 1]} ${y}`;
  if (by === 'Year') return String(y);
  if (by === 'Quarter') return `${MONTHS[m - 1]} - ${MONTHS[m2 - 1]}, ${y}`;
  if (by === 'Days') return `${MONTHS[m - 1]} ${d}, ${y}`;
  return `${MONTHS[m - 1]} ${d} - ${MONTHS[m2 - 1]} ${d2}, ${y}`;
}
