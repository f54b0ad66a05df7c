import { defineOperation, Params } from '@portico/core/plugin';
import { GenericRecord, One, Paged } from '../schemas.js';
import { ALL_FIELDS } from '../upstream.js';
import { getOperation, listOperation } from './kit.js';

const User = GenericRecord('A user of the firm');

export const listUsers = listOperation({
  name: 'list_users',
  path: '/users',
  upstreamPath: '/users',
  summary: "List the firm's Lawmatics users (attorneys and staff)",
  description:
    "Lists the firm's Lawmatics users, attorneys and staff, with name and email. Their ids are the owners, " +
    'attorneys, assigned staff, task assignees and appointment hosts of the other operations.',
  response: Paged(User, 'A page of users'),
  example: { sort_by: 'name', sort_order: 'asc' },
});

export const getUser = getOperation({
  name: 'get_user',
  path: '/users/:id',
  upstreamPath: '/users/:id',
  summary: "Get a Lawmatics user's name, email and role",
  description: 'Returns one user of the firm (an attorney or staff member) with every field: name, email, role and timestamps.',
  id: { what: 'User', from: 'list_users', example: '13' },
  response: One(User, 'The user'),
});

export const getMe = defineOperation({
  name: 'get_me',
  method: 'GET',
  path: '/users/me',
  summary: 'Get the connected Lawmatics user: who am I',
  description:
    'Returns the Lawmatics user whose authorization the gateway uses for this connection, which answers "which ' +
    'user am I connected as?". It is a quick check that the connection works, and gives the user id to use for ' +
    '"me" (owner, host, assignee).',
  params: Params({}),
  response: One(User, 'The connected user'),
  upstream: { method: 'GET', path: '/users/me', fixedQuery: ALL_FIELDS },
  example: {},
});
