// The calls routes of the emulated API: listing, reading and updating calls, their recordings and page views.
import { sandboxNow, toZoned } from '@portico/core/testing/emulator';
import { ANSWER_STATUSES, CALL_TYPES, DIRECTIONS, LIST_DEVICES, LIST_LEAD_STATUSES } from '../../schemas.js';

import type { CallRec, LeadStatus, SandboxData } from '../records.js';
import {
  badRequest,
  dateWindow,
  enumParam,
  fieldsParam,
  HttpError,
  inWindow,
  listParam,
  matches,
  notFound,
  type RequestContext,
  sortItems,
} from '../request.js';
import { callView, hasRecording, pageViewView, recordingFileUrl, tagNames } from '../views.js';
import { account, companyFilter, owned, pageOf, withFields } from './lookups.js';

const CALL_SORTS: Record<string, (c: CallRec, data: SandboxData) => string | number | boolean | null> = {
  customer_name: (c) => c.customer_name?.toLowerCase() ?? null,
  customer_phone_number: (c) => c.customer_phone_number,
  duration: (c) => c.duration,
  start_time: (c) => Date.parse(c.start_time),
  source: (c) => c.source,
  customer_city: (c) => c.customer_city,
  customer_country: (c) => c.customer_country,
  landing_page_url: (c) => c.landing_page_url,
  device_type: (c) => c.device_type,
  answered: (c) => c.answer_status === 'answered',
  first_call: (c) => c.first_call,
  source_name: (c, data) => data.trackers.find((t) => t.id === c.tracker_id)?.name ?? null,
  lead_status: (c) => c.lead_status,
  tags: (c, data) => tagNames(data, c.tag_ids)[0] ?? null,
};

export function listCalls(ctx: RequestContext) {
  const acc = account(ctx);
  const q = ctx.query;
  const window = dateWindow(q);
  const companyId = companyFilter(ctx);
  const trackerId = q.get('tracker_id') ?? undefined;
  const type = enumParam(q, 'call_type', CALL_TYPES);
  const answer = enumParam(q, 'answer_status', ANSWER_STATUSES);
  const device = enumParam(q, 'device', LIST_DEVICES);
  const direction = enumParam(q, 'direction', DIRECTIONS);
  const lead = enumParam(q, 'lead_status', LIST_LEAD_STATUSES);
  const tagIds = listParam(q, 'tags')?.map(Number);
  const search = q.get('search') ?? undefined;
  const fields = fieldsParam(q);
  const typeMatches = (c: CallRec): boolean => {
    switch (type) {
      case undefined:
        return true;
      case 'first_call':
        return c.first_call;
      case 'missed':
        return c.answer_status === 'missed';
      case 'voicemails':
        return c.answer_status === 'voicemail';
      default:
        return c.direction === type;
    }
  };
  const calls = ctx.data.calls.filter(
    (c) =>
      c.account_id === acc.id &&
      inWindow(c.start_time, window) &&
      (companyId === undefined || c.company_id === companyId) &&
      (trackerId === undefined || c.tracker_id === trackerId) &&
      typeMatches(c) &&
      (answer === undefined || c.answer_status === answer) &&
      (device === undefined || c.device_type === device) &&
      (direction === undefined || c.direction === direction) &&
      (lead === undefined || (lead === 'not_scored' ? c.lead_status === null : c.lead_status === lead)) &&
      (tagIds === undefined || c.tag_ids.some((id) => tagIds.includes(id))) &&
      (search === undefined ||
        matches(search, c.business_phone_number, c.customer_name, c.customer_phone_number, c.note, c.source, c.tracking_phone_number)),
  );
  const keys = Object.fromEntries(Object.entries(CALL_SORTS).map(([name, key]) => [name, (c: CallRec) => key(c, ctx.data)]));
  const sorted = sortItems(calls, q, keys, { key: 'start_time', order: 'desc' });
  return pageOf(ctx, 'calls', sorted, (c) => withFields(callView(ctx.data, ctx.origin, c), fields));
}

function findCall(ctx: RequestContext): CallRec {
  const acc = account(ctx);
  return owned(ctx.data.calls, acc.id, (c) => c.id === ctx.params.call_id);
}

export function getCall(ctx: RequestContext) {
  return withFields(callView(ctx.data, ctx.origin, findCall(ctx)), fieldsParam(ctx.query));
}

const UPDATE_LEAD_STATUSES: readonly LeadStatus[] = ['good_lead', 'not_a_lead', null];

/** PUT with a partial body, as CallRail updates calls; unknown tag names create account-level tags. */
export function updateCall(ctx: RequestContext) {
  const call = findCall(ctx);
  if (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body)) throw badRequest('Request body must be a JSON object');
  const body = ctx.body as Record<string, unknown>;
  const problems: string[] = [];
  if (body.note !== undefined && body.note !== null && typeof body.note !== 'string') problems.push('note must be a string');
  if (body.customer_name !== undefined && (typeof body.customer_name !== 'string' || body.customer_name.trim() === '')) {
    problems.push('customer_name must be a non-empty string');
  }
  if (body.lead_status !== undefined && !UPDATE_LEAD_STATUSES.includes(body.lead_status as LeadStatus)) {
    problems.push('lead_status must be good_lead, not_a_lead or null');
  }
  if (body.tags !== undefined && (!Array.isArray(body.tags) || body.tags.some((t) => typeof t !== 'string' || t.trim() === ''))) {
    problems.push('tags must be an array of tag names');
  }
  if (problems.length > 0) throw new HttpError(422, problems.join('; '));

  if (body.note !== undefined) call.note = (body.note as string | null) || null;
  if (body.customer_name !== undefined) call.customer_name = body.customer_name as string;
  if (body.lead_status !== undefined) {
    if (call.lead_status === 'good_lead' && body.lead_status !== 'good_lead') call.previously_good_lead = true;
    call.lead_status = body.lead_status as LeadStatus;
  }
  if (Array.isArray(body.tags)) {
    const ids = (body.tags as string[]).map((name) => tagIdFor(ctx.data, call.account_id, name.trim()));
    call.tag_ids = [...new Set(body.append_tags === true ? [...call.tag_ids, ...ids] : ids)];
  }
  return withFields(callView(ctx.data, ctx.origin, call), ['lead_status', 'note', 'tags']);
}

function tagIdFor(data: SandboxData, accountId: string, name: string): number {
  const existing = data.tags.find((t) => t.account_id === accountId && t.name.toLowerCase() === name.toLowerCase());
  if (existing) return existing.id;
  const id = data.nextTagId++;
  data.tags.push({
    account_id: accountId,
    id,
    name,
    tag_level: 'account',
    company_id: null,
    color: 'gray1',
    status: 'enabled',
    // stamped now, in the firm's zone
    created_at: toZoned(sandboxNow(), { millis: true }),
  });
  return id;
}

export function getRecording(ctx: RequestContext) {
  const call = findCall(ctx);
  if (!hasRecording(ctx.data, call)) throw notFound();
  return { url: recordingFileUrl(ctx.origin, call) };
}

export function pageViews(ctx: RequestContext) {
  const call = findCall(ctx);
  const views = ctx.data.pageViews.filter((p) => p.call_id === call.id);
  return pageOf(ctx, 'page_views', views, pageViewView);
}
