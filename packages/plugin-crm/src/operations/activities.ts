import { defineOperation, Params, Type } from '@portico/core/plugin';
import { ACTIVITY_FILTERS, BodyId, GenericRecord, One, Paged, When } from '../schemas.js';
import { withNumericIds } from '../upstream.js';
import { getOperation, listOperation } from './kit.js';

// The timeline: what happened on a matter or contact (notes, emails, stage changes…), and interactions logged from
// outside Lawmatics (calls, meetings).

export const listActivities = listOperation({
  name: 'list_activities',
  path: '/activities',
  upstreamPath: '/activities',
  summary: 'List the timeline of what happened on matters and contacts',
  description:
    'Lists the timeline, one activity per thing that happened (a note created, an email sent, a stage changed…) ' +
    'with its key (note.create), details and the record it concerns. filter_by is one of matter_id, contact_id, ' +
    'type or event, e.g. the history of one matter; time worked is in list_time_entries instead.',
  filterBy: ACTIVITY_FILTERS,
  response: Paged(GenericRecord('A timeline activity'), 'A page of activities'),
  example: { filter_by: 'matter_id', filter_on: '5101' },
});

export const getActivity = getOperation({
  name: 'get_activity',
  path: '/activities/:id',
  upstreamPath: '/activities/:id',
  summary: 'Get a timeline activity and the records it concerns',
  description:
    'Returns one timeline activity (something that happened on a record): its key, type, details and the records ' +
    'it concerns (owner, recipient, tracked record).',
  id: { what: 'Activity', from: 'list_activities', example: '2' },
  response: One(GenericRecord('A timeline activity'), 'The activity'),
});

// ---- beyond the catalog's table --------------------------------------------------------------------------------------

export const listInteractions = listOperation({
  name: 'list_interactions',
  path: '/interactions',
  upstreamPath: '/interactions/',
  summary: 'List calls, meetings and texts logged on matters',
  description:
    'Lists interactions logged on matters from outside Lawmatics (phone calls, meetings, texts) with ' +
    'interaction_type, body and happened_at. Filter by prospect_id for the contact history of one matter.',
  response: Paged(GenericRecord('An interaction'), 'A page of interactions'),
  example: { filter_by: 'prospect_id', filter_on: '5101' },
});

export const createInteraction = defineOperation({
  name: 'create_interaction',
  method: 'POST',
  path: '/interactions',
  summary: 'Log a call, meeting or message on a matter',
  description:
    "Puts an interaction on a matter's timeline: an intake call, a voicemail left, a walk-in meeting, a text " +
    'conversation. Lawmatics needs all four fields: the matter (prospect_id), when it happened, what kind it was ' +
    'and what was said.',
  params: Params({
    prospect_id: BodyId('Prospect (matter) the interaction belongs to', '5106'),
    happened_at: When('When it happened.', '2024-11-15T10:15:00-08:00'),
    interaction_type: Type.String({ minLength: 1, description: 'Kind of interaction, in words', examples: ['Phone call'] }),
    body: Type.String({
      minLength: 1,
      description: 'What happened or was said',
      examples: ['Called Kevin back about his termination; consultation booked for Friday at 10.'],
    }),
  }),
  response: One(GenericRecord('An interaction'), 'The new interaction'),
  // Lawmatics' API reference types prospect_id as a JSON number.
  upstream: withNumericIds({ method: 'POST', path: '/interactions' }, ['prospect_id']),
  example: {
    prospect_id: '5106',
    happened_at: '2024-11-15T10:15:00-08:00',
    interaction_type: 'Phone call',
    body: 'Called Kevin back about his termination; consultation booked for Friday at 10.',
  },
});
