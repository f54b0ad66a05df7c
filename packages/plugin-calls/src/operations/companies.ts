import { defineOperation, Params, requires, StringEnum, Type } from '@portico/core/plugin';
import { AccountId, Company, DEFAULT_PER_PAGE, Fields, idParam, Order, Paged, Paging } from '../schemas.js';
import { callrailGet } from '../upstream.js';

const COMPANY_FIELD_EXAMPLES = ['verified_caller_ids', 'external_form_capture'];

export const listCompanies = defineOperation({
  name: 'list_companies',
  method: 'GET',
  path: '/accounts/:account_id/companies',
  summary: 'List the businesses or offices tracked in a CallRail account',
  description:
    'Lists the companies of an account, each one business or office location tracked inside it, with id (COM…, the ' +
    'company_id filter of calls, forms, texts, trackers and summaries), name, status, time_zone, created_at and ' +
    'feature flags (dni_active, callscore_enabled, lead_scoring_enabled, form_capture…). Search by name with ' +
    'search. Paged: page from 1, per_page default 25, max 250.',
  params: Params(
    {
      account_id: AccountId,
      sort: Type.Optional(StringEnum(['name'] as const, { description: 'Sort field (name); give order for the direction.' })),
      order: Order,
      search: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Part of the company name.', examples: ['Downtown'] }),
      ),
      fields: Fields(COMPANY_FIELD_EXAMPLES),
      ...Paging,
    },
    // CallRail: "If order is provided, sort is required" (one-way: sort alone is fine).
    { rules: [requires('order', 'sort')] },
  ),
  response: Paged('companies', Company, 'Companies on this page'),
  // https://apidocs.callrail.com/#listing-all-companies
  upstream: callrailGet('/a/:account_id/companies.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e', sort: 'name', order: 'asc' },
});

export const getCompany = defineOperation({
  name: 'get_company',
  method: 'GET',
  path: '/accounts/:account_id/companies/:company_id',
  summary: "Get a tracked company's settings and website script",
  description:
    'Returns one company (company_id from list_companies) with its settings: status, time_zone, script_url (the ' +
    'number-swapping script for the website), swapping options and which features are on. Unknown ids answer ' +
    'not_found.',
  params: Params({
    account_id: AccountId,
    company_id: idParam('CallRail company id (starts with COM), from list_companies.', 'COM7d2b5e8a1c4f4b9e8d3a6c0f2e5b7a91'),
    fields: Fields(COMPANY_FIELD_EXAMPLES),
  }),
  response: Company,
  // https://apidocs.callrail.com/#retrieving-a-single-company
  upstream: callrailGet('/a/:account_id/companies/:company_id.json'),
  example: { account_id: 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e', company_id: 'COM7d2b5e8a1c4f4b9e8d3a6c0f2e5b7a91' },
});
