import { badRequest, type Row } from './model.js';

// Recurring calendar entries. An entry's `recurrence_rule` is an iCalendar (RFC 5545) RRULE such as
// `FREQ=WEEKLY;INTERVAL=1;COUNT=4`: the entry is the series and its first occurrence. Clio's list answers the series as
// one record unless `expanded=true` asks for "a record for each occurrence of a recurring calendar event"; non-recurring
// entries are answered the same either way. Clio's document types an entry's id as a string and names an occurrence's
// series in `parent_calendar_entry_id`, but gives no format for an occurrence's id: the sandbox answers the series' own
// id for the first occurrence and `<series id>_<YYYYMMDD of the occurrence>` for the others.

/** How many occurrences a rule without COUNT or UNTIL expands to (Clio's lists answer at most 200 records a page). */
const OPEN_ENDED = 52;
const FREQUENCIES = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);

interface Rule {
  freq: string;
  interval: number;
  count: number;
  until: number | undefined;
}

/** The rule of an RRULE text (an optional `RRULE:` prefix allowed); undefined for an empty rule (no recurrence). */
export function parseRule(text: unknown): Rule | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const parts = new Map<string, string>();
  for (const part of text.replace(/^RRULE:/i, '').split(';')) {
    const [key, value] = part.split('=');
    if (key && value) parts.set(key.trim().toUpperCase(), value.trim().toUpperCase());
  }
  const freq = parts.get('FREQ') ?? '';
  if (!FREQUENCIES.has(freq)) throw badRequest(`recurrence_rule needs FREQ of DAILY, WEEKLY, MONTHLY or YEARLY, got "${text}"`);
  const interval = Number(parts.get('INTERVAL') ?? '1');
  const count = Number(parts.get('COUNT') ?? String(OPEN_ENDED));
  if (!Number.isInteger(interval) || interval < 1 || !Number.isInteger(count) || count < 1) {
    throw badRequest(`recurrence_rule INTERVAL and COUNT must be positive integers, got "${text}"`);
  }
  const untilText = parts.get('UNTIL');
  const untilMatch = untilText === undefined ? null : /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(untilText);
  if (untilText !== undefined && !untilMatch) throw badRequest(`recurrence_rule UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSSZ, got "${text}"`);
  const [, y, mo, d, h = '23', mi = '59', s = '59'] = untilMatch ?? [];
  const until = untilMatch ? Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) : undefined;
  return { freq, interval, count: Math.min(count, OPEN_ENDED), until };
}

/** The start of the n-th occurrence (0 is the series' own start). */
function shifted(start: Date, rule: Rule, n: number): Date {
  const next = new Date(start.getTime());
  const step = n * rule.interval;
  if (rule.freq === 'DAILY') next.setUTCDate(next.getUTCDate() + step);
  else if (rule.freq === 'WEEKLY') next.setUTCDate(next.getUTCDate() + 7 * step);
  else if (rule.freq === 'MONTHLY') next.setUTCMonth(next.getUTCMonth() + step);
  else next.setUTCFullYear(next.getUTCFullYear() + step);
  return next;
}

/** `2024-02-19T15:00:00+00:00`, the way the seed writes times. */
const iso = (time: number) => `${new Date(time).toISOString().slice(0, 19)}+00:00`;

/** The occurrences of a recurring entry (the entry alone when it does not recur). */
export function occurrences(row: Row): Row[] {
  const rule = parseRule(row.recurrence_rule);
  const start = Date.parse(String(row.start_at));
  const end = Date.parse(String(row.end_at));
  if (!rule || Number.isNaN(start)) return [row];
  const length = Number.isNaN(end) ? 0 : end - start;
  const out: Row[] = [];
  for (let n = 0; n < rule.count; n += 1) {
    const begins = shifted(new Date(start), rule, n).getTime();
    if (rule.until !== undefined && begins > rule.until) break;
    if (n === 0) {
      out.push(row);
      continue;
    }
    const day = iso(begins).slice(0, 10).replaceAll('-', '');
    out.push({
      ...row,
      id: `${row.id}_${day}` as unknown as number,
      start_at: iso(begins),
      end_at: Number.isNaN(end) ? row.end_at : iso(begins + length),
      parent_calendar_entry_id: row.id,
    });
  }
  return out;
}

/** A calendar list's records with each recurring entry replaced by its occurrences, when `expanded=true` asks. */
export function expandRecurring(rows: Row[], query: URLSearchParams): Row[] {
  const expanded = query.get('expanded');
  if (expanded === null || expanded === 'false') return rows;
  if (expanded !== 'true') throw badRequest(`expanded must be true or false, got "${expanded}"`);
  return rows.flatMap(occurrences);
}

/** The order of records sharing one id sequence: an occurrence follows its series and the earlier occurrences. */
export function seriesOrder(a: Row, b: Row): number {
  const series = (row: Row) => Number(row.parent_calendar_entry_id ?? row.id);
  return series(a) - series(b) || String(a.start_at ?? '').localeCompare(String(b.start_at ?? ''));
}
