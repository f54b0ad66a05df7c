import { StringEnum } from '@portico/core/plugin';
import { Text } from '../schemas.js';
import { family } from './kit/rows.js';

// Custom actions: the links an app adds to Clio's pages (a matter, a contact, a document, an activity, a folder).

export const customActions = family([
  {
    key: 'custom_actions',
    path: '/custom_actions',
    clio: '/custom_actions',
    record: ['custom_action', 'custom_actions'],
    summaries: {
      list: 'List custom action links this app added to Clio pages',
      get: 'Get a custom action link on a Clio page',
      create: 'Add a custom action link to a Clio page',
      update: 'Change a custom action link on a Clio page',
      delete: 'Remove a custom action link from a Clio page',
    },
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
      list: 'Lists the custom actions, the links this app added to Clio’s matter, contact, document, activity or folder pages. Each opens target_url from the page named by ui_reference.',
      get: 'Returns one custom action link with its label, URL and page; the id comes from list_custom_actions.',
      create:
        'Adds a link to a Clio page that opens an outside address: label, target_url and ui_reference (the page, such as matters/show) are required.',
      update: 'Changes a custom action’s label, URL or page (id from list_custom_actions).',
      delete: 'Removes a custom action link from its Clio page (id from list_custom_actions). Answers 204 with no body.',
    },
  },
]);
