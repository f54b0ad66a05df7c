// The seeded Clio data put on the sandbox clock and in the firm's zone, once the seed is written.
import { daysBetween, sandboxToday, shiftSeededDates, toZoned } from '@portico/core/testing/emulator';
import { type Db, etagOf } from './model.js';

/**
 * Moves the seeded dates (and the clock of new timestamps) onto the sandbox clock, writes the seeded times in the firm's
 * zone as Clio does (the seed writes them in UTC), and lets writes from now on be stamped now; etags follow the rows.
 */
export function onTheClock(db: Db, authoredToday: string): Db {
  const offset = daysBetween(authoredToday, sandboxToday());
  shiftSeededDates(db.records, authoredToday);
  db.clock += offset * 86_400;
  for (const list of db.records.values()) {
    for (const stored of list) {
      inFirmZone(stored.row);
      stored.row.etag = etagOf(stored);
    }
  }
  db.live = true;
  return db;
}

const UTC_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$/;

/** Every UTC timestamp in a seeded row (nested objects and arrays too), in place, as the same instant in the firm's zone. */
function inFirmZone(value: unknown): unknown {
  if (typeof value === 'string') return UTC_STAMP.test(value) ? toZoned(Date.parse(value)) : value;
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) value[i] = inFirmZone(value[i]);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = inFirmZone(record[key]);
  }
  return value;
}
