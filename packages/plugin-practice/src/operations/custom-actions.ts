import { StringEnum } from '@portico/core';
import { Text } from '../schemas.js';
import { family } from './kit/rows.js';

// Custom actions: the links an app adds to Clio's pages (a matter, a contact, a document, an activity, a folder).

export const customActions = family([
  {
    key: 'custom_actions',
    path: '/custom_actions',
    clio: '/custom_actions',
    record: ['custom_action', 'custom_actions'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Links an app adds to Clio’s pages (matters, contacts, documents, activities, folders).',
    fields: 'id,label,target_url,ui_reference',
    order: null,
    body: {
      label: Text('Text of the link.'),
      target_url: Text('URL opened in a new tab when the link is clicked.'),
      ui_reference: StringEnum(['activities/show', 'documents/show', 'contacts/show', 'matters/show', 'folders/show'], {
        description: 'The Clio page that shows the link.',
      }),
    },
    required: ['label', 'target_url', 'ui_reference'],
    text: {
      list: 'Lists the custom actions (links this app added to Clio’s matter, contact, document, activity or folder pages).',
      get: 'Returns one custom action; the id comes from list_custom_actions.',
      create: 'Adds a link to a Clio page: label, target_url and ui_reference (the page, e.g. matters/show) are required.',
      update: 'Changes a custom action’s label, URL or page (id from list_custom_actions).',
      delete: 'Removes a custom action (id from list_custom_actions). Answers 204 with no body.',
    },
  },
]);
