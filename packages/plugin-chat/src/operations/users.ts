import { defineOperation, Params, Type } from '@portico/core/plugin';
import { Cursor, Limit, MembersResponse, UserId, UserResponse } from '../schemas.js';
import { pageQuery } from './kit.js';

export const listUsers = defineOperation({
  name: 'list_users',
  method: 'GET',
  path: '/users',
  summary: 'List the members (people and bots) of the Slack workspace',
  description:
    "Lists the workspace's members (people, bots and deactivated accounts with deleted=true), each with id, name, " +
    'real_name, deleted, is_bot, tz and profile (display_name, title, and email when the token may read emails). ' +
    'Use it to find user ids (U… or W…) for invite_to_channel or to resolve the user field of messages; for one ' +
    'person by email, lookup_user_by_email is cheaper. Paging: limit (default 20, max 999); while ' +
    'response_metadata.next_cursor is not empty, call again with cursor set to it.',
  params: Params({ limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }),
  response: MembersResponse,
  // https://api.slack.com/methods/users.list
  upstream: (params) => ({ method: 'GET', path: '/users.list', query: pageQuery(params) }),
  example: { limit: '100' },
});

export const getUserInfo = defineOperation({
  name: 'get_user_info',
  method: 'GET',
  path: '/users/:user',
  summary: "Get a Slack member's profile by id: name, title, status, time zone",
  description:
    'Returns one person or bot by id (from list_users, or the user field of a message or reaction): name, ' +
    'real_name, tz, is_bot, deleted and profile (display_name, title, email, images). To find someone by email ' +
    'instead, use lookup_user_by_email.',
  params: Params({ user: UserId }),
  response: UserResponse,
  // https://api.slack.com/methods/users.info
  upstream: { method: 'GET', path: '/users.info' },
  example: { user: 'U05ALICE001' },
});

export const lookupUserByEmail = defineOperation({
  name: 'lookup_user_by_email',
  method: 'GET',
  path: '/users/lookup-by-email',
  summary: 'Find a Slack user (member) by email address',
  description:
    'Finds the workspace member with this email address and returns the same user object as get_user_info: the way ' +
    'to turn an email from another system into a Slack user id. No match is a not-found error, and the token needs ' +
    'the users:read.email scope.',
  params: Params({
    // Optional as in the catalog; Slack needs it, and its own error (invalid_arguments) answers a 400.
    email: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 254,
        pattern: '^[^\\s@]+@[^\\s@]+$',
        description:
          'Email address of the person, as in their Slack profile. Give it on every call: without it Slack refuses the call (invalid_arguments, a 400).',
        examples: ['margaret@harlowpike.example'],
      }),
    ),
  }),
  response: UserResponse,
  // https://api.slack.com/methods/users.lookupByEmail
  upstream: { method: 'GET', path: '/users.lookupByEmail' },
  example: { email: 'margaret@harlowpike.example' },
});
