import { FIRM_CALLS, FIRM_MATTERS, type FirmCall, type FirmCaller, firmCaller, firmCallers, STORY } from '@portico/core/testing/emulator';
import { addDays, today } from '../clock.js';
import type { AnswerStatus, CallRec, CompanyRec, LeadStatus, PageViewRec, SandboxData, TrackerRec } from '../records.js';
import type { AccountSetup } from './accounts.js';
import { IDS } from './ids.js';
import { ATTRIBUTION, MARKETS, type Market, NOTES, ROOFING_ATTRIBUTION } from './markets.js';
import { between, hexId, pick, type Random, stamp } from './random.js';

/**
 * The people who call an account: the firm's clients and leads (@portico/core/testing's firmCallers), the estate
 * planning line only those whose matter is an estate plan. Each calls from their own number, under their own name.
 */
export function callersOf(account: string): FirmCaller[] {
  const all = firmCallers();
  if (account !== IDS.summit) return all;
  return all.filter((c) => (c.lead?.area ?? (c.client ? matterArea(c.client.name) : '')) === 'Estate Planning');
}

const matterArea = (client: string) => FIRM_MATTERS.find((m) => m.client === client)?.area ?? '';

/**
 * Calls: 48 for the firm, 12 for its estate-planning line, spread over the 90 days before today, with their page
 * views; on the firm's line, the calls the story tells (FIRM_CALLS) among them, the newest this morning's.
 */
export function seedCalls(random: Random, { companies, trackers, users, tags }: AccountSetup): Pick<SandboxData, 'calls' | 'pageViews'> {
  const calls: CallRec[] = [];
  const pageViews: PageViewRec[] = [];
  const plan: Array<{ account: string; count: number }> = [
    { account: IDS.harbor, count: 48 },
    { account: IDS.summit, count: 12 },
  ];
  for (const { account, count } of plan) {
    const market = MARKETS[account] as Market;
    const accountTrackers = trackers.filter((t) => t.account_id === account && t.status === 'active');
    const accountUsers = users.filter((u) => u.account_id === account && u.role !== 'reporting');
    const accountTags = tags.filter((t) => t.account_id === account && t.status === 'enabled');
    // Website (session) trackers take the most calls, as on most CallRail accounts.
    const weighted = accountTrackers.flatMap((t) =>
      Array.from({ length: t.type === 'session' ? 3 : t.source === 'Direct' ? 1 : 2 }, () => t),
    );
    const people = callersOf(account);
    for (let i = 0; i < count; i++) {
      // The first call of the firm is the plugin's example call: a scored website call with page views.
      const example = account === IDS.harbor && i === 0;
      const t = example ? (accountTrackers.find((tr) => tr.type === 'session') as TrackerRec) : pick(weighted, random);
      const company = companies.find((c) => c.id === t.company_id) as CompanyRec;
      // the story's calls are the only ones of today, yesterday and the day before; the others go back 90 days
      const daysAgo = 3 + Math.floor((i * 87) / count);
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
      // a caller who had come to the firm by that day
      const person = pick(
        people.filter((p) => p.sinceDaysAgo >= daysAgo),
        random,
      );
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
      // The firm's calls after the example are the story's (FIRM_CALLS): this morning's, yesterday's, the day before's.
      const told = account === IDS.harbor && i >= 1 && i <= FIRM_CALLS.length ? FIRM_CALLS[i - 1] : undefined;
      const story = told !== undefined;
      if (told) tellTheStory(calls[calls.length - 1] as CallRec, told, trackers, companies, accountUsers);
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

function tellTheStory(call: CallRec, told: FirmCall, trackers: TrackerRec[], companies: CompanyRec[], users: AccountSetup['users']): void {
  const line = trackers.find((t) => t.tracking_numbers.includes(told.line)) as TrackerRec;
  const company = companies.find((c) => c.id === line.company_id) as CompanyRec;
  const who = firmCaller(told.who);
  const source = line.source ?? 'Google Ads';
  const attribution = ATTRIBUTION[source] as (typeof ATTRIBUTION)[string];
  const [h, m, s] = told.time.split(':').map(Number) as [number, number, number];
  const agent = told.agent ? users.find((u) => `${u.first_name} ${u.last_name}` === told.agent) : undefined;
  Object.assign(call, {
    start_time: stamp(addDays(today(), -told.daysAgo), h * 3600 + m * 60 + s, company.time_zone),
    tracker_id: line.id,
    company_id: line.company_id,
    direction: told.direction,
    answer_status: told.answer,
    duration: told.duration,
    customer_name: who.name,
    customer_phone_number: who.phone,
    customer_city: who.city,
    customer_state: 'CA',
    business_phone_number: line.destination_number,
    tracking_phone_number: told.line,
    agent_user_id: agent?.id ?? null,
    source,
    medium: attribution.medium,
    campaign: who.name === STORY.client.name ? attribution.campaigns[0] : (attribution.campaigns.at(-1) ?? null),
    keywords: who.name === STORY.client.name ? attribution.keywords[1] : (attribution.keywords.at(-1) ?? null),
    referrer_domain: attribution.referrer,
    landing_page_url: null,
    device_type: null,
    browser: null,
    os: null,
    lead_status: told.answer === 'answered' || who.lead ? 'good_lead' : null,
    previously_good_lead: false,
    tag_ids: who.lead ? [4021993] : [4021994],
    note: told.note,
    value: null,
  } satisfies Partial<CallRec>);
}
