import { addDays, FIRM_PEOPLE } from '@portico/core/testing/emulator';
import { type Db, insert } from './model.js';

// Calendar entries the other calendar filters need: one on a calendar the current user cannot see (Priya Raman's own
// calendar, not shared with Margaret Harlow, so absent from the calendars list) that owner_entries_across_all_users
// answers for its matter, and a recurring weekly case review that expanded=true answers occurrence by occurrence.

/** The day the seed is written against (seed.ts's AUTHORED_TODAY; the whole seed moves onto the sandbox clock). */
const at = (days: number, time: string) => `${addDays('2024-02-12', days)}T${time}+00:00`;
const ref = (id: number, extra: Record<string, unknown> = {}) => ({ id, ...extra });

export function seedCalendarEntries(db: Db): void {
  const associate = FIRM_PEOPLE.find((p) => p.role === 'associate');
  insert(db, '/calendar_entries', {
    id: 7208,
    summary: 'Vance settlement strategy',
    description: 'Vance settlement strategy (seeded)',
    start_at: at(2, '17:00:00'),
    end_at: at(2, '18:00:00'),
    all_day: false,
    court_rule: false,
    location: 'Office',
    matter: ref(3001),
    // the associate's personal calendar: the current user has no permission on it
    calendar_owner: ref(7004, { type: 'UserCalendar', name: associate?.name ?? 'Priya Raman', permission: null }),
    calendar_entry_event_type: ref(7102),
  });
  insert(db, '/calendar_entries', {
    id: 7209,
    summary: 'Weekly case review',
    description: 'Weekly case review (seeded)',
    start_at: at(1, '16:00:00'),
    end_at: at(1, '17:00:00'),
    all_day: false,
    court_rule: false,
    location: 'Office',
    matter: null,
    recurrence_rule: 'FREQ=WEEKLY;INTERVAL=1;COUNT=4',
    parent_calendar_entry_id: null,
    calendar_owner: ref(7002),
    calendar_entry_event_type: ref(7102),
  });
}
