import { definePlugin, packageVersion, Type } from '@portico/core/plugin';
import { callRailEvents } from './events.js';
import { identify } from './identify.js';
import { getAccount, listAccounts } from './operations/accounts.js';
import { getSummaryEmailSubscription, listNotifications, listSummaryEmailSubscriptions } from './operations/alerts.js';
import { getOutboundCallerId, listOutboundCallerIds } from './operations/caller-ids.js';
import {
  getCall,
  getCallRecording,
  getPageViewsForACall,
  listCalls,
  summarizeCallData,
  summarizeCallDataByTimeSeries,
  updateCall,
} from './operations/calls.js';
import { getCompany, listCompanies } from './operations/companies.js';
import { getFormSubmission, listFormSubmissions, summarizeFormData } from './operations/forms.js';
import { getIntegration, getIntegrationFilter, listIntegrationFilters, listIntegrations } from './operations/integrations.js';
import { getSmsThread, getTextMessageConversation, listSmsThreads, listTextMessageConversations } from './operations/messaging.js';
import { getTracker, getUser, listTrackers, listUsers } from './operations/people.js';
import { getTags } from './operations/tags.js';
import { authHeaders, CALLRAIL_BASE_URL, inspect } from './upstream.js';
import { callRailVocabulary } from './vocabulary.js';

const PLUGIN_VERSION = packageVersion(import.meta.url);

export const callrailPlugin = definePlugin({
  service: 'callrail',
  displayName: 'CallRail',
  version: PLUGIN_VERSION,
  description:
    'CallRail call tracking (API v3): calls with their marketing attribution, recordings and lead scores, call and form summaries ' +
    'by source or campaign, companies, trackers, tags, form submissions, text messages, users and alert settings.',
  contract: 1,
  upstream: {
    baseUrl: CALLRAIL_BASE_URL,
    authHeaders,
    // CallRail asks third-party platforms to identify themselves; customers calling for their own data need not.
    headers: (settings): Record<string, string> =>
      typeof settings.request_from === 'string' ? { 'request-from': settings.request_from } : {},
    inspect,
    // CallRail's general limit per account: 1,000 requests an hour (its 10,000 a day is left to CallRail's 429) (README).
    limits: { perHour: 1000 },
  },
  auth: {
    token: {
      description:
        'A CallRail API v3 key (CallRail app → Settings → API Keys). It carries the access of the user who created it; the gateway ' +
        'sends it as Authorization: Token token="<key>".',
    },
  },
  settings: Type.Object({
    request_from: Type.Optional(
      Type.String({
        pattern: '^[a-z0-9_]{1,64}$',
        description:
          'Optional Request-From header for platforms that offer a CallRail integration: lowercase name, underscores for spaces.',
        examples: ['acme_portal'],
      }),
    ),
  }),
  operations: [
    listAccounts,
    getAccount,
    listCalls,
    getCall,
    summarizeCallData,
    summarizeCallDataByTimeSeries,
    getCallRecording,
    getTags,
    listCompanies,
    getCompany,
    listFormSubmissions,
    summarizeFormData,
    listIntegrations,
    getIntegration,
    listIntegrationFilters,
    getIntegrationFilter,
    listNotifications,
    listOutboundCallerIds,
    getOutboundCallerId,
    getPageViewsForACall,
    listSmsThreads,
    getSmsThread,
    listSummaryEmailSubscriptions,
    // beyond the catalog's 23: the CallRail v3 endpoints users reach for next
    updateCall,
    listTrackers,
    getTracker,
    listUsers,
    getUser,
    getFormSubmission,
    listTextMessageConversations,
    getTextMessageConversation,
    getSummaryEmailSubscription,
  ],
  vocabulary: callRailVocabulary,
  sandbox: () => import('./sandbox/index.js'),
  identify,
  events: callRailEvents,
});

export default callrailPlugin;
