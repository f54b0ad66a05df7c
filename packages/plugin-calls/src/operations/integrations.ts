import { defineOperation, Params } from '@portico/core/plugin';
import { AccountId, AnyRecord, CompanyFilter, DEFAULT_PER_PAGE, idParam, Paged, Paging } from '../schemas.js';
import { callrailGet } from '../upstream.js';

const EXAMPLE_ACCOUNT = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';

export const listIntegrations = defineOperation({
  name: 'list_integrations',
  method: 'GET',
  path: '/accounts/:account_id/integrations',
  summary: 'List the webhooks, analytics and CRM integrations of an account',
  description:
    'Lists the integrations that send CallRail activity to other tools (webhooks, Google Analytics, CRMs…), each ' +
    'with id, type, state (active or disabled), company_id and config. Filter by company_id; which calls an ' +
    'integration receives is set by its filters (list_integration_filters). Paged: page from 1, per_page default ' +
    '25, max 250.',
  params: Params({ account_id: AccountId, company_id: CompanyFilter, ...Paging }),
  response: Paged('integrations', AnyRecord, 'Integrations on this page'),
  // https://apidocs.callrail.com/#listing-all-integrations
  upstream: callrailGet('/a/:account_id/integrations.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT, company_id: 'COM7d2b5e8a1c4f4b9e8d3a6c0f2e5b7a91' },
});

export const getIntegration = defineOperation({
  name: 'get_integration',
  method: 'GET',
  path: '/accounts/:account_id/integrations/:integration_id',
  summary: "Get an integration's type, state and configuration",
  description:
    'Returns one integration (integration_id from list_integrations) exactly as CallRail sends it: its type, ' +
    'state, company and the type-specific config, such as webhook URLs per event. Which calls it receives is set ' +
    'by its filters, from list_integration_filters.',
  params: Params({ account_id: AccountId, integration_id: idParam('Integration id, from list_integrations.', '1402215') }),
  // https://apidocs.callrail.com/#retrieving-a-single-integration
  upstream: callrailGet('/a/:account_id/integrations/:integration_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, integration_id: '1402215' },
});

export const listIntegrationFilters = defineOperation({
  name: 'list_integration_filters',
  method: 'GET',
  path: '/accounts/:account_id/integration-filters',
  summary: 'List which calls are sent to each integration, such as a CRM',
  description:
    'Lists the integration filters ("integration triggers" in CallRail) that decide which calls go to an ' +
    'integration, by call type, lead status, direction, minimum duration or tracker, each with an id (for ' +
    'get_integration_filter) and its integration. Filter by company_id. Paged (page, per_page default 25, max ' +
    '250); the array is named integration_criteria.',
  params: Params({ account_id: AccountId, company_id: CompanyFilter, ...Paging }),
  response: Paged('integration_criteria', AnyRecord, 'Integration filters on this page'),
  // https://apidocs.callrail.com/#listing-all-integration-triggers
  upstream: callrailGet('/a/:account_id/integration_triggers.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT },
});

export const getIntegrationFilter = defineOperation({
  name: 'get_integration_filter',
  method: 'GET',
  path: '/accounts/:account_id/integration-filters/:integration_triggers_id',
  summary: "Get an integration filter's conditions",
  description:
    'Returns one integration filter (integration_triggers_id from list_integration_filters), with the conditions a ' +
    'call must meet to reach its integration, exactly as CallRail sends it. Unknown ids answer not_found.',
  params: Params({
    account_id: AccountId,
    integration_triggers_id: idParam('Integration filter id, from list_integration_filters.', '88104'),
  }),
  // https://apidocs.callrail.com/#retrieving-a-single-integration-trigger
  upstream: callrailGet('/a/:account_id/integration_triggers/:integration_triggers_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, integration_triggers_id: '88104' },
});
