import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import {
  AccountId,
  AnyRecord,
  CompanyFilter,
  DEFAULT_PER_PAGE,
  idParam,
  Paged,
  Paging,
  TRACKER_STATUSES,
  TRACKER_TYPES,
} from '../schemas.js';
import { callrailGet } from '../upstream.js';

const EXAMPLE_ACCOUNT = 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e';

export const listTrackers = defineOperation({
  name: 'list_trackers',
  method: 'GET',
  path: '/accounts/:account_id/trackers',
  summary: 'List tracking numbers and the marketing sources they track',
  description:
    'Lists trackers, the tracking phone numbers (or pools of numbers) tied to a marketing source: type source is ' +
    'one number per channel (an ad, a listing, print), session a pool swapped on the website per visitor. Each has ' +
    'id (TRK…, the tracker_id filter of list_calls), name, type, status, tracking_numbers, destination_number, ' +
    'company and source; filter by company_id, status or type. Paged: page from 1, per_page default 25, max 250.',
  params: Params({
    account_id: AccountId,
    company_id: CompanyFilter,
    status: Type.Optional(StringEnum(TRACKER_STATUSES, { description: 'Only active or only disabled trackers.' })),
    type: Type.Optional(StringEnum(TRACKER_TYPES, { description: 'Only source trackers or only session (website) trackers.' })),
    ...Paging,
  }),
  response: Paged('trackers', AnyRecord, 'Trackers on this page'),
  // https://apidocs.callrail.com/#listing-all-trackers
  upstream: callrailGet('/a/:account_id/trackers.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT, status: 'active' },
});

export const getTracker = defineOperation({
  name: 'get_tracker',
  method: 'GET',
  path: '/accounts/:account_id/trackers/:tracker_id',
  summary: "Get a tracking number's routing and source",
  description:
    'Returns one tracker (tracker_id from list_trackers): its tracking numbers, where calls ring ' +
    '(destination_number, call_flow), the marketing source it attributes, whisper message and SMS settings. The ' +
    'calls it received are in list_calls filtered by tracker_id.',
  params: Params({
    account_id: AccountId,
    tracker_id: idParam('Tracker id (starts with TRK), from list_trackers.', 'TRK4b8e1f5a9c2d4e7b8a6f3c1d9e5b2a70'),
  }),
  // https://apidocs.callrail.com/#retrieving-a-single-tracker
  upstream: callrailGet('/a/:account_id/trackers/:tracker_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, tracker_id: 'TRK4b8e1f5a9c2d4e7b8a6f3c1d9e5b2a70' },
});

export const listUsers = defineOperation({
  name: 'list_users',
  method: 'GET',
  path: '/accounts/:account_id/users',
  summary: 'List the people who log in to CallRail and answer calls',
  description:
    'Lists the users of a call tracking account, the people who log in, answer calls as agents (agent_email on ' +
    'calls) and receive notifications, each with id (USR…), numeric_id (the agent filter of the summaries), ' +
    'first_name, last_name, email, role and the companies they see. Filter by company_id or search (name or ' +
    'email). Paged: page from 1, per_page default 25, max 250.',
  params: Params({
    account_id: AccountId,
    company_id: CompanyFilter,
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name or email.', examples: ['chen'] })),
    ...Paging,
  }),
  response: Paged('users', AnyRecord, 'Users on this page'),
  // https://apidocs.callrail.com/#listing-all-users
  upstream: callrailGet('/a/:account_id/users.json', { perPage: DEFAULT_PER_PAGE }),
  example: { account_id: EXAMPLE_ACCOUNT },
});

export const getUser = defineOperation({
  name: 'get_user',
  method: 'GET',
  path: '/accounts/:account_id/users/:user_id',
  summary: "Get a CallRail user's role and companies",
  description:
    'Returns one person who logs in to the call tracking account (user_id from list_users): name, email, role, ' +
    'numeric_id and the companies the user can access. The numeric_id is the agent filter of summarize_call_data.',
  params: Params({
    account_id: AccountId,
    user_id: idParam('User id (starts with USR), from list_users.', 'USR2c7a9e4b1d6f4c3a8e5b2d9f1c7a4e63'),
  }),
  // https://apidocs.callrail.com/#retrieving-a-single-user
  upstream: callrailGet('/a/:account_id/users/:user_id.json'),
  example: { account_id: EXAMPLE_ACCOUNT, user_id: 'USR2c7a9e4b1d6f4c3a8e5b2d9f1c7a4e63' },
});
