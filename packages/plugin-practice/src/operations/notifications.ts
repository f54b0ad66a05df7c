import { defineOperation, Params, Type } from '@portico/core/plugin';
import { Bool, Fields } from '../schemas.js';
import { family, fieldsNote, withFields } from './kit/rows.js';

// Notifications: the connected user's in-app notification events, and the counts of the unread ones.

const METRIC_FIELDS = 'unread_web_events,unread_mobile_events,unread_secure_messages';
export const listEventMetrics = defineOperation({
  name: 'list_event_metrics',
  method: 'GET',
  path: '/internal_notifications/event_metrics',
  summary: 'Count my unread notifications and secure messages',
  description:
    `Returns the counts of the connected user’s unread in-app notifications and unread secure client messages (web and mobile); the notifications themselves are list_my_events. ${fieldsNote({ fields: METRIC_FIELDS })} ` +
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
      summaries: {
        list: 'List my in-app notifications in Clio',
        update: 'Mark a notification of mine read or unread',
        delete: 'Delete (dismiss) a notification of mine',
      },
      verbs: ['list', 'update', 'delete'],
      about: 'The connected user’s in-app notification events.',
      fields: 'id,title,subject,marked_as_read,created_at',
      order: null,
      body: {
        marked_as_read: Bool('Mark read (true) or unread (false).'),
      },
      without: ['created_since', 'updated_since', 'ids[]'],
      text: {
        list: 'Lists the connected user’s in-app notifications, the events Clio tells them about, read or unread. For only the count of unread ones, use list_event_metrics.',
        update: 'Marks one of the connected user’s notifications read or unread with marked_as_read (id from list_my_events).',
        delete: 'Dismisses one of the connected user’s notifications (id from list_my_events). Answers 204 with no body.',
      },
    },
  ],
  listEventMetrics,
);
