import { STORY } from '@portico/core/testing/emulator';
import { addDays, today } from '../clock.js';
import type { AnswerStatus, CallRec, CompanyRec, LeadStatus, PageViewRec, SandboxData, TrackerRec } from '../records.js';
import type { AccountSetup } from './accounts.js';
import { IDS } from './ids.js';
import { ATTRIBUTION, FIRST_NAMES, LAST_NAMES, MARKETS, type Market, NOTES, ROOFING_ATTRIBUTION } from './markets.js';
import { between, hexId, pad, pick, type Random, stamp } from './random.js';

/** Calls: 48 for the firm, 12 for its estate-planning line, spread over the 90 days up to today, with their page views. */
export function seedCalls(random: Random, { companies, trackers, users, tags }: AccountSetup): Pick<SandboxData, 'calls' | 'pageViews'> {
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
      // The first call of the firm is the plugin's example call: a scored website call with page views.
      const example = account === IDS.harbor && i === 0;
      const t = example ? (accountTrackers.find((tr) => tr.type === 'session') as TrackerRec) : pick(weighted, random);
      const company = companies.find((c) => c.id === t.company_id) as CompanyRec;
      const daysAgo = Math.floor((i * 90) / count);
      const date = addDays(today(), -daysAgo);
      const start = stamp(date, between(8 * 3600, 18 * 3600, random), company.time_zone);
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
        ? `https://www.${company.domain}${pick(['/', '/services', '/new-clients', '/contact', '/free-consultation'], random)}`
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
      // The firm's second call is the story's: Rosa Delgado, yesterday, answered on the Google Ads line.
      const story = account === IDS.harbor && i === 1;
      if (story) tellTheStory(calls[calls.length - 1] as CallRec, trackers, accountUsers);
      if (session && landing && !story) {
        const views = between(1, 4, random);
        const startMs = Date.parse(start);
        for (let v = 0; v < views; v++) {
          const at = new Date(startMs - (views - v) * between(40, 240, random) * 1000);
          pageViews.push({
            call_id: id,
            url:
              v === 0 ? landing : `https://www.${company.domain}${pick(['/services', '/team', '/fees', '/contact', '/reviews'], random)}`,
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

  return { calls, pageViews };
}

function tellTheStory(call: CallRec, trackers: TrackerRec[], users: AccountSetup['users']): void {
  const line = trackers.find((t) => t.id === IDS.googleTracker) as TrackerRec;
  const attribution = ATTRIBUTION['Google Ads'] as (typeof ATTRIBUTION)[string];
  Object.assign(call, {
    start_time: `${addDays(today(), -STORY.calledDaysAgo)}T16:42:10${call.start_time.slice(19)}`,
    tracker_id: line.id,
    company_id: line.company_id,
    direction: 'inbound',
    answer_status: 'answered',
    duration: 412,
    customer_name: STORY.client.name,
    customer_phone_number: STORY.client.phone,
    customer_city: STORY.client.city,
    customer_state: 'CA',
    business_phone_number: line.destination_number,
    tracking_phone_number: line.tracking_numbers[0],
    agent_user_id: (users[0] as AccountSetup['users'][number]).id,
    source: 'Google Ads',
    medium: attribution.medium,
    campaign: attribution.campaigns[0],
    keywords: attribution.keywords[1],
    referrer_domain: attribution.referrer,
    landing_page_url: null,
    device_type: null,
    browser: null,
    os: null,
    lead_status: 'good_lead',
    previously_good_lead: false,
    note: `Asked about ${STORY.matter} and her invoice ${STORY.invoice.number}; wants a call back from Daniel`,
    value: null,
  } satisfies Partial<CallRec>);
}
