import { defineOperation, Params } from '@portico/core/plugin';
import { AccountId, AnyRecord, CompanyFilter, DEFAULT_PER_PAGE, idParam, Paged, Paging } from '../schemas.js';
import { callrailGet } from '../upstream.js';

const EXAMPLE_ACCOUNT = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';

export const listOutboundCallerIds = defineOperation({
  name: 'list_outbound_caller_ids',
  method: 'GET',
  path: '/accounts/:account_id/caller-ids',
  summary: 'List the verified numbers usable as outbound caller ID',
  description:
    'Lists the outbound caller ids, phone numbers a business verified so that CallRail may show them when it ' +
    'places calls on its behalf, each with id, phone_number, name, verification status and company_id. Filter by ' +
    'company_id. Paged: page from 1, per_page default 25, max 250; the array is named caller_ids.',
  params: Params({ account_id: AccountId, company_id: CompanyFilter, ...Paging }),
  response: Paged('caller_ids', AnyRecord, 'Outbound caller ids on this page'),
  // https://apidocs.callrail.com/#listing-all-outbound-caller-ids
  upstream: callrailGet('/a/:account_id/caller_ids.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT },
});

export const getOutboundCallerId = defineOperation({
  name: 'get_outbound_caller_id',
  method: 'GET',
  path: '/accounts/:account_id/caller-ids/:caller_ids_id',
  summary: 'Get a verified outbound caller ID number',
  description:
    'Returns one outbound caller id (caller_ids_id from list_outbound_caller_ids), the number shown when CallRail ' +
    'places calls for the business, exactly as CallRail sends it. Unknown ids answer not_found.',
  params: Params({
    account_id: AccountId,
    caller_ids_id: idParam('Outbound caller id, from list_outbound_caller_ids.', 'CID3e8b1d6a4c9f4e2b7a5d8c1f6e3b9a04'),
  }),
  // https://apidocs.callrail.com/#retrieving-a-single-outbound-caller-id
  upstream: callrailGet('/a/:account_id/caller_ids/:caller_ids_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, caller_ids_id: 'CID3e8b1d6a4c9f4e2b7a5d8c1f6e3b9a04' },
});
