import { addDays, today } from '../clock.js';
import type { CompanyRec, MessageRec, ThreadRec, TrackerRec } from '../records.js';
import type { AccountSetup } from './accounts.js';
import { IDS } from './ids.js';
import { hexId, stamp } from './random.js';

/** Text-message conversations, each a thread of messages with one customer. */
export function seedMessaging({ companies, trackers }: AccountSetup): ThreadRec[] {
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
      phone: '+14155552000',
      tags: [4021993],
      lines: [
        'Hi, do you have any consultation openings this Saturday?',
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
      phone: '+14155552037',
      tags: [4021995],
      lines: ['I was served papers today, can someone call me?', 'Yes, Daniel can call you at 2:15 today.', 'Thank you!'],
    },
    {
      account: IDS.harbor,
      company: IDS.westside,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-3`),
      customer: 'Aisha Patel',
      phone: '+14155552074',
      tags: [4021996],
      lines: ['Do you offer payment plans?', 'We do! Want to book a free consultation?', 'Maybe next month, thanks'],
    },
    {
      account: IDS.harbor,
      company: IDS.westside,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-4`),
      customer: 'Daniel Okafor',
      phone: '+14155552111',
      tags: [],
      lines: ['Running 10 minutes late for my 3pm consultation', 'No problem, thanks for letting us know.'],
    },
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-2`),
      customer: 'Sofia Nguyen',
      phone: '+14155552148',
      tags: [4021994],
      lines: [
        'Can I get a copy of my signed retainer agreement?',
        'Sure, please reply with their fax or email.',
        'maria.lopez@example.com',
      ],
    },
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: IDS.googleTracker,
      customer: 'Kevin Brennan',
      phone: '+14155552185',
      tags: [],
      lines: ['How much is teeth whitening?', 'Our spring promo is $199 for in-office whitening.'],
    },
    {
      account: IDS.summit,
      company: IDS.denver,
      tracker: hexId('TRK', `tracker-${IDS.summit}-6`),
      customer: 'Grace Kim',
      phone: '+16285552000',
      tags: [4022102],
      lines: ['My mother wants to update her trust, can we meet?', 'We can meet tomorrow between 8 and 10am.', 'Perfect'],
    },
    {
      account: IDS.summit,
      company: IDS.denver,
      tracker: hexId('TRK', `tracker-${IDS.summit}-7`),
      customer: 'Omar Haddad',
      phone: '+16285552037',
      tags: [4022103],
      lines: ['Do you clean gutters in Aurora?', 'Yes, $149 for a single-story home.'],
    },
  ];
  const threads: ThreadRec[] = conversationsPlan.map((plan, i) => {
    const t = trackers.find((tr) => tr.id === plan.tracker) as TrackerRec;
    const company = companies.find((c) => c.id === plan.company) as CompanyRec;
    const lastDate = addDays(today(), -(i * 4));
    const messages: MessageRec[] = plan.lines.map((content, m) => {
      const inbound = m % 2 === 0;
      const failed = i === 0 && m === 3;
      return {
        direction: inbound ? 'inbound' : 'outbound',
        content,
        created_at: stamp(addDays(lastDate, m - plan.lines.length + 1 < -1 ? -1 : 0), 9 * 3600 + m * 420 + i * 60, company.time_zone),
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

  return threads;
}
