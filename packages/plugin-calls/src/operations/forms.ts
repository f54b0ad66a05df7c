import { BooleanString, defineOperation, Params, requires, StringEnum, Type } from '@portico/core/plugin';
import {
  AccountId,
  AnyRecord,
  CommaIds,
  CommaValues,
  CompanyFilter,
  DATE_RULES,
  DateFilters,
  DEFAULT_PER_PAGE,
  Fields,
  FORM_GROUPS,
  FORM_SORTS,
  FORM_SUMMARY_FIELDS,
  idParam,
  LIST_LEAD_STATUSES,
  Order,
  Paged,
  Paging,
  SUMMARY_LEAD_STATUSES,
  Summary,
  TagIds,
} from '../schemas.js';
import { callrailGet } from '../upstream.js';
import { datesInOrder } from './kit.js';

const EXAMPLE_ACCOUNT = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';
const FORM_FIELD_EXAMPLES = ['source', 'campaign', 'keywords', 'lead_status', 'tags'];

export const listFormSubmissions = defineOperation({
  name: 'list_form_submissions',
  method: 'GET',
  path: '/accounts/:account_id/form-submissions',
  summary: 'List web form submissions (leads from the website)',
  description:
    'Lists the web forms leads filled in on a tracked site, each with id, company_id, form_data (the submitted ' +
    "fields), form_url, landing_page_url, referrer, submitted_at, first_form and the person's name, phone and " +
    'email; add attribution with fields (source, campaign, lead_status, tags). Filter by period (date_range or ' +
    'start_date and end_date), company_id, lead_status, tags (tag ids) or person_lead=true for submissions tied to ' +
    'a lead. Paged: page from 1, per_page default 25, max 250.',
  params: Params(
    {
      account_id: AccountId,
      ...DateFilters,
      company_id: CompanyFilter,
      person_lead: Type.Optional(
        BooleanString({
          description: '"true": only submissions linked to a lead (a person record in CallRail); omit for all submissions.',
          examples: ['true'],
        }),
      ),
      lead_status: Type.Optional(StringEnum(LIST_LEAD_STATUSES, { description: 'Lead score of the submission.' })),
      tags: TagIds,
      sort: Type.Optional(StringEnum(FORM_SORTS, { description: 'Sort field (default submitted_at, newest first).' })),
      order: Order,
      fields: Fields(FORM_FIELD_EXAMPLES),
      ...Paging,
    },
    // CallRail: "If order is provided, sort is required" (one-way: sort alone is fine).
    { rules: [...DATE_RULES, requires('order', 'sort')] },
  ),
  // A schema cannot compare two values: start_date <= end_date.
  check: datesInOrder,
  response: Paged('form_submissions', AnyRecord, 'Form submissions on this page'),
  // https://apidocs.callrail.com/#listing-all-form-submissions
  upstream: callrailGet('/a/:account_id/form_submissions.json', { perPage: DEFAULT_PER_PAGE, bracketArrays: ['tags'] }),
  example: { account_id: EXAMPLE_ACCOUNT, date_range: 'this_month', lead_status: 'good_lead', per_page: '25' },
});

export const getFormSubmission = defineOperation({
  name: 'get_form_submission',
  method: 'GET',
  path: '/accounts/:account_id/form-submissions/:form_submission_id',
  summary: "Get a web form submission's answers and source",
  description:
    'Returns one form submission (form_submission_id from list_form_submissions) with the submitted form_data, the ' +
    "page it came from and the person's details. Through fields it adds attribution (source, campaign, keywords) " +
    'and lead status.',
  params: Params({
    account_id: AccountId,
    form_submission_id: idParam('Form submission id (starts with FOR), from list_form_submissions.', 'FOR6a1d3c8e5b2f4a9d7c4e1b8f3a6d2c05'),
    fields: Fields(FORM_FIELD_EXAMPLES),
  }),
  // Not in the table of contents of https://apidocs.callrail.com/#form-submissions; community CallRail clients
  // (pghdma/callrail-mcp, kanopi/callrail-mcp) call this path to read one submission.
  upstream: callrailGet('/a/:account_id/form_submissions/:form_submission_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, form_submission_id: 'FOR6a1d3c8e5b2f4a9d7c4e1b8f3a6d2c05', fields: ['source', 'lead_status'] },
});

export const summarizeFormData = defineOperation({
  name: 'summarize_form_data',
  method: 'GET',
  path: '/accounts/:account_id/form-submissions/summary',
  summary: 'Count web form submissions over a period, optionally grouped',
  description:
    'Counts form submissions (total_forms, first_time_forms, leads; choose with fields, comma-separated) over a ' +
    'period, optionally broken down by source, keywords, campaign, referrer, landing_page or company with ' +
    'group_by. Filter by company_id, tags (comma-separated tag ids), custom_form_ids, form_URL or lead_status; the ' +
    "answer is shaped like summarize_call_data's, with total_results and grouped_results.",
  params: Params(
    {
      account_id: AccountId,
      ...DateFilters,
      company_id: CompanyFilter,
      group_by: Type.Optional(StringEnum(FORM_GROUPS, { description: 'Dimension to break the totals down by.', examples: ['campaign'] })),
      fields: CommaValues(FORM_SUMMARY_FIELDS, 'Metrics to compute (CallRail default: total_forms).', 'total_forms,leads'),
      tags: CommaIds('Tag ids (from get_tags), comma-separated; submissions with any of them count.', '4021993,4021994'),
      custom_form_ids: CommaIds('Only these forms (custom form ids), comma-separated.', '7731,7732'),
      form_URL: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 2000,
          description: 'Only submissions of the form on this page URL.',
          examples: ['https://www.harlowpike.example/book-appointment'],
        }),
      ),
      lead_status: Type.Optional(StringEnum(SUMMARY_LEAD_STATUSES, { description: 'Only submissions with this lead status.' })),
    },
    { rules: DATE_RULES },
  ),
  // A schema cannot compare two values: start_date <= end_date.
  check: datesInOrder,
  response: Summary,
  // https://apidocs.callrail.com/#summarizing-form-data
  upstream: callrailGet('/a/:account_id/form_submissions/summary.json'),
  example: { account_id: EXAMPLE_ACCOUNT, date_range: 'last_30_days', group_by: 'source', fields: 'total_forms,leads' },
});
