import { defineOperation, Params, requires, StringEnum, Type } from '@portico/core/plugin';
import { Account, AccountId, DEFAULT_PER_PAGE, Fields, Order, Paged, Paging } from '../schemas.js';
import { callrailGet } from '../upstream.js';

export const listAccounts = defineOperation({
  name: 'list_accounts',
  method: 'GET',
  path: '/accounts',
  summary: 'List the CallRail accounts the API key can see',
  description:
    'Lists the call tracking accounts visible to the connected API key (an agency key sees several, a single firm ' +
    'usually one), each with id (ACC…), name, outbound_recording_enabled and hipaa_account: start here, since ' +
    'every other CallRail operation needs an account_id. Ask for fields ["numeric_id"] to also get the account ' +
    'number shown in the CallRail app. Paged: page (from 1) and per_page (default 25, max 250); the answer carries ' +
    'total_pages and total_records.',
  params: Params(
    {
      hipaa_account: Type.Optional(
        Type.Boolean({ description: 'true: only HIPAA accounts; false: only non-HIPAA accounts; omit for both.' }),
      ),
      sort: Type.Optional(StringEnum(['name'] as const, { description: 'Sort field (name); give order for the direction.' })),
      order: Order,
      fields: Fields(['numeric_id']),
      ...Paging,
    },
    // CallRail: "If order is provided, sort is required" (one-way: sort alone is fine).
    { rules: [requires('order', 'sort')] },
  ),
  response: Paged('accounts', Account, 'Accounts on this page'),
  // https://apidocs.callrail.com/#listing-all-accounts
  upstream: callrailGet('/a.json', { perPage: DEFAULT_PER_PAGE }),
  example: { sort: 'name', order: 'asc', per_page: '25' },
});

export const getAccount = defineOperation({
  name: 'get_account',
  method: 'GET',
  path: '/accounts/:account_id',
  summary: "Get the call tracking account's name and settings",
  description:
    'Returns one call tracking account by id (from list_accounts): id, name, outbound_recording_enabled, ' +
    'hipaa_account, and any fields requested such as numeric_id. Unknown ids answer not_found.',
  params: Params({ account_id: AccountId, fields: Fields(['numeric_id']) }),
  response: Account,
  // https://apidocs.callrail.com/#retrieving-a-single-account
  upstream: callrailGet('/a/:account_id.json'),
  example: { account_id: 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e', fields: ['numeric_id'] },
});
