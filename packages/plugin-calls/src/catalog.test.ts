import { type CatalogDifferences, type CatalogOperation, type CatalogParam, compareWithCatalog } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { callrailPlugin } from './index.js';

// The Integration Operation Catalog's call-tracking table, as the catalog types it ("query values are strings unless
// marked"), with the value sets of the Core Specification's "Enumerated values" and the paging of its "Limits".

const req: CatalogParam = { type: 'string', required: true };
const str: CatalogParam = { type: 'string' };
const arr: CatalogParam = { type: 'array' };
const bool: CatalogParam = { type: 'boolean' };
const num: CatalogParam = { type: 'number' };
const oneOf = (...values: string[]): CatalogParam => ({ type: 'string', enum: values });

/** "Paged lists take page (string, default 1) and per_page (string, default 25, max 250)". */
const paging = { page: { type: 'string', default: '1' }, per_page: { type: 'string', default: '25' } } as const;
/** "Where sort and order appear, order is asc or desc". */
const order = oneOf('asc', 'desc');
/** "Date filters (calls, form submissions, SMS threads, summaries): date_range (see enumerated values), start_date and end_date". */
const dateFilters = {
  date_range: oneOf(
    'recent',
    'today',
    'yesterday',
    'last_7_days',
    'last_30_days',
    'this_month',
    'last_month',
    'this_year',
    'last_year',
    'all_time',
  ),
  start_date: str,
  end_date: str,
};
const answerStatus = oneOf('answered', 'missed', 'voicemail');
const direction = oneOf('inbound', 'outbound');
const listLeadStatus = oneOf('good_lead', 'not_a_lead', 'not_scored');
const summaryLeadStatus = oneOf('good_lead', 'not_a_lead', 'previously_marked_good_lead');

/** summarize_call_data's filters; the time series takes the same "except group_by, plus interval". */
const callSummaryFilters = {
  account_id: req,
  ...dateFilters,
  company_id: str,
  fields: oneOf('total_calls', 'missed_calls', 'answered_calls', 'first_time_callers', 'average_duration', 'total_duration', 'leads'),
  device: oneOf('desktop', 'mobile', 'tablet'),
  min_duration: num,
  max_duration: num,
  tags: str,
  tracker_ids: str,
  direction,
  answer_status: answerStatus,
  first_time_callers: bool,
  lead_status: summaryLeadStatus,
  agent: num,
};

const CATALOG: CatalogOperation[] = [
  {
    name: 'list_accounts',
    method: 'GET',
    path: '/accounts',
    params: { hipaa_account: bool, sort: oneOf('name'), order, fields: arr, ...paging },
  },
  { name: 'get_account', method: 'GET', path: '/accounts/:account_id', params: { account_id: req, fields: arr } },
  {
    name: 'list_calls',
    method: 'GET',
    path: '/accounts/:account_id/calls',
    params: {
      account_id: req,
      ...dateFilters,
      company_id: str,
      tracker_id: str,
      call_type: oneOf('first_call', 'missed', 'voicemails', 'inbound', 'outbound'),
      answer_status: answerStatus,
      device: oneOf('desktop', 'mobile'),
      direction,
      lead_status: listLeadStatus,
      tags: arr,
      sort: oneOf(
        'customer_name',
        'customer_phone_number',
        'duration',
        'start_time',
        'source',
        'customer_city',
        'customer_country',
        'landing_page_url',
        'device_type',
        'answered',
        'first_call',
        'source_name',
        'lead_status',
        'tags',
      ),
      order,
      search: str,
      fields: arr,
      ...paging,
    },
  },
  { name: 'get_call', method: 'GET', path: '/accounts/:account_id/calls/:call_id', params: { account_id: req, call_id: req, fields: arr } },
  {
    name: 'summarize_call_data',
    method: 'GET',
    path: '/accounts/:account_id/calls/summary',
    params: {
      ...callSummaryFilters,
      group_by: oneOf(
        'source',
        'keywords',
        'campaign',
        'referrer',
        'landing_page',
        'company',
        'city',
        'device',
        'browser',
        'os',
        'call_type',
        'answer_status',
        'lead_status',
        'tracker',
        'ring_to_number',
        'agent',
      ),
    },
  },
  {
    name: 'summarize_call_data_by_time_series',
    method: 'GET',
    path: '/accounts/:account_id/calls/timeseries',
    params: { ...callSummaryFilters, interval: oneOf('hour', 'day', 'week', 'month') },
  },
  {
    name: 'get_call_recording',
    method: 'GET',
    path: '/accounts/:account_id/calls/:call_id/recording',
    params: { account_id: req, call_id: req },
  },
  {
    name: 'get_tags',
    method: 'GET',
    path: '/accounts/:account_id/tags',
    params: {
      account_id: req,
      company_id: str,
      status: oneOf('enabled', 'disabled'),
      tag_level: oneOf('company', 'account'),
      sort: oneOf('name'),
      order,
    },
  },
  {
    name: 'list_companies',
    method: 'GET',
    path: '/accounts/:account_id/companies',
    params: { account_id: req, sort: oneOf('name'), order, search: str, fields: arr, ...paging },
  },
  {
    name: 'get_company',
    method: 'GET',
    path: '/accounts/:account_id/companies/:company_id',
    params: { account_id: req, company_id: req, fields: arr },
  },
  {
    name: 'list_form_submissions',
    method: 'GET',
    path: '/accounts/:account_id/form-submissions',
    params: {
      account_id: req,
      ...dateFilters,
      company_id: str,
      person_lead: str,
      lead_status: listLeadStatus,
      tags: arr,
      sort: oneOf('created_at', 'submitted_at', 'form_url'),
      order,
      fields: arr,
      ...paging,
    },
  },
  {
    name: 'summarize_form_data',
    method: 'GET',
    path: '/accounts/:account_id/form-submissions/summary',
    params: {
      account_id: req,
      ...dateFilters,
      company_id: str,
      group_by: oneOf('source', 'keywords', 'campaign', 'referrer', 'landing_page', 'company'),
      fields: oneOf('total_forms', 'first_time_forms', 'leads'),
      tags: str,
      custom_form_ids: str,
      form_URL: str,
      lead_status: summaryLeadStatus,
    },
  },
  {
    name: 'list_integrations',
    method: 'GET',
    path: '/accounts/:account_id/integrations',
    params: { account_id: req, company_id: str, ...paging },
  },
  {
    name: 'get_integration',
    method: 'GET',
    path: '/accounts/:account_id/integrations/:integration_id',
    params: { account_id: req, integration_id: req },
  },
  {
    name: 'list_integration_filters',
    method: 'GET',
    path: '/accounts/:account_id/integration-filters',
    params: { account_id: req, company_id: str, ...paging },
  },
  {
    name: 'get_integration_filter',
    method: 'GET',
    path: '/accounts/:account_id/integration-filters/:integration_triggers_id',
    params: { account_id: req, integration_triggers_id: req },
  },
  { name: 'list_notifications', method: 'GET', path: '/accounts/:account_id/notifications', params: { account_id: req, ...paging } },
  {
    name: 'list_outbound_caller_ids',
    method: 'GET',
    path: '/accounts/:account_id/caller-ids',
    params: { account_id: req, company_id: str, ...paging },
  },
  {
    name: 'get_outbound_caller_id',
    method: 'GET',
    path: '/accounts/:account_id/caller-ids/:caller_ids_id',
    params: { account_id: req, caller_ids_id: req },
  },
  {
    name: 'get_page_views_for_a_call',
    method: 'GET',
    path: '/accounts/:account_id/calls/:call_id/page-views',
    params: { account_id: req, call_id: req },
  },
  {
    name: 'list_sms_threads',
    method: 'GET',
    path: '/accounts/:account_id/sms-threads',
    params: { account_id: req, ...dateFilters, company_id: str, search: str, ...paging },
  },
  {
    name: 'get_sms_thread',
    method: 'GET',
    path: '/accounts/:account_id/sms-threads/:thread_id',
    params: {
      account_id: req,
      thread_id: req,
      with_msg_errors: bool,
      page: { type: 'number', default: 1 },
      per_page: { type: 'number', default: 100 },
    },
  },
  {
    name: 'list_summary_email_subscriptions',
    method: 'GET',
    path: '/accounts/:account_id/summary-emails',
    params: {
      account_id: req,
      frequency: oneOf('daily', 'weekly', 'monthly'),
      company_id: str,
      user_id: str,
      email: str,
      ...paging,
    },
  },
];

/**
 * Intended differences from the catalog, each with its reason. None: every operation the catalog shows is declared
 * with the catalog's method, path and parameters, typed, required, defaulted and enumerated as the catalog says.
 * (The catalog's other 9 call-tracking operations are not shown there, so they are not compared.)
 */
const DIFFERENCES: CatalogDifferences = {};

describe('the call-tracking catalog', () => {
  it('shows 23 operations, every one compared', () => {
    expect(CATALOG).toHaveLength(23);
    expect(new Set(CATALOG.map((row) => row.name)).size).toBe(23);
  });

  it('is matched by the declarations, except for the listed differences', () => {
    const found = compareWithCatalog(callrailPlugin, CATALOG);
    expect(Object.keys(found).sort(), `found: ${JSON.stringify(found, null, 2)}`).toEqual(Object.keys(DIFFERENCES).sort());
  });

  it('gives every listed difference a reason in one sentence', () => {
    for (const [key, reason] of Object.entries(DIFFERENCES)) {
      // several words on one line: a short sentence, not a placeholder
      expect(reason.trim(), key).toMatch(/^[^\n]*\S+ \S+ \S+[^\n]*$/);
    }
  });

  it('catches a disagreement (the comparison is not vacuous)', () => {
    const changed = CATALOG.map((row) =>
      row.name === 'list_calls' ? { ...row, params: { ...row.params, per_page: { type: 'number', default: 25 } as const } } : row,
    );
    expect(Object.keys(compareWithCatalog(callrailPlugin, changed)).sort()).toEqual([
      'list_calls.per_page:default',
      'list_calls.per_page:type',
    ]);
  });
});
