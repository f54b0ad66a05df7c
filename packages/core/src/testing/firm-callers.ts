import { FIRM_MARKETING_LINES, FIRM_MATTERS, type FirmClient, type FirmLead, firmClient, STORY } from './firm-cast.js';

// Who calls the firm: its leads, and the calls of the story (./firm.ts says what the firm module is).

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
 * morning, both from the firm's Google ads: Nadia Farouk by the website's form, and Jordan Ellis, who left a voicemail
 * about a car accident on the Google Ads line ({@link FIRM_CALLS}). So Google Ads brought the most leads this month,
 * whatever the day of the month ({@link topLeadSource}).
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
    source: 'Google Ads',
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

/**
 * The source that brought the most of the leads that came in from `sinceDaysAgo` days ago to today, with how many
 * (this month: `sinceDaysAgo` is the day of the month less one). Ties go to the source named first in the leads.
 */
export function topLeadSource(sinceDaysAgo: number): { source: FirmLead['source']; leads: number } {
  const counts = new Map<FirmLead['source'], number>();
  for (const l of FIRM_LEADS) if (l.createdDaysAgo <= sinceDaysAgo) counts.set(l.source, (counts.get(l.source) ?? 0) + 1);
  const [source, leads] = [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  return { source, leads };
}

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
