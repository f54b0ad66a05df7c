import { addDays, FIRM_CALLS, FIRM_PEOPLE, firmTime, zonedTimestamp } from '@portico/core/testing/emulator';
import { type Db, insert } from './model.js';

// The firm's day-to-day work beyond what seed.ts writes, added so that every list filter has records that differ on
// it: Northwind's second matter, recent time linked to what it was spent on, calls and emails, notes on contacts,
// tasks with types and deadlines, a viewer's calendar, reminders, and documents in nested folders (one trashed, one
// still uploading). Nothing here changes a record of the story (Rosa Delgado, matter 3006, bill 6004, task 8007).

/** The day the seed is written against (seed.ts's AUTHORED_TODAY; the whole seed moves onto the sandbox clock). */
const day = (days: number) => addDays('2024-02-12', days);
const at = (days: number, time: string) => `${day(days)}T${time}+00:00`;
const ref = (id: number, extra: Record<string, unknown> = {}) => ({ id, ...extra });

/** Northwind Traders' trademark licence (3008): pending, brought in by Daniel Pike, run by Priya Raman. */
export function seedPendingMatter(db: Db): void {
  insert(db, '/matters', {
    id: 3008,
    display_number: '008-Northwind',
    number: 8,
    description: 'Northwind trademark licence',
    status: 'Pending',
    open_date: day(-20),
    pending_date: day(-20),
    close_date: null,
    billable: true,
    client: ref(2002),
    practice_area: ref(1105),
    responsible_attorney: ref(1003),
    originating_attorney: ref(1002),
    responsible_staff: ref(1004),
    group: ref(14_002),
    grant: ref(14_901),
    currency: ref(2),
    notification_event_subscribers: [ref(1002), ref(1004)],
  });
}

export function seedFirmWork(db: Db): void {
  // contacts beyond the clients: the story's opposing party (no email on file) and co-counsel, a Clio Connect user
  insert(db, '/contacts', {
    id: 2008,
    name: 'Brightline Logistics',
    type: 'Company',
    first_name: null,
    last_name: null,
    primary_email_address: null,
    primary_phone_number: null,
    is_client: false,
    is_co_counsel: false,
    is_clio_for_client_user: false,
    initials: 'B',
  });
  insert(db, '/contacts', {
    id: 2009,
    name: 'Irene Castillo',
    type: 'Person',
    first_name: 'Irene',
    last_name: 'Castillo',
    primary_email_address: 'irene@castillo-law.example',
    primary_phone_number: '+1 510 555 0190',
    is_client: false,
    is_co_counsel: true,
    is_clio_for_client_user: true,
    clio_connect_email: 'irene@castillo-law.example',
    initials: 'I',
  });
  // her login as co-counsel: invited, not set up yet (co-counsel users are listed only when asked for)
  insert(db, '/users', {
    id: 1007,
    name: 'Irene Castillo',
    first_name: 'Irene',
    last_name: 'Castillo',
    email: 'irene@castillo-law.example',
    phone_number: '+1 510 555 0190',
    subscription_type: 'Attorney',
    enabled: true,
    rate: 0,
    roles: [],
    pending_setup: true,
    co_counsel: true,
    contact: ref(2009),
  });
  insert(db, '/relationships', { id: 14_401, description: 'Opposing party', matter: ref(3006), contact: ref(2008) });
  insert(db, '/relationships', { id: 14_402, description: 'Co-counsel', matter: ref(3002), contact: ref(2009) });
  insert(db, '/relationships', { id: 14_403, description: 'Co-counsel', matter: ref(3004), contact: ref(2009) });

  // recent time and costs, each linked to what it was spent on (no new work on matter 3001)
  const activities: Array<[number, string, number, number, string, Record<string, unknown>]> = [
    [5015, 'TimeEntry', 3008, 1002, 'Flat fee: trademark licence review', { flat_rate: true, price: 1500, task: ref(8008) }],
    [5016, 'TimeEntry', 3002, 1002, 'Prepared for the deposition', { calendar_entry: ref(7202) }],
    [5017, 'TimeEntry', 3002, 1003, 'Call with Ava Lindstrom', { communication: ref(9302) }],
    [5018, 'TimeEntry', 3004, 1004, 'Noted Lucia Moreno’s contact preferences', { contact_note: ref(9203) }],
    [5019, 'TimeEntry', 3002, 1002, 'Deposition strategy memo', { matter_note: ref(9204) }],
    [5020, 'ExpenseEntry', 3004, 1004, 'Court filing fee', { expense_category: ref(13_101), price: 435 }],
    [5021, 'TimeEntry', 3008, 1003, 'Trademark clearance search', { grant: ref(14_901), task: ref(8008) }],
    [5022, 'TimeEntry', 3004, 1003, 'Demand package review', { bill: ref(6003) }],
  ];
  activities.forEach(([id, type, matter, user, note, extra], i) => {
    // time is the firm's work (@portico/core/testing's FIRM_WORK, and bill 1041's review): who, how long, when
    const time = type === 'TimeEntry' ? firmTime(note) : undefined;
    if (time && FIRM_PEOPLE[user - 1001]?.name !== time.who) throw new Error(`seed: "${note}" is ${time.who}'s`);
    const hours = time ? time.hours : 1;
    // time at the person's rate (a flat-rate entry bills its flat price whatever the time it took)
    const price = (extra.price as number | undefined) ?? (FIRM_PEOPLE[user - 1001]?.rate as number);
    insert(db, '/activities', {
      id,
      type,
      date: day(time ? -time.daysAgo : i < 6 ? -1 : 0),
      quantity: type === 'ExpenseEntry' ? 1 : hours * 3600,
      quantity_in_hours: hours,
      price,
      total: extra.flat_rate ? price : price * hours,
      note,
      billed: false,
      non_billable: false,
      no_charge: false,
      flat_rate: false,
      matter: ref(matter),
      user: ref(user),
      activity_description: null,
      bill: null,
      ...extra,
    });
  });

  // calls and emails: who took part, when, and the time logged on them
  const communications: Array<
    [number, string, string, number, number, Array<[number, string]>, Array<[number, string]>, number, string, string]
  > = [
    [
      9302,
      'PhoneCommunication',
      'Call with Ava Lindstrom',
      3002,
      1003,
      [[2002, 'Contact']],
      [[1003, 'User']],
      -2,
      'crm_call_id',
      'CR-4411',
    ],
    [
      9303,
      'EmailCommunication',
      'Estate plan draft for review',
      3003,
      1001,
      [[1001, 'User']],
      [[2003, 'Contact']],
      -1,
      'mail_thread',
      'MT-77',
    ],
    [
      9304,
      'PhoneCommunication',
      'Voicemail from Lucia Moreno',
      3004,
      1004,
      [[2004, 'Contact']],
      [[1004, 'User']],
      0,
      'crm_call_id',
      'CR-4420',
    ],
  ];
  for (const [id, type, subject, matter, user, senders, receivers, days, property, value] of communications) {
    // the calls are the ones CallRail lists (@portico/core/testing's FIRM_CALLS), at the same minute of the firm's day
    const call = FIRM_CALLS.find((c) => subject.endsWith(c.who) && c.daysAgo === -days);
    insert(db, '/communications', {
      id,
      subject,
      body: call ? `${subject}: ${call.note}.` : `${subject}: notes in the matter file.`,
      type,
      date: day(days),
      received_at: call ? zonedTimestamp(day(days), call.time) : at(days, '17:30:00'),
      time_entries_count: id === 9302 ? 1 : 0,
      matter: ref(matter),
      user: ref(user),
      senders: senders.map(([who, kind]) => ref(who, { type: kind })),
      receivers: receivers.map(([who, kind]) => ref(who, { type: kind })),
      external_properties: [{ id: id * 10, name: property, value }],
    });
  }

  // notes on contacts and on Northwind's dispute (the ones with time logged say so)
  insert(db, '/notes', {
    id: 9203,
    subject: 'Contact preferences',
    detail: 'Lucia Moreno prefers text messages after 5 pm.',
    type: 'Contact',
    contact: ref(2004),
    date: day(-1),
    time_entries_count: 1,
  });
  insert(db, '/notes', {
    id: 9204,
    subject: 'Deposition strategy',
    detail: 'Depose the warehouse manager first.',
    type: 'Matter',
    matter: ref(3002),
    date: day(-1),
    time_entries_count: 1,
  });
  insert(db, '/notes', {
    id: 9205,
    subject: 'Billing contact',
    detail: 'Send Northwind invoices to accounts payable, attention Ava Lindstrom.',
    type: 'Contact',
    contact: ref(2002),
    date: day(-30),
    time_entries_count: 0,
  });

  // conversations with clients through Clio for Clients: one archived and read, one the user is not a member of
  const conversations: Array<[number, string, number, number, boolean, boolean, boolean, number, number]> = [
    [9402, 'Deposition dates', 3002, 2002, true, true, true, 1, -40],
    [9403, 'Medical bills', 3004, 2004, false, false, false, 0, -3],
  ];
  for (const [id, subject, matter, contact, archived, read, member, timeEntries, days] of conversations) {
    insert(db, '/conversations', {
      id,
      subject,
      archived,
      read_only: false,
      read,
      current_user_is_member: member,
      matter: ref(matter),
      message_count: 1,
      time_entries_count: timeEntries,
      memberships: [
        ref(id * 10 + 1, { member: ref(contact, { type: 'Contact' }) }),
        ref(id * 10 + 2, { member: ref(1002, { type: 'User' }) }),
      ],
      created_at: at(days, '16:00:00'),
      updated_at: at(days, '16:00:00'),
    });
  }
  insert(db, '/conversation_messages', {
    id: 9413,
    body: 'The 14th works for our witness.',
    conversation: ref(9402),
    sender: ref(2002, { type: 'Contact' }),
  });
  insert(db, '/conversation_messages', {
    id: 9414,
    body: 'Attached are the hospital bills.',
    conversation: ref(9403),
    sender: ref(2004, { type: 'Contact' }),
  });

  // tasks: one assigned to the client, a statute of limitations and the task that cascades from it
  const tasks: Array<[number, string, number, number, string, number, Record<string, unknown>]> = [
    [8008, 'Clear the trademark search', 3008, 2002, 'Contact', 13_201, { due_at: null, permission: 'public', time_entries_count: 2 }],
    [
      8009,
      'Statute of limitations: Moreno complaint',
      3004,
      1002,
      'User',
      13_202,
      { due_at: day(40), permission: 'private', statute_of_limitations: true },
    ],
    [
      8010,
      'Serve the Moreno complaint',
      3004,
      1004,
      'User',
      13_202,
      { due_at: day(70), permission: 'public', cascading_source: ref(8009) },
    ],
  ];
  for (const [id, name, matter, assignee, kind, taskType, extra] of tasks) {
    insert(db, '/tasks', {
      id,
      name,
      description: `${name} (matter ${matter})`,
      priority: 'Normal',
      status: 'pending',
      matter: ref(matter),
      assignee: ref(assignee, { type: kind }),
      assigner: ref(1002),
      task_type: ref(taskType),
      statute_of_limitations: false,
      time_entries_count: 0,
      cascading_source: null,
      ...extra,
    });
  }

  // the paralegal's calendar, shared with the firm as view-only and hidden; his seat is disabled
  insert(db, '/calendars', {
    id: 7003,
    name: 'Tom Becker',
    type: 'UserCalendar',
    color: '#616161',
    visible: false,
    permission: 'viewer',
    source: 'web',
    creator: ref(1004, { type: 'User' }),
  });
  const entries: Array<[number, string, number, number, boolean, boolean, string]> = [
    [7206, 'Trial readiness conference', 3004, 7003, true, true, 'CR-2024-118'],
    [7207, 'Trademark filing deadline', 3008, 7002, true, false, 'CR-2024-207'],
  ];
  for (const [id, summary, matter, calendar, allDay, courtRule, event] of entries) {
    insert(db, '/calendar_entries', {
      id,
      summary,
      description: `${summary} (seeded)`,
      start_at: at(id === 7206 ? 9 : 14, '00:00:00'),
      end_at: at(id === 7206 ? 10 : 15, '00:00:00'),
      all_day: allDay,
      court_rule: courtRule,
      location: allDay && courtRule ? 'SF Superior Court, Dept. 610' : null,
      matter: ref(matter),
      calendar_owner: ref(calendar),
      calendar_entry_event_type: ref(7101),
      external_properties: [{ id: id * 10, name: 'court_event_id', value: event }],
    });
  }
  const reminders: Array<[number, string, number, string, number, number]> = [
    [13_301, 'CalendarEntry', 7201, 'scheduled', 1001, 13_311],
    [13_302, 'Task', 8007, 'scheduled', 1002, 13_312],
    [13_303, 'Task', 8009, 'delivered', 1002, 13_313],
  ];
  for (const [id, type, subject, state, user, method] of reminders) {
    insert(db, '/reminders', {
      id,
      duration: 1440,
      next_delivery_at: state === 'scheduled' ? at(1, '15:00:00') : null,
      state,
      subject: ref(subject, { type }),
      notification_method: ref(method, { type: 'Email' }),
      user: ref(user),
    });
  }

  // documents: a draft still uploading in a sub-folder, a locked engagement letter at the matter's top, a trashed
  // folder and fee agreement, and the Moreno medical records kept with the client
  insert(db, '/folders', { id: 9004, name: 'Drafts', parent: ref(9002, { type: 'Folder' }), matter: ref(3001), type: 'Folder' });
  insert(db, '/folders', {
    id: 9005,
    name: 'Moreno medical',
    parent: null,
    matter: ref(3004),
    contact: ref(2004),
    document_category: ref(13_402),
    type: 'Folder',
    external_properties: [{ id: 90_051, name: 'records_request', value: 'RR-12' }],
  });
  insert(db, '/folders', {
    id: 9006,
    name: 'Old correspondence',
    parent: ref(9003, { type: 'Folder' }),
    matter: ref(3002),
    type: 'Folder',
    deleted_at: at(-6, '12:00:00'),
  });
  const pdf = 'application/pdf';
  const documents: Array<[number, string, number, number, Record<string, unknown>]> = [
    [9105, 'Engagement letter.pdf', 9001, 3001, { contact: ref(2001), document_category: ref(13_401), locked: true }],
    [9106, 'Draft motion.pdf', 9004, 3001, { latest_document_version: ref(9126, { fully_uploaded: false }) }],
    [9107, 'Old fee agreement.pdf', 9003, 3002, { deleted_at: at(-6, '12:00:00') }],
    [9108, 'Medical records.pdf', 9005, 3004, { contact: ref(2004), document_category: ref(13_402) }],
  ];
  for (const [id, name, parent, matter, extra] of documents) {
    insert(db, '/documents', {
      id,
      name,
      filename: name,
      content_type: pdf,
      size: 64_000 + id,
      parent: ref(parent, { type: 'Folder' }),
      matter: ref(matter),
      contact: null,
      document_category: null,
      locked: false,
      external_properties: [{ id: id * 10, name: 'esign_envelope', value: `ENV-${id}` }],
      ...extra,
    });
  }
  // versions: the petition's second version is still uploading
  const versions: Array<[string, number, number, boolean]> = [
    ['9101', 9121, 1, true],
    ['9101', 9122, 2, false],
    ['9102', 9123, 1, true],
  ];
  for (const [document, id, version, uploaded] of versions) {
    insert(
      db,
      '/documents/{id}/versions',
      { id, document_id: Number(document), version_number: version, filename: `v${version}.pdf`, fully_uploaded: uploaded, size: 48_000 },
      { id: document },
    );
  }
  const comments: Array<[number, string, number, string]> = [
    [13_501, 'Please check the custody schedule on page 3.', 9101, 'Document'],
    [13_502, 'Signed copy received.', 9105, 'Document'],
    [13_503, 'Keep pleadings here, drafts below.', 9002, 'Folder'],
  ];
  for (const [id, message, item, type] of comments) {
    insert(db, '/comments', { id, message, item: ref(item, { type }), creator: ref(1001, { type: 'User' }) });
  }
}
