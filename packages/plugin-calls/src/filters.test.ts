import { describeFilters, type FilterCase, type FilterRecord, filterParams, pickValue, useSandbox } from '@portico/core/testing';
import { callrailPlugin } from './index.js';
import * as clock from './sandbox/clock.js';

// Every documented list filter of the CallRail plugin against its sandbox: each value is picked from the
// records the unfiltered list answers, and the filtered answer must be exactly the records that match.

// The filter suite only lists: the seed laid at start serves every case, unrestored.
const harness = useSandbox(callrailPlugin, { resetEachTest: false });

/** The sandbox's today: the shared sandbox clock's (today()) where it has landed, the fixed calendar's (TODAY) before. */
function sandboxToday(): string {
  const calendar = clock as unknown as { today?: () => string; TODAY?: string };
  return calendar.today?.() ?? calendar.TODAY ?? new Date().toISOString().slice(0, 10);
}
type Call = typeof harness.call;
type Params = Record<string, unknown>;

const LISTS = /^(list_|get_tags$)/;
const CALL_FIELDS = ['company_id', 'tracker_id', 'lead_status', 'tags', 'device_type', 'first_call', 'source', 'note'];
const FORM_FIELDS = ['company_id', 'lead_status', 'tags'];

/** The first array of a paged answer (`calls`, `form_submissions`, `integration_criteria` …). */
const recordsOf = (body: unknown): FilterRecord[] =>
  (Object.values(body as Record<string, unknown>).find(Array.isArray) as FilterRecord[] | undefined) ?? [];

/** The account whose list is longest, with every record on one page. */
const richest =
  (operation: string, extra: Params = {}) =>
  async (call: Call): Promise<Params> => {
    const accounts = recordsOf(await call('list_accounts', { per_page: 250 }));
    let best: { params: Params; count: number } = { params: {}, count: -1 };
    for (const account of accounts) {
      // get_tags answers every tag at once and takes no paging.
      const params = { account_id: account.id, ...(operation === 'get_tags' ? {} : { per_page: 250 }), ...extra };
      const count = recordsOf(await call(operation, params)).length;
      if (count > best.count) best = { params, count };
    }
    return best.params;
  };

/** A case from the generic rule: the filter's value is a value of `read` that some records hold and others not. */
function byValue(
  operation: string,
  filter: string,
  read: (r: FilterRecord) => unknown,
  extra: Params = {},
  send = (v: unknown) => v,
): FilterCase {
  return {
    operation,
    filters: [filter],
    base: operation === 'list_accounts' ? { per_page: 250, ...extra } : richest(operation, extra),
    pick: (records) => {
      const picked = pickValue(records, read);
      return picked && { params: { [filter]: send(picked.value) }, matches: picked.matches, label: `${filter}=${String(picked.value)}` };
    },
  };
}

const companyOf = (r: FilterRecord) =>
  r.company_id ?? (r.company as FilterRecord | undefined)?.id ?? (r.companies as FilterRecord[] | undefined)?.map((c) => c.id);
const day = (stamp: unknown) => String(stamp).slice(0, 10);

/** start_date + end_date: one day on which some records fall and others not. */
function byDay(operation: string, when: (r: FilterRecord) => unknown, extra: Params = {}): FilterCase {
  return {
    operation,
    filters: ['start_date', 'end_date'],
    base: richest(operation, extra),
    pick: (records) => {
      const picked = pickValue(records, (r) => day(when(r)));
      const value = picked && String(picked.value);
      return value === undefined ? undefined : { params: { start_date: value, end_date: value }, matches: (r) => day(when(r)) === value };
    },
  };
}

const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** CallRail's named periods, as its API reference defines them, from the sandbox's today. */
function periods(today: string): Array<[string, string, string]> {
  const month = `${today.slice(0, 7)}-01`;
  const lastMonthStart = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 1)).toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));
  return [
    ['today', today, today],
    ['yesterday', shift(today, -1), shift(today, -1)],
    ['last_7_days', shift(today, -6), today],
    ['last_30_days', shift(today, -29), today],
    ['this_month', month, today],
    ['last_month', lastMonthStart, shift(month, -1)],
    ['this_year', `${year}-01-01`, today],
    ['last_year', `${year - 1}-01-01`, `${year - 1}-12-31`],
  ];
}

/** date_range: the first named period that holds some records and not all. */
function byPeriod(operation: string, when: (r: FilterRecord) => unknown, extra: Params = {}): FilterCase {
  return {
    operation,
    filters: ['date_range'],
    base: richest(operation, extra),
    pick: (records) => {
      for (const [name, from, to] of periods(sandboxToday())) {
        const matches = (r: FilterRecord) => day(when(r)) >= from && day(when(r)) <= to;
        const count = records.filter(matches).length;
        if (count > 0 && count < records.length) return { params: { date_range: name }, matches, label: `date_range=${name}` };
      }
      return undefined;
    },
  };
}

/** search: a customer's name, which the list searches among other fields. */
function bySearch(
  operation: string,
  read: (r: FilterRecord) => unknown,
  searched: (r: FilterRecord) => unknown[],
  extra: Params = {},
): FilterCase {
  return {
    operation,
    filters: ['search'],
    base: richest(operation, extra),
    pick: (records) => {
      const picked = pickValue(records, read);
      if (!picked) return undefined;
      const needle = String(picked.value).toLowerCase();
      return {
        params: { search: String(picked.value) },
        matches: (r) => searched(r).some((v) => typeof v === 'string' && v.toLowerCase().includes(needle)),
      };
    },
  };
}

/** tags: a tag id (from get_tags) that some records carry; records name their tags. */
function byTag(operation: string, extra: Params): FilterCase {
  const names = new Map<string, unknown>();
  const tagNames = (r: FilterRecord) =>
    ((r.tags as unknown[] | undefined) ?? []).map((t) => (typeof t === 'string' ? t : (t as FilterRecord).name));
  return {
    operation,
    filters: ['tags'],
    base: async (call) => {
      const params = await richest(operation, extra)(call);
      for (const tag of recordsOf(await call('get_tags', { account_id: params.account_id }))) names.set(String(tag.name), tag.id);
      return params;
    },
    pick: (records) => {
      const picked = pickValue(records, tagNames);
      const id = picked && names.get(String(picked.value));
      return picked && id !== undefined
        ? { params: { tags: String(id) }, matches: picked.matches, label: `tags=${String(picked.value)}` }
        : undefined;
    },
  };
}

const callAnswer = (r: FilterRecord) => (r.answered ? 'answered' : r.voicemail ? 'voicemail' : 'missed');
const callSearched = (r: FilterRecord) => [
  r.customer_name,
  r.note,
  r.source,
  r.business_phone_number,
  r.customer_phone_number,
  r.tracking_phone_number,
];
const threadSearched = (r: FilterRecord) => [r.customer_name, r.customer_phone_number, ...((r.tags as unknown[] | undefined) ?? [])];
const leadOf = (r: FilterRecord) => r.lead_status ?? 'not_scored';

describeFilters(callrailPlugin, {
  harness,
  filtersOf: (plugin) => new Map(plugin.operations.filter((o) => LISTS.test(o.name)).map((o) => [o.name, filterParams(o)])),
  records: recordsOf,
  cases: [
    byValue('list_accounts', 'hipaa_account', (r) => r.hipaa_account),

    byPeriod('list_calls', (r) => r.start_time),
    byDay('list_calls', (r) => r.start_time),
    byValue('list_calls', 'company_id', companyOf, { fields: CALL_FIELDS }),
    byValue('list_calls', 'tracker_id', (r) => r.tracker_id, { fields: CALL_FIELDS }),
    byValue('list_calls', 'answer_status', callAnswer),
    // The filter knows desktop and mobile; a call from another device (tablet) matches neither.
    byValue('list_calls', 'device', (r) => (['desktop', 'mobile'].includes(String(r.device_type)) ? r.device_type : undefined), {
      fields: CALL_FIELDS,
    }),
    byValue('list_calls', 'direction', (r) => r.direction),
    byValue('list_calls', 'lead_status', leadOf, { fields: CALL_FIELDS }),
    {
      ...byValue('list_calls', 'call_type', (r) => r.first_call, { fields: CALL_FIELDS }),
      pick: () => ({ params: { call_type: 'first_call' }, matches: (r) => r.first_call === true }),
    },
    {
      ...byValue('list_calls', 'call_type', (r) => r.first_call, { fields: CALL_FIELDS }),
      name: 'call_type=missed',
      pick: () => ({ params: { call_type: 'missed' }, matches: (r) => callAnswer(r) === 'missed' }),
    },
    byTag('list_calls', { fields: CALL_FIELDS }),
    bySearch('list_calls', (r) => r.customer_name, callSearched, { fields: CALL_FIELDS }),

    bySearch(
      'list_companies',
      (r) => r.name,
      (r) => [r.name],
    ),

    byPeriod('list_form_submissions', (r) => r.submitted_at),
    byDay('list_form_submissions', (r) => r.submitted_at),
    byValue('list_form_submissions', 'company_id', companyOf, { fields: FORM_FIELDS }),
    byValue(
      'list_form_submissions',
      'person_lead',
      (r) => r.person_id !== null,
      {},
      (v) => v,
    ),
    byValue('list_form_submissions', 'lead_status', leadOf, { fields: FORM_FIELDS }),
    byTag('list_form_submissions', { fields: FORM_FIELDS }),

    byValue('list_integrations', 'company_id', companyOf),
    byValue('list_integration_filters', 'company_id', companyOf),
    byValue('list_outbound_caller_ids', 'company_id', companyOf),

    byPeriod('list_sms_threads', (r) => r.last_message_at),
    byDay('list_sms_threads', (r) => r.last_message_at),
    byValue('list_sms_threads', 'company_id', companyOf),
    bySearch('list_sms_threads', (r) => r.customer_name, threadSearched),

    byValue('list_summary_email_subscriptions', 'frequency', (r) => r.frequency),
    byValue('list_summary_email_subscriptions', 'company_id', companyOf),
    byValue('list_summary_email_subscriptions', 'user_id', (r) => (r.user as FilterRecord | undefined)?.id),
    byValue('list_summary_email_subscriptions', 'email', (r) => r.email),

    byValue('list_trackers', 'company_id', companyOf),
    byValue('list_trackers', 'status', (r) => r.status),
    byValue('list_trackers', 'type', (r) => r.type),

    byValue('list_users', 'company_id', companyOf),
    bySearch(
      'list_users',
      (r) => r.last_name,
      (r) => [r.name, `${r.first_name} ${r.last_name}`, r.email],
    ),

    byPeriod('list_text_message_conversations', (r) => r.last_message_at),
    byDay('list_text_message_conversations', (r) => r.last_message_at),
    byValue('list_text_message_conversations', 'company_id', companyOf),
    bySearch('list_text_message_conversations', (r) => r.customer_name, threadSearched),

    {
      // A company's tags include the account-wide ones (tag_level account, company_id null): they label its calls too.
      ...byValue('get_tags', 'company_id', companyOf),
      pick: (records) => {
        const picked = pickValue(records, companyOf);
        return picked && { params: { company_id: picked.value }, matches: (r) => r.company_id === null || picked.matches(r) };
      },
    },
    byValue('get_tags', 'status', (r) => r.status),
    byValue('get_tags', 'tag_level', (r) => r.tag_level),
  ],
});
