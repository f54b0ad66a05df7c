import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { ClioId, Day, Flag, Int, Moment, Ref, Text, TimeZone } from '../schemas.js';
import { downloadOperation } from './kit/downloads.js';
import { family } from './kit/rows.js';

// Reports: the reports Clio generates (billing, productivity, trust …) for download, the presets that save a report's
// settings, and the schedules that generate a preset regularly.

// Clio's report kinds and output formats (its document's value sets), shared by reports, presets and schedules.
export const REPORT_KINDS = [
  'accounts_receivable',
  'accounts_receivable_aging',
  'bank_account_activity',
  'billing_history',
  'billing_rate',
  'client_activity',
  'client_ledger',
  'clio_payments_deposit',
  'clio_payments_ledger',
  'clio_payments_monthly_statement',
  'clio_payments_sales_tax',
  'clio_payments_transaction',
  'contact_information',
  'disbursement_payment',
  'fee_allocation',
  'general_ledger',
  'grant_matters',
  'invoice_payments_v2',
  'law_society_of_alberta',
  'law_society_of_alberta_al',
  'law_society_of_alberta_bar',
  'law_society_of_alberta_tl',
  'law_society_of_alberta_tt',
  'matter',
  'matter_balance_summary',
  'matter_productivity_by_user',
  'matters_by_responsible_attorney',
  'originating_attorney_revenue',
  'other_revenue',
  'productivity_by_client',
  'productivity_by_user',
  'revenue',
  'task_productivity_by_user',
  'task_progress_by_user',
  'trust_ledger',
  'trust_ledger_nsw',
  'trust_listing',
  'trust_management',
  'work_in_progress',
] as const;

export const REPORT_FORMATS = ['csv', 'html', 'json', 'pdf', 'xlsx', 'zip'] as const;

export const generateReportFromPreset = defineOperation({
  name: 'generate_report_from_preset',
  method: 'POST',
  path: '/report_presets/:id/generate_report',
  summary: 'Run a saved report (generate a report from a preset)',
  description:
    'Starts generating a report, such as the monthly billing report, with the saved settings of a report preset (id from list_report_presets). Answers with the new report; follow it with get_report until its state is completed, then download_report.',
  params: Params({ id: ClioId('Id of the report preset (from list_report_presets).') }),
  upstream: (p) => ({ method: 'POST', path: `/report_presets/${p.id}/generate_report.json` }),
});

export const downloadReport = downloadOperation({
  name: 'download_report',
  path: '/reports/:id/download',
  clio: (id) => `/reports/${id}/download.json`,
  summary: 'Download the file of a generated report (PDF or CSV)',
  description:
    'Gets the file of a generated report (id from list_reports or create_report) in the format it was made in (PDF, CSV …); get_report’s state must be completed first.',
  file: 'the report file',
  idDescription: 'Id of the report (from list_reports or create_report).',
});

export const reports = family(
  [
    {
      key: 'reports',
      path: '/reports',
      clio: '/reports',
      record: ['report', 'reports'],
      summaries: {
        list: 'List the reports already generated and ready to download',
        get: 'Get a report and whether it is ready to download',
        create: 'Run a report, such as billing, productivity or trust',
      },
      verbs: ['list', 'get', 'create'],
      about: 'Reports Clio generates (billing, productivity, trust …) for download.',
      fields: 'id,name,kind,format,state,created_at',
      order: null,
      filters: {
        category: Text('Only reports with this category.'),
        created_before: Moment('Only reports with created date before this time'),
        kind: StringEnum(REPORT_KINDS, { description: 'Only reports with this kind.' }),
        output_format: Text('Only reports with this output format.'),
        query: Text('Wildcard search in the reports.'),
        source: Text('Only reports with this source.'),
        state: Text('Only reports with this state.'),
      },
      body: {
        client: Ref('client'),
        end_date: Day('End date'),
        format: StringEnum(REPORT_FORMATS, { description: 'File format of the generated report.' }),
        kind: StringEnum(REPORT_KINDS, { description: 'Kind of report (what it covers).' }),
        matter: Ref('matter'),
        originating_attorney: Ref('originating attorney'),
        practice_area: Ref('practice area'),
        responsible_attorney: Ref('responsible attorney'),
        start_date: Day('Start date'),
        user: Ref('user'),
        year: Text('Year.'),
      },
      required: ['format', 'kind'],
      text: {
        list: 'Lists the reports Clio generated (billing, revenue, productivity, trust and others) ready to download, by kind, category, state, source or output_format. query searches the name.',
        get: 'Returns one generated report with its state; the id comes from list_reports or create_report. When its state is completed, download_report fetches it.',
        create:
          'Starts generating a report, such as a productivity or revenue report for a period: kind and format are required, the filters (matter, client, dates …) depend on the kind. Poll get_report until done, then download_report; to rerun saved settings, use generate_report_from_preset.',
      },
    },
    {
      key: 'report_presets',
      path: '/report_presets',
      clio: '/report_presets',
      record: ['report_preset', 'report_presets'],
      summaries: {
        list: 'List saved report settings (report presets)',
        get: 'Get a saved report setting (report preset)',
        create: 'Create a report preset (saved report settings) to run again',
        update: 'Change a saved report preset',
        delete: 'Delete a saved report preset',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Saved report settings that can be generated again or on a schedule.',
      fields: 'id,name,kind,format,category,options',
      order: 'id(asc)',
      filters: {
        category: StringEnum(
          ['billing', 'client', 'compliance', 'financial', 'matter', 'online_payments', 'productivity', 'revenue', 'task'],
          { description: 'Only report presets with this category.' },
        ),
        has_schedule: Flag('Only presets with (true) or without (false) a schedule.'),
        output_format: Text('Only report presets with this output format.'),
        query: Text('Wildcard search in the report presets.'),
        schedule_frequency: StringEnum(['daily', 'weekly', 'monthly'], {
          description: 'Only report presets with this schedule frequency.',
        }),
      },
      body: {
        format: StringEnum(REPORT_FORMATS, { description: 'File format of the generated report.' }),
        kind: StringEnum(REPORT_KINDS, { description: 'Kind of report (what it covers).' }),
        name: Text('Name.'),
        options: Text('The report’s settings, as a JSON string.'),
      },
      required: ['name', 'format', 'kind', 'options'],
      text: {
        list: 'Lists report presets, the saved report settings that can be run again or on a schedule. Filter by category, has_schedule, schedule_frequency, output_format or query (name).',
        get: 'Returns one report preset (saved report settings: kind, format, options); the id comes from list_report_presets.',
        create:
          'Saves a report preset: name, kind, format and options (the report’s settings as a JSON string) are required. Run it with generate_report_from_preset or schedule it with create_report_schedule.',
        update: 'Changes the name, format or options of a saved report preset (id from list_report_presets).',
        delete: 'Deletes a saved report preset (id from list_report_presets). Answers 204 with no body.',
      },
    },
    {
      key: 'report_schedules',
      path: '/report_schedules',
      clio: '/report_schedules',
      record: ['report_schedule', 'report_schedules'],
      summaries: {
        list: 'List report schedules (reports run and emailed automatically)',
        get: 'Get a report schedule',
        create: 'Schedule a saved report to run every day, week or month',
        update: 'Change when a scheduled report runs',
        delete: 'Stop a scheduled report (delete its schedule)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Schedules that generate a report preset regularly.',
      fields: 'id,frequency,time_of_day,time_zone,next_generation_at,report_preset{id,name}',
      order: null,
      body: {
        day_of_month: Int('Day of the month for monthly schedules.'),
        days_of_week: Type.Array(Type.Integer(), { description: 'Days of week.' }),
        effective_from: Day('Effective from'),
        every_no_of_months: Int('Every how many months, for monthly schedules.'),
        frequency: StringEnum(['daily', 'weekly', 'monthly'], { description: 'Frequency.' }),
        report_preset_id: Int('The preset to generate (ids from list_report_presets).'),
        time_of_day: Moment('Time of day'),
        time_zone: TimeZone('Time zone the schedule runs in, an IANA name (e.g. America/New_York), one of Clio’s 598 values.'),
      },
      required: ['frequency', 'report_preset_id', 'time_of_day', 'time_zone'],
      text: {
        list: 'Lists report schedules, when saved report presets are generated automatically (daily, weekly, monthly) and sent.',
        get: 'Returns one report schedule with its frequency, time and preset; the id comes from list_report_schedules.',
        create:
          'Schedules a report preset (report_preset_id from list_report_presets) to run regularly: frequency, time_of_day and time_zone are required, days_of_week or day_of_month say which days.',
        update: 'Changes the frequency, days or time of a report schedule (id from list_report_schedules).',
        delete: 'Deletes a report schedule (id from list_report_schedules); the preset stays. Answers 204 with no body.',
      },
    },
  ],
  downloadReport,
  generateReportFromPreset,
);
