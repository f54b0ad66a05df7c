// The records as the sandbox stores them (wire views are built in views.ts).

export interface AccountRec {
  id: string;
  numeric_id: number;
  name: string;
  outbound_recording_enabled: boolean;
  hipaa_account: boolean;
}

export interface CompanyRec {
  account_id: string;
  id: string;
  name: string;
  status: 'active' | 'disabled';
  time_zone: string;
  created_at: string;
  disabled_at: string | null;
  city: string;
  area_code: string;
  domain: string;
}

export interface TrackerRec {
  account_id: string;
  company_id: string;
  id: string;
  name: string;
  type: 'source' | 'session';
  status: 'active' | 'disabled';
  tracking_numbers: string[];
  destination_number: string;
  /** Marketing source a source tracker attributes; session trackers attribute per visit. */
  source: string | null;
  medium: string | null;
  campaign: string | null;
  created_at: string;
  disabled_at: string | null;
}

export interface UserRec {
  account_id: string;
  id: string;
  numeric_id: number;
  first_name: string;
  last_name: string;
  email: string;
  role: 'admin' | 'manager' | 'reporting' | 'agent';
  company_ids: string[];
  created_at: string;
}

export interface TagRec {
  account_id: string;
  id: number;
  name: string;
  tag_level: 'account' | 'company';
  company_id: string | null;
  color: string;
  status: 'enabled' | 'disabled';
  created_at: string;
}

export type AnswerStatus = 'answered' | 'missed' | 'voicemail';
export type LeadStatus = 'good_lead' | 'not_a_lead' | null;

export interface CallRec {
  account_id: string;
  company_id: string;
  tracker_id: string;
  id: string;
  start_time: string;
  direction: 'inbound' | 'outbound';
  answer_status: AnswerStatus;
  duration: number;
  customer_name: string | null;
  customer_phone_number: string;
  customer_city: string;
  customer_state: string;
  customer_country: string;
  business_phone_number: string;
  tracking_phone_number: string;
  agent_user_id: string | null;
  first_call: boolean;
  source: string;
  medium: string | null;
  campaign: string | null;
  keywords: string | null;
  referrer_domain: string | null;
  landing_page_url: string | null;
  device_type: 'desktop' | 'mobile' | 'tablet' | null;
  browser: string | null;
  os: string | null;
  lead_status: LeadStatus;
  /** Was scored good_lead once and later changed (the summaries' previously_marked_good_lead). */
  previously_good_lead: boolean;
  tag_ids: number[];
  note: string | null;
  value: string | null;
}

export interface PageViewRec {
  call_id: string;
  url: string;
  referrer_url: string | null;
  created_at: string;
}

export interface FormRec {
  account_id: string;
  company_id: string;
  id: string;
  person_id: string | null;
  custom_form_id: number;
  form_name: string;
  form_url: string;
  landing_page_url: string;
  referrer: string | null;
  submitted_at: string;
  created_at: string;
  first_form: boolean;
  customer_name: string;
  customer_phone_number: string;
  customer_email: string;
  form_data: Record<string, string>;
  source: string;
  medium: string | null;
  campaign: string | null;
  keywords: string | null;
  lead_status: LeadStatus;
  previously_good_lead: boolean;
  tag_ids: number[];
}

export interface IntegrationRec {
  account_id: string;
  company_id: string;
  id: number;
  type: string;
  state: 'active' | 'disabled';
  config: Record<string, unknown>;
  created_at: string;
}

export interface TriggerRec {
  account_id: string;
  company_id: string;
  id: number;
  integration_id: number;
  call_type: string;
  lead_status: string | null;
  direction: string;
  min_duration: number | null;
  tracker_ids: string[];
  created_at: string;
}

export interface NotificationRec {
  account_id: string;
  id: number;
  user_id: string;
  company_id: string | null;
  tracker_id: string | null;
  alert_type: 'email' | 'push' | 'sms';
  call_enabled: boolean;
  sms_enabled: boolean;
  form_submission_enabled: boolean;
  created_at: string;
}

export interface CallerIdRec {
  account_id: string;
  company_id: string;
  id: string;
  phone_number: string;
  name: string;
  status: 'verified' | 'pending';
  created_at: string;
}

export interface MessageRec {
  direction: 'inbound' | 'outbound';
  content: string;
  created_at: string;
  status: 'delivered' | 'failed' | 'received';
  error: string | null;
}

export interface ThreadRec {
  account_id: string;
  company_id: string;
  tracker_id: string;
  id: string;
  customer_name: string;
  customer_phone_number: string;
  tracking_phone_number: string;
  state: 'active' | 'closed';
  tag_ids: number[];
  created_at: string;
  messages: MessageRec[];
}

export interface SummaryEmailRec {
  account_id: string;
  id: number;
  user_id: string;
  company_id: string | null;
  frequency: 'daily' | 'weekly' | 'monthly';
  summary_statistics: string[];
  created_at: string;
}

export interface SandboxData {
  accounts: AccountRec[];
  companies: CompanyRec[];
  trackers: TrackerRec[];
  users: UserRec[];
  tags: TagRec[];
  calls: CallRec[];
  pageViews: PageViewRec[];
  forms: FormRec[];
  integrations: IntegrationRec[];
  triggers: TriggerRec[];
  notifications: NotificationRec[];
  callerIds: CallerIdRec[];
  threads: ThreadRec[];
  summaryEmails: SummaryEmailRec[];
  nextTagId: number;
}
