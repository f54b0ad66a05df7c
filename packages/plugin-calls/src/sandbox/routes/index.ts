// The routes of the emulated CallRail API v3, matched in order by the server.
import { callSummary, callTimeSeries, formSummary } from '../reports.js';
import type { RequestContext } from '../request.js';
import { getAccount, listAccounts } from './accounts.js';
import { getSummaryEmail, listNotifications, listSummaryEmails } from './alerts.js';
import { getCallerId, listCallerIds } from './caller-ids.js';
import { getCall, getRecording, listCalls, pageViews, updateCall } from './calls.js';
import { getCompany, listCompanies } from './companies.js';
import { getForm, listForms } from './forms.js';
import { getIntegration, getTrigger, listIntegrations, listTriggers } from './integrations.js';
import { account } from './lookups.js';
import { getConversation, getThread, listConversations, listThreads } from './messaging.js';
import { getTracker, getUser, listTrackers, listUsers } from './people.js';
import { listTags } from './tags.js';

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
