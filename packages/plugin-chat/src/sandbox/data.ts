/** The sandbox workspace: plain in-memory records, seeded deterministically and changed by write methods. */

import { daysBetween, sandboxToday } from '@portico/core/testing/emulator';

export const TEAM_ID = 'T05HARBOR01';
export const BOT_USER_ID = 'U05PORTICO0';
export const BOT_ID = 'B05PORTICO1';
export const GENERAL_ID = 'C05GENERAL1';
export const RANDOM_ID = 'C05RANDOM01';
export const LAUNCH_ID = 'C05LAUNCH01';
export const DESIGN_ID = 'C05DESIGN01';
export const OFFSITE_ID = 'C05OFFSITE1';
export const LEADERSHIP_ID = 'C05LEADS001';
export const ALICE_DM_ID = 'D05ALICEDM1';

export interface SandboxUser {
  id: string;
  name: string;
  realName: string;
  displayName: string;
  title: string;
  email?: string;
  tz: string;
  tzOffset: number;
  isAdmin: boolean;
  isBot: boolean;
  deleted: boolean;
}

export interface Reaction {
  name: string;
  users: string[];
}

export interface SandboxFile {
  id: string;
  name: string;
  title: string;
  declaredLength: number;
  bytes?: Buffer;
  user: string;
  created: number;
  channels: string[];
}

export interface StoredMessage {
  ts: string;
  user: string;
  text: string;
  /** Set on replies (the parent's ts) and on thread parents (their own ts), as Slack does. */
  threadTs?: string;
  subtype?: string;
  botId?: string;
  reactions: Reaction[];
  files: SandboxFile[];
}

export interface Pin {
  ts: string;
  created: number;
  createdBy: string;
}

export interface SandboxChannel {
  id: string;
  name: string;
  kind: 'channel' | 'im';
  isPrivate: boolean;
  isArchived: boolean;
  isGeneral: boolean;
  created: number;
  creator: string;
  /** For a DM: the other person. */
  dmUser?: string;
  topic: string;
  purpose: string;
  members: Set<string>;
  /** All messages, replies included, oldest first. */
  messages: StoredMessage[];
  pins: Pin[];
}

export interface SandboxState {
  users: SandboxUser[];
  channels: SandboxChannel[];
  files: Map<string, SandboxFile>;
  /** Logical clock (Unix seconds) for new messages and records, so that runs are reproducible. */
  clock: number;
  sequence: number;
}

const USERS: SandboxUser[] = [
  {
    id: 'U05ALICE001',
    name: 'alice.moreau',
    realName: 'Alice Moreau',
    displayName: 'Alice',
    title: 'Engineering Manager',
    email: 'alice.moreau@harborlane.example',
    tz: 'Europe/Paris',
    tzOffset: 7200,
    isAdmin: true,
    isBot: false,
    deleted: false,
  },
  {
    id: 'U05BRUNO002',
    name: 'bruno.costa',
    realName: 'Bruno Costa',
    displayName: 'Bruno',
    title: 'Backend Engineer',
    email: 'bruno.costa@harborlane.example',
    tz: 'Europe/Lisbon',
    tzOffset: 3600,
    isAdmin: false,
    isBot: false,
    deleted: false,
  },
  {
    id: 'U05CHLOE003',
    name: 'chloe.nguyen',
    realName: 'Chloé Nguyen',
    displayName: 'Chloé',
    title: 'Product Designer',
    email: 'chloe.nguyen@harborlane.example',
    tz: 'America/Toronto',
    tzOffset: -14400,
    isAdmin: false,
    isBot: false,
    deleted: false,
  },
  {
    id: 'U05DAVID004',
    name: 'david.okafor',
    realName: 'David Okafor',
    displayName: 'David',
    title: 'Customer Success Lead',
    email: 'david.okafor@harborlane.example',
    tz: 'Africa/Lagos',
    tzOffset: 3600,
    isAdmin: false,
    isBot: false,
    deleted: false,
  },
  {
    id: 'U05ELENA005',
    name: 'elena.rossi',
    realName: 'Elena Rossi',
    displayName: 'Elena',
    title: 'Finance Controller',
    email: 'elena.rossi@harborlane.example',
    tz: 'Europe/Rome',
    tzOffset: 7200,
    isAdmin: false,
    isBot: false,
    deleted: false,
  },
  {
    id: BOT_USER_ID,
    name: 'portico',
    realName: 'Portico',
    displayName: 'Portico',
    title: '',
    tz: 'America/Los_Angeles',
    tzOffset: -25200,
    isAdmin: false,
    isBot: true,
    deleted: false,
  },
];

const HUMANS = USERS.filter((u) => !u.isBot).map((u) => u.id);
const [ALICE, BRUNO, CHLOE, DAVID, ELENA] = HUMANS as [string, string, string, string, string];

/** 45 top-level messages of #general: with 20 a page, reading it all takes three pages (20, 20, 5). */
const GENERAL_LINES: ReadonlyArray<readonly [user: string, text: string]> = [
  [ALICE, 'Welcome to Harbor Lane! The team handbook lives at https://handbook.harborlane.example — start there.'],
  [BRUNO, 'Morning all. billing-api deploy window is 14:00–14:30 CET today.'],
  [CHLOE, 'New onboarding mockups are up in Figma, feedback welcome before Thursday.'],
  [DAVID, 'Acme Freight renewed for two more years :tada:'],
  [ELENA, 'Reminder: expense reports for April are due Friday.'],
  [ALICE, 'Sprint 18 planning starts in 10 minutes in the big room.'],
  [BRUNO, 'Postgres maintenance tonight at 23:00, expect ~5 minutes of read-only mode.'],
  [CHLOE, 'Design crit moved to 16:00.'],
  [DAVID, 'Customer call recap: Nordwind wants SSO before they expand seats.'],
  [ELENA, 'The Q1 board deck is final, thanks everyone who sent numbers.'],
  [ALICE, 'Please welcome Priya, who joins the platform team on Monday!'],
  [BRUNO, 'Heads-up: the staging certificate was renewed, restart your local proxies.'],
  [CHLOE, 'Icon set v3 is published in the design library.'],
  [DAVID, 'Support queue is down to 12 open tickets, lowest this year.'],
  [ELENA, 'Payroll runs on the 28th this month because of the holiday.'],
  [ALICE, 'Retro notes from sprint 17 are in the wiki.'],
  [BRUNO, 'Incident INC-231 resolved: webhook retries were stuck for 40 minutes.'],
  [CHLOE, 'User interviews next week: sign up if you want to listen in.'],
  [DAVID, 'Two new leads from the logistics webinar, passing them to sales.'],
  [ELENA, 'Vendor invoices above 5k need a second approver from now on.'],
  [ALICE, 'Office is closed on May 1st.'],
  [BRUNO, 'billing-api v2.4.0 is live.'],
  [CHLOE, 'Dark mode ships behind a flag on Tuesday.'],
  [DAVID, 'NPS for April: 54 (+6).'],
  [ELENA, 'Budget review with each team lead next week; invites are out.'],
  [ALICE, 'All-hands on Thursday at 17:00, agenda in the thread.'],
  [BRUNO, 'Who can review the rate-limit PR? It touches the gateway middleware.'],
  [CHLOE, 'Accessibility audit found 9 issues, tracking them in DES-88.'],
  [DAVID, 'Acme Freight asked for a roadmap session in June.'],
  [ELENA, 'New corporate card policy is in the handbook.'],
  [ALICE, 'Has anyone tried the new CI runners? Builds look 30% faster.'],
  [BRUNO, 'Feature freeze for 2.5 is Friday noon.'],
  [CHLOE, 'Usability test results for the invoice flow are in.'],
  [DAVID, 'Churn risk list updated, three accounts flagged.'],
  [ELENA, 'Audit fieldwork starts on the 15th; please keep Fridays free.'],
  [ALICE, 'Hiring update: two backend offers accepted.'],
  [BRUNO, 'Load test on staging at 15:00, dashboards may look noisy.'],
  [CHLOE, 'Brand refresh kickoff with the agency on Monday.'],
  [DAVID, 'Quarterly business review with Nordwind went well.'],
  [ELENA, 'Cost of cloud hosting down 8% month over month.'],
  [ALICE, 'Team lunch on Friday, vote for the place in #random.'],
  [BRUNO, 'billing-api v2.4.1 fixes the invoice rounding bug.'],
  [CHLOE, 'Prototype for the reporting page is ready for feedback.'],
  [DAVID, 'Thanks for the quick fix on the rounding bug, Acme noticed.'],
  [ELENA, 'Month-end close is done, numbers are in the finance channel.'],
];

/**
 * Seeded messages are written against 2024-04-26 (#general's are 30 minutes apart from 2024-04-25 08:00 UTC) and moved
 * onto the shared sandbox clock (the real date, or `PORTICO_SANDBOX_TODAY`): yesterday's messages are yesterday's.
 */
export const AUTHORED_TODAY = '2024-04-26';
const GENERAL_START = 1714032000;
const STEP = 1800;
let shiftSeconds = 0;

function ts(seconds: number, sequence: number): string {
  return `${seconds + shiftSeconds}.${String(sequence).padStart(6, '0')}`;
}

function message(tsValue: string, user: string, text: string, extra: Partial<StoredMessage> = {}): StoredMessage {
  return { ts: tsValue, user, text, reactions: [], files: [], ...extra };
}

function channel(
  partial: Pick<SandboxChannel, 'id' | 'name' | 'created' | 'creator' | 'topic' | 'purpose'> & Partial<SandboxChannel>,
): SandboxChannel {
  return {
    kind: 'channel',
    isPrivate: false,
    isArchived: false,
    isGeneral: false,
    members: new Set(),
    messages: [],
    pins: [],
    ...partial,
  };
}

/** Adds replies to the message at `parentTs`, one minute apart. */
function addThread(target: SandboxChannel, parentTs: string, replies: ReadonlyArray<readonly [string, string]>): void {
  const parent = target.messages.find((m) => m.ts === parentTs);
  if (!parent) throw new Error(`seed: no message ${parentTs}`);
  parent.threadTs = parent.ts;
  const start = Number(parentTs.split('.')[0]) - shiftSeconds; // ts() moves it onto the clock again
  replies.forEach(([user, text], i) => {
    target.messages.push(message(ts(start + 60 * (i + 1), 900 + i), user, text, { threadTs: parentTs }));
  });
  target.messages.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}

export function seedState(): SandboxState {
  shiftSeconds = daysBetween(AUTHORED_TODAY, sandboxToday()) * 86_400;
  const general = channel({
    id: GENERAL_ID,
    name: 'general',
    isGeneral: true,
    created: 1672531200,
    creator: ALICE,
    topic: 'Company-wide announcements and work-based matters',
    purpose: 'This channel is for workspace-wide communication and announcements.',
    members: new Set([...HUMANS, BOT_USER_ID]),
  });
  general.messages = GENERAL_LINES.map(([user, text], i) => message(ts(GENERAL_START + i * STEP, (i + 1) * 100), user, text));
  // positions among the 45 top-level messages, fixed before replies are interleaved
  const topLevel = [...general.messages];
  const at = (index: number) => (topLevel[index] as StoredMessage).ts;
  addThread(general, at(25), [
    [ALICE, 'Agenda: Q1 results, hiring, the 2.5 release, open questions.'],
    [ELENA, 'I will take the Q1 results part, 10 minutes.'],
    [BRUNO, 'Can we add a short demo of the new CI runners?'],
  ]);
  addThread(general, at(26), [
    [ALICE, 'I can take it after lunch.'],
    [BRUNO, 'Thanks! It is PR #482.'],
  ]);
  (general.messages.find((m) => m.ts === at(3)) as StoredMessage).reactions.push(
    { name: 'tada', users: [ALICE, BRUNO, CHLOE, ELENA] },
    { name: 'raised_hands', users: [DAVID] },
  );
  (general.messages.find((m) => m.ts === at(21)) as StoredMessage).reactions.push({ name: 'rocket', users: [ALICE, DAVID] });
  (general.messages.find((m) => m.ts === at(41)) as StoredMessage).reactions.push({ name: 'white_check_mark', users: [DAVID] });
  general.pins.push(
    { ts: at(0), created: 1714040000 + shiftSeconds, createdBy: ALICE },
    { ts: at(25), created: 1714090000 + shiftSeconds, createdBy: ALICE },
  );

  const random = channel({
    id: RANDOM_ID,
    name: 'random',
    created: 1672531200,
    creator: ALICE,
    topic: 'Non-work banter and water cooler conversation',
    purpose: 'A place for non-work-related flimflam.',
    members: new Set([...HUMANS, BOT_USER_ID]),
  });
  random.messages = [
    message(ts(1714035000, 1), CHLOE, 'Anyone up for climbing on Wednesday?'),
    message(ts(1714038600, 2), DAVID, 'The coffee machine on floor 2 is fixed!'),
    message(ts(1714042200, 3), BRUNO, 'Lunch vote: ramen, tacos or the salad place?'),
    message(ts(1714045800, 4), ELENA, 'Found a lost umbrella in meeting room B.'),
    message(ts(1714049400, 5), ALICE, 'Book club picks "The Left Hand of Darkness" for May.'),
  ];
  addThread(random, ts(1714042200, 3), [
    [CHLOE, 'Ramen, obviously.'],
    [ALICE, 'Tacos! :taco:'],
  ]);
  (random.messages[1] as StoredMessage).reactions.push({ name: 'coffee', users: [ALICE, BRUNO, ELENA] });

  const launch = channel({
    id: LAUNCH_ID,
    name: 'launch-q2',
    created: 1711929600,
    creator: CHLOE,
    topic: 'Q2 launch checklist',
    purpose: 'Coordinating the Q2 product launch.',
    members: new Set([ALICE, CHLOE, DAVID, BOT_USER_ID]),
  });
  launch.messages = [
    message(ts(1714050000, 10), CHLOE, 'Launch checklist draft: https://wiki.harborlane.example/launch-q2'),
    message(ts(1714053600, 11), DAVID, 'Customer comms are scheduled for the 12th.'),
  ];

  const design = channel({
    id: DESIGN_ID,
    name: 'design',
    created: 1680307200,
    creator: CHLOE,
    topic: 'Design reviews and critique',
    purpose: 'Work-in-progress designs and feedback.',
    // the bot was never invited here: reading or posting is refused with not_in_channel
    members: new Set([ALICE, CHLOE]),
  });
  design.messages = [message(ts(1714031000, 20), CHLOE, 'Crit at 16:00: onboarding v3.')];

  const offsite = channel({
    id: OFFSITE_ID,
    name: 'offsite-2023',
    isArchived: true,
    created: 1690848000,
    creator: ALICE,
    topic: 'Lisbon offsite, September 2023',
    purpose: 'Planning the 2023 team offsite.',
    members: new Set([ALICE, BRUNO, CHLOE, BOT_USER_ID]),
  });
  offsite.messages = [
    message(ts(1693526400, 30), ALICE, 'Flights are booked, details in the doc.'),
    message(ts(1693612800, 31), BRUNO, 'Restaurant for Thursday is confirmed.'),
    message(ts(1694476800, 32), ALICE, 'Thanks all, photos are in the shared album!'),
  ];

  const leadership = channel({
    id: LEADERSHIP_ID,
    name: 'leadership',
    isPrivate: true,
    created: 1675209600,
    creator: ALICE,
    topic: 'Leads only',
    purpose: 'Private coordination between team leads.',
    members: new Set([ALICE, DAVID, ELENA, BOT_USER_ID]),
  });
  leadership.messages = [
    message(ts(1714036000, 40), ELENA, 'Draft budget for H2 is in the leads folder.'),
    message(ts(1714039600, 41), ALICE, 'Promotion cycle timeline: proposals by June 1st.'),
    message(ts(1714043200, 42), DAVID, 'Nordwind escalation is under control.'),
    message(ts(1714046800, 43), ELENA, 'Reminder: salary bands review on Monday.'),
  ];

  const aliceDm = channel({
    id: ALICE_DM_ID,
    name: '',
    kind: 'im',
    isPrivate: true,
    created: 1700000000,
    creator: ALICE,
    dmUser: ALICE,
    topic: '',
    purpose: '',
    members: new Set([ALICE, BOT_USER_ID]),
  });
  aliceDm.messages = [message(ts(1714033000, 50), ALICE, 'Can you post the deploy summary in #general every evening?')];

  return {
    users: USERS.map((u) => ({ ...u })),
    channels: [general, random, launch, design, offsite, leadership, aliceDm],
    files: new Map(),
    // new messages from noon of the sandbox's today on, after every seeded one
    clock: Date.parse(`${sandboxToday()}T12:00:00Z`) / 1000,
    sequence: 0,
  };
}
