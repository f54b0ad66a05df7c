import { defineOperation, Params, Type } from '@portico/core/plugin';
import { AccountId, AnyRecord, CommaValues, CompanyFilter, DEFAULT_PER_PAGE, FREQUENCIES, idParam, Paged, Paging } from '../schemas.js';
import { callrailGet } from '../upstream.js';

const EXAMPLE_ACCOUNT = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';

export const listNotifications = defineOperation({
  name: 'list_notifications',
  method: 'GET',
  path: '/accounts/:account_id/notifications',
  summary: 'List who is alerted about new calls, texts and forms',
  description:
    'Lists the notifications, per-user alerts by email, push or text about new calls, texts or form submissions, ' +
    'optionally limited to a company or tracker. Each has id, user_id, company_id, tracker_id, the channel and ' +
    'which events are on. Paged: page from 1, per_page default 25, max 250.',
  params: Params({ account_id: AccountId, ...Paging }),
  response: Paged('notifications', AnyRecord, 'Notifications on this page'),
  // https://apidocs.callrail.com/#listing-all-notifications
  upstream: callrailGet('/a/:account_id/notifications.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT },
});

export const listSummaryEmailSubscriptions = defineOperation({
  name: 'list_summary_email_subscriptions',
  method: 'GET',
  path: '/accounts/:account_id/summary-emails',
  summary: 'List the daily, weekly or monthly summary email subscriptions',
  description:
    'Lists the summary emails, periodic activity reports sent to users, each subscription with id, the user and ' +
    'email it goes to, company_id (null for the whole account), frequency and the statistics included. Filter by ' +
    'frequency (comma-separated, like "daily,weekly"), company_id, user_id or email. Paged: page from 1, per_page ' +
    'default 25, max 250.',
  params: Params({
    account_id: AccountId,
    frequency: CommaValues(FREQUENCIES, 'Only subscriptions sent at these frequencies.', 'daily,weekly'),
    company_id: CompanyFilter,
    user_id: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Only subscriptions of this user (USR… id from list_users).',
        examples: ['USR2c7a9e4b1d6f4c3a8e5b2d9f1c7a4e63'],
      }),
    ),
    email: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 254,
        pattern: '^[^\\s@]+@[^\\s@]+$',
        description: 'Only subscriptions sent to this address.',
        examples: ['intake@harlowpike.example'],
      }),
    ),
    ...Paging,
  }),
  response: Paged('summary_emails', AnyRecord, 'Summary email subscriptions on this page'),
  // https://apidocs.callrail.com/#listing-all-summary-email-subscriptions
  upstream: callrailGet('/a/:account_id/summary_emails.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT, frequency: 'daily,weekly' },
});

export const getSummaryEmailSubscription = defineOperation({
  name: 'get_summary_email_subscription',
  method: 'GET',
  path: '/accounts/:account_id/summary-emails/:summary_email_id',
  summary: "Get a summary email subscription's recipient and frequency",
  description:
    'Returns one summary email subscription (summary_email_id from list_summary_email_subscriptions): the ' +
    'recipient, company scope, frequency and the statistics it reports. The emails themselves are the daily, ' +
    'weekly or monthly activity reports CallRail sends.',
  params: Params({
    account_id: AccountId,
    summary_email_id: idParam('Summary email subscription id, from list_summary_email_subscriptions.', '55021'),
  }),
  // https://apidocs.callrail.com/#retrieving-a-single-summary-email-subscription
  upstream: callrailGet('/a/:account_id/summary_emails/:summary_email_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, summary_email_id: '55021' },
});
