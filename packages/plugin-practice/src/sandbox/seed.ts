import {
  addDays,
  FIRM,
  FIRM_CLIENTS,
  FIRM_MATTERS,
  FIRM_PEOPLE,
  FIRM_WORK,
  firmPersonNamed,
  firmTime,
  formatPhone,
  STORY,
} from '@portico/core/testing/emulator';
import { type Db, insert, parentOf, records, SANDBOX_COLLECTIONS } from './model.js';
import { onTheClock } from './on-the-clock.js';
import { accountBalance, OPERATING_ACCOUNT, seedBankTransactions, seedFirmBills, TRUST_ACCOUNT } from './seed-bills.js';
import { seedCalendarEntries } from './seed-calendar.js';
import { seedLegalAid } from './seed-legal-aid.js';
import { seedFirmMoney } from './seed-money.js';
import { seedReference } from './seed-reference.js';
import { seedFirmWork, seedPendingMatter } from './seed-work.js';

/**
 * The seeded firm, Harlow & Pike LLP (@portico/core/testing's firm: its people, clients, matters and their work), written
 * with fixed ids and a fixed clock so that every run and every reset gives the same data. Every other collection of the table gets three generic
 * records (two per parent record for nested collections) so that each path answers with something.
 */
export const SEED_EPOCH = Date.UTC(2024, 0, 8, 14, 0, 0) / 1000;

/**
 * The day the seed is written against; every seeded date is moved onto the shared sandbox clock (the real date, or
 * `PORTICO_SANDBOX_TODAY`) by as many days as today is from it, so bill 2 is overdue and the hearings are next week.
 */
export const AUTHORED_TODAY = '2024-02-12';

/** The day `days` from the authored today (moved onto the sandbox clock with the rest of the seed). */
const day = (days: number) => addDays(AUTHORED_TODAY, days);

const ref = (id: number, extra: Record<string, unknown> = {}) => ({ id, ...extra });

export function seed(): Db {
  const db: Db = { records: new Map(), nextId: 900_001, clock: SEED_EPOCH };
  // the firm's people: the two partners and the associate are attorneys; the paralegal's seat is disabled
  FIRM_PEOPLE.forEach((p, i) => {
    const attorney = p.role === 'partner' || p.role === 'associate';
    insert(db, '/users', {
      id: 1001 + i,
      name: p.name,
      first_name: p.first,
      last_name: p.last,
      email: p.email,
      phone_number: formatPhone(p.phone, 'spaced'),
      subscription_type: attorney ? 'Attorney' : 'NonAttorney',
      enabled: p.role !== 'paralegal',
      rate: p.rate,
      // the managing partner administers the account; the bookkeeper keeps the accounts and the bills
      roles: i === 0 ? ['admin', 'billing', 'reports'] : p.role === 'bookkeeper' ? ['accounts', 'billing', 'reports'] : [],
      pending_setup: false,
      co_counsel: false,
    });
  });
  insert(db, '/currencies', { id: 1, code: 'USD', sign: '$', default: true });
  insert(db, '/currencies', { id: 2, code: 'CAD', sign: '$', default: false });
  const areas: string[] = [...FIRM.practiceAreas];
  areas.forEach(
    (name, i) => void insert(db, '/practice_areas', { id: 1101 + i, name, code: name.slice(0, 3).toUpperCase(), category: name }),
  );

  // the firm's core clients (2001–2006; Henry Whitfield is a contact, not a client), then Rosa Delgado (2007), the
  // client who called yesterday
  const clients = [...FIRM_CLIENTS.slice(1, 7), STORY.client];
  clients.forEach((c, i) => {
    const name = c.company ?? c.name;
    insert(db, '/contacts', {
      id: 2001 + i,
      name,
      type: c.kind === 'company' ? 'Company' : 'Person',
      first_name: c.kind === 'person' ? c.first : null,
      last_name: c.kind === 'person' ? c.last : null,
      primary_email_address: c.email,
      primary_phone_number: formatPhone(c.phone, 'spaced'),
      is_client: c.name !== 'Henry Whitfield',
      initials: name.slice(0, 1),
    });
  });
  const contactOf = (client: string) => 2001 + clients.findIndex((c) => c.name === client);
  const matterOf = (title: string) => 3001 + ordered.findIndex((m) => m.title === title);

  // the firm's matters (3001–3005), then the story's (3006)
  const ordered = [...FIRM_MATTERS.slice(1), FIRM_MATTERS[0] as (typeof FIRM_MATTERS)[number]];
  const matters: Array<[number, string, string, number, string]> = ordered.map((m) => [
    contactOf(m.client),
    m.title,
    m.status,
    1101 + areas.indexOf(m.area),
    day(-m.openedDaysAgo),
  ]);
  const label = (contact: number) => {
    const c = clients[contact - 2001] as (typeof clients)[number];
    return c.kind === 'company' ? (c.name.split(' ')[0] as string) : c.last;
  };
  const userId = (name: string) => 1001 + FIRM_PEOPLE.findIndex((p) => p.name === name);
  const insertMatter = ([client, description, status, area, open_date]: (typeof matters)[number], i: number) => {
    const id = 3001 + i;
    insert(db, '/matters', {
      id,
      display_number: `00${id - 3000}-${label(client)}`,
      number: id - 3000,
      description,
      status,
      open_date,
      close_date: status === 'Closed' ? day(-(ordered[i]?.openedDaysAgo ?? 0) + 90) : null,
      // Clio dates a matter's move to pending; these were pending from the day they came in
      pending_date: status === 'Pending' ? open_date : null,
      billable: true,
      client: ref(client),
      practice_area: ref(area),
      responsible_attorney: ref(userId(ordered[i]?.responsible ?? '')),
      originating_attorney: ref(1001),
      currency: ref(1),
    });
  };
  matters.forEach(insertMatter);
  // Northwind's second matter, pending (3008), before the internal one so that 3007 stays the last matter
  seedPendingMatter(db);
  // matter 3007 without a client, for `client_id=null`
  insert(db, '/matters', {
    id: 3007,
    display_number: '007-Internal',
    number: 7,
    description: 'Firm administration',
    status: 'Open',
    open_date: '2023-01-02',
    billable: false,
    client: null,
    responsible_attorney: ref(1001),
  });

  const descriptions = ['Drafting', 'Court appearance', 'Client call', 'Research'];
  descriptions.forEach(
    (name, i) =>
      void insert(db, '/activity_descriptions', {
        id: 4001 + i,
        name,
        type: 'User',
        visible_to_co_counsel: false,
        default: i === 0,
        rate: { amount: 300, non_billable_amount: 0, type: 'User' },
      }),
  );
  // the firm's bills and the time and expenses they bill (5001–5011, seed-bills.ts); an office expense on no matter
  seedFirmBills(db, matterOf, contactOf);
  insert(db, '/activities', {
    id: 5012,
    type: 'ExpenseEntry',
    date: day(-12),
    quantity: 1,
    quantity_in_hours: 1,
    price: 56.5,
    total: 56.5,
    note: 'Office supplies',
    billed: false,
    non_billable: true,
    no_charge: false,
    matter: null,
    user: ref(1006),
    activity_description: null,
    bill: null,
  });
  insert(db, '/activity_rates', { id: 4101, rate: 400, flat_rate: false, user: ref(1001), contact_id: 2002, co_counsel_contact_id: null });
  insert(db, '/activity_rates', {
    id: 4102,
    rate: firmPersonNamed('Priya Raman').rate,
    flat_rate: false,
    user: ref(1003),
    contact_id: null,
    co_counsel_contact_id: null,
  });

  // Rosa Delgado's matter (3006): unbilled time this week (her bills, 1014 paid and 1029 half paid and overdue, are the firm's)
  // (the firm's work, @portico/core/testing's FIRM_WORK: who, how long, when)
  const story = [5013, 5014].map((id, i): [number, number, number, string] => {
    const work = FIRM_WORK[i] as (typeof FIRM_WORK)[number];
    return [id, 1001 + FIRM_PEOPLE.findIndex((p) => p.name === work.who), work.hours, work.note];
  });
  story.forEach(([id, user, hours, note], i) => {
    const price = (FIRM_PEOPLE[user - 1001]?.rate ?? 0) as number;
    insert(db, '/activities', {
      id,
      type: 'TimeEntry',
      date: day(-firmTime(note).daysAgo),
      quantity: hours * 3600,
      quantity_in_hours: hours,
      price,
      total: price * hours,
      note,
      billed: false,
      non_billable: false,
      no_charge: false,
      matter: ref(3006),
      user: ref(user),
      activity_description: ref(i === 0 ? 4003 : 4004),
      bill: null,
    });
  });
  insert(db, '/bank_accounts', {
    id: 6301,
    name: 'Operating',
    type: 'Operating',
    balance: 0,
    currency: 'USD',
    default_account: true,
    institution: 'First Bay Bank',
    account_number: '****4412',
    status: 'open',
  });
  insert(db, '/bank_accounts', {
    id: 6302,
    name: 'IOLTA Trust',
    type: 'Trust',
    balance: 0,
    currency: 'USD',
    default_account: false,
    institution: 'First Bay Bank',
    account_number: '****9930',
    status: 'open',
  });

  // what went through the two accounts (seed-bills.ts); each balance is the sum of its account's transactions
  seedBankTransactions(db, matterOf, contactOf);
  for (const account of [OPERATING_ACCOUNT, TRUST_ACCOUNT]) {
    const row = db.records.get('/bank_accounts')?.find((s) => s.row.id === account)?.row;
    if (row) row.balance = accountBalance(db, account);
  }

  insert(db, '/calendars', {
    id: 7001,
    name: 'Margaret Harlow',
    type: 'UserCalendar',
    color: '#3F51B5',
    visible: true,
    permission: 'owner',
    source: 'mobile',
  });
  insert(db, '/calendars', {
    id: 7002,
    name: 'Firm calendar',
    type: 'AdhocCalendar',
    color: '#009688',
    visible: true,
    permission: 'editor',
    source: 'web',
  });
  insert(db, '/calendar_entry_event_types', { id: 7101, name: 'Hearing', color: '#E53935' });
  insert(db, '/calendar_entry_event_types', { id: 7102, name: 'Client meeting', color: '#43A047' });
  const entries = ['Custody hearing', 'Deposition prep', 'Estate signing', 'Mediation', 'Staff meeting'];
  entries.forEach((summary, i) => {
    const day = String(15 + i).padStart(2, '0');
    insert(db, '/calendar_entries', {
      id: 7201 + i,
      summary,
      description: `${summary} (seeded)`,
      start_at: `2024-02-${day}T15:00:00+00:00`,
      end_at: `2024-02-${day}T16:30:00+00:00`,
      all_day: false,
      location: i === 0 ? 'SF Superior Court, Dept. 403' : 'Office',
      matter: i === 4 ? null : ref(3001 + i),
      calendar_owner: ref(i % 2 === 0 ? 7001 : 7002),
      calendar_entry_event_type: ref(i === 0 ? 7101 : 7102),
    });
  });
  const tasks = [
    'File response',
    'Collect bank statements',
    'Draft will',
    'Request medical records',
    'Send engagement letter',
    'Review lease',
  ];
  tasks.forEach((name, i) => {
    insert(db, '/tasks', {
      id: 8001 + i,
      name,
      description: `${name} for matter ${3001 + (i % 5)}`,
      priority: i % 2 === 0 ? 'High' : 'Normal',
      status: i < 2 ? 'complete' : 'pending',
      due_at: `2024-02-${String(1 + i * 3).padStart(2, '0')}`,
      matter: i === 5 ? null : ref(3001 + (i % 5)),
      assignee: ref(1001 + (i % 4), { type: 'User' }),
      assigner: ref(1001),
    });
  });
  insert(db, '/folders', { id: 9001, name: 'Vance', parent: null, matter: ref(3001), type: 'Folder' });
  insert(db, '/folders', { id: 9002, name: 'Pleadings', parent: ref(9001, { type: 'Folder' }), matter: ref(3001), type: 'Folder' });
  insert(db, '/folders', { id: 9003, name: 'Northwind', parent: null, matter: ref(3002), type: 'Folder' });
  const documents = ['Petition.pdf', 'Custody declaration.docx', 'Supply agreement.pdf', 'Demand letter.docx'];
  documents.forEach((name, i) => {
    insert(db, '/documents', {
      id: 9101 + i,
      name,
      filename: name,
      content_type: name.endsWith('pdf') ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      size: 48_000 + i * 1024,
      parent: ref(i < 2 ? 9002 : 9003, { type: 'Folder' }),
      matter: ref(i < 2 ? 3001 : 3002),
      contact: null,
      locked: false,
    });
  });
  insert(db, '/notes', {
    id: 9201,
    subject: 'Intake call',
    detail: 'Client wants joint custody.',
    type: 'Matter',
    matter: ref(3001),
    date: '2023-11-02',
  });
  insert(db, '/notes', {
    id: 9202,
    subject: 'Call from Rosa Delgado',
    detail: STORY.note,
    type: 'Matter',
    matter: ref(3006),
    date: day(-STORY.calledDaysAgo),
  });
  insert(db, '/tasks', {
    id: 8007,
    name: 'Return Rosa Delgado’s call',
    description: `Call Rosa Delgado back (${formatPhone(STORY.client.phone)}) about ${STORY.matter} and invoice ${STORY.invoice.number}`,
    priority: 'High',
    status: 'pending',
    due_at: day(0),
    matter: ref(3006),
    assignee: ref(1002, { type: 'User' }),
    assigner: ref(1005),
  });
  insert(db, '/communications', {
    id: 9301,
    subject: 'Contract breach notice',
    body: 'Please find the notice attached.',
    type: 'EmailCommunication',
    received_at: '2024-01-05T17:00:00+00:00',
    matter: ref(3002),
  });
  insert(db, '/conversations', {
    id: 9401,
    subject: 'Custody schedule',
    archived: false,
    read_only: false,
    matter: ref(3001),
    message_count: 2,
  });
  insert(db, '/conversation_messages', {
    id: 9411,
    body: 'Can we meet Thursday?',
    conversation: ref(9401),
    sender: ref(2001, { type: 'Contact' }),
  });
  insert(db, '/conversation_messages', {
    id: 9412,
    body: 'Thursday at 10 works.',
    conversation: ref(9401),
    sender: ref(1001, { type: 'User' }),
  });
  insert(db, '/custom_fields', {
    id: 9501,
    name: 'Opposing counsel',
    field_type: 'text_line',
    parent_type: 'Matter',
    displayed: true,
    deleted: false,
  });
  insert(db, '/custom_fields', {
    id: 9502,
    name: 'Date of incident',
    field_type: 'date',
    parent_type: 'Matter',
    displayed: true,
    deleted: false,
  });

  const jurisdictions = ['California Superior Court', 'US District Court, N.D. Cal.', 'New York Supreme Court'];
  jurisdictions.forEach((description, i) => {
    // the firm subscribes to the two California sets of court rules, not to New York's
    const valid_subscription = i < 2;
    insert(db, '/court_rules/jurisdictions', {
      id: 9601 + i,
      description,
      system_id: 100 + i,
      default: i === 0,
      valid_from: '2020-01-01',
      valid_subscription,
    });
  });
  const triggers = ['Complaint served', 'Trial date', 'Motion hearing', 'Discovery cut-off'];
  for (const [j, jurisdiction] of [9601, 9602].entries()) {
    triggers.forEach((description, i) => {
      const scope = { jurisdiction_id: String(jurisdiction) };
      insert(
        db,
        '/court_rules/jurisdictions/{jurisdiction_id}/triggers',
        { id: 9701 + j * 10 + i, description, is_served: i === 0, is_requirements_required: i === 2, jurisdiction: ref(jurisdiction) },
        scope,
      );
    });
  }
  ['Personal service', 'Mail', 'Electronic service'].forEach(
    (description, i) => void insert(db, '/court_rules/service_types', { id: 9801 + i, description, default: i === 0 }),
  );
  insert(db, '/court_rules/matter_dockets', {
    id: 9901,
    name: 'Vance response deadlines',
    status: 'in_progress',
    start_date: '2024-01-10',
    matter: ref(3001),
    jurisdiction: ref(9601),
    trigger: ref(9701),
    service_type: ref(9801),
  });

  ['accepted', 'submitted'].forEach((status, i) => {
    const record = { id: 9951 + i, status, submitted_at: `2024-01-${12 + i}T18:00:00+00:00`, matter: ref(3001 + i) };
    insert(db, '/clio_file/submissions_reports', record);
  });
  seedFirmWork(db);
  seedCalendarEntries(db);
  seedFirmMoney(db);
  seedReference(db);
  seedLegalAid(db);
  generic(db);
  spareForDelete(db);
  return onTheClock(db, AUTHORED_TODAY);
}

/**
 * A second record beside the only one of a collection that can be deleted, so that deleting one (the last, as the
 * plugin's delete examples do) leaves the other for the examples that read or change it.
 */
function spareForDelete(db: Db): void {
  for (const collection of SANDBOX_COLLECTIONS) {
    if (!collection.verbs.has('D')) continue;
    const stored = records(db, collection);
    const first = stored[0];
    if (!first || stored.filter((s) => JSON.stringify(s.scope) === JSON.stringify(first.scope)).length > 1) continue;
    const { id: _id, etag: _etag, created_at: _c, updated_at: _u, ...fields } = first.row;
    insert(db, collection.template, fields, first.scope);
  }
}

/** Three generic records in every collection the firm above leaves empty (two per parent in nested ones). */
function generic(db: Db): void {
  for (const collection of SANDBOX_COLLECTIONS) {
    if (records(db, collection).length > 0) continue;
    const word = collection.template
      .replace(/\{\w+\}\//g, '')
      .split('/')
      .filter(Boolean)
      .join(' ')
      .replace(/_/g, ' ');
    const scopes = scopesOf(db, collection);
    let n = 0;
    for (const scope of scopes) {
      for (let i = 0; i < (collection.params.length > 0 ? 2 : 3); i++) {
        n += 1;
        insert(db, collection.template, { name: `${word} ${n}`, description: `Sandbox ${word} record ${n}` }, scope);
      }
    }
  }
}

/** The scopes to seed a nested collection under: the first two records of each parent collection. */
function scopesOf(db: Db, collection: (typeof SANDBOX_COLLECTIONS)[number]): Array<Record<string, string>> {
  let scopes: Array<Record<string, string>> = [{}];
  for (const param of collection.params) {
    const parent = parentOf(collection, param);
    const ids = parent
      ? records(db, parent)
          .slice(0, 2)
          .map((s) => String(s.row.id))
      : ['1'];
    scopes = scopes.flatMap((scope) => (ids.length > 0 ? ids : ['1']).map((id) => ({ ...scope, [param]: id })));
  }
  return scopes;
}
