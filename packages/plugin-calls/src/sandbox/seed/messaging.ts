import { firmCaller } from '@portico/core/testing/emulator';
import { addDays, today } from '../clock.js';
import type { CompanyRec, MessageRec, ThreadRec, TrackerRec } from '../records.js';
import type { AccountSetup } from './accounts.js';
import { IDS } from './ids.js';
import { hexId, stamp } from './random.js';

/** Text-message conversations, each a thread of messages with one of the firm's clients or leads (firmCaller). */
export function seedMessaging({ companies, trackers }: AccountSetup): ThreadRec[] {
  const conversationsPlan: Array<{
    account: string;
    company: string;
    tracker: string;
    customer: string;
    tags: number[];
    lines: string[];
  }> = [
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: IDS.googleTracker,
      customer: 'Caleb Whitman',
      tags: [4021993],
      lines: [
        'Hi, do you have any consultation openings this Saturday?',
        'Hi Caleb! We have 9:30 or 11:00 this Saturday. Which works better?',
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
      customer: 'Eleanor Vance',
      tags: [4021995],
      lines: ['I was served with new papers today, can someone call me?', 'Yes, Margaret can call you at 2:15 today.', 'Thank you!'],
    },
    {
      account: IDS.harbor,
      company: IDS.westside,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-3`),
      customer: 'Rosa Delgado',
      tags: [4021996],
      lines: ['Do you offer payment plans for my invoice?', 'We do! Nora will email you the options today.', 'Thank you'],
    },
    {
      account: IDS.harbor,
      company: IDS.westside,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-4`),
      customer: 'Victor Lam',
      tags: [],
      lines: ['Running 10 minutes late for my 3pm consultation', 'No problem, thanks for letting us know.'],
    },
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: hexId('TRK', `tracker-${IDS.harbor}-2`),
      customer: 'Samuel Okafor',
      tags: [4021994],
      lines: ['Can I get a copy of my signed retainer agreement?', 'Sure, where should we send it?', 'samuel.okafor@example.com'],
    },
    {
      account: IDS.harbor,
      company: IDS.downtown,
      tracker: IDS.googleTracker,
      customer: 'Lucia Moreno',
      tags: [],
      lines: ['Can I text you the photos of my bruises?', 'Yes, Tom will add them to your file.'],
    },
    {
      account: IDS.summit,
      company: IDS.denver,
      tracker: hexId('TRK', `tracker-${IDS.summit}-6`),
      customer: 'Harriet Osei',
      tags: [4022102],
      lines: ['We would like to go over the trust draft, can we meet?', 'We can meet tomorrow between 8 and 10am.', 'Perfect'],
    },
    {
      account: IDS.summit,
      company: IDS.denver,
      tracker: hexId('TRK', `tracker-${IDS.summit}-7`),
      customer: 'Greta Sorensen',
      tags: [4022103],
      lines: ['Do you handle probate in Marin?', 'Yes, Margaret can meet you on Thursday.'],
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
      customer_name: firmCaller(plan.customer).name,
      customer_phone_number: firmCaller(plan.customer).phone,
      tracking_phone_number: t.tracking_numbers[0] as string,
      state: i % 4 === 3 ? 'closed' : 'active',
      tag_ids: plan.tags,
      created_at: (messages[0] as MessageRec).created_at,
      messages,
    };
  });

  return threads;
}
