import { addDays, sandboxToday } from '@portico/core/testing/emulator';

export { addDays };

/**
 * The sandbox's "today" is the shared sandbox clock's (@portico/core/testing: the real date at start or reset, or
 * `PORTICO_SANDBOX_TODAY`): its seeded calls, named periods (last_30_days…) and the retention window follow it.
 */
export function today(): string {
  return sandboxToday();
}

/** CallRail keeps communication records for 25 months; older start dates are refused. */
export function retentionStart(): string {
  return addMonths(today(), -25);
}

export function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function monthEnd(date: string): string {
  return addDays(addMonths(monthStart(date), 1), -1);
}

/** Monday of the ISO week of `date`. */
export function weekStart(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

export interface DateWindow {
  from: string;
  to: string;
}

/** Inclusive local-date window of a CallRail named period, relative to today. */
export function namedRange(name: string): DateWindow | undefined {
  const TODAY = today();
  const year = Number(TODAY.slice(0, 4));
  switch (name) {
    case 'today':
      return { from: TODAY, to: TODAY };
    case 'yesterday':
      return { from: addDays(TODAY, -1), to: addDays(TODAY, -1) };
    case 'last_7_days':
      return { from: addDays(TODAY, -6), to: TODAY };
    case 'recent':
    case 'last_30_days':
      return { from: addDays(TODAY, -29), to: TODAY };
    case 'this_month':
      return { from: monthStart(TODAY), to: TODAY };
    case 'last_month': {
      const start = addMonths(monthStart(TODAY), -1);
      return { from: start, to: monthEnd(start) };
    }
    case 'this_year':
      return { from: `${year}-01-01`, to: TODAY };
    case 'last_year':
      return { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
    case 'all_time':
      return { from: retentionStart(), to: TODAY };
    default:
      return undefined;
  }
}

/** `2025-06-14T10:32:05-04:00` → `2025-06-14` (timestamps are stored in the company's local time). */
export function localDate(timestamp: string): string {
  return timestamp.slice(0, 10);
}
