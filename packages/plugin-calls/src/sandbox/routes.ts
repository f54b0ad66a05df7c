import type { AccountRec, CallRec, FormRec, LeadStatus, SandboxData, ThreadRec } from './records.js';
import { callSummary, callTimeSeries, formSummary } from './reports.js';
import {
  badRequest,
  boolParam,
  dateWindow,
  enumParam,
  fieldsParam,
  HttpError,
  inWindow,
  listParam,
  matches,
  notFound,
  type Paging,
  paged,
  paging,
  type RequestContext,
  sortItems,
} from './request.js';
import {
  accountView,
  callerIdView,
  callView,
  companyView,
  conversationView,
  formView,
  hasRecording,
  integrationView,
  lastMessageAt,
  messageView,
  notificationView,
  pageViewView,
  project,
  recordingFileUrl,
  summaryEmailView,
  tagNames,
  tagView,
  threadView,
  trackerView,
  triggerView,
  userView,
  type View,
} from './views.js';

export type Method = 'GET' | 'PUT';

export interface Route {
  method: Method;
  pattern: RegExp;
  names: string[];
  handle(ctx: RequestContext): unknown;
}

/** `/a/:account_id/calls/:call_id.json` → a RegExp capturing each token. */
function route(method: Method, path: string, handle: (ctx: RequestContext) => unknown): Route {
  const names: string[] = [];
  const source = path
    .split(/(:[a-z_]+)/)
    .map((part) => {
      if (part.startsWith(':')) {
        names.push(part.slice(1));
        return '([^/]+?)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return { method, pattern: new RegExp(`^${source}$`), names, handle };
}

// ---- shared lookups ---------------------------------------------------------------------------------------------------

function account(ctx: RequestContext): AccountRec {
  const found = ctx.data.accounts.find((a) => a.id === ctx.params.account_id);
  if (!found) throw notFound();
  return found;
}

function owned<T extends { account_id: string }>(items: readonly T[], accountId: string, match: (item: T) => boolean): T {
  const found = items.find((item) => item.account_id === accountId && match(item));
  if (!found) throw notFound();
  return found;
}

/** Projects a view, refusing unknown requested fields as a 400. */
function withFields(view: View, requested: readonly string[]): Record<string, unknown> {
  const { value, unknown } = project(view, requested);
  if (unknown.length > 0) throw badRequest(`Invalid field(s) requested: ${unknown.join(', ')}`);
  return value;
}

function companyFilter(ctx: RequestContext): string | undefined {
  return ctx.query.get('company_id') ?? undefined;
}

const byCompany = (companyId: string | undefined) => (item: { company_id: string | null }) =>
  companyId === undefined || item.company_id === companyId;

function pageOf<T>(ctx: RequestContext, key: string, items: readonly T[], view: (item: T) => unknown, page: Paging = paging(ctx.query)) {
  return paged(key, items, page, view);
}

// ---- accounts -------------------------------------------------------------------------------------------------------

function listAccounts(ctx: RequestContext) {
  const hipaa = boolParam(ctx.query, 'hipaa_account');
  const fields = fieldsParam(ctx.query);
  const items = sortItems(
    ctx.data.accounts.filter((a) => hipaa === undefined || a.hipaa_account === hipaa),
    ctx.query,
    { name: (a) => a.name.toLowerCase() },
    { key: 'name', order: 'asc' },
  );
  return pageOf(ctx, 'accounts', items, (a) => withFields(accountView(a), fields));
}

function getAccount(ctx: RequestContext) {
  return withFields(accountView(account(ctx)), fieldsParam(ctx.query));
}

// ---- calls ------------------------------------------------------------------------------------------------------------

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

function listCalls(ctx: RequestContext) {
  const acc = account(ctx);
  const q = ctx.query;
  const window = dateWindow(q);
  const companyId = companyFilter(ctx);
  const trackerId = q.get('tracker_id') ?? undefined;
  const type = enumParam(q, 'call_type', ['first_call', 'missed', 'voicemails', 'inbound', 'outbound'] as const);
  const answer = enumParam(q, 'answer_status', ['answered', 'missed', 'voicemail'] as const);
  const device = enumParam(q, 'device', ['desktop', 'mobile'] as const);
  const direction = enumParam(q, 'direction', ['inbound', 'outbound'] as const);
  const lead = enumParam(q, 'lead_status', ['good_lead', 'not_a_lead', 'not_scored'] as const);
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

function getCall(ctx: RequestContext) {
  return withFields(callView(ctx.data, ctx.origin, findCall(ctx)), fieldsParam(ctx.query));
}

const UPDATE_LEAD_STATUSES: readonly LeadStatus[] = ['good_lead', 'not_a_lead', null];

/** PUT with a partial body, as CallRail updates calls; unknown tag names create account-level tags. */
function updateCall(ctx: RequestContext) {
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
    created_at: '2025-06-15T12:00:00.000-04:00',
  });
  return id;
}

function getRecording(ctx: RequestContext) {
  const call = findCall(ctx);
  if (!hasRecording(ctx.data, call)) throw notFound();
  return { url: recordingFileUrl(ctx.origin, call) };
}

function pageViews(ctx: RequestContext) {
  const call = findCall(ctx);
  const views = ctx.data.pageViews.filter((p) => p.call_id === call.id);
  return pageOf(ctx, 'page_views', views, pageViewView);
}

// ---- tags, companies, forms -----------------------------------------------------------------------------------------

function listTags(ctx: RequestContext) {
  const acc = account(ctx);
  const status = enumParam(ctx.query, 'status', ['enabled', 'disabled'] as const);
  const level = enumParam(ctx.query, 'tag_level', ['company', 'account'] as const);
  const companyId = companyFilter(ctx);
  const tags = ctx.data.tags.filter(
    (t) =>
      t.account_id === acc.id &&
      (status === undefined || t.status === status) &&
      (level === undefined || t.tag_level === level) &&
      // account-wide tags apply to every company
      (companyId === undefined || t.company_id === companyId || t.company_id === null),
  );
  const sorted = sortItems(tags, ctx.query, { name: (t) => t.name.toLowerCase() }, { key: 'name', order: 'asc' });
  return pageOf(ctx, 'tags', sorted, tagView);
}

function listCompanies(ctx: RequestContext) {
  const acc = account(ctx);
  const search = ctx.query.get('search') ?? undefined;
  const fields = fieldsParam(ctx.query);
  const companies = ctx.data.companies.filter((c) => c.account_id === acc.id && (search === undefined || matches(search, c.name)));
  const sorted = sortItems(companies, ctx.query, { name: (c) => c.name.toLowerCase() }, { key: 'name', order: 'asc' });
  return pageOf(ctx, 'companies', sorted, (c) => withFields(companyView(ctx.data, c), fields));
}

function getCompany(ctx: RequestContext) {
  const acc = account(ctx);
  const company = owned(ctx.data.companies, acc.id, (c) => c.id === ctx.params.company_id);
  return withFields(companyView(ctx.data, company), fieldsParam(ctx.query));
}

function listForms(ctx: RequestContext) {
  const acc = account(ctx);
  const q = ctx.query;
  const window = dateWindow(q);
  const companyId = companyFilter(ctx);
  const personLead = boolParam(q, 'person_lead');
  const lead = enumParam(q, 'lead_status', ['good_lead', 'not_a_lead', 'not_scored'] as const);
  const tagIds = listParam(q, 'tags')?.map(Number);
  const fields = fieldsParam(q);
  const forms = ctx.data.forms.filter(
    (f) =>
      f.account_id === acc.id &&
      inWindow(f.submitted_at, window) &&
      (companyId === undefined || f.company_id === companyId) &&
      (personLead === undefined || (f.person_id !== null) === personLead) &&
      (lead === undefined || (lead === 'not_scored' ? f.lead_status === null : f.lead_status === lead)) &&
      (tagIds === undefined || f.tag_ids.some((id) => tagIds.includes(id))),
  );
  const sorted = sortItems(
    forms,
    q,
    {
      created_at: (f: FormRec) => Date.parse(f.created_at),
      submitted_at: (f: FormRec) => Date.parse(f.submitted_at),
      form_url: (f: FormRec) => f.form_url,
    },
    { key: 'submitted_at', order: 'desc' },
  );
  return pageOf(ctx, 'form_submissions', sorted, (f) => withFields(formView(ctx.data, f), fields));
}

function getForm(ctx: RequestContext) {
  const acc = account(ctx);
  const form = owned(ctx.data.forms, acc.id, (f) => f.id === ctx.params.form_submission_id);
  return withFields(formView(ctx.data, form), fieldsParam(ctx.query));
}

// ---- integrations, alerts, caller ids -----------------------------------------------------------------------------------

function listIntegrations(ctx: RequestContext) {
  const acc = account(ctx);
  const items = ctx.data.integrations.filter((i) => i.account_id === acc.id).filter(byCompany(companyFilter(ctx)));
  return pageOf(ctx, 'integrations', items, integrationView);
}

function getIntegration(ctx: RequestContext) {
  const acc = account(ctx);
  return integrationView(owned(ctx.data.integrations, acc.id, (i) => String(i.id) === ctx.params.integration_id));
}

function listTriggers(ctx: RequestContext) {
  const acc = account(ctx);
  const items = ctx.data.triggers.filter((t) => t.account_id === acc.id).filter(byCompany(companyFilter(ctx)));
  return pageOf(ctx, 'integration_criteria', items, triggerView);
}

function getTrigger(ctx: RequestContext) {
  const acc = account(ctx);
  return triggerView(owned(ctx.data.triggers, acc.id, (t) => String(t.id) === ctx.params.trigger_id));
}

function listNotifications(ctx: RequestContext) {
  const acc = account(ctx);
  return pageOf(
    ctx,
    'notifications',
    ctx.data.notifications.filter((n) => n.account_id === acc.id),
    notificationView,
  );
}

function listCallerIds(ctx: RequestContext) {
  const acc = account(ctx);
  const items = ctx.data.callerIds.filter((c) => c.account_id === acc.id).filter(byCompany(companyFilter(ctx)));
  return pageOf(ctx, 'caller_ids', items, callerIdView);
}

function getCallerId(ctx: RequestContext) {
  const acc = account(ctx);
  return callerIdView(owned(ctx.data.callerIds, acc.id, (c) => c.id === ctx.params.caller_id));
}

function listSummaryEmails(ctx: RequestContext) {
  const acc = account(ctx);
  const frequencies = listParam(ctx.query, 'frequency');
  const bad = frequencies?.filter((f) => !['daily', 'weekly', 'monthly'].includes(f)) ?? [];
  if (bad.length > 0) throw badRequest(`Invalid frequency: ${bad.join(', ')}. Valid values: daily, weekly, monthly`);
  const userId = ctx.query.get('user_id') ?? undefined;
  const email = ctx.query.get('email')?.toLowerCase();
  const items = ctx.data.summaryEmails
    .filter((s) => s.account_id === acc.id)
    .filter(byCompany(companyFilter(ctx)))
    .filter((s) => frequencies === undefined || frequencies.includes(s.frequency))
    .filter((s) => userId === undefined || s.user_id === userId)
    .filter((s) => email === undefined || ctx.data.users.find((u) => u.id === s.user_id)?.email.toLowerCase() === email);
  return pageOf(ctx, 'summary_emails', items, (s) => summaryEmailView(ctx.data, s));
}

function getSummaryEmail(ctx: RequestContext) {
  const acc = account(ctx);
  return summaryEmailView(
    ctx.data,
    owned(ctx.data.summaryEmails, acc.id, (s) => String(s.id) === ctx.params.summary_email_id),
  );
}

// ---- messaging ----------------------------------------------------------------------------------------------------------

function threadsOf(ctx: RequestContext, accountId: string): ThreadRec[] {
  const window = dateWindow(ctx.query);
  const companyId = companyFilter(ctx);
  const search = ctx.query.get('search') ?? undefined;
  return ctx.data.threads
    .filter(
      (t) =>
        t.account_id === accountId &&
        (companyId === undefined || t.company_id === companyId) &&
        inWindow(lastMessageAt(t), window) &&
        (search === undefined || matches(search, t.customer_phone_number, t.customer_name, ...tagNames(ctx.data, t.tag_ids))),
    )
    .sort((a, b) => Date.parse(lastMessageAt(b)) - Date.parse(lastMessageAt(a)));
}

function listThreads(ctx: RequestContext) {
  const acc = account(ctx);
  return pageOf(ctx, 'sms_threads', threadsOf(ctx, acc.id), (t) => threadView(ctx.data, t));
}

/** The thread's messages, oldest first, in the paged wrapper under `tags` (CallRail's naming). */
function getThread(ctx: RequestContext) {
  const acc = account(ctx);
  const thread = owned(ctx.data.threads, acc.id, (t) => t.id === ctx.params.thread_id);
  const withErrors = boolParam(ctx.query, 'with_msg_errors') ?? false;
  return pageOf(ctx, 'tags', thread.messages, (m) => messageView(m, withErrors), paging(ctx.query, 100, 100));
}

function listConversations(ctx: RequestContext) {
  const acc = account(ctx);
  return pageOf(ctx, 'conversations', threadsOf(ctx, acc.id), (t) => conversationView(ctx.data, t, false));
}

function getConversation(ctx: RequestContext) {
  const acc = account(ctx);
  return conversationView(
    ctx.data,
    owned(ctx.data.threads, acc.id, (t) => t.id === ctx.params.conversation_id),
    true,
  );
}

// ---- trackers and users ------------------------------------------------------------------------------------------------

function listTrackers(ctx: RequestContext) {
  const acc = account(ctx);
  const status = enumParam(ctx.query, 'status', ['active', 'disabled'] as const);
  const type = enumParam(ctx.query, 'type', ['source', 'session'] as const);
  const items = ctx.data.trackers
    .filter((t) => t.account_id === acc.id)
    .filter(byCompany(companyFilter(ctx)))
    .filter((t) => (status === undefined || t.status === status) && (type === undefined || t.type === type));
  return pageOf(ctx, 'trackers', items, (t) => trackerView(ctx.data, t));
}

function getTracker(ctx: RequestContext) {
  const acc = account(ctx);
  return trackerView(
    ctx.data,
    owned(ctx.data.trackers, acc.id, (t) => t.id === ctx.params.tracker_id),
  );
}

function listUsers(ctx: RequestContext) {
  const acc = account(ctx);
  const companyId = companyFilter(ctx);
  const search = ctx.query.get('search') ?? undefined;
  const items = ctx.data.users.filter(
    (u) =>
      u.account_id === acc.id &&
      (companyId === undefined || u.company_ids.includes(companyId)) &&
      (search === undefined || matches(search, `${u.first_name} ${u.last_name}`, u.email)),
  );
  return pageOf(ctx, 'users', items, (u) => userView(ctx.data, u));
}

function getUser(ctx: RequestContext) {
  const acc = account(ctx);
  return userView(
    ctx.data,
    owned(ctx.data.users, acc.id, (u) => u.id === ctx.params.user_id),
  );
}

/** Static segments are listed before the `:id` routes they would otherwise be taken for. */
export const ROUTES: readonly Route[] = [
  route('GET', '/a.json', listAccounts),
  route('GET', '/a/:account_id.json', getAccount),
  route('GET', '/a/:account_id/calls.json', listCalls),
  route('GET', '/a/:account_id/calls/summary.json', (ctx) => callSummary(ctx, account(ctx).id)),
  route('GET', '/a/:account_id/calls/timeseries.json', (ctx) => callTimeSeries(ctx, account(ctx).id)),
  route('GET', '/a/:account_id/calls/:call_id.json', getCall),
  route('PUT', '/a/:account_id/calls/:call_id.json', updateCall),
  route('GET', '/a/:account_id/calls/:call_id/recording.json', getRecording),
  route('GET', '/a/:account_id/calls/:call_id/page_views.json', pageViews),
  route('GET', '/a/:account_id/tags.json', listTags),
  route('GET', '/a/:account_id/companies.json', listCompanies),
  route('GET', '/a/:account_id/companies/:company_id.json', getCompany),
  route('GET', '/a/:account_id/form_submissions.json', listForms),
  route('GET', '/a/:account_id/form_submissions/summary.json', (ctx) => formSummary(ctx, account(ctx).id)),
  route('GET', '/a/:account_id/form_submissions/:form_submission_id.json', getForm),
  route('GET', '/a/:account_id/integrations.json', listIntegrations),
  route('GET', '/a/:account_id/integrations/:integration_id.json', getIntegration),
  route('GET', '/a/:account_id/integration_triggers.json', listTriggers),
  route('GET', '/a/:account_id/integration_triggers/:trigger_id.json', getTrigger),
  route('GET', '/a/:account_id/notifications.json', listNotifications),
  route('GET', '/a/:account_id/caller_ids.json', listCallerIds),
  route('GET', '/a/:account_id/caller_ids/:caller_id.json', getCallerId),
  route('GET', '/a/:account_id/sms-threads.json', listThreads),
  route('GET', '/a/:account_id/sms-threads/:thread_id.json', getThread),
  route('GET', '/a/:account_id/summary_emails.json', listSummaryEmails),
  route('GET', '/a/:account_id/summary_emails/:summary_email_id.json', getSummaryEmail),
  route('GET', '/a/:account_id/text-messages.json', listConversations),
  route('GET', '/a/:account_id/text-messages/:conversation_id.json', getConversation),
  route('GET', '/a/:account_id/trackers.json', listTrackers),
  route('GET', '/a/:account_id/trackers/:tracker_id.json', getTracker),
  route('GET', '/a/:account_id/users.json', listUsers),
  route('GET', '/a/:account_id/users/:user_id.json', getUser),
];
