import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { Fields, Flag, IdFilter, notNull, Text } from '../schemas.js';
import { family, ONLY_ID, withFields } from './kit/rows.js';

// Users: the firm's Clio users (attorneys and staff), the one the connection acts as, the groups they form, and the
// log of what they viewed and changed.

export const getCurrentUser = defineOperation({
  name: 'get_current_user',
  method: 'GET',
  path: '/users/who_am_i',
  summary: 'Get who I am in Clio (the connected user)',
  description: `Returns the Clio user the connection acts as (who am I), with the name, email and roles of that firm user; its id is the user_id of the caller’s own records. ${ONLY_ID}, for example fields=id,name,email,roles.`,
  params: Params({ fields: Type.Optional(Fields('id,name,email,roles')) }),
  upstream: (p) => ({ method: 'GET', path: '/users/who_am_i.json', ...withFields(p.fields) }),
});

export const users = family(
  [
    {
      key: 'users',
      path: '/users',
      clio: '/users',
      record: ['user', 'users'],
      summaries: {
        list: 'List the firm’s Clio users (attorneys, paralegals and staff)',
        get: 'Get a firm user’s name, email and role',
      },
      verbs: ['list', 'get'],
      about: 'The firm’s Clio users (attorneys and staff).',
      fields: 'id,name,email,enabled,roles,subscription_type,rate',
      order: 'id(asc)',
      limit: { maximum: 2000, default: '2000' },
      filters: {
        enabled: Flag('Only enabled (true) or disabled (false) users.'),
        include_co_counsel: Flag('Also list co-counsel users.'),
        name: Text('Only users with this name.'),
        pending_setup: Flag('Only users who have (false) or have not yet (true) finished setting up their account.'),
        role: StringEnum(['admin', 'accounts', 'billing', 'reports'], { description: 'Only users with this role.' }),
        subscription_type: StringEnum(['attorney', 'nonattorney'], { description: 'Only attorneys or only non-attorney users.' }),
      },
      text: {
        list: 'Lists the firm’s users, the attorneys, paralegals and staff who work in Clio, with their roles and rates when asked for. Filter by name, role, subscription_type, enabled or include_co_counsel; their ids are the user_id and attorney ids elsewhere.',
        get: 'Returns one firm user with their name, email, roles and rate; the id comes from list_users (or get_current_user for the connected user).',
      },
    },
    {
      key: 'groups',
      path: '/groups',
      clio: '/groups',
      record: ['group', 'groups'],
      summaries: {
        list: 'List groups (teams) of the firm’s users',
        get: 'Get a group (team) of users',
        create: 'Create a group (team) of users',
        update: 'Rename a group (team) of users',
        delete: 'Delete a group (team) of users',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Groups of users (teams) that share access and rates.',
      fields: 'id,name,type,archived',
      order: 'id(asc)',
      filters: {
        archived: Flag('Only archived (true) or active (false) groups.'),
        name: Text('Only groups with this name.'),
        query: Text('Wildcard search in name.'),
        type: StringEnum(['AccountGroup', 'AdhocGroup', 'UserGroup'], { description: 'Only groups with this type.' }),
        user_id: IdFilter('Only groups this user belongs to.', notNull),
      },
      body: {
        name: Text('Name.'),
      },
      text: {
        list: 'Lists groups, the teams of users that share access to matters and rates. Filter by name, type, archived or member (user_id); query searches the name.',
        get: 'Returns one group (team) of users with its name and type; the id comes from list_groups.',
        create: 'Creates a group (team) of users; give it a name.',
        update: 'Renames a group (team) of users (id from list_groups).',
        delete: 'Deletes a group (team) of users (id from list_groups); its users stay. Answers 204 with no body.',
      },
    },
    {
      key: 'log_entries',
      path: '/log_entries',
      clio: '/log_entries',
      record: ['log_entry', 'log_entries'],
      summaries: {
        list: 'List the audit trail (who viewed or changed which records)',
      },
      verbs: ['list'],
      about: 'The account’s activity log (who viewed or changed what).',
      fields: 'id,type,accessed_at,user{id,name},item{id,type}',
      order: 'id(asc)',
      text: {
        list: 'Lists log entries, the account’s audit trail of who viewed or changed which records and when. Order by accessed_at(desc) for the newest first.',
      },
    },
  ],
  getCurrentUser,
);
