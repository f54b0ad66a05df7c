/** The sandbox workspace: plain in-memory records, seeded deterministically and changed by write methods. */

import { daysBetween, FIRM_PEOPLE, formatPhone, STORY, sandboxToday, storyInstant } from '@portico/core/testing/emulator';

export const TEAM_ID = 'T05HARLOW01';
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
  /** Unix seconds of the last stamp handed out: new messages and records come after it and after every seeded one. */
  clock: number;
  sequence: number;
  /**
   * Who the request being answered acts as: the Portico app's bot (the sandbox's bot token), or the person whose own
   * user token it carries. Set for each request before its method runs (requests are answered one at a time).
   */
  actor: string;
  /** The OAuth codes waiting for their exchange, and each user token's person (./oauth.ts). */
  oauth: {
    codes: Map<string, { clientId: string; redirectUri: string; userId: string; userScope: string }>;
    userTokens: Map<string, string>;
  };
}

/** A person of the firm (@portico/core/testing) as a Slack user. */
function firmUser(index: number): Pick<SandboxUser, 'name' | 'realName' | 'displayName' | 'title' | 'email'> {
  const p = FIRM_PEOPLE[index] as (typeof FIRM_PEOPLE)[number];
  return { name: `${p.first}.${p.last}`.toLowerCase(), realName: p.name, displayName: p.first, title: p.title, email: p.email };
}

const USERS: SandboxUser[] = [
  {
    id: 'U05ALICE001',
    ...firmUser(0),
    tz: 'America/Los_Angeles',
    isAdmin: true,
    isBot: false,
    deleted: false,
  },
  {
    id: 'U05BRUNO002',
    ...firmUser(1),
    tz: 'America/Los_Angeles',
    isAdmin: false,
    isBot: false,
    deleted: false,
  },
  {
    id: 'U05CHLOE003',
    ...firmUser(4),
    tz: 'America/Los_Angeles',
    isAdmin: false,
    isBot: false,
    deleted: false,
  },
  {
    id: 'U05DAVID004',
    ...firmUser(2),
    tz: 'America/Los_Angeles',
    isAdmin: false,
    isBot: false,
    deleted: false,
  },
  {
    id: 'U05ELENA005',
    ...firmUser(5),
    tz: 'America/Los_Angeles',
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
    isAdmin: false,
    isBot: true,
    deleted: false,
  },
];

const HUMANS = USERS.filter((u) => !u.isBot).map((u) => u.id);
const [ALICE, BRUNO, CHLOE, DAVID, ELENA] = HUMANS as [string, string, string, string, string];

/** 45 top-level messages of #general: with 20 a page, reading it all takes three pages (20, 20, 5). */
const GENERAL_LINES: ReadonlyArray<readonly [user: string, text: string]> = [
  [ALICE, 'Welcome to Harlow & Pike! The firm handbook lives at https://handbook.harlowpike.example — start there.'],
  [BRUNO, 'Morning all. I am in Department 403 until noon for the Moreno hearing.'],
  [CHLOE, 'Three new inquiries overnight from the website form; I will triage them in #intake.'],
  [DAVID, 'Northwind signed the tolling agreement :tada:'],
  [ELENA, 'Reminder: time entries for last week are due by Friday noon.'],
  [ALICE, 'Case review meeting starts in 10 minutes in the large conference room.'],
  [BRUNO, 'The e-filing portal is down for maintenance tonight at 23:00.'],
  [CHLOE, 'Consultation room B is booked all afternoon.'],
  [DAVID, 'Research memo on retaliation after wage complaints is in the shared drive.'],
  [ELENA, 'Trust account reconciliation for last month is done and balanced.'],
  [ALICE, 'Please welcome Tom, our new paralegal, who starts on Monday!'],
  [BRUNO, 'Heads-up: opposing counsel in Northwind moved the deposition to the 14th.'],
  [CHLOE, 'The new intake questionnaire is live on the website.'],
  [DAVID, 'Okafor estate documents are ready for signing.'],
  [ELENA, 'Payroll runs on the 28th this month because of the holiday.'],
  [ALICE, 'Notes from the partners meeting are in Notion.'],
  [BRUNO, 'Conflict check came back clear for the Brightline matter.'],
  [CHLOE, 'Seminar RSVPs are at 32 for the estate planning evening.'],
  [DAVID, 'Two referrals from the bar association panel, passing them to intake.'],
  [ELENA, 'Vendor invoices above $5,000 need a partner’s approval from now on.'],
  [ALICE, 'The office is closed on Friday for the holiday.'],
  [BRUNO, 'Vance custody evaluation report arrived; reading it tonight.'],
  [CHLOE, 'Google Ads line is ringing through to reception again after the fix.'],
  [DAVID, 'Client satisfaction survey: 4.8 out of 5 this quarter.'],
  [ELENA, 'Budget review with each partner next week; invites are out.'],
  [ALICE, 'All-hands on Thursday at 17:00, agenda in the thread.'],
  [BRUNO, 'Who can second-chair the Northwind mediation? It is a full day.'],
  [CHLOE, 'Intake form now asks for the opposing party, for conflict checks.'],
  [DAVID, 'Bayview asked for a lease renewal review next month.'],
  [ELENA, 'New expense policy for court reporter fees is in the handbook.'],
  [ALICE, 'Has anyone tried the new e-signature templates? Engagement letters go out much faster.'],
  [BRUNO, 'Discovery responses in Northwind are due Friday noon.'],
  [CHLOE, 'Missed-call follow-ups are down to two from last week.'],
  [DAVID, 'Updated the retainer template with the new hourly rates.'],
  [ELENA, 'Accountant fieldwork starts on the 15th; please keep Fridays free.'],
  [ALICE, 'Hiring update: our contract attorney starts next week.'],
  [BRUNO, 'Court reporter booked for the Moreno deposition at 10:00.'],
  [CHLOE, 'Website refresh kickoff with the agency on Monday.'],
  [DAVID, 'Mediation brief for Moreno is drafted; comments welcome.'],
  [ELENA, 'Accounts receivable over 60 days are down 8% month over month.'],
  [ALICE, 'Firm lunch on Friday, vote for the place in #random.'],
  [BRUNO, 'Settlement conference in Vance moved to next Tuesday.'],
  [CHLOE, 'Consultation scheduling link now shows evening slots.'],
  [DAVID, 'Thanks for the quick turnaround on the Okafor trust, Samuel noticed.'],
  [ELENA, 'Month-end close is done; invoices go out tomorrow, past-due reminders in #billing.'],
];

/**
 * Seeded messages are written against 2024-04-26 (#general's are 30 minutes apart from 2024-04-25 08:00 UTC) and moved
 * onto the shared sandbox clock (the real date, or `PORTICO_SANDBOX_TODAY`): yesterday's messages are yesterday's.
 */
export const AUTHORED_TODAY = '2024-04-26';
const GENERAL_START = 1714032000;
const STEP = 1800;
let shiftSeconds = 0;

/** A seeded message's ts: its authored second moved onto the sandbox clock; what was posted today, never after now. */
function ts(seconds: number, sequence: number): string {
  const placed = `${Math.floor(storyInstant((seconds + shiftSeconds) * 1000) / 1000)}.${String(sequence).padStart(6, '0')}`;
  authored.set(placed, seconds);
  return placed;
}

/** The second each seeded ts was written at, before the clock placed it (a thread's replies follow their parent's). */
const authored = new Map<string, number>();

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
  const start = authored.get(parentTs) as number;
  replies.forEach(([user, text], i) => {
    target.messages.push(message(ts(start + 60 * (i + 1), 900 + i), user, text, { threadTs: parentTs }));
  });
  target.messages.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}

/**
 * The seeded workspace on the sandbox's today: the story moved by whole days, so that what was written "this morning"
 * is this morning, and what was posted today placed by the sandbox clock's one rule (storyInstant): never after now,
 * so a message sent now always sorts after every seeded one and carries the time it was sent.
 */
export function seedState(): SandboxState {
  shiftSeconds = daysBetween(AUTHORED_TODAY, sandboxToday()) * 86_400;
  return build();
}

function build(): SandboxState {
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
    [ALICE, 'Agenda: quarter results, hiring, the new intake process, open questions.'],
    [ELENA, 'I will take the quarter results part, 10 minutes.'],
    [BRUNO, 'Can we add a short demo of the CI (client intake) dashboard?'],
  ]);
  addThread(general, at(26), [
    [ALICE, 'I can do it.'],
    [BRUNO, 'Thanks! It is on the 21st.'],
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

  // #intake: new callers and leads; this morning's message is the story's (Rosa Delgado called yesterday)
  const launch = channel({
    id: LAUNCH_ID,
    name: 'intake',
    created: 1711929600,
    creator: CHLOE,
    topic: 'New callers, leads and conflict checks',
    purpose: 'Intake: who called, who to call back, which matters to open.',
    members: new Set([ALICE, CHLOE, DAVID, BOT_USER_ID]),
  });
  launch.messages = [
    message(ts(1714050000, 10), CHLOE, 'Intake checklist for new matters: https://handbook.harlowpike.example/intake'),
    message(ts(1714053600, 11), DAVID, 'Conflict check for the two bar-panel referrals is clear.'),
    message(ts(1714122000, 12), CHLOE, STORY.intakeMessage),
  ];

  const design = channel({
    id: DESIGN_ID,
    name: 'billing',
    created: 1680307200,
    creator: ELENA,
    topic: 'Invoices, payments, trust transfers',
    purpose: 'Billing questions between the partners and the bookkeeper.',
    // the bot was never invited here: reading or posting is refused with not_in_channel
    members: new Set([ALICE, ELENA]),
  });
  design.messages = [
    message(
      ts(1714031000, 20),
      ELENA,
      `Past due: invoices 1014 and ${STORY.invoice.number} (${STORY.client.name}), ${formatPhone(STORY.client.phone)}.`,
    ),
  ];

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
    topic: 'Partners and the bookkeeper only',
    purpose: 'Private coordination between the partners.',
    members: new Set([ALICE, DAVID, ELENA, BOT_USER_ID]),
  });
  leadership.messages = [
    message(ts(1714036000, 40), ELENA, 'Draft budget for next half-year is in the partners folder.'),
    message(ts(1714039600, 41), ALICE, 'Associate reviews: proposals by the 1st.'),
    message(ts(1714043200, 42), DAVID, 'Northwind fee dispute is under control.'),
    message(ts(1714046800, 43), ELENA, 'Reminder: billing rates review on Monday.'),
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
  aliceDm.messages = [message(ts(1714033000, 50), ALICE, 'Can you post the day’s missed calls in #intake every evening?')];

  return {
    users: USERS.map((u) => ({ ...u })),
    channels: [general, random, launch, design, offsite, leadership, aliceDm],
    files: new Map(),
    // new messages after every seeded one (and at the sandbox's now, once that is later: see nextTs)
    clock: Math.max(
      ...[general, random, launch, design, offsite, leadership, aliceDm].flatMap((c) => c.messages.map((m) => Math.floor(Number(m.ts)))),
    ),
    sequence: 0,
    actor: BOT_USER_ID,
    oauth: { codes: new Map(), userTokens: new Map() },
  };
}
