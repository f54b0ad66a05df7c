import { createHash } from 'node:crypto';
import { addDays, TODAY } from './clock.js';

// ---- records as the sandbox stores them (wire views are built in views.ts) ----------------------------------------

export interface AccountRec {
  id: string;
  numeric_id: number;
  name: string;
  outbound_recording_enabled: boolean;
  hipaa_account: boolean;
}

export interface CompanyRec {
  account_id: string;
  id: string;
  name: string;
  status: 'active' | 'disabled';
  time_zone: string;
  /** UTC offset of the company's local time during the seeded period (all of it falls in daylight saving time). */
  offset: string;
  created_at: string;
  disabled_at: string | null;
  city: string;
  area_code: string;
  domain: string;
}

export interface TrackerRec {
  account_id: string;
  company_id: string;
  id: string;
  name: string;
  type: 'source' | 'session';
  status: 'active' | 'disabled';
  tracking_numbers: string[];
  destination_number: string;
  /** Marketing source a source tracker attributes; session trackers attribute per visit. */
  source: string | null;
  medium: string | null;
  campaign: string | null;
  created_at: string;
  disabled_at: string | null;
}

export interface UserRec {
  account_id: string;
  id: string;
  numeric_id: number;
  first_name: string;
  last_name: string;
  email: string;
  role: 'admin' | 'manager' | 'reporting' | 'agent';
  company_ids: string[];
  created_at: string;
}

export interface TagRec {
  account_id: string;
  id: number;
  name: string;
  tag_level: 'account' | 'company';
  company_id: string | null;
  color: string;
  status: 'enabled' | 'disabled';
  created_at: string;
}

export type AnswerStatus = 'answered' | 'missed' | 'voicemail';
export type LeadStatus = 'good_lead' | 'not_a_lead' | null;

export interface CallRec {
  account_id: string;
  company_id: string;
  tracker_id: string;
  id: string;
  start_time: string;
  direction: 'inbound' | 'outbound';
  answer_status: AnswerStatus;
  duration: number;
  customer_name: string | null;
  customer_phone_number: string;
  customer_city: string;
  customer_state: string;
  customer_country: string;
  business_phone_number: string;
  tracking_phone_number: string;
  agent_user_id: string | null;
  first_call: boolean;
  source: string;
  medium: string | null;
  campaign: string | null;
  keywords: string | null;
  referrer_domain: string | null;
  landing_page_url: string | null;
  device_type: 'desktop' | 'mobile' | 'tablet' | null;
  browser: string | null;
  os: string | null;
  lead_status: LeadStatus;
  /** Was scored good_lead once and later changed (the summaries' previously_marked_good_lead). */
  previously_good_lead: boolean;
  tag_ids: number[];
  note: string | null;
  value: string | null;
}

export interface PageViewRec {
  call_id: string;
  url: string;
  referrer_url: string | null;
  created_at: string;
}

export interface FormRec {
  account_id: string;
  company_id: string;
  id: string;
  person_id: string | null;
  custom_form_id: number;
  form_name: string;
  form_url: string;
  landing_page_url: string;
  referrer: string | null;
  submitted_at: string;
  created_at: string;
  first_form: boolean;
  customer_name: string;
  customer_phone_number: string;
  customer_email: string;
  form_data: Record<string, string>;
  source: string;
  medium: string | null;
  campaign: string | null;
  keywords: string | null;
  lead_status: LeadStatus;
  previously_good_lead: boolean;
  tag_ids: number[];
}

export interface IntegrationRec {
  account_id: string;
  company_id: string;
  id: number;
  type: string;
  state: 'active' | 'disabled';
  config: Record<string, unknown>;
  created_at: string;
}

export interface TriggerRec {
  account_id: string;
  company_id: string;
  id: number;
  integration_id: number;
  call_type: string;
  lead_status: string | null;
  direction: string;
  min_duration: number | null;
  tracker_ids: string[];
  created_at: string;
}

export interface NotificationRec {
  account_id: string;
  id: number;
  user_id: string;
  company_id: string | null;
  tracker_id: string | null;
  alert_type: 'email' | 'push' | 'sms';
  call_enabled: boolean;
  sms_enabled: boolean;
  form_submission_enabled: boolean;
  created_at: string;
}

export interface CallerIdRec {
  account_id: string;
  company_id: string;
  id: string;
  phone_number: string;
  name: string;
  status: 'verified' | 'pending';
  created_at: string;
}

export interface MessageRec {
  direction: 'inbound' | 'outbound';
  content: string;
  created_at: string;
  status: 'delivered' | 'failed' | 'received';
  error: string | null;
}

export interface ThreadRec {
  account_id: string;
  company_id: string;
  tracker_id: string;
  id: string;
  customer_name: string;
  customer_phone_number: string;
  tracking_phone_number: string;
  state: 'active' | 'closed';
  tag_ids: number[];
  created_at: string;
  messages: MessageRec[];
}

export interface SummaryEmailRec {
  account_id: string;
  id: number;
  user_id: string;
  company_id: string | null;
  frequency: 'daily' | 'weekly' | 'monthly';
  summary_statistics: string[];
  created_at: string;
}

export interface SandboxData {
  accounts: AccountRec[];
  companies: CompanyRec[];
  trackers: TrackerRec[];
  users: UserRec[];
  tags: TagRec[];
  calls: CallRec[];
  pageViews: PageViewRec[];
  forms: FormRec[];
  integrations: IntegrationRec[];
  triggers: TriggerRec[];
  notifications: NotificationRec[];
  callerIds: CallerIdRec[];
  threads: ThreadRec[];
  summaryEmails: SummaryEmailRec[];
  nextTagId: number;
}

// ---- deterministic helpers ---------------------------------------------------------------------------------------

/** Small seeded PRNG (mulberry32): the same data on every start. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** CallRail-style id: a three-letter prefix and 32 hex digits. */
function hexId(prefix: string, seed: string): string {
  return `${prefix}${createHash('md5').update(seed).digest('hex')}`;
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

function between(min: number, max: number, random: () => number): number {
  return min + Math.floor(random() * (max - min + 1));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function stamp(date: string, seconds: number, offset: string): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${date}T${pad(h)}:${pad(m)}:${pad(s)}.000${offset}`;
}

// ---- fixed identifiers (the plugin's examples use them, so describe_method examples work against the sandbox) ---------

export const IDS = {
  harbor: 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e',
  summit: 'ACC8e2d6b1a9c7f4e3d5b0a8c6f4e2d1b9a',
  downtown: 'COM7d2b5e8a1c4f4b9e8d3a6c0f2e5b7a91',
  westside: 'COM3a9f1c6e2b8d4a7f9c5e1b3d7a2f6c84',
  denver: 'COM5e8c2a7f1d9b4e6a3c8f2d5b1e9a7c62',
  boulder: 'COM9b1d4f7a3e6c4d2b8f5a1e9c3d7b6a28',
  googleTracker: 'TRK4b8e1f5a9c2d4e7b8a6f3c1d9e5b2a70',
  firstCall: 'CAL0c8e4d2a6f1b4e7c9a3d5f8b2e6c1a47',
  firstUser: 'USR2c7a9e4b1d6f4c3a8e5b2d9f1c7a4e63',
  firstForm: 'FOR6a1d3c8e5b2f4a9d7c4e1b8f3a6d2c05',
  firstThread: 'SMT9d4a7c2e5b8f4a1d6c3e9b7f2a5d8c16',
  firstCallerId: 'CID3e8b1d6a4c9f4e2b7a5d8c1f6e3b9a04',
} as const;

const FIRST_NAMES = [
  'Maria',
  'James',
  'Aisha',
  'Daniel',
  'Sofia',
  'Kevin',
  'Grace',
  'Omar',
  'Hannah',
  'Luis',
  'Megan',
  'Tyler',
  'Priyanka',
  'Ethan',
  'Chloe',
  'Andre',
  'Natalie',
  'Victor',
  'Leah',
  'Samuel',
];
const LAST_NAMES = [
  'Lopez',
  'Jenkins',
  'Patel',
  'Okafor',
  'Nguyen',
  'Brennan',
  'Kim',
  'Haddad',
  'Sullivan',
  'Moreno',
  'Walsh',
  'Fischer',
  'Rao',
  'Donovan',
  'Baptiste',
];

interface Market {
  state: string;
  cities: string[];
  area: string;
}
const MARKETS: Record<string, Market> = {
  [IDS.harbor]: { state: 'MA', cities: ['Boston', 'Cambridge', 'Somerville', 'Quincy', 'Brookline', 'Newton'], area: '617' },
  [IDS.summit]: { state: 'CO', cities: ['Denver', 'Aurora', 'Lakewood', 'Englewood', 'Boulder'], area: '303' },
};

/** Where calls of each source come from: campaign, keyword and referrer choices. */
const ATTRIBUTION: Record<
  string,
  { medium: string | null; campaigns: (string | null)[]; keywords: (string | null)[]; referrer: string | null }
> = {
  'Google Ads': {
    medium: 'cpc',
    campaigns: ['Spring Whitening Promo', 'Emergency Dental - Search'],
    keywords: ['emergency dentist', 'teeth whitening near me', 'dentist open saturday'],
    referrer: 'google.com',
  },
  Organic: { medium: 'organic', campaigns: [null], keywords: ['dentist downtown boston', null], referrer: 'google.com' },
  Facebook: { medium: 'social', campaigns: ['New Patient Offer - FB'], keywords: [null], referrer: 'facebook.com' },
  Direct: { medium: null, campaigns: [null], keywords: [null], referrer: null },
};
const ROOFING_ATTRIBUTION: Record<string, (string | null)[]> = {
  'Google Ads': ['Storm Damage - Search', 'Roof Replacement - Search'],
  Organic: [null],
  Facebook: ['Free Inspection - FB'],
  Direct: [null],
};

const NOTES = [
  'Booked a cleaning for next week',
  'Asked about insurance coverage',
  'Wants a quote, call back after 5pm',
  'Referred by a friend',
  'Left voicemail about a broken crown',
  null,
  null,
  null,
];

// ---- the seed -------------------------------------------------------------------------------------------------------

export function seed(): SandboxData {
  const random = prng(20250615);

  const accounts: AccountRec[] = [
    { id: IDS.harbor, numeric_id: 266101549, name: 'Harbor Dental Group', outbound_recording_enabled: true, hipaa_account: true },
    { id: IDS.summit, numeric_id: 318845220, name: 'Summit Roofing & Gutters', outbound_recording_enabled: false, hipaa_account: false },
  ];

  const companies: CompanyRec[] = [
    {
      account_id: IDS.harbor,
      id: IDS.downtown,
      name: 'Harbor Dental - Downtown',
      status: 'active',
      time_zone: 'America/New_York',
      offset: '-04:00',
      created_at: '2023-02-06T14:11:52.000-05:00',
      disabled_at: null,
      city: 'Boston',
      area_code: '617',
      domain: 'harbordental.example',
    },
    {
      account_id: IDS.harbor,
      id: IDS.westside,
      name: 'Harbor Dental - Westside',
      status: 'active',
      time_zone: 'America/New_York',
      offset: '-04:00',
      created_at: '2023-09-18T09:40:03.000-04:00',
      disabled_at: null,
      city: 'Newton',
      area_code: '617',
      domain: 'harbordental.example',
    },
    {
      account_id: IDS.summit,
      id: IDS.denver,
      name: 'Summit Roofing - Denver',
      status: 'active',
      time_zone: 'America/Denver',
      offset: '-06:00',
      created_at: '2022-11-02T10:05:41.000-06:00',
      disabled_at: null,
      city: 'Denver',
      area_code: '303',
      domain: 'summitroofing.example',
    },
    {
      account_id: IDS.summit,
      id: IDS.boulder,
      name: 'Summit Roofing - Boulder',
      status: 'disabled',
      time_zone: 'America/Denver',
      offset: '-06:00',
      created_at: '2023-04-12T08:22:10.000-06:00',
      disabled_at: '2024-10-31T17:00:00.000-06:00',
      city: 'Boulder',
      area_code: '303',
      domain: 'summitroofing.example',
    },
  ];

  const tracker = (
    account_id: string,
    company_id: string,
    n: number,
    name: string,
    type: TrackerRec['type'],
    source: string | null,
    numbers: string[],
    destination: string,
    status: TrackerRec['status'] = 'active',
    id = hexId('TRK', `tracker-${account_id}-${n}`),
  ): TrackerRec => {
    const attribution = source ? ATTRIBUTION[source] : undefined;
    return {
      account_id,
      company_id,
      id,
      name,
      type,
      status,
      tracking_numbers: numbers,
      destination_number: destination,
      source,
      medium: attribution?.medium ?? null,
      campaign: source === 'Google Ads' ? 'Spring Whitening Promo' : null,
      created_at: `2024-0${(n % 9) + 1}-1${n % 10}T10:00:00.000-04:00`,
      disabled_at: status === 'disabled' ? '2025-01-31T18:00:00.000-05:00' : null,
    };
  };
  const trackers: TrackerRec[] = [
    tracker(
      IDS.harbor,
      IDS.downtown,
      1,
      'Google Ads - Downtown',
      'source',
      'Google Ads',
      ['+16175550141'],
      '+16175550100',
      'active',
      IDS.googleTracker,
    ),
    tracker(
      IDS.harbor,
      IDS.downtown,
      2,
      'Website Visitors - Downtown',
      'session',
      null,
      ['+16175550150', '+16175550151', '+16175550152'],
      '+16175550100',
    ),
    tracker(IDS.harbor, IDS.westside, 3, 'Facebook Ads - Westside', 'source', 'Facebook', ['+16175550161'], '+16175550200'),
    tracker(IDS.harbor, IDS.westside, 4, 'Office Line - Westside', 'source', 'Direct', ['+16175550170'], '+16175550200'),
    tracker(IDS.harbor, IDS.downtown, 5, 'Spring Mailer 2024', 'source', 'Direct', ['+16175550180'], '+16175550100', 'disabled'),
    tracker(IDS.summit, IDS.denver, 6, 'Google Ads - Roofing', 'source', 'Google Ads', ['+13035550141'], '+13035550100'),
    tracker(IDS.summit, IDS.denver, 7, 'Website - Summit Roofing', 'session', null, ['+13035550150', '+13035550151'], '+13035550100'),
  ];

  const user = (
    account_id: string,
    n: number,
    first: string,
    last: string,
    role: UserRec['role'],
    company_ids: string[],
    domain: string,
    id = hexId('USR', `user-${account_id}-${n}`),
  ): UserRec => ({
    account_id,
    id,
    numeric_id: 210551 + n,
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}.${last.toLowerCase()}@${domain}`,
    role,
    company_ids,
    created_at: `2023-0${n}-0${n}T09:00:00.000-05:00`,
  });
  const users: UserRec[] = [
    user(IDS.harbor, 1, 'Emily', 'Chen', 'admin', [IDS.downtown, IDS.westside], 'harbordental.example', IDS.firstUser),
    user(IDS.harbor, 2, 'Marcus', 'Reed', 'agent', [IDS.downtown], 'harbordental.example'),
    user(IDS.harbor, 3, 'Priya', 'Nair', 'agent', [IDS.westside], 'harbordental.example'),
    user(IDS.harbor, 4, 'Tom', 'Gallagher', 'reporting', [IDS.downtown, IDS.westside], 'harbordental.example'),
    user(IDS.summit, 5, 'Dana', 'Kowalski', 'admin', [IDS.denver, IDS.boulder], 'summitroofing.example'),
    user(IDS.summit, 6, 'Luis', 'Ortega', 'agent', [IDS.denver], 'summitroofing.example'),
  ];

  const tags: TagRec[] = [
    {
      account_id: IDS.harbor,
      id: 4021993,
      name: 'New Patient',
      tag_level: 'account',
      company_id: null,
      color: 'green1',
      status: 'enabled',
      created_at: '2023-02-07T10:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021994,
      name: 'Existing Patient',
      tag_level: 'account',
      company_id: null,
      color: 'blue1',
      status: 'enabled',
      created_at: '2023-02-07T10:01:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021995,
      name: 'Emergency',
      tag_level: 'company',
      company_id: IDS.downtown,
      color: 'red1',
      status: 'enabled',
      created_at: '2023-03-01T11:30:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021996,
      name: 'Insurance Question',
      tag_level: 'company',
      company_id: IDS.westside,
      color: 'orange1',
      status: 'enabled',
      created_at: '2023-10-02T16:45:00.000-04:00',
    },
    {
      account_id: IDS.harbor,
      id: 4021997,
      name: 'Wrong Number',
      tag_level: 'account',
      company_id: null,
      color: 'gray1',
      status: 'disabled',
      created_at: '2023-04-14T08:20:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      id: 4022101,
      name: 'Roof Repair',
      tag_level: 'account',
      company_id: null,
      color: 'purple1',
      status: 'enabled',
      created_at: '2022-11-03T09:00:00.000-06:00',
    },
    {
      account_id: IDS.summit,
      id: 4022102,
      name: 'Estimate Requested',
      tag_level: 'account',
      company_id: null,
      color: 'yellow1',
      status: 'enabled',
      created_at: '2022-11-03T09:05:00.000-06:00',
    },
    {
      account_id: IDS.summit,
      id: 4022103,
      name: 'Gutter Cleaning',
      tag_level: 'company',
      company_id: IDS.denver,
      color: 'teal1',
      status: 'enabled',
      created_at: '2023-05-20T13:00:00.000-06:00',
    },
  ];

  // ---- calls: 48 for the dental group, 12 for the roofer, spread over the 90 days up to TODAY --------------------------
  const calls: CallRec[] = [];
  const pageViews: PageViewRec[] = [];
  const plan: Array<{ account: string; count: number; customers: number }> = [
    { account: IDS.harbor, count: 48, customers: 30 },
    { account: IDS.summit, count: 12, customers: 9 },
  ];
  for (const { account, count, customers } of plan) {
    const market = MARKETS[account] as Market;
    const accountTrackers = trackers.filter((t) => t.account_id === account && t.status === 'active');
    const accountUsers = users.filter((u) => u.account_id === account && u.role !== 'reporting');
    const accountTags = tags.filter((t) => t.account_id === account && t.status === 'enabled');
    // Website (session) trackers take the most calls, as on most CallRail accounts.
    const weighted = accountTrackers.flatMap((t) =>
      Array.from({ length: t.type === 'session' ? 3 : t.source === 'Direct' ? 1 : 2 }, () => t),
    );
    const people = Array.from({ length: customers }, (_, i) => ({
      name: `${FIRST_NAMES[(i * 7 + (account === IDS.harbor ? 0 : 3)) % FIRST_NAMES.length]} ${LAST_NAMES[(i * 4 + 1) % LAST_NAMES.length]}`,
      phone: `+1${market.area}555${pad(2000 + i * 37, 4)}`,
      city: pick(market.cities, random),
    }));
    for (let i = 0; i < count; i++) {
      // The first call of the dental group is the plugin's example call: a scored website call with page views.
      const example = account === IDS.harbor && i === 0;
      const t = example ? (accountTrackers.find((tr) => tr.type === 'session') as TrackerRec) : pick(weighted, random);
      const company = companies.find((c) => c.id === t.company_id) as CompanyRec;
      const daysAgo = Math.floor((i * 90) / count);
      const date = addDays(TODAY, -daysAgo);
      const start = stamp(date, between(8 * 3600, 18 * 3600, random), company.offset);
      const direction: CallRec['direction'] = !example && random() < 0.15 ? 'outbound' : 'inbound';
      const roll = example ? 0 : random();
      const answer_status: AnswerStatus =
        direction === 'outbound' ? (roll < 0.8 ? 'answered' : 'missed') : roll < 0.68 ? 'answered' : roll < 0.86 ? 'missed' : 'voicemail';
      const duration =
        answer_status === 'answered'
          ? between(45, 900, random)
          : answer_status === 'voicemail'
            ? between(20, 90, random)
            : between(0, 12, random);
      const source = t.source ?? pick(['Organic', 'Google Ads', 'Facebook', 'Direct', 'Organic'], random);
      const attribution = ATTRIBUTION[source] as (typeof ATTRIBUTION)[string];
      const campaign = account === IDS.harbor ? pick(attribution.campaigns, random) : pick(ROOFING_ATTRIBUTION[source] ?? [null], random);
      const person = pick(people, random);
      const session = t.type === 'session';
      const scored = answer_status === 'answered' && direction === 'inbound';
      const leadRoll = random();
      const lead_status: LeadStatus = example
        ? 'good_lead'
        : scored
          ? leadRoll < 0.45
            ? 'good_lead'
            : leadRoll < 0.7
              ? 'not_a_lead'
              : null
          : null;
      const id = account === IDS.harbor && i === 0 ? IDS.firstCall : hexId('CAL', `call-${account}-${i}`);
      const tagCount = random() < 0.4 ? 1 : random() < 0.15 ? 2 : 0;
      const tag_ids = example ? [4021993] : [...new Set(Array.from({ length: tagCount }, () => pick(accountTags, random).id))];
      const landing = session
        ? `https://www.${company.domain}${pick(['/', '/services', '/new-patients', '/contact', '/offers'], random)}`
        : null;
      calls.push({
        account_id: account,
        company_id: company.id,
        tracker_id: t.id,
        id,
        start_time: start,
        direction,
        answer_status,
        duration,
        customer_name: random() < 0.85 ? person.name : null,
        customer_phone_number: person.phone,
        customer_city: person.city,
        customer_state: market.state,
        customer_country: 'US',
        business_phone_number: t.destination_number,
        tracking_phone_number: pick(t.tracking_numbers, random),
        agent_user_id: answer_status === 'answered' ? pick(accountUsers, random).id : null,
        first_call: false,
        source,
        medium: attribution.medium,
        campaign,
        keywords: pick(attribution.keywords, random),
        referrer_domain: attribution.referrer,
        landing_page_url: landing,
        device_type: session ? pick(['mobile', 'mobile', 'desktop', 'tablet'] as const, random) : null,
        browser: session ? pick(['Chrome', 'Safari', 'Edge', 'Firefox'], random) : null,
        os: session ? pick(['iOS', 'Android', 'Windows', 'macOS'], random) : null,
        lead_status,
        previously_good_lead: lead_status === 'not_a_lead' && leadRoll > 0.62,
        tag_ids,
        note: answer_status === 'missed' ? null : pick(NOTES, random),
        value: lead_status === 'good_lead' ? `${between(2, 40, random) * 25}.00` : null,
      });
      if (session && landing) {
        const views = between(1, 4, random);
        const startMs = Date.parse(start);
        for (let v = 0; v < views; v++) {
          const at = new Date(startMs - (views - v) * between(40, 240, random) * 1000);
          pageViews.push({
            call_id: id,
            url:
              v === 0
                ? landing
                : `https://www.${company.domain}${pick(['/services', '/team', '/insurance', '/contact', '/reviews'], random)}`,
            referrer_url: v === 0 ? (attribution.referrer ? `https://www.${attribution.referrer}/` : null) : landing,
            created_at: at.toISOString().replace('Z', '+00:00'),
          });
        }
      }
    }
  }
  // Earliest call of each customer number is their first call.
  const seen = new Set<string>();
  for (const call of [...calls].sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time))) {
    const key = `${call.account_id}/${call.customer_phone_number}`;
    if (call.direction === 'inbound' && !seen.has(key)) {
      call.first_call = true;
      seen.add(key);
    }
  }

  // ---- form submissions ---------------------------------------------------------------------------------------------
  const forms: FormRec[] = [];
  const formPlan: Array<{ account: string; count: number }> = [
    { account: IDS.harbor, count: 14 },
    { account: IDS.summit, count: 5 },
  ];
  for (const { account, count } of formPlan) {
    const accountCompanies = companies.filter((c) => c.account_id === account && c.status === 'active');
    const accountTags = tags.filter((t) => t.account_id === account && t.status === 'enabled');
    const market = MARKETS[account] as Market;
    const emailsSeen = new Set<string>();
    for (let i = 0; i < count; i++) {
      const company = accountCompanies[i % accountCompanies.length] as CompanyRec;
      const first = FIRST_NAMES[(i * 3 + 5) % FIRST_NAMES.length] as string;
      const last = LAST_NAMES[(i * 5 + 2) % LAST_NAMES.length] as string;
      const email = `${first.toLowerCase()}.${last.toLowerCase()}@mail.example`;
      const source = pick(['Google Ads', 'Organic', 'Facebook', 'Direct'], random);
      const attribution = ATTRIBUTION[source] as (typeof ATTRIBUTION)[string];
      const booking = i % 3 !== 2;
      const formPath = booking ? '/book-appointment' : '/contact';
      const date = addDays(TODAY, -Math.floor((i * 75) / count) - 1);
      const submitted = stamp(date, between(7 * 3600, 22 * 3600, random), company.offset);
      const leadRoll = random();
      const lead_status: LeadStatus = leadRoll < 0.5 ? 'good_lead' : leadRoll < 0.7 ? 'not_a_lead' : null;
      const phone = `+1${market.area}555${pad(6000 + i * 41, 4)}`;
      forms.push({
        account_id: account,
        company_id: company.id,
        id: account === IDS.harbor && i === 0 ? IDS.firstForm : hexId('FOR', `form-${account}-${i}`),
        person_id: lead_status === 'good_lead' || i % 4 === 0 ? hexId('PER', `person-${account}-${i}`) : null,
        custom_form_id: account === IDS.harbor ? (booking ? 7731 : 7732) : booking ? 8801 : 8802,
        form_name: booking ? (account === IDS.harbor ? 'Book an Appointment' : 'Request an Estimate') : 'Contact Us',
        form_url: `https://www.${company.domain}${formPath}`,
        landing_page_url: `https://www.${company.domain}${pick(['/', '/offers', '/services'], random)}`,
        referrer: attribution.referrer,
        submitted_at: submitted,
        created_at: submitted,
        first_form: !emailsSeen.has(email),
        customer_name: `${first} ${last}`,
        customer_phone_number: phone,
        customer_email: email,
        form_data: {
          name: `${first} ${last}`,
          email,
          phone,
          message: booking
            ? account === IDS.harbor
              ? 'I would like a cleaning and check-up.'
              : 'Hail damage on the north side of the roof.'
            : 'Do you take Delta Dental?',
        },
        source,
        medium: attribution.medium,
        campaign: pick(attribution.campaigns, random),
        keywords: pick(attribution.keywords, random),
        lead_status,
        previously_good_lead: lead_status === 'not_a_lead' && i % 2 === 0,
        tag_ids: random() < 0.35 ? [pick(accountTags, random).id] : [],
      });
      emailsSeen.add(email);
    }
  }

  const integrations: IntegrationRec[] = [
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: 1402215,
      type: 'Webhooks',
      state: 'active',
      config: {
        pre_call_webhook: [],
        post_call_webhook: ['https://hooks.harbordental.example/callrail/post-call'],
        call_modified_webhook: ['https://hooks.harbordental.example/callrail/modified'],
        text_message_webhook: [],
        form_submission_webhook: ['https://hooks.harbordental.example/callrail/forms'],
      },
      created_at: '2024-02-12T15:20:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: 1402216,
      type: 'GoogleAnalytics4',
      state: 'active',
      config: { measurement_id: 'G-HB4R8D3NTL', send_first_time_callers_only: false },
      created_at: '2024-03-04T10:02:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.westside,
      id: 1402217,
      type: 'Salesforce',
      state: 'disabled',
      config: { instance_url: 'https://harbordental.my.salesforce.example', object: 'Lead' },
      created_at: '2024-06-21T13:45:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      company_id: IDS.denver,
      id: 1402301,
      type: 'Webhooks',
      state: 'active',
      config: { post_call_webhook: ['https://crm.summitroofing.example/hooks/callrail'] },
      created_at: '2023-01-09T08:00:00.000-07:00',
    },
  ];

  const triggers: TriggerRec[] = [
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: 88104,
      integration_id: 1402215,
      call_type: 'all',
      lead_status: null,
      direction: 'inbound',
      min_duration: 30,
      tracker_ids: [],
      created_at: '2024-02-12T15:25:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: 88105,
      integration_id: 1402216,
      call_type: 'first_call',
      lead_status: 'good_lead',
      direction: 'inbound',
      min_duration: null,
      tracker_ids: [IDS.googleTracker],
      created_at: '2024-03-04T10:10:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.westside,
      id: 88106,
      integration_id: 1402217,
      call_type: 'answered',
      lead_status: null,
      direction: 'all',
      min_duration: 60,
      tracker_ids: [],
      created_at: '2024-06-21T13:50:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      company_id: IDS.denver,
      id: 88201,
      integration_id: 1402301,
      call_type: 'all',
      lead_status: null,
      direction: 'inbound',
      min_duration: null,
      tracker_ids: [],
      created_at: '2023-01-09T08:05:00.000-07:00',
    },
  ];

  const harborUsers = users.filter((u) => u.account_id === IDS.harbor);
  const notifications: NotificationRec[] = [
    {
      account_id: IDS.harbor,
      id: 31001,
      user_id: IDS.firstUser,
      company_id: null,
      tracker_id: null,
      alert_type: 'email',
      call_enabled: true,
      sms_enabled: true,
      form_submission_enabled: true,
      created_at: '2023-02-08T09:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 31002,
      user_id: (harborUsers[1] as UserRec).id,
      company_id: IDS.downtown,
      tracker_id: null,
      alert_type: 'push',
      call_enabled: true,
      sms_enabled: false,
      form_submission_enabled: false,
      created_at: '2023-05-11T12:30:00.000-04:00',
    },
    {
      account_id: IDS.harbor,
      id: 31003,
      user_id: (harborUsers[2] as UserRec).id,
      company_id: IDS.westside,
      tracker_id: hexId('TRK', `tracker-${IDS.harbor}-3`),
      alert_type: 'sms',
      call_enabled: true,
      sms_enabled: true,
      form_submission_enabled: false,
      created_at: '2023-10-03T08:15:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      id: 31101,
      user_id: (users[4] as UserRec).id,
      company_id: IDS.denver,
      tracker_id: null,
      alert_type: 'email',
      call_enabled: true,
      sms_enabled: false,
      form_submission_enabled: true,
      created_at: '2022-11-04T10:00:00.000-06:00',
    },
  ];

  const callerIds: CallerIdRec[] = [
    {
      account_id: IDS.harbor,
      company_id: IDS.downtown,
      id: IDS.firstCallerId,
      phone_number: '+16175550100',
      name: 'Harbor Dental Main Line',
      status: 'verified',
      created_at: '2023-02-09T11:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.westside,
      id: hexId('CID', 'caller-2'),
      phone_number: '+16175550200',
      name: 'Westside Front Desk',
      status: 'verified',
      created_at: '2023-09-20T10:30:00.000-04:00',
    },
    {
      account_id: IDS.harbor,
      company_id: IDS.westside,
      id: hexId('CID', 'caller-3'),
      phone_number: '+16175550299',
      name: 'Dr. Chen Mobile',
      status: 'pending',
      created_at: '2025-06-10T16:05:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      company_id: IDS.denver,
      id: hexId('CID', 'caller-4'),
      phone_number: '+13035550100',
      name: 'Summit Office',
      status: 'verified',
      created_at: '2022-11-05T09:00:00.000-06:00',
    },
  ];

  const conversationsPlan: Array<{
    account: string;
    company: string;
    tracker: string;
    customer: string;
    phone: string;
    tags: number[];
    lines: string[];
  }> = [
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: IDS.googleTracker,
      customer: 'Maria Lopez',
      phone: '+16175552000',
      tags: [4021993],
      lines: [
        'Hi, do you have any openings this Saturday for a cleaning?',
        'Hi Maria! We have 9:30 or 11:00 this Saturday. Which works better?',
        '11 please',
        'You are booked for Saturday at 11:00. Reply C to confirm.',
        'C',
        'Confirmed, see you Saturday!',
      ],
    },
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: IDS.googleTracker,
      customer: 'James Jenkins',
      phone: '+16175552037',
      tags: [4021995],
      lines: ['I chipped a tooth, can someone see me today?', 'Yes, please come in at 2:15 today.', 'Thank you!'],
    },
    {
      account: IDS.harbor,
      company: IDS.westside,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-3`),
      customer: 'Aisha Patel',
      phone: '+16175552074',
      tags: [4021996],
      lines: ['Do you take Delta Dental PPO?', 'We do! Want to book a new patient visit?', 'Maybe next month, thanks'],
    },
    {
      account: IDS.harbor,
      company: IDS.westside,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-4`),
      customer: 'Daniel Okafor',
      phone: '+16175552111',
      tags: [],
      lines: ['Running 10 minutes late for my 3pm', 'No problem, thanks for letting us know.'],
    },
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-2`),
      customer: 'Sofia Nguyen',
      phone: '+16175552148',
      tags: [4021994],
      lines: [
        'Can I get a copy of my x-rays sent to my new dentist?',
        'Sure, please reply with their fax or email.',
        'records@smilecare.example',
      ],
    },
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: IDS.googleTracker,
      customer: 'Kevin Brennan',
      phone: '+16175552185',
      tags: [],
      lines: ['How much is teeth whitening?', 'Our spring promo is $199 for in-office whitening.'],
    },
    {
      account: IDS.summit,
      company: IDS.denver,
      tracker: hexId('TRK', `tracker-${IDS.summit}-6`),
      customer: 'Grace Kim',
      phone: '+13035552000',
      tags: [4022102],
      lines: ['Hail hit our roof last night, can you come look?', 'We can inspect tomorrow between 8 and 10am.', 'Perfect'],
    },
    {
      account: IDS.summit,
      company: IDS.denver,
      tracker: hexId('TRK', `tracker-${IDS.summit}-7`),
      customer: 'Omar Haddad',
      phone: '+13035552037',
      tags: [4022103],
      lines: ['Do you clean gutters in Aurora?', 'Yes, $149 for a single-story home.'],
    },
  ];
  const threads: ThreadRec[] = conversationsPlan.map((plan, i) => {
    const t = trackers.find((tr) => tr.id === plan.tracker) as TrackerRec;
    const company = companies.find((c) => c.id === plan.company) as CompanyRec;
    const lastDate = addDays(TODAY, -(i * 4));
    const messages: MessageRec[] = plan.lines.map((content, m) => {
      const inbound = m % 2 === 0;
      const failed = i === 0 && m === 3;
      return {
        direction: inbound ? 'inbound' : 'outbound',
        content,
        created_at: stamp(addDays(lastDate, m - plan.lines.length + 1 < -1 ? -1 : 0), 9 * 3600 + m * 420 + i * 60, company.offset),
        status: inbound ? 'received' : failed ? 'failed' : 'delivered',
        error: failed ? 'Carrier rejected the message (30007: filtered as spam)' : null,
      };
    });
    return {
      account_id: plan.account,
      company_id: plan.company,
      tracker_id: plan.tracker,
      id: i === 0 ? IDS.firstThread : hexId('SMT', `thread-${i}`),
      customer_name: plan.customer,
      customer_phone_number: plan.phone,
      tracking_phone_number: t.tracking_numbers[0] as string,
      state: i % 4 === 3 ? 'closed' : 'active',
      tag_ids: plan.tags,
      created_at: (messages[0] as MessageRec).created_at,
      messages,
    };
  });

  const summaryEmails: SummaryEmailRec[] = [
    {
      account_id: IDS.harbor,
      id: 55021,
      user_id: IDS.firstUser,
      company_id: null,
      frequency: 'weekly',
      summary_statistics: ['total_calls', 'missed_calls', 'first_time_callers', 'leads'],
      created_at: '2023-02-10T09:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 55022,
      user_id: (harborUsers[1] as UserRec).id,
      company_id: IDS.downtown,
      frequency: 'daily',
      summary_statistics: ['total_calls', 'missed_calls'],
      created_at: '2023-05-12T09:00:00.000-04:00',
    },
    {
      account_id: IDS.harbor,
      id: 55023,
      user_id: (harborUsers[3] as UserRec).id,
      company_id: null,
      frequency: 'monthly',
      summary_statistics: ['total_calls', 'answered_calls', 'average_duration', 'leads'],
      created_at: '2024-01-02T09:00:00.000-05:00',
    },
    {
      account_id: IDS.harbor,
      id: 55024,
      user_id: (harborUsers[2] as UserRec).id,
      company_id: IDS.westside,
      frequency: 'weekly',
      summary_statistics: ['total_calls', 'leads'],
      created_at: '2024-04-08T09:00:00.000-04:00',
    },
    {
      account_id: IDS.summit,
      id: 55101,
      user_id: (users[4] as UserRec).id,
      company_id: null,
      frequency: 'weekly',
      summary_statistics: ['total_calls', 'leads'],
      created_at: '2022-11-06T09:00:00.000-06:00',
    },
  ];

  return {
    accounts,
    companies,
    trackers,
    users,
    tags,
    calls,
    pageViews,
    forms,
    integrations,
    triggers,
    notifications,
    callerIds,
    threads,
    summaryEmails,
    nextTagId: 4023001,
  };
}
