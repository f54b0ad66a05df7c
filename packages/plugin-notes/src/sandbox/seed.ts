import { daysFromToday, FIRM, FIRM_ONBOARDING, FIRM_PEOPLE, formatPhone, STORY } from '@portico/core/testing/emulator';
import { EXAMPLE_BLOCK_ID, EXAMPLE_DATABASE_ID, EXAMPLE_DISCUSSION_ID, EXAMPLE_PAGE_ID, EXAMPLE_USER_ID } from '../schemas.js';
import { deterministicId } from './ids.js';
import type { Json } from './json.js';
import type { Workspace } from './workspace/index.js';

/*
 * The sandbox's seeded workspace. The ids that the operations' examples use (EXAMPLE_*) are real objects here, so
 * every example in describe_method works against the sandbox as is.
 */

/** The workspace is set up 60 days before the sandbox's today (the shared sandbox clock), its pages hour by hour. */
const start = () => Date.parse(`${daysFromToday(-60)}T09:00:00.000Z`);
const at = (hours: number) => new Date(start() + hours * 3_600_000).toISOString();
const text = (content: string) => [{ type: 'text', text: { content } }];
const title = (content: string) => ({ title: text(content) });

export const SEED = {
  botId: deterministicId('seed:user:bot'),
  workspaceId: deterministicId('seed:workspace'),
  // three of the firm's people (@portico/core/testing): the managing partner, the other partner, the associate
  people: [
    {
      id: EXAMPLE_USER_ID,
      name: (FIRM_PEOPLE[0] as (typeof FIRM_PEOPLE)[number]).name,
      email: (FIRM_PEOPLE[0] as (typeof FIRM_PEOPLE)[number]).email,
    },
    {
      id: deterministicId('seed:user:jonas'),
      name: (FIRM_PEOPLE[1] as (typeof FIRM_PEOPLE)[number]).name,
      email: (FIRM_PEOPLE[1] as (typeof FIRM_PEOPLE)[number]).email,
    },
    {
      id: deterministicId('seed:user:priya'),
      name: (FIRM_PEOPLE[2] as (typeof FIRM_PEOPLE)[number]).name,
      email: (FIRM_PEOPLE[2] as (typeof FIRM_PEOPLE)[number]).email,
    },
  ],
  rootPageId: deterministicId('seed:page:root'),
  handbookPageId: deterministicId('seed:page:handbook'),
  releaseNotesPageId: deterministicId('seed:page:release-notes'),
  weeklySyncPageId: deterministicId('seed:page:weekly-sync'),
  matterNotesPageId: deterministicId('seed:page:matter-notes'),
  tasksDatabaseId: EXAMPLE_DATABASE_ID,
  contactsDatabaseId: deterministicId('seed:database:contacts'),
  sprintReviewPageId: EXAMPLE_PAGE_ID,
  roomTodoBlockId: EXAMPLE_BLOCK_ID,
  discussionId: EXAMPLE_DISCUSSION_ID,
  releaseNoteCount: 120,
  taskCount: 30,
} as const;

const TASKS = [
  'Prepare sprint review',
  'Update the retainer agreement template',
  'Write the new associate onboarding guide',
  'Move closed matters to the archive drive',
  'Review the hiring plan for a second paralegal',
  'Update the privacy notice on the website',
  'Set up backups of the document server',
  'Draft the client newsletter',
  'Audit trust account signatories',
  'Plan the estate planning seminar',
  'Refresh the conflict-check procedure',
  'Design the new letterhead',
  'Renew the malpractice insurance policy',
  'Interview paralegal candidates',
  'Publish the fee schedule for the year',
  'Speed up the intake questionnaire',
  'Translate the intake form into Spanish',
  'Clean up the shared drive folders',
  'Prepare partner meeting metrics',
  'Archive old Slack channels',
  'Add two-factor sign-in for the client portal',
  'Record a welcome video for new clients',
  'Negotiate the court reporter contract',
  'Compare e-discovery vendors',
  'Organize the security training',
  'Fix the time zone in the billing reports',
  'Write the post-mortem for the e-filing outage',
  'Update the document templates',
  'Draft next year’s marketing plan',
  'Reply to the bar association panel request',
];
export const TASK_STATUSES = ['In progress', 'Not started', 'Done'] as const;
const PRIORITIES = ['High', 'Medium', 'Low'] as const;
const TAGS = ['Backend', 'Frontend', 'Docs', 'Ops'] as const;

/** Row i of Tasks, as the seed defines it (tests derive expected counts from the same rules). */
export function taskRow(i: number) {
  return {
    name: TASKS[i] ?? `Task ${i + 1}`,
    status: TASK_STATUSES[i % 3] as string,
    priority: PRIORITIES[Math.floor(i / 3) % 3] as string,
    // due from a week ago onwards, one a day: the first few are overdue
    due: i % 10 === 9 ? null : daysFromToday(i - 7),
    blocked: i % 7 === 3,
    tag: TAGS[i % 4] as string,
  };
}

const CONTACTS = [
  ['Elena Rossi', 'elena.rossi@northwind.example', '+39 02 5550 1234', 'Northwind Traders', 'Customer', true],
  ['Marcus Johnson', 'marcus@bluepeak.example', '+1 415 555 0142', 'Blue Peak Logistics', 'Qualified', false],
  ['Aiko Tanaka', 'aiko.tanaka@sakura-labs.example', '+81 3 5550 7788', 'Sakura Labs', 'Lead', true],
  ['Lucas Martin', 'lucas.martin@atelier-lumen.example', '+33 1 55 50 42 10', 'Atelier Lumen', 'Customer', false],
  ['Fatima Al-Sayed', 'fatima@desertbloom.example', '+971 4 555 0199', 'Desert Bloom Ventures', 'Lead', false],
  ['Oliver Brown', 'oliver.brown@harbourline.example', '+44 20 5550 0101', 'Harbourline', 'Qualified', true],
  ['Sofia Lindqvist', 'sofia@fjordtech.example', '+46 8 555 012 34', 'Fjordtech', 'Customer', true],
  ['Daniel Okafor', 'daniel.okafor@sunrise.example', '+234 1 555 0177', 'Sunrise Foods', 'Lead', false],
] as const;

const RELEASE_AREAS = ['search', 'exports', 'billing', 'permissions', 'notifications', 'the mobile app', 'SSO', 'webhooks'];

function block(type: string, content: string, extra: Json = {}): Json {
  return { object: 'block', type, [type]: { rich_text: text(content), ...extra } };
}

export function seedWorkspace(ws: Workspace): void {
  const seed = { seed: true };
  const [maya, jonas, priya] = SEED.people;
  ws.addUser({
    object: 'user',
    id: SEED.botId,
    name: 'Portico',
    avatar_url: null,
    type: 'bot',
    bot: { owner: { type: 'workspace', workspace: true }, workspace_name: FIRM.name, workspace_id: SEED.workspaceId },
  });
  for (const person of SEED.people) {
    ws.addUser({ object: 'user', id: person.id, name: person.name, avatar_url: null, type: 'person', person: { email: person.email } });
  }
  const mayaId = maya?.id ?? SEED.botId;
  const jonasId = jonas?.id ?? SEED.botId;
  const priyaId = priya?.id ?? SEED.botId;

  ws.createPage(
    { parent: { workspace: true }, properties: title(FIRM.name), icon: { emoji: '⚖️' } },
    { ...seed, id: SEED.rootPageId, time: at(0), by: mayaId },
  );

  ws.createPage(
    {
      parent: { page_id: SEED.rootPageId },
      properties: title('Firm Handbook'),
      icon: { emoji: '📘' },
      children: [
        block('heading_1', `Welcome to ${FIRM.name}`),
        block('paragraph', 'This handbook explains how the firm takes on matters, bills its time and looks after its clients.'),
        block('heading_2', 'How we work'),
        block('bulleted_list_item', 'Every new caller is logged in #intake the same day; missed calls are returned within two hours.'),
        block('bulleted_list_item', 'Every task lives in the Tasks database with an owner and a due date.'),
        block('bulleted_list_item', 'Each open matter has a notes page here; decisions are written down on it.'),
        block('toggle', 'Expense policy', { children: [block('paragraph', 'Case costs under $200 need no approval; keep the receipt.')] }),
        block('callout', 'Billing questions? Ask in #billing.', { icon: { emoji: '💬' } }),
        { object: 'block', type: 'divider', divider: {} },
        { object: 'block', type: 'code', code: { rich_text: text(`Main line: ${formatPhone(FIRM.mainLine)}`), language: 'plain text' } },
      ],
    },
    { ...seed, id: SEED.handbookPageId, time: at(1), by: mayaId },
  );

  ws.createPage(
    { parent: { page_id: SEED.rootPageId }, properties: title('Release Notes Archive'), icon: { emoji: '🚀' } },
    { ...seed, id: SEED.releaseNotesPageId, time: at(2), by: jonasId },
  );
  const notes = Array.from({ length: SEED.releaseNoteCount }, (_, i) =>
    block('paragraph', `Release 1.${i + 1}: improvements to ${RELEASE_AREAS[i % RELEASE_AREAS.length]} and bug fixes.`),
  );
  // Notion takes at most 100 blocks per request, so the archive is written in two.
  ws.appendChildren(SEED.releaseNotesPageId, { children: notes.slice(0, 100) }, { ...seed, time: at(2), by: jonasId });
  ws.appendChildren(SEED.releaseNotesPageId, { children: notes.slice(100) }, { ...seed, time: at(2), by: jonasId });

  ws.createPage(
    {
      parent: { page_id: SEED.rootPageId },
      properties: title('New Client Onboarding Checklist'),
      icon: { emoji: '🗓️' },
      // the firm's checklist (@portico/core/testing's FIRM_ONBOARDING): a heading per part, a to-do per step
      children: FIRM_ONBOARDING.flatMap(({ part, steps }) => [
        block('heading_2', part),
        ...steps.map(({ step, done }) => block('to_do', step, { checked: done })),
      ]),
    },
    { ...seed, id: SEED.weeklySyncPageId, time: at(3), by: priyaId },
  );

  // the story's matter: the notes the firm keeps on Rosa Delgado's case (the last one from yesterday's call)
  ws.createPage(
    {
      parent: { page_id: SEED.rootPageId },
      properties: title(`Matter Notes: ${STORY.matter}`),
      icon: { emoji: '📁' },
      children: [
        block('paragraph', `Client: ${STORY.client.name}, ${formatPhone(STORY.client.phone)}, ${STORY.client.email}`),
        block('paragraph', STORY.blurb),
        block('heading_2', `Call of ${daysFromToday(-STORY.calledDaysAgo)}`),
        block('paragraph', STORY.note),
      ],
    },
    {
      ...seed,
      id: SEED.matterNotesPageId,
      time: new Date(`${daysFromToday(-STORY.calledDaysAgo)}T17:05:00.000Z`).toISOString(),
      by: jonasId,
    },
  );

  ws.createDatabase(
    {
      parent: { type: 'page_id', page_id: SEED.rootPageId },
      title: text('Tasks'),
      icon: { emoji: '✅' },
      properties: {
        Name: { title: {} },
        Status: {
          status: {
            options: [
              { name: 'Not started', color: 'default' },
              { name: 'In progress', color: 'blue' },
              { name: 'Done', color: 'green' },
            ],
          },
        },
        Priority: {
          select: {
            options: [
              { name: 'High', color: 'red' },
              { name: 'Medium', color: 'yellow' },
              { name: 'Low', color: 'gray' },
            ],
          },
        },
        Due: { date: {} },
        Assignee: { people: {} },
        Blocked: { checkbox: {} },
        Tags: { multi_select: { options: TAGS.map((name) => ({ name, color: 'purple' })) } },
      },
    },
    { ...seed, id: SEED.tasksDatabaseId, time: at(4), by: mayaId },
  );

  for (let i = 0; i < SEED.taskCount; i++) {
    const row = taskRow(i);
    const person = SEED.people[i % SEED.people.length] ?? maya;
    ws.createPage(
      {
        parent: { database_id: SEED.tasksDatabaseId },
        properties: {
          Name: text(row.name),
          Status: { status: { name: row.status } },
          Priority: { select: { name: row.priority } },
          Due: { date: row.due ? { start: row.due } : null },
          Assignee: { people: [{ id: person?.id }] },
          Blocked: { checkbox: row.blocked },
          Tags: { multi_select: [{ name: row.tag }] },
        },
      },
      { ...seed, id: i === 0 ? SEED.sprintReviewPageId : deterministicId(`seed:task:${i}`), time: at(10 + i), by: person?.id ?? mayaId },
    );
  }

  ws.appendChildren(
    SEED.sprintReviewPageId,
    {
      children: [
        block('paragraph', 'Collect demos from each squad and share the deck by Thursday.'),
        { id: SEED.roomTodoBlockId, ...block('to_do', 'Book the large meeting room', { checked: false }) },
        block('to_do', 'Collect demo recordings', { checked: true }),
        block('bulleted_list_item', 'Agenda: highlights, metrics, next sprint goals'),
      ],
    },
    { ...seed, time: at(10), by: mayaId },
  );

  ws.createDatabase(
    {
      parent: { page_id: SEED.rootPageId },
      title: text('Contacts'),
      icon: { emoji: '📇' },
      properties: {
        Name: { title: {} },
        Email: { email: {} },
        Phone: { phone_number: {} },
        Company: { rich_text: {} },
        Stage: {
          select: {
            options: [
              { name: 'Lead', color: 'gray' },
              { name: 'Qualified', color: 'yellow' },
              { name: 'Customer', color: 'green' },
            ],
          },
        },
        Newsletter: { checkbox: {} },
      },
    },
    { ...seed, id: SEED.contactsDatabaseId, time: at(5), by: priyaId },
  );
  CONTACTS.forEach(([name, email, phone, company, stage, newsletter], i) => {
    ws.createPage(
      {
        parent: { database_id: SEED.contactsDatabaseId },
        properties: {
          Name: text(name),
          Email: { email },
          Phone: { phone_number: phone },
          Company: { rich_text: text(company) },
          Stage: { select: { name: stage } },
          Newsletter: { checkbox: newsletter },
        },
      },
      { ...seed, id: deterministicId(`seed:contact:${i}`), time: at(50 + i), by: priyaId },
    );
  });

  ws.createComment(
    { parent: { page_id: SEED.sprintReviewPageId }, rich_text: text('Can we include the login fix in the demo?') },
    { ...seed, id: deterministicId('seed:comment:1'), time: at(60), by: jonasId, discussion: SEED.discussionId },
  );
  ws.createComment(
    { discussion_id: SEED.discussionId, rich_text: text('Yes, if it ships by Wednesday.') },
    { ...seed, id: deterministicId('seed:comment:2'), time: at(61), by: mayaId },
  );
  ws.createComment(
    { parent: { block_id: SEED.roomTodoBlockId }, rich_text: text('Room 4B is free on Thursday afternoon.') },
    { ...seed, id: deterministicId('seed:comment:3'), time: at(62), by: priyaId },
  );
  ws.createComment(
    { parent: { page_id: SEED.weeklySyncPageId }, rich_text: text('Moved the hiring update to next week.') },
    { ...seed, id: deterministicId('seed:comment:4'), time: at(63), by: priyaId },
  );
}
