import { GenericRecord, Paged, Unstructured } from '../schemas.js';
import { getOperation, listOperation } from './kit.js';

// Lawmatics' marketing side: one-off custom emails, email campaigns (marketing, recurring and date-based drips) and
// their statistics. These answer in Lawmatics' own format (the catalog shows no structured schema), passed through.

export const listCustomEmails = listOperation({
  name: 'list_custom_emails',
  path: '/custom-emails',
  upstreamPath: '/custom_emails',
  summary: 'List one-off marketing emails (custom emails) sent to leads and clients',
  description:
    'Lists the custom (one-off) emails sent from Lawmatics, with their subjects and send figures, as Lawmatics ' +
    'sends them. For the open and bounce statistics of one, use get_custom_email.',
  response: Unstructured('Custom emails, as Lawmatics sends them'),
});

export const getCustomEmail = getOperation({
  name: 'get_custom_email',
  path: '/custom-emails/:id',
  upstreamPath: '/custom_emails/:id',
  summary: "Get a custom email's open and bounce statistics",
  description: 'Returns one custom email with its statistics: send count, unique opens, bounces, and open, send and bounce rates.',
  id: { what: 'Custom email', from: 'list_custom_emails', example: '1' },
  allFields: false,
  response: Unstructured('The custom email, as Lawmatics sends it'),
});

export const listEmailCampaigns = listOperation({
  name: 'list_email_campaigns',
  path: '/email-campaigns',
  upstreamPath: '/email_campaigns',
  summary: 'List email marketing campaigns, including recurring and birthday emails',
  description:
    'Lists the email campaigns (marketing, recurring and date campaigns such as birthday or anniversary emails), ' +
    'as Lawmatics sends them. Their ids look like MarketingCampaign-1.',
  response: Unstructured('Email campaigns, as Lawmatics sends them'),
});

const CAMPAIGN_ID = {
  what: 'Email campaign (kind and number, e.g. MarketingCampaign-1, RecurringCampaign-3, DateCampaign-2)',
  from: 'list_email_campaigns',
  example: 'MarketingCampaign-1',
};

export const getEmailCampaign = getOperation({
  name: 'get_email_campaign',
  path: '/email-campaigns/:id',
  upstreamPath: '/email_campaigns/:id',
  summary: "Get an email campaign's settings",
  description:
    'Returns one email marketing campaign, as Lawmatics sends it. The id names the kind of campaign and its ' +
    'number: MarketingCampaign-1, RecurringCampaign-1 or DateCampaign-1.',
  id: CAMPAIGN_ID,
  allFields: false,
  response: Unstructured('The email campaign, as Lawmatics sends it'),
});

export const getEmailCampaignStats = getOperation({
  name: 'get_email_campaign_stats',
  path: '/email-campaigns/:id/stats',
  upstreamPath: '/email_campaign_stats/:id',
  summary: "Get an email campaign's sending statistics",
  description:
    'Returns how an email marketing campaign performed (its sending statistics), as Lawmatics sends them. The id ' +
    'is written like MarketingCampaign-1 or DateCampaign-1.',
  id: CAMPAIGN_ID,
  allFields: false,
  response: Unstructured('Campaign statistics, as Lawmatics sends them'),
});

// ---- beyond the catalog's table --------------------------------------------------------------------------------------

export const listSources = listOperation({
  name: 'list_sources',
  path: '/sources',
  upstreamPath: '/sources',
  summary: 'List the marketing sources leads come from',
  description:
    'Lists the marketing sources leads come from (Google Ads, referral, website…) with their ids: the source_id to ' +
    'record on a new prospect, and the filter to count leads per source.',
  response: Paged(GenericRecord('A marketing source'), 'A page of sources'),
  example: { sort_by: 'name', sort_order: 'asc' },
});
