import { defineOperation, Params, Type } from '@portico/core';
import { Bool, Fields } from '../schemas.js';
import { family, fieldsNote, withFields } from './kit/rows.js';

// Notifications: the connected user's in-app notification events, and the counts of the unread ones.

const METRIC_FIELDS = 'unread_web_events,unread_mobile_events,unread_secure_messages';
export const listEventMetrics = defineOperation({
  name: 'list_event_metrics',
  method: 'GET',
  path: '/internal_notifications/event_metrics',
  summary: 'Count unread notifications',
  description:
    `Returns the counts of the user’s unread in-app notification events. ${fieldsNote({ fields: METRIC_FIELDS })} ` +
    'The answer is one record, not paged: there is no meta.paging.next and no page_token.',
  params: Params({ fields: Type.Optional(Fields(METRIC_FIELDS)) }),
  upstream: (p) => ({ method: 'GET', path: '/internal_notifications/event_metrics.json', ...withFields(p.fields) }),
});

export const notifications = family(
  [
    {
      key: 'my_events',
      path: '/internal_notifications/my_events',
      clio: '/internal_notifications/my_events',
      record: ['my_event', 'my_events'],
      words: ['notification', 'notifications'],
      summaries: { update: 'Update one of my events', delete: 'Delete one of my events' },
      verbs: ['list', 'update', 'delete'],
      about: 'The connected user’s in-app notification events.',
      fields: 'id,title,subject,marked_as_read,created_at',
      order: null,
      body: {
        marked_as_read: Bool('Mark read (true) or unread (false).'),
      },
      without: ['created_since', 'updated_since', 'ids[]'],
      text: {
        list: 'Lists the in-app notifications (events) of the connected user.',
        update: 'Marks one of the user’s notification events read or unread (id from list_my_events).',
        delete: 'Dismisses one of the user’s notification events (id from list_my_events). Answers 204 with no body.',
      },
    },
  ],
  listEventMetrics,
);
