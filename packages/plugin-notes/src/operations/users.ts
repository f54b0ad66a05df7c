import { defineOperation, Params, Type } from '@portico/core/plugin';
import { EXAMPLE_USER_ID, ListOf, PageSize, StartCursor, User, UserId } from '../schemas.js';

export const listUsers = defineOperation({
  name: 'list_users',
  method: 'GET',
  path: '/users',
  summary: "List the workspace's members and bots",
  description:
    'Lists the members of the Notion workspace (people, with their email when the integration may read it) and its ' +
    'bots (integrations); guests are not included. Use it to find a user id for a people property, a mention or ' +
    'get_user. Paging: when has_more is true, call again with start_cursor set to next_cursor.',
  params: Params({ start_cursor: Type.Optional(StartCursor), page_size: Type.Optional(PageSize) }),
  response: ListOf(User, 'Users of the workspace.'),
  // https://developers.notion.com/reference/get-users
  upstream: { method: 'GET', path: '/users' },
  example: { page_size: 50 },
});

export const getUser = defineOperation({
  name: 'get_user',
  method: 'GET',
  path: '/users/:user_id',
  summary: "Get a Notion user's name and email",
  description:
    'Returns one workspace member or bot: name, avatar and type ("person" with person.email, or "bot"). User ids ' +
    'appear in list_users and in the created_by, last_edited_by and people properties of pages.',
  params: Params({ user_id: UserId }),
  response: User,
  // https://developers.notion.com/reference/get-user
  upstream: { method: 'GET', path: '/users/:user_id' },
  example: { user_id: EXAMPLE_USER_ID },
});

export const getMe = defineOperation({
  name: 'get_me',
  method: 'GET',
  path: '/users/me',
  summary: 'Get the bot and workspace this Notion connection uses',
  description:
    'Returns the bot user the stored Notion token belongs to, with its owner (the workspace or the user who ' +
    'installed it) and the workspace name. It answers which workspace the connection reaches, and whether the ' +
    'token still works.',
  params: Params({}),
  response: User,
  // https://developers.notion.com/reference/get-self
  upstream: { method: 'GET', path: '/users/me' },
  example: {},
});
