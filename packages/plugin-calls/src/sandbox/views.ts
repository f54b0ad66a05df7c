import { createHash } from 'node:crypto';
import type {
  AccountRec,
  CallerIdRec,
  CallRec,
  CompanyRec,
  FormRec,
  IntegrationRec,
  MessageRec,
  NotificationRec,
  PageViewRec,
  SandboxData,
  SummaryEmailRec,
  TagRec,
  ThreadRec,
  TrackerRec,
  TriggerRec,
  UserRec,
} from './records.js';
import { IDS } from './seed/ids.js';
import { transcriptionOf } from './transcripts.js';

/** Where the sandbox is reachable, for URLs it hands out (recordings). */
export interface Origin {
  /** `http://127.0.0.1:1234` */
  origin: string;
  /** `http://127.0.0.1:1234/v3` */
  base: string;
}

/** A record's full wire form and the fields CallRail returns when none are requested. */
export interface View {
  full: Record<string, unknown>;
  defaults: readonly string[];
}

export const ACCOUNT_DEFAULTS = ['id', 'name', 'outbound_recording_enabled', 'hipaa_account'] as const;
export const CALL_DEFAULTS = [
  'answered',
  'business_phone_number',
  'customer_city',
  'customer_country',
  'customer_name',
  'customer_phone_number',
  'customer_state',
  'direction',
  'duration',
  'id',
  'recording',
  'recording_duration',
  'recording_player',
  'start_time',
  'tracking_phone_number',
  'voicemail',
  'agent_email',
] as const;
export const COMPANY_DEFAULTS = [
  'id',
  'name',
  'status',
  'time_zone',
  'created_at',
  'disabled_at',
  'dni_active',
  'script_url',
  'callscore_enabled',
  'lead_scoring_enabled',
  'swap_exclude_jquery',
  'swap_ppc_override',
  'swap_landing_override',
  'swap_cookie_duration',
  'swap_cookie_duration_unit',
  'callscribe_enabled',
  'keyword_spotting_enabled',
  'form_capture',
] as const;
export const FORM_DEFAULTS = [
  'id',
  'company_id',
  'person_id',
  'form_data',
  'form_url',
  'landing_page_url',
  'referrer',
  'submitted_at',
  'first_form',
  'customer_name',
  'customer_phone_number',
  'customer_email',
] as const;

/** Picks the default fields plus the requested ones; unknown requested fields are reported. */
export function project(view: View, requested: readonly string[]): { value: Record<string, unknown>; unknown: string[] } {
  const value: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const key of view.defaults) value[key] = view.full[key];
  for (const key of requested) {
    if (key in view.full) value[key] = view.full[key];
    else unknown.push(key);
  }
  return { value, unknown };
}

export function accountView(a: AccountRec): View {
  return { full: { ...a }, defaults: ACCOUNT_DEFAULTS };
}

function companyOf(data: SandboxData, id: string): CompanyRec | undefined {
  return data.companies.find((c) => c.id === id);
}

export function tagNames(data: SandboxData, ids: readonly number[]): string[] {
  return ids.map((id) => data.tags.find((t) => t.id === id)?.name).filter((n): n is string => n !== undefined);
}

function formatPhone(e164: string): string {
  const d = e164.replace(/\D/g, '').slice(-10);
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

function formatDuration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}

export function callType(c: CallRec): string {
  if (c.direction === 'outbound') return 'outbound';
  if (c.answer_status === 'voicemail') return 'voicemail';
  if (c.answer_status === 'missed') return 'missed';
  return c.first_call ? 'first_call' : 'inbound';
}

/** Whether CallRail would hold a recording for this call. */
export function hasRecording(data: SandboxData, c: CallRec): boolean {
  if (c.answer_status === 'missed') return false;
  if (c.direction === 'inbound') return true;
  return data.accounts.find((a) => a.id === c.account_id)?.outbound_recording_enabled === true;
}

export function recordingFileUrl(origin: Origin, c: CallRec): string {
  const key = createHash('md5').update(`recording-${c.id}`).digest('hex').slice(0, 20);
  return `${origin.origin}/__sandbox/recordings/${c.id}.mp3?access_key=${key}`;
}

/** The firm's own account has CallRail transcribe its recorded calls (CallScribe); the estate-planning line does not. */
const transcribes = (accountId: string) => accountId === IDS.harbor;

export function callView(data: SandboxData, origin: Origin, c: CallRec): View {
  const company = companyOf(data, c.company_id);
  const tracker = data.trackers.find((t) => t.id === c.tracker_id);
  const agent = data.users.find((u) => u.id === c.agent_user_id);
  const recorded = hasRecording(data, c);
  return {
    defaults: CALL_DEFAULTS,
    full: {
      answered: c.answer_status === 'answered',
      business_phone_number: c.business_phone_number,
      customer_city: c.customer_city,
      customer_country: c.customer_country,
      customer_name: c.customer_name,
      customer_phone_number: c.customer_phone_number,
      customer_state: c.customer_state,
      direction: c.direction,
      duration: c.duration,
      id: c.id,
      recording: recorded ? `${origin.base}/a/${c.account_id}/calls/${c.id}/recording.json` : null,
      recording_duration: recorded ? String(Math.max(c.duration - 4, 1)) : null,
      recording_player: recorded ? `${origin.origin}/__sandbox/recordings/${c.id}` : null,
      start_time: c.start_time,
      tracking_phone_number: c.tracking_phone_number,
      voicemail: c.answer_status === 'voicemail',
      agent_email: agent?.email ?? null,
      call_type: callType(c),
      campaign: c.campaign,
      company_id: c.company_id,
      company_name: company?.name ?? null,
      company_time_zone: company?.time_zone ?? null,
      device_type: c.device_type,
      first_call: c.first_call,
      formatted_customer_name: c.customer_name ?? formatPhone(c.customer_phone_number),
      formatted_customer_phone_number: formatPhone(c.customer_phone_number),
      formatted_duration: formatDuration(c.duration),
      formatted_tracking_phone_number: formatPhone(c.tracking_phone_number),
      keywords: c.keywords,
      landing_page_url: c.landing_page_url,
      lead_status: c.lead_status,
      medium: c.medium,
      note: c.note,
      referrer_domain: c.referrer_domain,
      source: c.source,
      source_name: tracker?.name ?? null,
      tags: c.tag_ids.map((id) => data.tags.find((t) => t.id === id)).flatMap((t) => (t ? [{ name: t.name, color: t.color }] : [])),
      tracker_id: c.tracker_id,
      transcription: transcriptionOf(c, company?.name ?? null, recorded, transcribes(c.account_id)),
      value: c.value,
    },
  };
}

export function companyView(data: SandboxData, c: CompanyRec): View {
  const numeric = Number.parseInt(createHash('md5').update(c.id).digest('hex').slice(0, 7), 16);
  return {
    defaults: COMPANY_DEFAULTS,
    full: {
      id: c.id,
      name: c.name,
      status: c.status,
      time_zone: c.time_zone,
      created_at: c.created_at,
      disabled_at: c.disabled_at,
      dni_active: c.status === 'active',
      script_url: `//cdn.callrail.com/companies/${numeric}/${c.id.slice(3, 23)}/12/swap.js`,
      callscore_enabled: false,
      lead_scoring_enabled: true,
      swap_exclude_jquery: null,
      swap_ppc_override: null,
      swap_landing_override: null,
      swap_cookie_duration: 6,
      swap_cookie_duration_unit: 'months',
      callscribe_enabled: transcribes(c.account_id),
      keyword_spotting_enabled: false,
      form_capture: c.status === 'active',
      verified_caller_ids: data.callerIds
        .filter((id) => id.company_id === c.id && id.status === 'verified')
        .map((id) => ({ id: id.id, phone_number: id.phone_number, name: id.name })),
      external_form_capture: false,
    },
  };
}

export function formView(data: SandboxData, f: FormRec): View {
  const company = companyOf(data, f.company_id);
  return {
    defaults: FORM_DEFAULTS,
    full: {
      id: f.id,
      company_id: f.company_id,
      person_id: f.person_id,
      form_data: { ...f.form_data },
      form_url: f.form_url,
      landing_page_url: f.landing_page_url,
      referrer: f.referrer,
      submitted_at: f.submitted_at,
      first_form: f.first_form,
      customer_name: f.customer_name,
      customer_phone_number: f.customer_phone_number,
      customer_email: f.customer_email,
      company_name: company?.name ?? null,
      created_at: f.created_at,
      custom_form_id: f.custom_form_id,
      form_name: f.form_name,
      formatted_customer_name: f.customer_name,
      formatted_customer_phone_number: formatPhone(f.customer_phone_number),
      source: f.source,
      medium: f.medium,
      campaign: f.campaign,
      keywords: f.keywords,
      lead_status: f.lead_status,
      tags: tagNames(data, f.tag_ids),
    },
  };
}

export function trackerView(data: SandboxData, t: TrackerRec): Record<string, unknown> {
  const company = companyOf(data, t.company_id);
  return {
    id: t.id,
    name: t.name,
    type: t.type,
    status: t.status,
    destination_number: t.destination_number,
    tracking_numbers: [...t.tracking_numbers],
    whisper_message: t.type === 'source' ? `Call from ${t.source ?? 'website'}` : 'Website caller',
    sms_enabled: t.status === 'active',
    sms_supported: true,
    company: company ? { id: company.id, name: company.name } : null,
    call_flow: { type: 'basic', recording_enabled: true, destination_number: t.destination_number, greeting_text: null },
    source: t.type === 'session' ? { type: 'all' } : { type: sourceType(t.source), name: t.source, medium: t.medium, campaign: t.campaign },
    created_at: t.created_at,
    disabled_at: t.disabled_at,
  };
}

function sourceType(source: string | null): string {
  switch (source) {
    case 'Google Ads':
      return 'google_paid';
    case 'Facebook':
      return 'facebook_all';
    case 'Organic':
      return 'search_organic';
    default:
      return 'direct';
  }
}

export function userView(data: SandboxData, u: UserRec): Record<string, unknown> {
  return {
    id: u.id,
    numeric_id: u.numeric_id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    name: `${u.first_name} ${u.last_name}`,
    role: u.role,
    created_at: u.created_at,
    companies: u.company_ids.flatMap((id) => {
      const c = companyOf(data, id);
      return c ? [{ id: c.id, name: c.name }] : [];
    }),
  };
}

export function tagView(t: TagRec): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    tag_level: t.tag_level,
    color: t.color,
    company_id: t.company_id,
    status: t.status,
    created_at: t.created_at,
  };
}

export function integrationView(i: IntegrationRec): Record<string, unknown> {
  return { id: i.id, company_id: i.company_id, type: i.type, state: i.state, config: structuredClone(i.config), created_at: i.created_at };
}

export function triggerView(t: TriggerRec): Record<string, unknown> {
  return {
    id: t.id,
    integration_id: t.integration_id,
    company_id: t.company_id,
    call_type: t.call_type,
    lead_status: t.lead_status,
    direction: t.direction,
    min_duration: t.min_duration,
    tracker_ids: [...t.tracker_ids],
    created_at: t.created_at,
  };
}

export function notificationView(n: NotificationRec): Record<string, unknown> {
  return {
    id: n.id,
    user_id: n.user_id,
    company_id: n.company_id,
    tracker_id: n.tracker_id,
    alert_type: n.alert_type,
    call_enabled: n.call_enabled,
    sms_enabled: n.sms_enabled,
    form_submission_enabled: n.form_submission_enabled,
    created_at: n.created_at,
  };
}

export function callerIdView(c: CallerIdRec): Record<string, unknown> {
  return { id: c.id, phone_number: c.phone_number, name: c.name, status: c.status, company_id: c.company_id, created_at: c.created_at };
}

export function pageViewView(p: PageViewRec): Record<string, unknown> {
  return { url: p.url, referrer_url: p.referrer_url, created_at: p.created_at };
}

export function lastMessageAt(t: ThreadRec): string {
  return (t.messages[t.messages.length - 1] as MessageRec).created_at;
}

export function threadView(data: SandboxData, t: ThreadRec): Record<string, unknown> {
  return {
    id: t.id,
    company_id: t.company_id,
    tracker_id: t.tracker_id,
    customer_name: t.customer_name,
    customer_phone_number: t.customer_phone_number,
    tracking_phone_number: t.tracking_phone_number,
    state: t.state,
    tags: tagNames(data, t.tag_ids),
    message_count: t.messages.length,
    last_message_at: lastMessageAt(t),
    created_at: t.created_at,
  };
}

export function messageView(m: MessageRec, withErrors: boolean): Record<string, unknown> {
  return {
    direction: m.direction,
    content: m.content,
    created_at: m.created_at,
    status: m.status,
    ...(withErrors ? { error: m.error } : {}),
  };
}

export function conversationView(data: SandboxData, t: ThreadRec, full: boolean): Record<string, unknown> {
  const company = companyOf(data, t.company_id);
  const newestFirst = [...t.messages].reverse().map((m) => ({ direction: m.direction, content: m.content, created_at: m.created_at }));
  return {
    id: t.id,
    company_id: t.company_id,
    initial_tracker_id: t.tracker_id,
    current_tracker_id: t.tracker_id,
    customer_name: t.customer_name,
    customer_phone_number: t.customer_phone_number,
    formatted_customer_phone_number: formatPhone(t.customer_phone_number),
    initial_tracking_number: t.tracking_phone_number,
    current_tracking_number: t.tracking_phone_number,
    last_message_at: lastMessageAt(t),
    state: t.state,
    company_time_zone: company?.time_zone ?? null,
    ...(full ? { messages: newestFirst } : { recent_messages: newestFirst.slice(0, 3) }),
  };
}

export function summaryEmailView(data: SandboxData, s: SummaryEmailRec): Record<string, unknown> {
  const u = data.users.find((user) => user.id === s.user_id);
  return {
    id: s.id,
    user: u ? { id: u.id, name: `${u.first_name} ${u.last_name}`, email: u.email } : null,
    email: u?.email ?? null,
    company_id: s.company_id,
    frequency: s.frequency,
    summary_statistics: [...s.summary_statistics],
    created_at: s.created_at,
  };
}
