import { zonedTimestamp } from '@portico/core/testing/emulator';
import {
  ANSWER_STATUSES,
  CALL_GROUPS,
  CALL_SUMMARY_FIELDS,
  DIRECTIONS,
  FORM_GROUPS,
  FORM_SUMMARY_FIELDS,
  INTERVALS,
  SUMMARY_DEVICES,
  SUMMARY_LEAD_STATUSES,
} from '../schemas.js';
import { addDays, type DateWindow, localDate, today, weekStart } from './clock.js';
import type { CallRec, CompanyRec, FormRec, SandboxData } from './records.js';
import {
  badRequest,
  boolParam,
  dateWindow,
  earliestDay,
  enumParam,
  inWindow,
  listParam,
  numberParam,
  type RequestContext,
} from './request.js';
import { callType } from './views.js';

type Metrics = Record<string, number>;

function metricList<T extends string>(ctx: RequestContext, allowed: readonly T[], fallback: T): T[] {
  const requested = listParam(ctx.query, 'fields') ?? [fallback];
  const bad = requested.filter((f) => !(allowed as readonly string[]).includes(f));
  if (bad.length > 0) throw badRequest(`Invalid fields: ${bad.join(', ')}. Valid values: ${allowed.join(', ')}`);
  return requested as T[];
}

function leadMatches(rec: { lead_status: string | null; previously_good_lead: boolean }, wanted: string | undefined): boolean {
  if (wanted === undefined) return true;
  if (wanted === 'previously_marked_good_lead') return rec.previously_good_lead;
  return rec.lead_status === wanted;
}

function companyScope(ctx: RequestContext, accountId: string): { companies: CompanyRec[]; companyId: string | undefined } {
  const companyId = ctx.query.get('company_id') ?? undefined;
  const companies = ctx.data.companies.filter((c) => c.account_id === accountId && (companyId === undefined || c.id === companyId));
  if (companyId !== undefined && companies.length === 0) throw badRequest(`Unknown company_id: ${companyId}`);
  return { companies, companyId };
}

/** The calls a summary or time series counts, with the period it covers. */
function summaryCalls(
  ctx: RequestContext,
  accountId: string,
): { calls: CallRec[]; window: DateWindow | undefined; company: CompanyRec | undefined } {
  const q = ctx.query;
  const window = dateWindow(q);
  const { companies, companyId } = companyScope(ctx, accountId);
  const device = enumParam(q, 'device', SUMMARY_DEVICES);
  const direction = enumParam(q, 'direction', DIRECTIONS);
  const answer = enumParam(q, 'answer_status', ANSWER_STATUSES);
  const lead = enumParam(q, 'lead_status', SUMMARY_LEAD_STATUSES);
  const min = numberParam(q, 'min_duration');
  const max = numberParam(q, 'max_duration');
  const firstTime = boolParam(q, 'first_time_callers');
  const agent = numberParam(q, 'agent');
  const tagIds = listParam(q, 'tags')?.map(Number);
  const trackerIds = listParam(q, 'tracker_ids');
  const agentId =
    agent === undefined ? undefined : (ctx.data.users.find((u) => u.account_id === accountId && u.numeric_id === agent)?.id ?? '-');
  const calls = ctx.data.calls.filter(
    (c) =>
      c.account_id === accountId &&
      (companyId === undefined || c.company_id === companyId) &&
      inWindow(c.start_time, window) &&
      (device === undefined || c.device_type === device) &&
      (direction === undefined || c.direction === direction) &&
      (answer === undefined || c.answer_status === answer) &&
      leadMatches(c, lead) &&
      (min === undefined || c.duration >= min) &&
      (max === undefined || c.duration <= max) &&
      (firstTime === undefined || c.first_call === firstTime) &&
      (agentId === undefined || c.agent_user_id === agentId) &&
      (tagIds === undefined || c.tag_ids.some((id) => tagIds.includes(id))) &&
      (trackerIds === undefined || trackerIds.includes(c.tracker_id)),
  );
  return { calls, window, company: companies[0] };
}

function callMetrics(calls: readonly CallRec[], fields: readonly string[]): Metrics {
  const total = calls.reduce((sum, c) => sum + c.duration, 0);
  const all: Metrics = {
    total_calls: calls.length,
    missed_calls: calls.filter((c) => c.answer_status !== 'answered').length,
    answered_calls: calls.filter((c) => c.answer_status === 'answered').length,
    first_time_callers: calls.filter((c) => c.first_call).length,
    average_duration: calls.length > 0 ? Math.round(total / calls.length) : 0,
    total_duration: total,
    leads: calls.filter((c) => c.lead_status === 'good_lead').length,
  };
  return Object.fromEntries(fields.map((f) => [f, all[f] ?? 0]));
}

function callGroupKey(data: SandboxData, group: (typeof CALL_GROUPS)[number], c: CallRec): string | null {
  switch (group) {
    case 'source':
      return c.source;
    case 'keywords':
      return c.keywords;
    case 'campaign':
      return c.campaign;
    case 'referrer':
      return c.referrer_domain;
    case 'landing_page':
      return c.landing_page_url;
    case 'company':
      return data.companies.find((co) => co.id === c.company_id)?.name ?? null;
    case 'city':
      return c.customer_city;
    case 'device':
      return c.device_type;
    case 'browser':
      return c.browser;
    case 'os':
      return c.os;
    case 'call_type':
      return callType(c);
    case 'answer_status':
      return c.answer_status;
    case 'lead_status':
      return c.lead_status ?? 'not_scored';
    case 'tracker':
      return data.trackers.find((t) => t.id === c.tracker_id)?.name ?? null;
    case 'ring_to_number':
      return c.business_phone_number;
    case 'agent':
      return data.users.find((u) => u.id === c.agent_user_id)?.email ?? null;
  }
}

function grouped<T>(items: readonly T[], keyOf: (item: T) => string | null, metrics: (items: T[]) => Metrics): Record<string, unknown>[] {
  const groups = new Map<string | null, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.entries()]
    .map(([key, members]) => ({ key, count: members.length, metrics: metrics(members) }))
    .sort((a, b) => b.count - a.count || String(a.key).localeCompare(String(b.key)))
    .map(({ key, metrics: m }) => ({ key, ...m }));
}

function period(window: DateWindow | undefined, timestamps: readonly string[]): DateWindow {
  return window ?? { from: earliestDay(timestamps), to: today() };
}

/** A local time of the company's zone (UTC without a company), with the offset in force then. */
function local(company: CompanyRec | undefined, day: string, time: string): string {
  return company ? zonedTimestamp(day, time, { millis: true, zone: company.time_zone }) : `${day}T${time}+00:00`;
}

function envelope(window: DateWindow, company: CompanyRec | undefined) {
  return {
    start_date: local(company, window.from, '00:00:00.000'),
    end_date: local(company, window.to, '23:59:59.999'),
    time_zone: company?.time_zone ?? 'UTC',
  };
}

export function callSummary(ctx: RequestContext, accountId: string): Record<string, unknown> {
  const fields = metricList(ctx, CALL_SUMMARY_FIELDS, 'total_calls');
  const group = enumParam(ctx.query, 'group_by', CALL_GROUPS);
  const { calls, window, company } = summaryCalls(ctx, accountId);
  return {
    ...envelope(
      period(
        window,
        calls.map((c) => c.start_time),
      ),
      company,
    ),
    total_results: callMetrics(calls, fields),
    grouped_by: group ?? null,
    grouped_results: group
      ? grouped(
          calls,
          (c) => callGroupKey(ctx.data, group, c),
          (members) => callMetrics(members, fields),
        )
      : [],
  };
}

/** Start of the bucket a local timestamp falls into. */
function bucketOf(interval: string, timestamp: string, company: CompanyRec | undefined): string {
  const day = localDate(timestamp);
  if (interval === 'hour') return local(company, day, `${timestamp.slice(11, 13)}:00:00.000`);
  if (interval === 'week') return weekStart(day);
  if (interval === 'month') return day.slice(0, 7);
  return day;
}

function buckets(interval: string, window: DateWindow, company: CompanyRec | undefined): string[] {
  const out: string[] = [];
  for (let day = window.from; day <= window.to; day = addDays(day, 1)) {
    if (interval === 'hour') {
      for (let h = 0; h < 24; h++) out.push(local(company, day, `${String(h).padStart(2, '0')}:00:00.000`));
    } else {
      const key = bucketOf(interval, `${day}T00:00:00`, company);
      if (out[out.length - 1] !== key) out.push(key);
    }
  }
  return out;
}

export function callTimeSeries(ctx: RequestContext, accountId: string): Record<string, unknown> {
  const fields = metricList(ctx, CALL_SUMMARY_FIELDS, 'total_calls');
  const interval = enumParam(ctx.query, 'interval', INTERVALS) ?? 'day';
  const { calls, window, company } = summaryCalls(ctx, accountId);
  const covered = period(
    window,
    calls.map((c) => c.start_time),
  );
  const byBucket = new Map<string, CallRec[]>();
  for (const c of calls) {
    const key = bucketOf(interval, c.start_time, company);
    byBucket.set(key, [...(byBucket.get(key) ?? []), c]);
  }
  return {
    ...envelope(covered, company),
    total_results: callMetrics(calls, fields),
    data: buckets(interval, covered, company).map((date) => ({ date, ...callMetrics(byBucket.get(date) ?? [], fields) })),
  };
}

function formMetrics(forms: readonly FormRec[], fields: readonly string[]): Metrics {
  const all: Metrics = {
    total_forms: forms.length,
    first_time_forms: forms.filter((f) => f.first_form).length,
    leads: forms.filter((f) => f.lead_status === 'good_lead').length,
  };
  return Object.fromEntries(fields.map((f) => [f, all[f] ?? 0]));
}

function formGroupKey(data: SandboxData, group: (typeof FORM_GROUPS)[number], f: FormRec): string | null {
  switch (group) {
    case 'source':
      return f.source;
    case 'keywords':
      return f.keywords;
    case 'campaign':
      return f.campaign;
    case 'referrer':
      return f.referrer;
    case 'landing_page':
      return f.landing_page_url;
    case 'company':
      return data.companies.find((c) => c.id === f.company_id)?.name ?? null;
  }
}

export function formSummary(ctx: RequestContext, accountId: string): Record<string, unknown> {
  const q = ctx.query;
  const fields = metricList(ctx, FORM_SUMMARY_FIELDS, 'total_forms');
  const group = enumParam(q, 'group_by', FORM_GROUPS);
  const window = dateWindow(q);
  const { companies, companyId } = companyScope(ctx, accountId);
  const lead = enumParam(q, 'lead_status', SUMMARY_LEAD_STATUSES);
  const tagIds = listParam(q, 'tags')?.map(Number);
  const formIds = listParam(q, 'custom_form_ids')?.map(Number);
  const formUrl = q.get('form_URL') ?? undefined;
  const forms = ctx.data.forms.filter(
    (f) =>
      f.account_id === accountId &&
      (companyId === undefined || f.company_id === companyId) &&
      inWindow(f.submitted_at, window) &&
      leadMatches(f, lead) &&
      (tagIds === undefined || f.tag_ids.some((id) => tagIds.includes(id))) &&
      (formIds === undefined || formIds.includes(f.custom_form_id)) &&
      (formUrl === undefined || f.form_url === formUrl),
  );
  return {
    ...envelope(
      period(
        window,
        forms.map((f) => f.submitted_at),
      ),
      companies[0],
    ),
    total_results: formMetrics(forms, fields),
    grouped_by: group ?? null,
    grouped_results: group
      ? grouped(
          forms,
          (f) => formGroupKey(ctx.data, group, f),
          (members) => formMetrics(members, fields),
        )
      : [],
  };
}
