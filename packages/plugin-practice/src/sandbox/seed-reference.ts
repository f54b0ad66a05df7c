import { addDays } from '@portico/core/testing/emulator';
import { type Db, insert } from './model.js';

// The firm's settings and lists that seed.ts leaves generic: groups, a grant, document, expense and task categories,
// task templates, matter stages, custom field sets, UTBMS codes, activity descriptions and rates beyond the firm's
// four, medical records of the personal injury matter, court dockets in every state, reports and report presets.

const day = (days: number) => addDays('2024-02-12', days);
const at = (days: number, time: string) => `${day(days)}T${time}+00:00`;
const ref = (id: number, extra: Record<string, unknown> = {}) => ({ id, ...extra });

export function seedReference(db: Db): void {
  insert(db, '/groups', {
    id: 14_001,
    name: 'Everyone',
    type: 'AccountGroup',
    archived: false,
    users: [1001, 1002, 1003, 1004, 1005, 1006].map((id) => ref(id)),
  });
  insert(db, '/groups', { id: 14_002, name: 'Litigation', type: 'AdhocGroup', archived: false, users: [ref(1002), ref(1003), ref(1004)] });
  insert(db, '/groups', { id: 14_003, name: 'Intake 2023', type: 'AdhocGroup', archived: true, users: [ref(1005)] });
  insert(db, '/grants', { id: 14_901, name: 'Small business legal clinic grant', balance: 12_000 });
  insert(db, '/grants', { id: 14_902, name: 'Employment rights pro bono fund', balance: 4_500 });

  insert(db, '/document_categories', { id: 13_401, name: 'Correspondence' });
  insert(db, '/document_categories', { id: 13_402, name: 'Medical' });
  const expenses: Array<[number, string, string, number]> = [
    [13_101, 'Court filing fees', 'hard_cost', 435],
    [13_102, 'Photocopies', 'soft_cost', 0.25],
    [13_103, 'Mileage', 'unassociated', 0.67],
  ];
  for (const [id, name, entry_type, rate] of expenses) insert(db, '/expense_categories', { id, name, entry_type, rate });
  insert(db, '/task_types', { id: 13_201, name: 'Research', deleted_at: null });
  insert(db, '/task_types', { id: 13_202, name: 'Deadline', deleted_at: null });
  insert(db, '/task_types', { id: 13_203, name: 'Fax', deleted_at: at(-200, '12:00:00') });

  // task templates: an estate plan checklist, a personal injury intake list, and a list not filled in yet
  const lists: Array<[number, string, number | null, number]> = [
    [14_201, 'New estate plan', 1102, 2],
    [14_202, 'Personal injury intake', 1103, 1],
    [14_203, 'Employment intake (to write)', 1104, 0],
  ];
  for (const [id, name, area, count] of lists) {
    insert(db, '/task_template_lists', {
      id,
      name,
      description: `${name} checklist`,
      practice_area: area === null ? null : ref(area),
      templates_count: count,
    });
  }
  const templates: Array<[number, string, number, string]> = [
    [14_251, 'Gather asset list', 14_201, 'High'],
    [14_252, 'Draft will', 14_201, 'Normal'],
    [14_253, 'Request police report', 14_202, 'Low'],
  ];
  for (const [id, name, list, priority] of templates) {
    insert(db, '/task_templates', { id, name, description: name, priority, private: false, task_template_list: ref(list) });
  }
  const stages: Array<[number, string, number, number]> = [
    [14_301, 'Intake', 1103, 1],
    [14_302, 'Discovery', 1103, 2],
    [14_303, 'Drafting', 1102, 1],
  ];
  for (const [id, name, area, order] of stages) insert(db, '/matter_stages', { id, name, practice_area_id: area, order });

  insert(db, '/custom_field_sets', { id: 14_101, name: 'Litigation details', parent_type: 'Matter', displayed: true });
  insert(db, '/custom_field_sets', { id: 14_102, name: 'Client intake', parent_type: 'Contact', displayed: false });
  insert(db, '/custom_field_sets', { id: 14_103, name: 'Estate details', parent_type: 'Matter', displayed: false });
  insert(db, '/custom_fields', {
    id: 9503,
    name: 'Referral source',
    field_type: 'text_line',
    parent_type: 'Contact',
    displayed: true,
    required: true,
    deleted: false,
  });
  insert(db, '/custom_fields', {
    id: 9504,
    name: 'Old case code',
    field_type: 'text_line',
    parent_type: 'Matter',
    displayed: false,
    required: false,
    deleted: true,
  });

  insert(db, '/utbms/sets', { id: 14_851, name: 'ABA Litigation Code Set' });
  insert(db, '/utbms/sets', { id: 14_852, name: 'ABA Counseling Code Set' });
  const codes: Array<[number, string, string, string, number]> = [
    [14_801, 'L110', 'Fact investigation', 'UtbmsTask', 14_851],
    [14_802, 'A101', 'Plan and prepare', 'UtbmsActivity', 14_851],
    [14_803, 'E101', 'Copying', 'UtbmsExpense', 14_852],
  ];
  for (const [id, code, name, type, set] of codes)
    insert(db, '/utbms/codes', { id, code, name, description: name, type, utbms_set_id: set });
  // a UTBMS description for litigation billing, and the estate plan's flat fee
  insert(db, '/activity_descriptions', {
    id: 4005,
    name: 'L110 Fact investigation',
    type: 'User',
    visible_to_co_counsel: true,
    default: false,
    rate: { amount: 325, non_billable_amount: 0, type: 'User' },
    utbms_task: ref(14_801),
    utbms_activity: ref(14_802),
    // for the litigators only
    groups: [ref(14_002)],
  });
  insert(db, '/activity_descriptions', {
    id: 4006,
    name: 'Estate plan package',
    type: 'User',
    visible_to_co_counsel: false,
    default: false,
    rate: { amount: 2400, non_billable_amount: 0, type: 'Flat' },
  });
  insert(db, '/activity_rates', { id: 4103, rate: 350, flat_rate: false, user: null, contact_id: null, co_counsel_contact_id: 2009 });

  // the personal injury matter's medical records: one provider done, one still treating
  insert(db, '/medical_records_details', {
    id: 14_501,
    description: 'St. Mary’s emergency room',
    in_treatment: false,
    treatment_start_date: day(-470),
    treatment_end_date: day(-468),
    records_status: 'received',
    bills_status: 'received',
    matter: ref(3004),
  });
  insert(db, '/medical_records_details', {
    id: 14_502,
    description: 'Bay Physical Therapy',
    in_treatment: true,
    treatment_start_date: day(-440),
    treatment_end_date: day(20),
    records_status: 'requested',
    bills_status: 'not_yet_requested',
    matter: ref(3004),
  });

  // court rules dockets beside the Vance one: Moreno's (complete, served by mail) and Okafor's (not started)
  insert(db, '/court_rules/matter_dockets', {
    id: 9902,
    name: 'Moreno trial deadlines',
    status: 'completed',
    start_date: day(-60),
    matter: ref(3004),
    jurisdiction: ref(9601),
    trigger: ref(9702),
    service_type: ref(9802),
  });
  insert(db, '/court_rules/matter_dockets', {
    id: 9903,
    name: 'Okafor probate filing',
    status: 'not_started',
    start_date: day(10),
    matter: ref(3003),
    jurisdiction: ref(9601),
    trigger: ref(9703),
    service_type: ref(9803),
  });

  const reports: Array<[number, string, string, string, string, string, string, number]> = [
    [14_601, 'Accounts receivable', 'accounts_receivable', 'billing', 'pdf', 'completed', 'reports', -20],
    [14_602, 'Work in progress', 'work_in_progress', 'revenue', 'csv', 'completed', 'presets', -7],
    [14_603, 'Trust listing', 'trust_listing', 'compliance', 'xlsx', 'queued', 'scheduled', 0],
  ];
  for (const [id, name, kind, category, format, state, source, days] of reports) {
    const stamp = at(days, '13:00:00');
    insert(db, '/reports', {
      id,
      name,
      kind,
      category,
      format,
      state,
      source,
      progress: state === 'completed' ? 100 : 0,
      created_at: stamp,
      updated_at: stamp,
    });
  }
  const presets: Array<[number, string, string, string, string, string | null]> = [
    [14_701, 'Monthly receivables', 'accounts_receivable', 'billing', 'pdf', 'monthly'],
    [14_702, 'Weekly productivity', 'productivity_by_user', 'productivity', 'csv', 'weekly'],
    [14_703, 'Trust listing', 'trust_listing', 'compliance', 'xlsx', null],
  ];
  for (const [id, name, kind, category, format, frequency] of presets) {
    insert(db, '/report_presets', {
      id,
      name,
      kind,
      category,
      format,
      report_schedule: frequency === null ? null : ref(id + 100, { frequency }),
    });
  }
}
