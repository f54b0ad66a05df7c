import { atMostOne, CommaList, FreeObject, IntegerString, StringEnum, type TSchema, Type, together } from '@portico/core/plugin';

// ---- value sets (Core Specification, "Enumerated values") ------------------------------------------------------

export const DATE_RANGES = [
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
] as const;
export const CALL_TYPES = ['first_call', 'missed', 'voicemails', 'inbound', 'outbound'] as const;
export const ANSWER_STATUSES = ['answered', 'missed', 'voicemail'] as const;
export const DIRECTIONS = ['inbound', 'outbound'] as const;
export const LIST_DEVICES = ['desktop', 'mobile'] as const;
export const SUMMARY_DEVICES = ['desktop', 'mobile', 'tablet'] as const;
export const LIST_LEAD_STATUSES = ['good_lead', 'not_a_lead', 'not_scored'] as const;
export const SUMMARY_LEAD_STATUSES = ['good_lead', 'not_a_lead', 'previously_marked_good_lead'] as const;
export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const TAG_STATUSES = ['enabled', 'disabled'] as const;
export const TAG_LEVELS = ['company', 'account'] as const;
export const ORDERS = ['asc', 'desc'] as const;

export const CALL_SORTS = [
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
] as const;
export const FORM_SORTS = ['created_at', 'submitted_at', 'form_url'] as const;

export const CALL_GROUPS = [
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
] as const;
export const FORM_GROUPS = ['source', 'keywords', 'campaign', 'referrer', 'landing_page', 'company'] as const;

export const CALL_SUMMARY_FIELDS = [
  'total_calls',
  'missed_calls',
  'answered_calls',
  'first_time_callers',
  'average_duration',
  'total_duration',
  'leads',
] as const;
export const FORM_SUMMARY_FIELDS = ['total_forms', 'first_time_forms', 'leads'] as const;

export const TRACKER_STATUSES = ['active', 'disabled'] as const;
export const TRACKER_TYPES = ['source', 'session'] as const;
export const UPDATE_LEAD_STATUSES = ['good_lead', 'not_a_lead'] as const;

// ---- request parameters ------------------------------------------------------------------------------------------

/** CallRail's default page size is 100; the gateway's is smaller so that a model's context is not flooded. */
export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 250;
export const SMS_THREAD_PER_PAGE = 100;

export const AccountId = Type.String({
  minLength: 1,
  description: 'CallRail account id (starts with ACC). Get it from list_accounts.',
  examples: ['ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e'],
});

export const idParam = (description: string, example: string) => Type.String({ minLength: 1, description, examples: [example] });

// The catalog types page and per_page of the paged lists as strings ("page (string, default 1)"): they are declared as
// the strings they are, bounded by their pattern; a JSON number given for them is accepted too (core's coercion rule).
export const Page = Type.Optional(
  IntegerString({
    minimum: 1,
    default: '1',
    description: 'Page number, starting at 1 (default 1). Ask for the next page while page < total_pages of the answer.',
    examples: ['2'],
  }),
);
export const PerPage = Type.Optional(
  IntegerString({
    minimum: 1,
    maximum: MAX_PER_PAGE,
    default: String(DEFAULT_PER_PAGE),
    description: `Records per page (default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE}); a larger page means fewer calls to read everything.`,
    examples: ['50'],
  }),
);
export const Paging = { page: Page, per_page: PerPage };

export const Order = Type.Optional(
  StringEnum(ORDERS, { description: 'Sort direction. Needs sort to be set as well.', examples: ['desc'] }),
);

/**
 * The extra fields a call answers when asked (CallRail's "additional user requested response fields" for calls), beyond
 * the default set every call carries. transcription is among the fields CallRail returns only when asked.
 */
export const CALL_FIELDS = [
  'call_type',
  'campaign',
  'company_id',
  'company_name',
  'company_time_zone',
  'device_type',
  'first_call',
  'formatted_customer_name',
  'formatted_customer_phone_number',
  'formatted_duration',
  'formatted_tracking_phone_number',
  'keywords',
  'landing_page_url',
  'lead_status',
  'medium',
  'note',
  'referrer_domain',
  'source',
  'source_name',
  'tags',
  'tracker_id',
  'transcription',
  'value',
] as const;

export const Fields = (examples: string[], valid?: readonly string[]) =>
  Type.Optional(
    // REST callers often write fields=a,b (CallRail's own style), which arrives as one item: allow commas inside items.
    Type.Array(Type.String({ minLength: 1, pattern: '^[a-z0-9_]+(,[a-z0-9_]+)*$' }), {
      description:
        'Extra response fields to include beyond the default set (CallRail field selection); sent upstream as one comma-separated list.' +
        (valid ? ` One or more of: ${valid.join(', ')}.` : ''),
      examples: [examples],
    }),
  );

export const CompanyFilter = Type.Optional(
  Type.String({
    minLength: 1,
    description: 'Only records of this company (COM… id from list_companies).',
    examples: ['COM7d2b5e8a1c4f4b9e8d3a6c0f2e5b7a91'],
  }),
);

/** ISO 8601 date, optionally with a time and offset (CallRail accepts both). */
const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';

export const DateFilters = {
  date_range: Type.Optional(
    StringEnum(DATE_RANGES, {
      description: 'A named period relative to today, in the company time zone. Use either date_range or start_date + end_date, not both.',
      examples: ['last_30_days'],
    }),
  ),
  start_date: Type.Optional(
    Type.String({
      pattern: ISO_DATE,
      description: 'First day to include (ISO 8601 date, e.g. 2025-05-01; a time may follow). Give end_date with it.',
      examples: ['2025-05-01'],
    }),
  ),
  end_date: Type.Optional(
    Type.String({
      pattern: ISO_DATE,
      description: 'Last day to include (ISO 8601 date, on or after start_date). Give start_date with it.',
      examples: ['2025-05-31'],
    }),
  ),
};

/**
 * The date filters' rules: start_date and end_date each require the other (the catalog's rule), and a named
 * date_range is not mixed with them (which of the two periods CallRail applies would be a guess for the caller).
 */
export const DATE_RULES = [together('start_date', 'end_date'), atMostOne('date_range', 'start_date')];

/** A comma-separated list of values from a fixed set (summary metrics, email frequencies), validated by its pattern. */
export const CommaValues = (values: readonly string[], description: string, example: string) =>
  Type.Optional(CommaList(values, { minLength: 1, description, examples: [example] }));

/** Comma-separated ids (summaries take ids this way rather than as an array). */
export const CommaIds = (description: string, example: string) =>
  Type.Optional(Type.String({ minLength: 1, pattern: '^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$', description, examples: [example] }));

/** Tag ids as an array (the catalog's "array of tag ids"); CallRail tag ids are numbers, so a JSON number is accepted too. */
export const TagIds = Type.Optional(
  Type.Array(Type.String({ minLength: 1, pattern: '^[0-9]+$' }), {
    description: 'Tag ids (the numeric id from get_tags); a record matches when it carries any of them.',
    examples: [['4021993', '4021994']],
  }),
);

// ---- responses ------------------------------------------------------------------------------------------------------

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Str = () => Type.Optional(Nullable(Type.String()));
const Bool = () => Type.Optional(Nullable(Type.Boolean()));
const Num = () => Type.Optional(Nullable(Type.Number()));

/** The paged wrapper every CallRail list answers with; `key` names the array. */
export function Paged(key: string, item: TSchema, description: string) {
  return Type.Object(
    {
      page: Type.Number({ description: 'Page returned' }),
      per_page: Type.Number({ description: 'Page size used' }),
      total_pages: Type.Number({ description: 'Number of pages; ask for page+1 while page < total_pages' }),
      total_records: Type.Number({ description: 'Records matching the filters, over all pages' }),
      [key]: Type.Array(item, { description }),
    },
    { description: `Paged list: page, per_page, total_pages, total_records and the array ${key}` },
  );
}

export const Account = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    outbound_recording_enabled: Type.Optional(Type.Boolean()),
    hipaa_account: Type.Optional(Type.Boolean()),
  },
  { description: 'A CallRail account' },
);

export const Call = Type.Object(
  {
    id: Type.String(),
    answered: Bool(),
    // The Core Specification types it as an object; CallRail sends the number as a string. Both are accepted.
    business_phone_number: Type.Optional(Type.Union([Type.String(), FreeObject(), Type.Null()])),
    customer_city: Str(),
    customer_country: Str(),
    customer_name: Str(),
    customer_phone_number: Str(),
    customer_state: Str(),
    direction: Str(),
    duration: Num(),
    recording: Str(),
    recording_duration: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
    recording_player: Str(),
    start_time: Str(),
    tracking_phone_number: Str(),
    voicemail: Bool(),
    agent_email: Str(),
  },
  { description: 'A call; fields requested through `fields` are added to these' },
);

export const Company = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: Str(),
    time_zone: Str(),
    created_at: Str(),
    disabled_at: Type.Optional(Type.Union([Type.String(), FreeObject(), Type.Null()])),
    dni_active: Bool(),
    script_url: Str(),
    callscore_enabled: Bool(),
    lead_scoring_enabled: Bool(),
    swap_exclude_jquery: Type.Optional(Type.Union([Type.Boolean(), FreeObject(), Type.Null()])),
    swap_ppc_override: Type.Optional(Type.Union([Type.Boolean(), FreeObject(), Type.Null()])),
    swap_landing_override: Type.Optional(Type.Union([Type.Boolean(), FreeObject(), Type.Null()])),
    swap_cookie_duration: Num(),
    swap_cookie_duration_unit: Str(),
    callscribe_enabled: Bool(),
    keyword_spotting_enabled: Bool(),
    form_capture: Bool(),
  },
  { description: 'A company (a business or location tracked inside an account)' },
);

export const CallRecording = Type.Object(
  { url: Type.String({ description: 'Short-lived URL of the recording audio' }) },
  { description: 'Where to fetch a call recording' },
);

export const Summary = Type.Object(
  {
    start_date: Type.String(),
    end_date: Type.String(),
    time_zone: Type.String(),
    total_results: FreeObject({ description: 'Each requested metric over all matching records' }),
    grouped_by: Type.Optional(Nullable(Type.String())),
    grouped_results: Type.Optional(
      Type.Array(FreeObject(), { description: 'One entry per group: key (the group value) and the requested metrics' }),
    ),
  },
  { description: 'Totals over a period, optionally broken down by one dimension' },
);

export const TimeSeriesSummary = Type.Object(
  {
    start_date: Type.String(),
    end_date: Type.String(),
    time_zone: Type.String(),
    total_results: FreeObject({ description: 'Each requested metric over the whole period' }),
    data: Type.Array(FreeObject(), { description: 'One entry per interval: date (start of the interval) and the metrics' }),
  },
  { description: 'Metrics per time interval' },
);

export const AnyRecord = FreeObject();
