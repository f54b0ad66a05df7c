/**
 * The one firm every sandbox is seeded with: Harlow & Pike LLP, a small San Francisco law firm. Its facts (people,
 * marketing lines, clients, matters, money and the story that crosses the six applications) are written here once;
 * each plugin's sandbox projects them into its application's own shapes (a Clio contact, a Lawmatics prospect, a
 * QuickBooks customer, a CallRail call, a Slack message, a Notion page). Dates are days relative to the sandbox clock
 * (./clock.ts), never calendar days. Every name, address and number is invented (`.example` domains, 555-01xx numbers).
 */

export interface FirmPerson {
  first: string;
  last: string;
  name: string;
  role: 'partner' | 'associate' | 'paralegal' | 'intake' | 'bookkeeper';
  title: string;
  email: string;
  /** E.164 direct line. */
  phone: string;
  /** Hourly rate in dollars (0: not a timekeeper). */
  rate: number;
}

export interface FirmClient {
  /** The name the firm files the client under (a person's full name or a company's). */
  name: string;
  kind: 'person' | 'company';
  /** The person to talk to (the client, or the company's contact). */
  first: string;
  last: string;
  /** Legal name of a company client. */
  company?: string;
  email: string;
  /** E.164 number. */
  phone: string;
  city: string;
}

export interface FirmMatter {
  client: string;
  title: string;
  area: string;
  status: 'Open' | 'Pending' | 'Closed';
  responsible: string;
  /** Days before the sandbox's today the matter was opened. */
  openedDaysAgo: number;
  /** How the client came to the firm (a Lawmatics source). */
  source: FirmSource;
}

/** Where the firm's leads come from (Lawmatics' sources; CallRail's marketing lines carry the first two). */
export type FirmSource = 'Google Ads' | 'Attorney Referral' | 'Avvo' | 'Website Form' | 'Facebook' | 'Past Client Referral';

/**
 * A lead: someone who asked the firm to take a matter and is not (yet) a client. Leads are Lawmatics prospects; they
 * call and text the firm's marketing lines (CallRail) and fill in its forms.
 */
export interface FirmLead {
  first: string;
  last: string;
  name: string;
  email: string;
  /** E.164 number. */
  phone: string;
  city: string;
  area: string;
  title: string;
  blurb: string;
  /** `pnc`: still a potential new client; `lost`: declined. */
  status: 'pnc' | 'lost';
  stage: 'New Lead' | 'Consultation Scheduled' | 'Consultation Completed' | 'Retainer Sent';
  source: FirmSource;
  /** Days before the sandbox's today the lead came in (0: today). */
  createdDaysAgo: number;
  /** Who at the firm owns the lead. */
  owner: string;
}

const DOMAIN = 'harlowpike.example';

const person = (first: string, last: string, role: FirmPerson['role'], title: string, line: number, rate: number): FirmPerson => ({
  first,
  last,
  name: `${first} ${last}`,
  role,
  title,
  email: `${first.toLowerCase()}@${DOMAIN}`,
  phone: `+1415555${String(line).padStart(4, '0')}`,
  rate,
});

export const FIRM = {
  name: 'Harlow & Pike LLP',
  shortName: 'Harlow & Pike',
  domain: DOMAIN,
  website: `https://www.${DOMAIN}`,
  street: '455 Market St, Suite 1200',
  city: 'San Francisco',
  state: 'CA',
  postalCode: '94105',
  timeZone: 'America/Los_Angeles',
  /** The reception line every marketing line forwards to. */
  mainLine: '+14155550100',
  /** The Oakland office's line. */
  oaklandLine: '+15105550100',
  practiceAreas: ['Family Law', 'Estate Planning', 'Personal Injury', 'Employment Law', 'Business Litigation'],
} as const;

/** The people of the firm: two partners, an associate, a paralegal, the intake coordinator and the bookkeeper. */
export const FIRM_PEOPLE: readonly FirmPerson[] = [
  person('Margaret', 'Harlow', 'partner', 'Managing Partner', 101, 450),
  person('Daniel', 'Pike', 'partner', 'Partner', 102, 425),
  person('Priya', 'Raman', 'associate', 'Associate Attorney', 103, 295),
  person('Tom', 'Becker', 'paralegal', 'Paralegal', 104, 150),
  person('Sofia', 'Alvarez', 'intake', 'Intake Coordinator', 105, 0),
  person('Nora', 'Quinn', 'bookkeeper', 'Bookkeeper', 106, 0),
];

/** A person of the firm by role (the first one with it). */
export function firmPerson(role: FirmPerson['role']): FirmPerson {
  return FIRM_PEOPLE.find((p) => p.role === role) as FirmPerson;
}

/** The firm's marketing lines: the tracking numbers CallRail rings through to the main line. */
export const FIRM_MARKETING_LINES = [
  { name: 'Google Ads - Injury & Employment', number: '+14155550141', source: 'Google Ads' },
  { name: 'Website Visitors - San Francisco', number: '+14155550150', source: null },
  { name: 'Facebook Ads - Family Law', number: '+14155550161', source: 'Facebook' },
  { name: 'Referral Line - Oakland', number: '+15105550170', source: 'Direct' },
  { name: 'Estate Planning Seminar Mailer', number: '+14155550180', source: 'Direct' },
] as const;

const client = (name: string, first: string, last: string, city: string, line: number, company?: string): FirmClient => ({
  name,
  kind: company ? 'company' : 'person',
  first,
  last,
  ...(company ? { company } : {}),
  email: company
    ? `${first.toLowerCase()}.${last.toLowerCase()}@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`
    : `${first.toLowerCase()}.${last.toLowerCase().replace(/[^a-z]/g, '')}@example.com`,
  phone: `+1${city === 'Oakland' || city === 'Berkeley' ? '510' : '415'}555${String(line).padStart(4, '0')}`,
  city,
});

/**
 * The story every sandbox tells: a client who called the firm yesterday. She came in as a Lawmatics prospect, is a
 * Clio contact with an open matter, a QuickBooks customer whose invoice is overdue today, the intake coordinator
 * posted about her in #intake, and her matter has notes in Notion.
 */
export const STORY = {
  client: client('Rosa Delgado', 'Rosa', 'Delgado', 'San Francisco', 187),
  matter: 'Delgado v. Brightline Logistics',
  area: 'Employment Law',
  blurb: 'Dismissed by Brightline Logistics a week after reporting unpaid overtime; wrongful termination and wage claims.',
  /** Her call: yesterday, answered, on the Google Ads line. */
  calledDaysAgo: 1,
  openedDaysAgo: 125,
  /** Her second invoice: half paid, the rest overdue (QuickBooks numbers its invoices; this is the one it gives her). */
  invoice: { number: '1029', amount: 1975, paid: 987.5, issuedDaysAgo: 58, dueDaysAgo: 43 },
  intakeMessage:
    'Rosa Delgado called yesterday on the Google Ads line (415-555-0187) about Delgado v. Brightline Logistics; invoice 1029 is past due. Daniel to call her back today.',
  note: 'Rosa Delgado called yesterday: Brightline produced the overtime records; the demand letter goes out once invoice 1029 is settled.',
} as const;

/**
 * The firm's clients, the story's first. The first six after her are the core clients (in Clio, QuickBooks and
 * Lawmatics); the rest are smaller or past clients billed in QuickBooks.
 */
export const FIRM_CLIENTS: readonly FirmClient[] = [
  STORY.client,
  client('Eleanor Vance', 'Eleanor', 'Vance', 'San Francisco', 110),
  client('Northwind Traders', 'Ava', 'Lindstrom', 'Oakland', 111, 'Northwind Traders Inc.'),
  client('Samuel Okafor', 'Samuel', 'Okafor', 'Berkeley', 112),
  client('Lucia Moreno', 'Lucia', 'Moreno', 'Daly City', 113),
  client('Bayview Properties', 'Grant', 'Holloway', 'San Francisco', 114, 'Bayview Properties LLC'),
  client('Henry Whitfield', 'Henry', 'Whitfield', 'Sausalito', 115),
  client('Mission Street Bakery', 'Marisol', 'Ortega', 'San Francisco', 116, 'Mission Street Bakery LLC'),
  client('Theodore Banks', 'Theodore', 'Banks', 'Mill Valley', 117),
  client("O'Connell Family Trust", 'Fiona', "O'Connell", 'San Rafael', 118, "O'Connell Family Trust"),
  client('Golden Gate Senior Living', 'Grace', 'Kim', 'San Francisco', 119, 'Golden Gate Senior Living Inc.'),
  client('Javier & Lucia Reyes', 'Javier', 'Reyes', 'Oakland', 120),
  client('Pinnacle Logistics', 'Marcus', 'Webb', 'Oakland', 121, 'Pinnacle Logistics Inc.'),
  client('Blue Heron Studios', 'Maya', 'Chen', 'Berkeley', 122, 'Blue Heron Studios LLC'),
  client('Bay Area Food Bank', 'Lorena', 'Vasquez', 'Oakland', 123, 'Bay Area Food Bank'),
  client('Presidio Robotics', 'Ethan', 'Marsh', 'San Francisco', 124, 'Presidio Robotics Corp.'),
];

/** A client by the name the firm files it under. */
export function firmClient(name: string): FirmClient {
  const found = FIRM_CLIENTS.find((c) => c.name === name);
  if (!found) throw new Error(`no firm client ${name}`);
  return found;
}

/** The firm's matters, the story's first. */
export const FIRM_MATTERS: readonly FirmMatter[] = [
  {
    client: 'Rosa Delgado',
    title: STORY.matter,
    area: STORY.area,
    status: 'Open',
    responsible: 'Daniel Pike',
    openedDaysAgo: STORY.openedDaysAgo,
    source: 'Google Ads',
  },
  {
    client: 'Eleanor Vance',
    title: 'Vance divorce and custody',
    area: 'Family Law',
    status: 'Open',
    responsible: 'Margaret Harlow',
    openedDaysAgo: 390,
    source: 'Attorney Referral',
  },
  {
    client: 'Northwind Traders',
    title: 'Northwind supply contract dispute',
    area: 'Business Litigation',
    status: 'Open',
    responsible: 'Daniel Pike',
    openedDaysAgo: 350,
    source: 'Past Client Referral',
  },
  {
    client: 'Samuel Okafor',
    title: 'Okafor estate plan',
    area: 'Estate Planning',
    status: 'Pending',
    responsible: 'Margaret Harlow',
    openedDaysAgo: 330,
    source: 'Website Form',
  },
  {
    client: 'Lucia Moreno',
    title: 'Moreno slip and fall',
    area: 'Personal Injury',
    status: 'Open',
    responsible: 'Daniel Pike',
    openedDaysAgo: 470,
    source: 'Avvo',
  },
  {
    client: 'Bayview Properties',
    title: 'Bayview lease review',
    area: 'Estate Planning',
    status: 'Closed',
    responsible: 'Margaret Harlow',
    openedDaysAgo: 580,
    source: 'Attorney Referral',
  },
];

/** `+14155550187` → `(415) 555-0187`, `415-555-0187`, `+1 415 555 0187` or `4155550187`. */
export function formatPhone(e164: string, style: 'us' | 'dashes' | 'spaced' | 'digits' = 'us'): string {
  const digits = e164.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  const [area, exchange, line] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
  if (style === 'dashes') return `${area}-${exchange}-${line}`;
  if (style === 'spaced') return `+1 ${area} ${exchange} ${line}`;
  if (style === 'digits') return digits;
  return `(${area}) ${exchange}-${line}`;
}

const lead = (
  first: string,
  last: string,
  city: string,
  phone: string,
  facts: Omit<FirmLead, 'first' | 'last' | 'name' | 'email' | 'phone' | 'city'>,
): FirmLead => ({
  first,
  last,
  name: `${first} ${last}`,
  email: `${first.toLowerCase()}.${last.toLowerCase()}@example.net`,
  phone,
  city,
  ...facts,
});

/**
 * The firm's leads, oldest first: people who asked it to take a matter and are not clients. The last two came in this
 * morning: Nadia Farouk by the website's form, and Jordan Ellis, who left a voicemail about a car accident on the
 * Google Ads line ({@link FIRM_CALLS}).
 */
export const FIRM_LEADS: readonly FirmLead[] = [
  lead('Paul', 'Reddy', 'San Mateo', '+16505550138', {
    area: 'Personal Injury',
    title: 'Reddy motorcycle collision',
    blurb: 'Lane-splitting collision on I-280; comparative fault likely, limited policy.',
    status: 'lost',
    stage: 'Consultation Completed',
    source: 'Google Ads',
    createdDaysAgo: 230,
    owner: 'Daniel Pike',
  }),
  lead('Kofi', 'Mensah', 'San Francisco', '+14155550137', {
    area: 'Immigration',
    title: 'Mensah asylum application',
    blurb: 'Asked for help with an asylum application; the firm does not practise immigration law and referred him on.',
    status: 'lost',
    stage: 'New Lead',
    source: 'Avvo',
    createdDaysAgo: 95,
    owner: 'Priya Raman',
  }),
  lead('Greta', 'Sorensen', 'San Rafael', '+14155550136', {
    area: 'Estate Planning',
    title: 'Estate of Lars Sorensen',
    blurb: 'Probate of her late father’s estate; a house in San Rafael, no will found yet.',
    status: 'pnc',
    stage: 'New Lead',
    source: 'Facebook',
    createdDaysAgo: 70,
    owner: 'Margaret Harlow',
  }),
  lead('Victor', 'Lam', 'Oakland', '+15105550135', {
    area: 'Personal Injury',
    title: 'Lam dog bite injury',
    blurb: 'Bitten by a neighbour’s dog; facial scarring, homeowner’s policy in play.',
    status: 'pnc',
    stage: 'Consultation Completed',
    source: 'Attorney Referral',
    createdDaysAgo: 45,
    owner: 'Daniel Pike',
  }),
  lead('Harriet', 'Osei', 'San Francisco', '+14155550134', {
    area: 'Estate Planning',
    title: 'Osei family revocable trust',
    blurb: 'Revocable living trust, pour-over wills and health care directives for a couple with a rental flat.',
    status: 'pnc',
    stage: 'Retainer Sent',
    source: 'Website Form',
    createdDaysAgo: 30,
    owner: 'Margaret Harlow',
  }),
  lead('Caleb', 'Whitman', 'San Francisco', '+14155550133', {
    area: 'Family Law',
    title: 'Whitman custody modification',
    blurb: 'Wants to modify the custody schedule after the other parent’s move to Sacramento.',
    status: 'pnc',
    stage: 'Consultation Scheduled',
    source: 'Facebook',
    createdDaysAgo: 12,
    owner: 'Priya Raman',
  }),
  lead('Nadia', 'Farouk', 'Oakland', '+15105550132', {
    area: 'Employment Law',
    title: 'Farouk unpaid final wages',
    blurb: 'Laid off without her final paycheck or accrued vacation; asks about waiting-time penalties.',
    status: 'pnc',
    stage: 'New Lead',
    source: 'Website Form',
    createdDaysAgo: 0,
    owner: 'Daniel Pike',
  }),
  lead('Jordan', 'Ellis', 'San Francisco', '+14155550131', {
    area: 'Personal Injury',
    title: 'Ellis car accident on US-101',
    blurb: 'Rear-ended on US-101 last night; neck pain, the other driver’s insurer has already called him.',
    status: 'pnc',
    stage: 'New Lead',
    source: 'Google Ads',
    createdDaysAgo: 0,
    owner: 'Daniel Pike',
  }),
];

/** A lead by name. */
export function firmLead(name: string): FirmLead {
  const found = FIRM_LEADS.find((l) => l.name === name);
  if (!found) throw new Error(`no firm lead ${name}`);
  return found;
}

/** Someone outside the firm who deals with it as a person: a client (a company's contact) or a lead. */
export interface FirmCaller {
  /** The person's own name (a company client's contact person). */
  name: string;
  first: string;
  last: string;
  email: string;
  /** E.164 number. */
  phone: string;
  city: string;
  /** The client they are, or stand for. */
  client?: FirmClient;
  lead?: FirmLead;
  /** Days since they first dealt with the firm: none of their calls, texts or forms is older. */
  sinceDaysAgo: number;
}

/**
 * Everyone who calls, texts or writes to the firm: the core clients with a matter (the company clients through their
 * contact) and the leads. Each is a Lawmatics contact with the same name, phone and email, and the clients are Clio
 * contacts and QuickBooks customers as well.
 */
export function firmCallers(): FirmCaller[] {
  const clients = FIRM_MATTERS.map((m): FirmCaller => {
    const c = firmClient(m.client);
    const { first, last, email, phone, city } = c;
    return { name: `${first} ${last}`, first, last, email, phone, city, client: c, sinceDaysAgo: m.openedDaysAgo };
  });
  const leads = FIRM_LEADS.map((l): FirmCaller => {
    const { name, first, last, email, phone, city } = l;
    return { name, first, last, email, phone, city, lead: l, sinceDaysAgo: l.createdDaysAgo };
  });
  return [...clients, ...leads];
}

/** A caller by their own name (a company client's contact, e.g. Ava Lindstrom for Northwind Traders). */
export function firmCaller(name: string): FirmCaller {
  const found = firmCallers().find((c) => c.name === name);
  if (!found) throw new Error(`no firm caller ${name}`);
  return found;
}

/** A call the story tells: who, when (the firm's local time), on which line, how it went. */
export interface FirmCall {
  /** A {@link firmCaller}'s name. */
  who: string;
  daysAgo: number;
  /** Wall-clock time in the firm's zone, HH:MM:SS. */
  time: string;
  direction: 'inbound' | 'outbound';
  answer: 'answered' | 'missed' | 'voicemail';
  /** Seconds. */
  duration: number;
  /** The marketing line (a {@link FIRM_MARKETING_LINES} number) the call came in on. */
  line: string;
  /** The person of the firm who took it (answered calls). */
  agent?: string;
  note: string;
  /** Logged in Clio as a phone communication on this matter. */
  matter?: string;
}

/**
 * The calls the story tells, newest first. This morning Jordan Ellis, a new caller, left a voicemail about a car
 * accident (a fresh lead in Lawmatics); before him Lucia Moreno left one about her hospital bills (Clio logs it on her
 * matter). Yesterday Rosa Delgado called about her matter and her invoice; two days ago Northwind's Ava Lindstrom
 * called Priya Raman about deposition dates. CallRail lists them; Clio logs the clients' calls.
 */
export const FIRM_CALLS: readonly FirmCall[] = [
  {
    who: 'Jordan Ellis',
    daysAgo: 0,
    time: '07:58:32',
    direction: 'inbound',
    answer: 'voicemail',
    duration: 71,
    line: '+14155550141',
    note: 'Voicemail: rear-ended on US-101 last night, neck pain; wants to talk to a lawyer today',
  },
  {
    who: 'Lucia Moreno',
    daysAgo: 0,
    time: '07:41:05',
    direction: 'inbound',
    answer: 'voicemail',
    duration: 48,
    line: '+14155550150',
    note: 'Voicemail: the hospital bills arrived; please call back after 5 pm',
    matter: 'Moreno slip and fall',
  },
  {
    who: 'Rosa Delgado',
    daysAgo: 1,
    time: '16:42:10',
    direction: 'inbound',
    answer: 'answered',
    duration: 412,
    line: '+14155550141',
    agent: 'Sofia Alvarez',
    note: `Asked about ${STORY.matter} and her invoice ${STORY.invoice.number}; wants a call back from Daniel`,
    matter: STORY.matter,
  },
  {
    who: 'Ava Lindstrom',
    daysAgo: 2,
    time: '09:30:00',
    direction: 'inbound',
    answer: 'answered',
    duration: 540,
    line: '+15105550170',
    agent: 'Priya Raman',
    note: 'Deposition dates for the warehouse manager',
    matter: 'Northwind supply contract dispute',
  },
];

// ---- money ------------------------------------------------------------------------------------------------------

/** Time a person of the firm spent on a bill's matter, billed at their rate. */
export interface FirmTime {
  who: string;
  hours: number;
  note: string;
  daysAgo: number;
}

export interface FirmExpense {
  amount: number;
  note: string;
  daysAgo: number;
}

/** What paid (part of) a bill: funds from the client's trust, a check or card, or a credit; a voided one paid nothing. */
export interface FirmPayment {
  amount: number;
  daysAgo: number;
  by: 'trust' | 'check' | 'card' | 'credit';
  voided?: boolean;
}

/**
 * A bill of a client matter: Clio's bill and, once issued, QuickBooks' invoice with the same number, amounts and due
 * date. Its total is its time at each person's rate plus its expenses; what is paid is its payments but the voided.
 */
export interface FirmBill {
  number: string;
  client: string;
  matter: string;
  state: 'draft' | 'awaiting_payment' | 'paid';
  issuedDaysAgo: number;
  /** Negative: due in the future. */
  dueDaysAgo: number;
  time: FirmTime[];
  expenses: FirmExpense[];
  payments: FirmPayment[];
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

/** A person of the firm by name. */
export function firmPersonNamed(name: string): FirmPerson {
  const found = FIRM_PEOPLE.find((p) => p.name === name);
  if (!found) throw new Error(`no person of the firm named ${name}`);
  return found;
}

/** A bill's total: its time at each person's rate plus its expenses. */
export function billTotal(bill: FirmBill): number {
  const time = bill.time.reduce((sum, t) => sum + firmPersonNamed(t.who).rate * t.hours, 0);
  return cents(time + bill.expenses.reduce((sum, e) => sum + e.amount, 0));
}

/** What has been paid on a bill (voided payments left out). */
export function billPaid(bill: FirmBill): number {
  return cents(bill.payments.filter((p) => !p.voided).reduce((sum, p) => sum + p.amount, 0));
}

export function billBalance(bill: FirmBill): number {
  return cents(billTotal(bill) - billPaid(bill));
}

/**
 * The client bills, oldest first. Rosa Delgado's first invoice was paid from her trust funds; her second (the story's)
 * is half paid and overdue. Eleanor Vance's was paid from trust; Northwind's is overdue, a courtesy credit applied and
 * a card payment voided. The two drafts are in Clio only: QuickBooks gets an invoice when a bill is issued.
 */
export const FIRM_BILLS: readonly FirmBill[] = [
  {
    number: '1014',
    client: STORY.client.name,
    matter: STORY.matter,
    state: 'paid',
    issuedDaysAgo: 122,
    dueDaysAgo: 107,
    time: [
      { who: 'Daniel Pike', hours: 4, note: 'Intake interview and review of the termination letter', daysAgo: 124 },
      { who: 'Priya Raman', hours: 2, note: 'Research: retaliation after an overtime complaint', daysAgo: 123 },
    ],
    expenses: [],
    payments: [{ amount: 2290, daysAgo: 110, by: 'trust' }],
  },
  {
    number: STORY.invoice.number,
    client: STORY.client.name,
    matter: STORY.matter,
    state: 'awaiting_payment',
    issuedDaysAgo: STORY.invoice.issuedDaysAgo,
    dueDaysAgo: STORY.invoice.dueDaysAgo,
    time: [
      { who: 'Daniel Pike', hours: 3.5, note: 'Demand letter to Brightline Logistics', daysAgo: 61 },
      { who: 'Priya Raman', hours: 1.5, note: 'Analysis of the wage statements', daysAgo: 60 },
    ],
    expenses: [{ amount: 45, note: 'Certified mail and copies', daysAgo: 59 }],
    payments: [{ amount: STORY.invoice.paid, daysAgo: 30, by: 'card' }],
  },
  {
    number: '1033',
    client: 'Eleanor Vance',
    matter: 'Vance divorce and custody',
    state: 'paid',
    issuedDaysAgo: 40,
    dueDaysAgo: 40,
    time: [
      { who: 'Margaret Harlow', hours: 2, note: 'Drafting: custody declaration', daysAgo: 44 },
      { who: 'Tom Becker', hours: 1.5, note: 'Collected the bank statements for the disclosure', daysAgo: 43 },
    ],
    expenses: [{ amount: 60, note: 'Certified copies of the custody order', daysAgo: 42 }],
    payments: [{ amount: 1185, daysAgo: 38, by: 'trust' }],
  },
  {
    number: '1034',
    client: 'Northwind Traders',
    matter: 'Northwind supply contract dispute',
    state: 'awaiting_payment',
    issuedDaysAgo: 36,
    dueDaysAgo: 6,
    time: [
      { who: 'Daniel Pike', hours: 3, note: 'Deposition outline: the warehouse manager', daysAgo: 39 },
      { who: 'Priya Raman', hours: 2.5, note: 'Research: remedies for late delivery under the UCC', daysAgo: 38 },
    ],
    expenses: [{ amount: 227.5, note: 'Court reporter deposit', daysAgo: 37 }],
    payments: [
      { amount: 100, daysAgo: 31, by: 'credit' },
      { amount: 500, daysAgo: 28, by: 'card', voided: true },
    ],
  },
  {
    number: '1041',
    client: 'Lucia Moreno',
    matter: 'Moreno slip and fall',
    state: 'draft',
    issuedDaysAgo: 1,
    dueDaysAgo: -29,
    time: [{ who: 'Priya Raman', hours: 1, note: 'Demand package review', daysAgo: 0 }],
    expenses: [],
    payments: [],
  },
  {
    number: '1042',
    client: 'Eleanor Vance',
    matter: 'Vance divorce and custody',
    state: 'draft',
    issuedDaysAgo: 2,
    dueDaysAgo: -28,
    time: [
      { who: 'Margaret Harlow', hours: 1, note: 'Reviewed the custody evaluator’s report', daysAgo: 4 },
      { who: 'Priya Raman', hours: 1.5, note: 'Drafting: reply declaration', daysAgo: 3 },
    ],
    expenses: [],
    payments: [],
  },
];

/** A bill by number. */
export function firmBill(number: string): FirmBill {
  const found = FIRM_BILLS.find((b) => b.number === number);
  if (!found) throw new Error(`no firm bill ${number}`);
  return found;
}

/** Money a client put in the firm's trust account (IOLTA) for one of their matters. */
export interface FirmTrustDeposit {
  client: string;
  matter: string;
  amount: number;
  daysAgo: number;
  note: string;
  source: string;
}

/**
 * Deposits into trust, each held for its client's matter. What a bill takes from trust ({@link FirmPayment} `trust`)
 * leaves it for the operating account; what is left is each matter's trust balance ({@link trustBalances}).
 */
export const FIRM_TRUST_DEPOSITS: readonly FirmTrustDeposit[] = [
  { client: STORY.client.name, matter: STORY.matter, amount: 7500, daysAgo: 125, note: 'Retainer deposit', source: 'Wire' },
  {
    client: 'Eleanor Vance',
    matter: 'Vance divorce and custody',
    amount: 5000,
    daysAgo: 60,
    note: 'Retainer deposit',
    source: 'Check 1187',
  },
];

/** Each matter's money in trust: its deposits less what its bills took from trust. */
export function trustBalances(): Map<string, number> {
  const held = new Map<string, number>();
  for (const d of FIRM_TRUST_DEPOSITS) held.set(d.matter, cents((held.get(d.matter) ?? 0) + d.amount));
  for (const b of FIRM_BILLS)
    for (const p of b.payments) if (p.by === 'trust' && !p.voided) held.set(b.matter, cents((held.get(b.matter) ?? 0) - p.amount));
  return held;
}
