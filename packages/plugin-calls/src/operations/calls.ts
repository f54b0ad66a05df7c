import { atLeastOne, defineOperation, Params, requires, StringEnum, Type } from '@portico/core/plugin';
import {
  AccountId,
  ANSWER_STATUSES,
  AnyRecord,
  CALL_FIELDS,
  CALL_GROUPS,
  CALL_SORTS,
  CALL_SUMMARY_FIELDS,
  CALL_TYPES,
  Call,
  CallRecording,
  CommaIds,
  CommaValues,
  CompanyFilter,
  DATE_RULES,
  DateFilters,
  DEFAULT_PER_PAGE,
  DIRECTIONS,
  Fields,
  INTERVALS,
  idParam,
  LIST_DEVICES,
  LIST_LEAD_STATUSES,
  MAX_PER_PAGE,
  Order,
  Paged,
  Paging,
  SUMMARY_DEVICES,
  SUMMARY_LEAD_STATUSES,
  Summary,
  TagIds,
  TimeSeriesSummary,
  UPDATE_LEAD_STATUSES,
} from '../schemas.js';
import { callrailGet } from '../upstream.js';
import { checks, datesInOrder, durationRange } from './kit.js';

const CallId = idParam('CallRail call id (starts with CAL), from list_calls.', 'CAL0c8e4d2a6f1b4e7c9a3d5f8b2e6c1a47');
const EXAMPLE_ACCOUNT = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';
const EXAMPLE_CALL = 'CAL0c8e4d2a6f1b4e7c9a3d5f8b2e6c1a47';
const CALL_FIELD_EXAMPLES = ['source', 'campaign', 'lead_status', 'tags', 'note', 'company_name'];

export const listCalls = defineOperation({
  name: 'list_calls',
  method: 'GET',
  path: '/accounts/:account_id/calls',
  summary: 'List phone calls, answered or missed: who called, when, from which source',
  description:
    'Lists the phone calls an account received or made (account_id from list_accounts), the callers and leads who ' +
    'phoned the firm, newest first, each with start_time, duration in seconds, direction, answered, voicemail, ' +
    'customer name, number and location, tracking number and recording links. Filter by period (date_range, or ' +
    'start_date and end_date), company_id, tracker_id, call_type, answer_status, direction, device, lead_status, ' +
    'tags (tag ids from get_tags) or search over numbers, names, notes and sources; add marketing attribution with ' +
    'fields (source, campaign, keywords, lead_status, tags, note). Paged: page from 1, per_page default 25, max ' +
    '250; total_pages and total_records say whether to ask for the next page.',
  params: Params(
    {
      account_id: AccountId,
      ...DateFilters,
      company_id: CompanyFilter,
      tracker_id: Type.Optional(
        Type.String({
          minLength: 1,
          description: 'Only calls to this tracker (TRK… id from list_trackers).',
          examples: ['TRK4b8e1f5a9c2d4e7b8a6f3c1d9e5b2a70'],
        }),
      ),
      call_type: Type.Optional(StringEnum(CALL_TYPES, { description: 'Kind of call to return.', examples: ['missed'] })),
      answer_status: Type.Optional(StringEnum(ANSWER_STATUSES, { description: 'Outcome of the call.' })),
      device: Type.Optional(StringEnum(LIST_DEVICES, { description: 'Device the caller used (session-tracked calls).' })),
      direction: Type.Optional(StringEnum(DIRECTIONS, { description: 'Inbound (customer called) or outbound (business called).' })),
      lead_status: Type.Optional(StringEnum(LIST_LEAD_STATUSES, { description: 'Lead score given to the call.' })),
      tags: TagIds,
      sort: Type.Optional(
        StringEnum(CALL_SORTS, { description: 'Sort field (default start_time, newest first).', examples: ['duration'] }),
      ),
      order: Order,
      search: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Free text matched against business and tracking numbers, customer name and number, note and source.',
          examples: ['Delgado'],
        }),
      ),
      fields: Fields(CALL_FIELD_EXAMPLES, CALL_FIELDS),
      ...Paging,
    },
    // CallRail: "If order is provided, sort is required" (one-way: sort alone is fine).
    { rules: [...DATE_RULES, requires('order', 'sort')] },
  ),
  // A schema cannot compare two values: start_date <= end_date.
  check: datesInOrder,
  response: Paged('calls', Call, 'Calls on this page'),
  // https://apidocs.callrail.com/#listing-all-calls
  upstream: callrailGet('/a/:account_id/calls.json', { perPage: DEFAULT_PER_PAGE, bracketArrays: ['tags'] }),
  example: {
    account_id: EXAMPLE_ACCOUNT,
    date_range: 'last_30_days',
    answer_status: 'missed',
    fields: ['source', 'campaign'],
    per_page: '25',
  },
});

export const getCall = defineOperation({
  name: 'get_call',
  method: 'GET',
  path: '/accounts/:account_id/calls/:call_id',
  summary: "Get a phone call's details, recording links and source",
  description:
    'Returns one phone call by id (from list_calls): answered, voicemail, direction, duration, start_time, the ' +
    "caller's name, number and location, business and tracking numbers, agent_email and recording links. Request " +
    'attribution, scoring and the transcription with fields, such as ' +
    '["source","campaign","keywords","landing_page_url","lead_status","tags","note","transcription"] (the fields ' +
    'parameter lists every one); transcription is null for a call with no recording.',
  params: Params({ account_id: AccountId, call_id: CallId, fields: Fields(CALL_FIELD_EXAMPLES, CALL_FIELDS) }),
  response: Call,
  // https://apidocs.callrail.com/#retrieving-a-single-call
  upstream: callrailGet('/a/:account_id/calls/:call_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, call_id: EXAMPLE_CALL, fields: ['source', 'campaign', 'lead_status', 'tags'] },
});

export const updateCall = defineOperation({
  name: 'update_call',
  method: 'PATCH',
  path: '/accounts/:account_id/calls/:call_id',
  summary: 'Add a note or tags to a phone call, or set its lead status',
  description:
    'Changes the annotations of one phone call (call_id from list_calls): a note, the customer name, the lead ' +
    "status (good_lead or not_a_lead) and tags, by name, replacing the call's tags unless append_tags is set " +
    '(unknown names create a tag). Send at least one of note, customer_name, lead_status and tags; it places no ' +
    'call and contacts nobody. The answer is the updated call.',
  params: Params(
    {
      account_id: AccountId,
      call_id: CallId,
      note: Type.Optional(
        Type.String({
          maxLength: 4000,
          description: 'Note shown on the call (replaces the current note).',
          examples: ['Booked a consultation for Thursday'],
        }),
      ),
      customer_name: Type.Optional(
        Type.String({ minLength: 1, maxLength: 255, description: 'Name of the caller.', examples: ['Rosa Delgado'] }),
      ),
      lead_status: Type.Optional(StringEnum(UPDATE_LEAD_STATUSES, { description: 'Score the call as a lead or not.' })),
      tags: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
          maxItems: 50,
          description: 'Tag names to put on the call (see get_tags).',
          examples: [['New Client Inquiry']],
        }),
      ),
      append_tags: Type.Optional(
        Type.Boolean({ description: 'true: add the tags to the existing ones instead of replacing them. Only with tags.' }),
      ),
    },
    // append_tags only says how to apply tags, so it needs them (one-way: tags alone replace the call's tags).
    { rules: [atLeastOne('note', 'customer_name', 'lead_status', 'tags'), requires('append_tags', 'tags')] },
  ),
  response: Call,
  // https://apidocs.callrail.com/#updating-a-call (CallRail updates with PUT and takes partial bodies)
  upstream: { method: 'PUT', path: '/a/:account_id/calls/:call_id.json' },
  example: {
    account_id: EXAMPLE_ACCOUNT,
    call_id: EXAMPLE_CALL,
    lead_status: 'good_lead',
    tags: ['New Client Inquiry'],
    append_tags: true,
  },
});

/** Filters shared by the call summary and the call time series. */
const callSummaryFilters = {
  ...DateFilters,
  company_id: CompanyFilter,
  fields: CommaValues(CALL_SUMMARY_FIELDS, 'Metrics to compute (CallRail default: total_calls).', 'total_calls,answered_calls,leads'),
  device: Type.Optional(StringEnum(SUMMARY_DEVICES, { description: 'Only calls from this kind of device.' })),
  min_duration: Type.Optional(Type.Number({ minimum: 0, description: 'Only calls lasting at least this many seconds.', examples: [30] })),
  max_duration: Type.Optional(Type.Number({ minimum: 0, description: 'Only calls lasting at most this many seconds.', examples: [600] })),
  tags: CommaIds('Tag ids (from get_tags), comma-separated; calls with any of them count.', '4021993,4021994'),
  tracker_ids: CommaIds('Tracker ids (from list_trackers), comma-separated.', 'TRK4b8e1f5a9c2d4e7b8a6f3c1d9e5b2a70'),
  direction: Type.Optional(StringEnum(DIRECTIONS, { description: 'Only inbound or only outbound calls.' })),
  answer_status: Type.Optional(StringEnum(ANSWER_STATUSES, { description: 'Only calls with this outcome.' })),
  first_time_callers: Type.Optional(Type.Boolean({ description: 'true: only first-time callers.' })),
  lead_status: Type.Optional(StringEnum(SUMMARY_LEAD_STATUSES, { description: 'Only calls with this lead status.' })),
  agent: Type.Optional(Type.Integer({ minimum: 1, description: 'Only calls handled by this user (numeric user id).', examples: [210552] })),
};
// A schema cannot compare two values: start_date <= end_date, min_duration <= max_duration.
const summaryChecks = checks(datesInOrder, durationRange);

export const summarizeCallData = defineOperation({
  name: 'summarize_call_data',
  method: 'GET',
  path: '/accounts/:account_id/calls/summary',
  summary: 'Count calls over a period, optionally grouped by source or campaign',
  description:
    'Answers "how many calls did we get, and from where?" (answered, missed, leads, first-time callers, durations) ' +
    'without paging through list_calls. Choose the metrics with fields (comma-separated; default total_calls) and ' +
    'one breakdown with group_by (source, campaign, keywords, referrer, landing_page, company, city, device, ' +
    'call_type, answer_status, lead_status, tracker, agent…); filters work like list_calls. The answer has ' +
    'total_results over everything matched and grouped_results, one entry per group with its key and metrics.',
  params: Params(
    {
      account_id: AccountId,
      group_by: Type.Optional(StringEnum(CALL_GROUPS, { description: 'Dimension to break the totals down by.', examples: ['source'] })),
      ...callSummaryFilters,
    },
    { rules: DATE_RULES },
  ),
  check: summaryChecks,
  response: Summary,
  // https://apidocs.callrail.com/#summarizing-call-data
  upstream: callrailGet('/a/:account_id/calls/summary.json'),
  example: { account_id: EXAMPLE_ACCOUNT, date_range: 'last_30_days', group_by: 'source', fields: 'total_calls,answered_calls,leads' },
});

export const summarizeCallDataByTimeSeries = defineOperation({
  name: 'summarize_call_data_by_time_series',
  method: 'GET',
  path: '/accounts/:account_id/calls/timeseries',
  summary: 'Count phone calls per day, week or month (call volume trend)',
  description:
    'Shows the trend of calls: the same metrics and filters as summarize_call_data, computed per interval (hour, ' +
    'day, week or month) over the chosen period, for charts and "are calls going up?" questions. The answer has ' +
    'total_results and data, one entry per interval with its date and the metrics; keep hourly series to short ' +
    'periods.',
  params: Params(
    {
      account_id: AccountId,
      interval: Type.Optional(StringEnum(INTERVALS, { description: 'Length of each bucket (CallRail default: day).', examples: ['week'] })),
      ...callSummaryFilters,
    },
    { rules: DATE_RULES },
  ),
  check: summaryChecks,
  response: TimeSeriesSummary,
  // https://apidocs.callrail.com/#summarizing-call-data-by-time-series
  upstream: callrailGet('/a/:account_id/calls/timeseries.json'),
  example: { account_id: EXAMPLE_ACCOUNT, date_range: 'last_30_days', interval: 'week', fields: 'total_calls,missed_calls' },
});

export const getCallRecording = defineOperation({
  name: 'get_call_recording',
  method: 'GET',
  path: '/accounts/:account_id/calls/:call_id/recording',
  summary: 'Get a call recording to play back or listen to',
  description:
    'Returns { url } for the audio recording of one call (call_id from list_calls), to listen to what the caller ' +
    'said. The URL is short-lived: fetch it soon, do not store it; calls without a recording (missed, or recording ' +
    'disabled) answer not_found.',
  params: Params({ account_id: AccountId, call_id: CallId }),
  response: CallRecording,
  // https://apidocs.callrail.com/#retrieving-a-single-call-recording
  upstream: callrailGet('/a/:account_id/calls/:call_id/recording.json'),
  example: { account_id: EXAMPLE_ACCOUNT, call_id: EXAMPLE_CALL },
});

export const getPageViewsForACall = defineOperation({
  name: 'get_page_views_for_a_call',
  method: 'GET',
  path: '/accounts/:account_id/calls/:call_id/page-views',
  summary: 'List the web pages a caller visited before calling',
  description:
    "Lists the pages the visitor viewed on the firm's website before phoning, oldest first, with url, referrer_url " +
    'and timestamp, for a call from a session (website) tracker. Calls from source trackers (ads, print, direct) ' +
    'have none; up to 250 page views come back under page_views (total_records tells whether there are more).',
  params: Params({ account_id: AccountId, call_id: CallId }),
  response: Paged('page_views', AnyRecord, 'Page views of the visitor, oldest first'),
  // The catalog gives this operation no paging parameters, so one call asks for the largest page CallRail serves.
  // https://apidocs.callrail.com/#retrieving-page-views-for-a-call
  upstream: callrailGet('/a/:account_id/calls/:call_id/page_views.json', { fixedQuery: { per_page: String(MAX_PER_PAGE) } }),
  example: { account_id: EXAMPLE_ACCOUNT, call_id: EXAMPLE_CALL },
});
