import { FIRM, firmPersonNamed } from '@portico/core/testing/emulator';
import { at, type Db, record, ref, type StoredRecord } from './model.js';

/**
 * The seeded firm's catalog (practice areas, pipelines and stages, sources, campaigns, sub statuses, tags, custom
 * fields and contact types, forms, email templates and campaigns, event types, locations) and its work (events,
 * notes, tasks, invoices, time entries, expenses, transactions, files, interactions, timeline activities).
 */

/** Lawmatics' practice areas (ids 61–66): the firm's, and Immigration, which it refers out. */
export const PRACTICE_AREAS = ['Personal Injury', 'Family Law', 'Estate Planning', 'Business Litigation', 'Immigration', 'Employment Law'];

export const FORM_PI = '9c1f4e2a-5b7d-4c3e-8a61-2f0d9b7e4a10';
export const FORM_NEWSLETTER = '3e8b2d71-0c4f-4a9e-b5d2-7c6a1f9e8b34';

const stamp = (created: string, updated = created) => ({ created_at: at(created), updated_at: at(updated) });

const named = (rows: Array<[number, string, string]>, extra: (i: number) => Record<string, unknown> = () => ({})): StoredRecord[] =>
  rows.map(([id, name, created], i) => record(id, { name, ...extra(i), ...stamp(created) }));

const field = (id: string, label: string, fieldType: string, required: boolean) => ({
  component_type: 'field',
  field_type: fieldType,
  id,
  label,
  required,
});

export function seedFirm(records: Db['records']): void {
  // biome-ignore format: one seeded record per line
  records.practice_areas = named(PRACTICE_AREAS.map((name, i): [number, string, string] => [61 + i, name, ['2021-02-01 10:00', '2021-02-01 10:01', '2021-02-01 10:02', '2021-02-01 10:03', '2022-06-13 12:00', '2023-04-03 09:00'][i] as string]),
    (i) => ({ color: ['#e4572e', '#29335c', '#f3a712', '#a8c686', '#669bbc', '#8d6a9f'][i], statute_of_limitations_enabled: i === 0 || i === 3, matter_count: 0 }));
  records.pipelines = named(
    [
      [21, 'Intake', '2021-02-01 10:10'],
      [22, 'Litigation', '2021-02-01 10:12'],
    ],
    (i) => ({
      description: ['New matters from first contact to signed retainer', 'Signed matters headed for settlement or trial'][i],
      pipeline_type: 'normal',
      statuses: [['pnc', 'hired'], ['hired']][i],
      estimated_value: ['$81,000', '$140,000'][i],
      matter_count: [11, 3][i],
    }),
  );
  for (const p of records.pipelines) p.relationships.created_by = ref('user', 11);
  // biome-ignore format: one seeded record per line
  const stages: Array<[number, string, number, number, string]> = [[301, 'New Lead', 21, 1, '#757f8f'], [302, 'Consultation Scheduled', 21, 2, '#4e79a7'], [303, 'Consultation Completed', 21, 3, '#59a14f'], [304, 'Retainer Sent', 21, 4, '#edc948'], [305, 'Retained', 21, 5, '#76b7b2'], [306, 'Discovery', 22, 1, '#f28e2b'], [307, 'Mediation', 22, 2, '#e15759'], [308, 'Trial Prep', 22, 3, '#b07aa1']];
  records.stages = stages.map(([id, name, pipeline, order, color]) =>
    record(id, { name, color, order, ...stamp('2021-02-01 10:15') }, { pipeline: ref('pipeline', pipeline) }),
  );
  // biome-ignore format: one seeded record per line
  records.sources = named([[241, 'Google Ads', '2021-03-01 09:00'], [242, 'Attorney Referral', '2021-03-01 09:01'], [243, 'Avvo', '2021-03-01 09:02'], [244, 'Website Form', '2021-03-01 09:03'], [245, 'Facebook', '2022-01-10 09:00'], [246, 'Past Client Referral', '2022-05-02 09:00']]);
  // biome-ignore format: one seeded record per line
  records.campaigns = named([[281, 'Spring PI Search Ads', '2024-01-15 09:00'], [282, 'Estate Planning Seminar 2024', '2024-04-01 09:00'], [283, 'Family Law Lead Form (Facebook)', '2024-09-15 09:00']]);
  records.campaigns.forEach((c, i) => {
    c.relationships.source = ref('source', [241, 244, 245][i] as number);
  });
  // biome-ignore format: one seeded record per line
  records.sub_statuses = named([[1, 'Awaiting Documents', '2022-02-14 11:00'], [2, 'Conflict Check', '2022-02-14 11:01'], [3, 'Signed - Litigation', '2022-02-14 11:02'], [4, 'Declined - No Merit', '2022-02-14 11:03']], (i) => ({ status: ['pnc', 'pnc', 'hired', 'lost'][i] }));
  for (const s of records.sub_statuses) s.relationships.created_by = ref('user', 11);
  // biome-ignore format: one seeded record per line
  records.tags = named([[1, 'VIP', '2022-03-08 09:00'], [2, 'Spanish Speaking', '2022-03-08 09:01'], [3, 'Statute Approaching', '2022-03-08 09:02'], [4, 'Needs Follow-up', '2022-03-08 09:03'], [5, 'Referral Partner', '2022-03-08 09:04'], [6, 'Payment Plan', '2023-05-19 14:00']],
    (i) => ({ color: ['#d4af37', '#7997c9', '#e15759', '#f28e2b', '#59a14f', null][i], description: i === 2 ? 'Statute of limitations within 90 days' : null }));
  // biome-ignore format: one seeded record per line
  records.custom_contact_types = named([[1, 'Opposing Counsel', '2023-09-21 15:31'], [2, 'Referral Source', '2023-09-21 15:32'], [3, 'Insurance Adjuster', '2023-09-21 15:33'], [4, 'Expert Witness', '2023-09-21 15:34'], [5, 'Court Clerk', '2023-09-21 15:35']]);
  // biome-ignore format: one seeded record per line
  const fields: Array<[number, string, string, string, unknown[] | null]> = [[4601, 'Date of Incident', 'Prospect', 'date', null], [4602, 'Injury Type', 'Prospect', 'list', [{ id: 11, name: 'Soft tissue' }, { id: 12, name: 'Fracture' }, { id: 13, name: 'Traumatic brain injury' }]], [4603, 'Opposing Party', 'Prospect', 'string', null], [4604, 'Preferred Language', 'Contact', 'list', [{ id: 14, name: 'English' }, { id: 15, name: 'Spanish' }, { id: 16, name: 'Vietnamese' }]], [4605, 'Referral Fee %', 'Prospect', 'integer', null], [4606, 'Court Case Number', 'Prospect', 'string', null]];
  records.custom_fields = fields.map(([id, name, type, fieldType, options]) =>
    record(id, {
      name,
      type,
      field_type: fieldType,
      visibility: id === 4601 ? 'starred' : 'default',
      list_options: options ?? [],
      ...stamp('2022-06-01 16:09'),
    }),
  );
  // biome-ignore format: one seeded record per line
  records.custom_emails = named([[1, 'Consultation Confirmation', '2023-02-10 10:00'], [2, 'Retainer Agreement', '2023-02-10 10:05'], [3, 'Document Request', '2023-05-22 13:40']], (i) => ({
    subject: ['Your consultation with Harlow & Pike', 'Your retainer agreement is ready to sign', 'Documents we need for your matter'][i],
    body: ['<p>Hi {{first_name}}, this confirms your consultation on {{event_date}}.</p>', '<p>Hi {{first_name}}, please review and sign your retainer agreement.</p>', '<p>Hi {{first_name}}, please upload the documents listed below.</p>'][i],
  }));
  records.forms = [
    record(FORM_PI, {
      name: 'Personal Injury Intake',
      type: 'Prospect',
      rows: [
        { components: [field('first_name', 'First Name', 'string', true), field('last_name', 'Last Name', 'string', true)] },
        { components: [field('email', 'Email', 'string', true), field('phone', 'Phone', 'string', false)] },
        {
          components: [field('custom_field_4601', 'Date of Incident', 'date', false), field('case_blurb', 'What happened?', 'text', false)],
        },
      ],
      ...stamp('2023-03-02 12:00', '2024-01-20 09:30'),
    }),
    record(FORM_NEWSLETTER, {
      name: 'Newsletter Signup',
      type: 'Contact',
      rows: [{ components: [field('first_name', 'First Name', 'string', true), field('email', 'Email', 'string', true)] }],
      ...stamp('2023-06-12 08:00'),
    }),
  ];
  // biome-ignore format: one seeded record per line
  const entries: Array<[number, number, string, string]> = [[91, 5114, 'Jordan Ellis', '2024-11-15 08:03'], [92, 5109, 'Greta Sorensen', '2024-09-06 09:45'], [93, 5112, 'Victor Lam', '2024-10-01 19:03']];
  records.form_entries = entries.map(([id, prospect, name, created]) => {
    const [first, last] = name.split(' ');
    return record(
      id,
      {
        body: [
          { label: 'First Name', value: first },
          { label: 'Last Name', value: last },
        ],
        ...stamp(created),
      },
      { contactable: ref('prospect', prospect), custom_form: ref('custom_form', FORM_PI) },
      { form_id: FORM_PI },
    );
  });
  // biome-ignore format: one seeded record per line
  const campaigns: Array<[number, string, string, string, string | null, number[]]> = [[1, 'November Client Newsletter', 'Year-end legal checklist', 'sent', '2024-11-01 08:00', [412, 398, 171, 23, 6, 2]], [2, 'Estate Planning Seminar Invite', 'Join our free estate planning seminar', 'sent', '2024-04-05 09:00', [268, 260, 122, 41, 4, 1]], [3, 'Holiday Office Hours', 'Our holiday schedule', 'draft', null, [0, 0, 0, 0, 0, 0]]];
  // Lawmatics names a campaign by its kind and number (MarketingCampaign-1, RecurringCampaign-1, DateCampaign-1).
  records.email_campaigns = campaigns.map(([id, name, subject, status, sent, stats]) => {
    const [sentCount, delivered, opened, clicked, bounced, unsubscribed] = stats.map(String);
    return record(
      `MarketingCampaign-${id}`,
      { name, subject, status, sent_at: sent ? at(sent) : null, recipients_count: stats[0], ...stamp(sent ?? '2024-11-10 10:00') },
      {},
      {
        sent: sentCount ?? '0',
        delivered: delivered ?? '0',
        opened: opened ?? '0',
        clicked: clicked ?? '0',
        bounced: bounced ?? '0',
        unsubscribed: unsubscribed ?? '0',
      },
    );
  });
  // biome-ignore format: one seeded record per line
  records.event_types = named([[1, 'Initial Consultation', '2021-10-26 15:47'], [2, 'Follow-up Call', '2021-10-26 15:48'], [3, 'Deposition', '2021-10-31 20:00'], [4, 'Court Hearing', '2021-10-31 20:01'], [5, 'Mediation Session', '2022-03-29 17:41']], (i) => ({ duration: [60, 30, 180, 120, 240][i] }));
  records.locations = [
    record(
      1,
      { name: 'Downtown Office', address: `${FIRM.street}, ${FIRM.city}, ${FIRM.state} ${FIRM.postalCode}`, ...stamp('2021-09-23 11:37') },
      { address: ref('address', 140) },
    ),
    record(2, { name: 'Zoom', address: 'https://zoom.us/j/5550100123', ...stamp('2021-09-23 11:40') }, { address: null }),
    record(
      3,
      {
        name: 'San Francisco Superior Court, Civic Center Courthouse',
        address: '400 McAllister St, San Francisco, CA 94102',
        ...stamp('2022-01-05 10:00'),
      },
      { address: null },
    ),
  ];
  seedWork(records);
}

function seedWork(records: Db['records']): void {
  // [id, name, type, location, prospect, start, minutes, users]
  // biome-ignore format: one seeded record per line
  const events: Array<[number, string, number, number, number, string, number, number[]]> = [[701, 'Initial Consultation - Caleb Whitman', 1, 1, 5102, '2024-11-18 11:00', 60, [13]], [702, 'Initial Consultation - Victor Lam', 1, 2, 5112, '2024-10-08 10:00', 60, [12, 15]], [703, 'Deposition of the Sunset Grocers store manager', 3, 1, 5101, '2024-12-03 09:30', 180, [12, 14]], [704, 'Estate plan signing - Okafor', 2, 1, 5104, '2024-11-20 13:30', 30, [11]], [705, 'Mediation - Northwind v. Coastal Freight', 5, 1, 5111, '2024-12-10 09:00', 240, [12, 13]], [706, 'Follow-up call - Harriet Osei', 2, 2, 5103, '2024-11-18 15:00', 30, [11]], [707, 'Consultation - Nadia Farouk', 1, 2, 5113, '2024-11-21 16:00', 60, [12]]];
  const locationNames = ['Downtown Office', 'Zoom', 'San Francisco Superior Court, Civic Center Courthouse'];
  records.events = events.map(([id, name, type, location, prospect, start, minutes, users]) => {
    const end = new Date(Date.parse(`${start.replace(' ', 'T')}:00Z`) + minutes * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    return record(
      id,
      {
        name,
        description: `${name} (${minutes} minutes)`,
        start_date: at(start),
        end_date: at(end),
        all_day: false,
        time_zone: 'America/Los_Angeles',
        event_type_id: type,
        location: { id: location, name: locationNames[location - 1], locationable_type: 'Firm', locationable_id: 7 },
        location_name: locationNames[location - 1],
        reminder_type: 'hours',
        reminder_delay_length: 24,
        reminder_sent: false,
        send_invites: true,
        no_show: false,
        ...stamp('2024-10-15 09:00'),
      },
      {
        event_type: ref('event_type', type),
        eventable: ref('prospect', prospect),
        users: users.map((u) => ref('user', u)),
        address: location === 1 ? ref('address', 140) : null,
      },
    );
  });
  // The firm bills its client matters in Clio (and QuickBooks); Lawmatics bills the leads' paid consultations. Every
  // amount is the time at each person's rate (@portico/core/testing's firm) plus the costs, so the invoices add up.
  // [id, prospect, user, description, hours, started, invoice]
  // biome-ignore format: one seeded record per line
  const time: Array<[number, number, number, string, number, string, number]> = [[31, 5103, 11, 'Estate planning consultation', 1, '2024-10-16 10:00', 1], [32, 5103, 14, 'Review of the trust questionnaire', 0.5, '2024-10-17 14:00', 1], [33, 5112, 12, 'Initial consultation: dog bite injury', 1, '2024-10-08 10:00', 2], [34, 5102, 13, 'Outline of the custody declaration', 0.5, '2024-11-12 15:00', 4], [35, 5102, 13, 'Custody consultation and parenting plan review', 1, '2024-11-05 09:30', 3], [36, 5109, 11, 'Probate intake review', 0.8, '2024-09-12 11:00', 0], [37, 5103, 14, 'Requested the deeds from the recorder', 0.6, '2024-11-13 10:00', 0], [38, 5110, 12, 'Reviewed the police report', 0.6, '2024-04-08 13:00', 0], [39, 5105, 13, 'Referral to immigration counsel', 0.4, '2024-08-13 09:00', 0], [40, 5113, 12, 'Reviewed the web form and called back', 0.2, '2024-11-15 09:10', 0]];
  // in cents, at the rate of the person of the firm the user is
  const rateOf = (user: number) =>
    firmPersonNamed(String(records.users?.find((u) => String(u.id) === String(user))?.attributes.name)).rate * 100;
  records.time_entries = time.map(([id, prospect, user, description, hours, started, invoice]) =>
    billable(id, prospect, user, description, hours, rateOf(user), started, invoice, 1),
  );
  // biome-ignore format: one seeded record per line
  const costs: Array<[number, number, number, string, number, string, number]> = [[51, 5103, 14, 'Deed copies from the county recorder', 2_500, '2024-10-17 15:00', 1], [52, 5109, 14, 'Probate court records copying fee', 4_850, '2024-09-13 11:00', 0], [53, 5110, 14, 'Police report fee', 4_350, '2024-04-08 09:00', 0], [54, 5102, 14, 'Certified copy of the custody order', 9_000, '2024-11-06 12:00', 3]];
  records.expenses = costs.map(([id, prospect, user, description, cents, started, invoice]) =>
    billable(id, prospect, user, description, 1, cents, started, invoice, 2, true),
  );
  const owed = (invoice: number) =>
    time.filter((t) => t[6] === invoice).reduce((sum, t) => sum + Math.round(t[4] * rateOf(t[2])), 0) +
    costs.filter((c) => c[6] === invoice).reduce((sum, c) => sum + c[4], 0);
  // [id, invoice, prospect, contact, cents, method, executed]
  // biome-ignore format: one seeded record per line
  const payments: Array<[number, number, number, number, number, string, string]> = [[1, 1, 5103, 8203, 25_000, 'credit_card', '2024-10-20 10:12'], [2, 2, 5112, 8212, 42_500, 'ach', '2024-10-08 11:30'], [3, 3, 5102, 8202, 10_000, 'check', '2024-11-08 14:00'], [4, 3, 5102, 8202, 5_000, 'credit_card', '2024-11-12 11:45']];
  const paid = (invoice: number) => payments.filter((p) => p[1] === invoice).reduce((sum, p) => sum + p[4], 0);
  // [id, prospect, name, number, invoiced]
  // biome-ignore format: one seeded record per line
  const invoices: Array<[number, number, string, number, string]> = [[1, 5103, 'Harriet Osei', 801, '2024-10-18'], [2, 5112, 'Victor Lam', 802, '2024-10-08'], [3, 5102, 'Caleb Whitman', 803, '2024-11-06'], [4, 5102, 'Caleb Whitman', 804, '2024-11-13']];
  records.invoices = invoices.map(([id, prospect, name, number, day]) => {
    const [amount, settled] = [owed(id), paid(id)];
    return record(
      id,
      {
        number,
        status: settled >= amount ? 'paid' : settled > 0 ? 'partially_paid' : 'sent',
        amount_cents: amount,
        amount_paid_cents: settled,
        outstanding_amount_cents: amount - settled,
        contactable_name: name,
        contactable_address: null,
        invoiced_at: day,
        due_at: day.replace(/-(\d{2})$/, (_, d: string) => `-${String(Math.min(Number(d) + 29, 28)).padStart(2, '0')}`),
        payment_terms: 'net_30',
        note: `Thank you for choosing ${FIRM.name}.`,
        enable_online_payment: true,
        include_balance_forward: false,
        include_statement_of_accounts: false,
        pdf_url: `https://files.${FIRM.domain}/invoices/${number}.pdf`,
        target_account_type: 'Prospect',
        voided_at: null,
        ...stamp(`${day} 09:00`),
      },
      { prospect: ref('prospect', prospect), created_by: ref('user', 14) },
    );
  });
  records.transactions = payments.map(([id, invoice, prospect, contact, cents, method, executed]) =>
    record(
      id,
      {
        amount_cents: cents,
        amount_currency: 'USD',
        transaction_type: 'credit',
        bank_account_type: 'operating',
        payment_method: method,
        note: 'Invoice payment',
        invoice_number: null,
        external_id: null,
        executed_at: at(executed),
        ...stamp(executed),
      },
      {
        account: ref('contact', contact),
        invoice: ref('invoice', invoice),
        prospect: ref('prospect', prospect),
        created_by: ref('user', 14),
      },
    ),
  );
  // [id, prospect, user, name, body, created]
  // biome-ignore format: one seeded record per line
  const notes: Array<[number, number, number, string, string, string]> = [[901, 5101, 12, 'Intake call', 'Slipped on an unmarked wet floor at Sunset Grocers in Daly City; the store manager filed an incident report.', '2023-07-31 10:40'], [902, 5101, 14, 'Medical treatment', 'Twice-weekly physical therapy at Harbor Medical; the hospital bills are on their way.', '2024-03-20 10:15'], [903, 5102, 13, 'Lead intake', 'Wants the custody schedule changed after the other parent moved to Sacramento.', '2024-11-03 12:15'], [904, 5103, 11, 'Trust assets', 'A rental flat in the Richmond District and a brokerage account.', '2024-10-16 15:10'], [905, 5104, 11, 'Estate plan', 'Will, revocable trust and powers of attorney; signing once the trust is funded.', '2023-12-21 08:50'], [906, 5106, 15, 'Lead follow-up', 'Left voicemail; sent the consultation booking link by email.', '2024-07-13 09:35'], [907, 5107, 11, 'Consultation summary', 'Wants joint legal custody; the house on Pacific Avenue is separate property.', '2023-10-23 12:00'], [908, 5110, 12, 'Declined', 'Declined: he was lane-splitting at high speed; policy limits are low.', '2024-04-10 09:20'], [909, 5105, 13, 'Referred out', 'The firm does not practise immigration law; referred to immigration counsel.', '2024-08-13 13:00'], [910, 5111, 12, 'Settlement range', 'Coastal Freight offered to split the late-delivery losses; Northwind wants them in full.', '2024-11-04 10:30']];
  records.notes = notes.map(([id, prospect, user, name, body, created]) =>
    record(id, { name, body, ...stamp(created) }, { notable: ref('prospect', prospect), created_by: ref('user', user) }),
  );
  // [id, name, description, due, priority, done, taskable, users, tags]
  // biome-ignore format: one seeded record per line
  const tasks: Array<[number, string, string, string, string, boolean, number, number[], number[]]> = [[1, 'Send retainer reminder', 'Follow up on the unsigned retainer agreement', '2024-11-19', 'high', false, 5103, [11], [4]], [2, 'Calendar the mediation', 'Add the mediation date and two reminders', '2024-06-05', 'high', true, 5111, [14], [3]], [3, 'Collect medical bills', 'Request itemized bills from Harbor Medical Group', '2024-11-22', 'medium', false, 5101, [14], []], [4, 'Prepare deposition outline', 'Outline for the Sunset Grocers store manager deposition', '2024-11-29', 'high', false, 5101, [12], []], [5, 'Call back the new lead', 'Return Jordan Ellis’s voicemail about his car accident and book a consultation', '2024-11-15', 'high', false, 5114, [15], [4]], [6, 'Draft mediation brief', 'Brief due five days before mediation', '2024-12-05', 'medium', false, 5111, [11, 12], []]];
  records.tasks = tasks.map(([id, name, description, due, priority, done, prospect, users, tags], i) =>
    record(
      id,
      {
        name,
        description,
        due_date: at(`${due} 00:00`),
        priority,
        done,
        status: done ? 'Done' : i % 2 ? 'In Progress' : 'To Do',
        assigned_by_id: 11,
        recurrence_rule: null,
        tags: tags.map((t) => ({ id: t })),
        ...stamp('2024-05-01 09:00'),
      },
      { taskable: ref('prospect', prospect), users: users.map((u) => ref('user', u)), tags: tags.map((t) => ref('tag', t)) },
    ),
  );
  // biome-ignore format: one seeded record per line
  records.subtasks = [[1, 4, 'Pull the floor-cleaning log', true], [2, 4, 'Review the store’s camera footage', false], [3, 4, 'List exhibits', false], [4, 6, 'Summarize medical damages', false], [5, 6, 'Attach photos of injuries', false]].map(([id, task, body, done]) => record(id as number, { body, done, ...stamp('2024-11-05 10:00') }, {}, { task_id: String(task) }));
  // biome-ignore format: one seeded record per line
  records.comments = [[1, 4, 12, 'The store produced its floor-cleaning log on Friday.'], [2, 3, 14, 'Harbor Medical says 10 business days for billing records.'], [3, 6, 11, 'Use the photos from the October visit.']].map(([id, task, user, body]) => record(id as number, { body, mentioned_user_ids: [], ...stamp('2024-11-06 11:00') }, { user: ref('user', user as number) }, { task_id: String(task) }));
  // biome-ignore format: one seeded record per line
  records.task_statuses = named([[1, 'To Do', '2023-07-05 10:00'], [2, 'In Progress', '2023-07-05 10:01'], [3, 'Waiting on Client', '2023-07-05 10:02'], [4, 'Done', '2023-07-05 10:03']], (i) => ({ color: ['#9aa5b1', '#4e79a7', '#edc948', '#59a14f'][i] }));
  records.folders = [
    record(1, { name: 'Medical Records', folder_id: null, ...stamp('2024-03-20 10:00') }, { documentable: ref('prospect', 5101) }),
    record(2, { name: 'Pleadings', folder_id: null, ...stamp('2024-02-15 12:00') }, { documentable: ref('prospect', 5111) }),
    record(3, { name: 'Estate Documents', folder_id: null, ...stamp('2024-06-04 09:00') }, { documentable: ref('prospect', 5104) }),
  ];
  // biome-ignore format: one seeded record per line
  const files: Array<[number, string, string, number, number, number]> = [[1, 'Moreno_MRI_Report.pdf', 'application/pdf', 284_113, 5101, 1], [2, 'Northwind_Complaint_Filed.pdf', 'application/pdf', 512_904, 5111, 2], [3, 'Okafor_Trust_Deed.jpg', 'image/jpeg', 1_204_555, 5104, 3], [4, 'Osei_Trust_Questionnaire.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 48_220, 5103, 0]];
  records.files = files.map(([id, name, type, size, prospect, folder]) =>
    record(
      id,
      {
        name,
        file_name: name,
        file_type: type,
        file_size: size,
        file_url: `https://files.harlowpike.example/documents/${id}/${name}`,
        ...stamp('2024-06-14 16:59'),
      },
      { documentable: ref('prospect', prospect), folder: folder ? ref('folder', folder) : null },
    ),
  );
  // biome-ignore format: one seeded record per line
  const calls: Array<[number, number, string, string, string]> = [[61, 5101, 'Phone call', 'Client updated us on therapy progress.', '2024-11-08 15:30'], [62, 5102, 'Phone call', 'Intake call about changing the custody schedule.', '2024-11-03 11:00'], [63, 5103, 'Email', 'Sent the document checklist for the trust.', '2024-11-12 10:00'], [64, 5113, 'Text message', 'Confirmed the consultation time by text.', '2024-11-15 09:20']];
  records.interactions = calls.map(([id, prospect, type, body, happened]) =>
    record(
      id,
      { interaction_type: type, body, happened_at: at(happened), ...stamp(happened) },
      { interactable: ref('prospect', prospect), created_by: ref('user', 15) },
    ),
  );
  // biome-ignore format: one seeded record per line
  records.relationship_types = named([[1, 'Spouse', '2021-10-31 16:22'], [2, 'Child', '2021-10-31 16:23'], [3, 'Guardian', '2021-10-31 16:24'], [4, 'Employer', '2022-08-08 17:53']], (i) => ({ is_repeatable: i === 1 }));
  for (const t of records.relationship_types) t.relationships.created_by = ref('user', 11);
  // biome-ignore format: one seeded record per line
  records.relationships = [[1, 5102, 8221, 1, 'Spouse'], [2, 5107, 8222, 1, 'Spouse'], [3, 5111, 8220, 4, 'Employer']].map(([id, prospect, contact, type, name]) => record(id as number, { name, prospect_id: prospect, contact_id: contact, relationship_type_id: type, 'has_portal_access?': false, ...stamp('2024-03-05 10:00') }, { relationship_type: ref('relationship_type', type as number), prospect: ref('prospect', prospect as number) }));
  // [id, key, type, recipient, tracked, user, created]
  // biome-ignore format: one seeded record per line
  const activity: Array<[number, string, string, string, string, number, string]> = [[1, 'prospect.create', 'prospect', 'prospect:5114', 'prospect:5114', 15, '2024-11-15 08:05'], [2, 'note.create', 'note', 'prospect:5101', 'note:901', 12, '2023-07-31 10:40'], [3, 'prospect.update', 'prospect', 'prospect:5101', 'prospect:5101', 12, '2024-04-02 11:30'], [4, 'event.create', 'event', 'prospect:5102', 'event:701', 13, '2024-11-04 09:00'], [5, 'note.create', 'note', 'prospect:5111', 'note:910', 12, '2024-11-04 10:30'], [6, 'email.sent', 'email', 'contact:8203', 'custom_email:2', 11, '2024-11-12 09:15'], [7, 'task.complete', 'task', 'prospect:5111', 'task:2', 14, '2024-06-05 17:00'], [8, 'prospect.create', 'prospect', 'prospect:5113', 'prospect:5113', 15, '2024-11-15 06:52']];
  const pair = (text: string) => ref(text.split(':')[0] as string, text.split(':')[1] as string);
  records.activities = activity.map(([id, key, type, recipient, tracked, user, created]) =>
    record(
      id,
      { key, type, parent_id: null, detail_keys: { summary: `${key} by user ${user}` }, ...stamp(created) },
      { owner: ref('user', user), recipient: pair(recipient), tracked: pair(tracked) },
    ),
  );
}

function billable(
  id: number,
  prospect: number,
  user: number,
  description: string,
  hours: number,
  cents: number,
  started: string,
  invoice: number,
  activityType: number,
  flat = false,
): StoredRecord {
  return record(
    id,
    {
      description,
      duration: hours,
      duration_rounded: Math.ceil(hours * 10) / 10,
      is_billable: true,
      billable: true,
      is_flat_fee: flat,
      rate_flat_fee: flat,
      rate: { cents, currency_iso: 'USD' },
      rate_cents: cents,
      started_at: at(started),
      completed_at: at(started),
      ...stamp(started),
    },
    {
      activity_type: ref('activity_type', activityType),
      contactable: ref('prospect', prospect),
      invoice: invoice ? ref('invoice', invoice) : null,
      staff: ref('user', user),
      created_by: ref('user', user),
    },
  );
}
