// The firm's people, clients and matters (./firm.ts says what the firm module is).

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

/**
 * The firm's checklist for taking on a new client (Notion's "New Client Onboarding Checklist"), in its two parts, each
 * step checked off or not: the conflict check, the notes page and the engagement letter are done; the matter and the
 * customer are not opened yet, the kickoff call is not booked and the trust deposit has not come in.
 */
export const FIRM_ONBOARDING: ReadonlyArray<{ part: string; steps: ReadonlyArray<{ step: string; done: boolean }> }> = [
  {
    part: 'Before the first meeting',
    steps: [
      { step: 'Run the conflict check and note it in #intake', done: true },
      { step: 'Send the engagement letter and the retainer invoice', done: true },
      { step: 'Book the kickoff call with the client', done: false },
    ],
  },
  {
    part: 'Once the retainer is signed',
    steps: [
      { step: 'Open the matter in Clio and the customer in QuickBooks', done: false },
      { step: 'Create the matter notes page here', done: true },
      { step: 'Record the retainer deposit in the trust account', done: false },
    ],
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
