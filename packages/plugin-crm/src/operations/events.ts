import { atLeastOne, BooleanString, defineOperation, Params, StringEnum, Type, together } from '@portico/core/plugin';
import { BodyId, GenericRecord, One, OptionalId, Paged, RecordId, Text, Unstructured, When } from '../schemas.js';
import { withNumericIds } from '../upstream.js';
import { getOperation, listOperation, namesOf, optionalAll } from './kit.js';

// Events are appointments (consultations, signings, court dates) with a matter, a contact or a client.

const Event = GenericRecord('An event (appointment)');

export const listEvents = listOperation({
  name: 'list_events',
  path: '/events',
  upstreamPath: '/events',
  summary: 'List appointments and consultations on the calendar',
  description:
    'Lists events: appointments, consultations, meetings and court dates, with name, start_date, end_date, ' +
    'all_day, event type, location and reminders. Filter by start_date (filter_with >=) for what is coming up, or ' +
    'by matter_id or contact_id for the appointments of one record.',
  response: Paged(Event, 'A page of events'),
  example: { filter_by: 'start_date', filter_on: '2024-11-15', filter_with: '>=', sort_by: 'start_date', sort_order: 'asc' },
});

export const getEvent = getOperation({
  name: 'get_event',
  path: '/events/:id',
  upstreamPath: '/events/:id',
  summary: "Get an appointment's details: time, hosts, location",
  description:
    'Returns one event (appointment, consultation) with every field: times and time zone, event type, location, ' +
    'hosts, the matter or contact it is with, reminders and whether invites were sent.',
  id: { what: 'Event', from: 'list_events', example: '703' },
  response: One(Event, 'The event'),
});

export const listLocations = listOperation({
  name: 'list_locations',
  path: '/locations',
  upstreamPath: '/locations',
  summary: 'List the office locations appointments take place at',
  description:
    "Lists the firm's office locations configured for appointments (name, address). Their ids are the location_id " + 'of create_event.',
  response: Paged(GenericRecord('An event location'), 'A page of locations'),
  example: { sort_by: 'name', sort_order: 'asc' },
});

export const listEventTypes = listOperation({
  name: 'list_event_types',
  path: '/event-types',
  upstreamPath: '/event_types',
  summary: 'List appointment types such as initial consultation',
  description:
    "Lists the firm's event types (Initial consultation, Signing, Court hearing…), each setting an appointment's " +
    'defaults such as its duration and able to trigger automations. Their ids are the event_type_id of ' +
    'create_event.',
  response: Unstructured('Event types, as Lawmatics sends them'),
  example: { sort_by: 'name', sort_order: 'asc' },
});

export const getEventType = getOperation({
  name: 'get_event_type',
  path: '/event-types/:id',
  upstreamPath: '/event_types/:id',
  summary: 'Get an appointment type and its default duration',
  description: 'Returns one event type (a kind of appointment): its name, default duration and timestamps.',
  id: { what: 'Event type', from: 'list_event_types', example: '1' },
  response: One(GenericRecord('An event type'), 'The event type'),
});

// ---- writes (beyond the catalog's table) ---------------------------------------------------------------------------

const EVENTABLE_TYPES = ['Prospect', 'Contact', 'Client'] as const;
const REMINDER_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;

/** What Lawmatics needs to book an appointment (its create endpoint lists only the others as optional). */
const eventCore = {
  name: Type.String({ minLength: 1, description: 'Title of the appointment', examples: ['Initial Consultation - Kevin O’Brien'] }),
  description: Type.String({
    description: 'What the appointment is about',
    examples: ['Termination after the safety complaint: timeline, documents, next steps'],
  }),
  start_date: When('Start.', '2024-11-22T10:00:00-08:00'),
  end_date: When('End.', '2024-11-22T11:00:00-08:00'),
  event_type_id: BodyId('Event type id (list_event_types)', '1'),
  eventable_type: StringEnum(EVENTABLE_TYPES, { description: 'Kind of record the appointment is with' }),
  eventable_id: BodyId('Id of the prospect (matter), contact or client the appointment is with', '5106'),
  user_ids: Type.Array(BodyId('User id'), { minItems: 1, description: 'Users (list_users) hosting the appointment', examples: [['11']] }),
};

const eventOptions = {
  all_day: Type.Optional(Type.Boolean({ description: 'A whole-day event (Lawmatics default: false)' })),
  time_zone: Text('Time zone of the times (tz name such as America/Los_Angeles)', 'America/Los_Angeles'),
  location_id: OptionalId('Office location id (list_locations)', '1'),
  reminder_type: Type.Optional(StringEnum(REMINDER_UNITS, { description: 'Unit of reminder_delay_length' })),
  reminder_delay_length: Type.Optional(
    Type.Integer({ minimum: 0, description: 'When the reminder goes out, counted in reminder_type units', examples: [1] }),
  ),
  send_invites: Type.Optional(Type.Boolean({ description: 'Email invitations to the attendees (Lawmatics default: true)' })),
};

export const createEvent = defineOperation({
  name: 'create_event',
  method: 'POST',
  path: '/events',
  summary: 'Book an appointment such as a consultation with a lead',
  description:
    'Schedules an event, typically the initial consultation, with a prospect (lead, matter), contact or client, ' +
    'hosted by one or more users. Lawmatics needs the name, description, start and end, event type, the record it ' +
    'is with and the hosts; reminders, location and time zone are optional. Invitations are emailed unless ' +
    'send_invites is false.',
  params: Params({ ...eventCore, ...eventOptions }, { rules: [together('reminder_type', 'reminder_delay_length')] }),
  response: One(Event, 'The new event'),
  // Lawmatics' API reference types user_ids as a JSON number.
  upstream: withNumericIds({ method: 'POST', path: '/events' }, ['user_ids']),
  example: {
    name: 'Initial Consultation - Kevin O’Brien',
    description: 'Termination after the safety complaint: timeline, documents, next steps',
    start_date: '2024-11-22T10:00:00-08:00',
    end_date: '2024-11-22T11:00:00-08:00',
    time_zone: 'America/Los_Angeles',
    event_type_id: '1',
    eventable_type: 'Prospect',
    eventable_id: '5106',
    user_ids: ['11'],
  },
});

const updateFields = {
  ...optionalAll(eventCore),
  ...eventOptions,
  no_show: Type.Optional(Type.Boolean({ description: 'The person did not come' })),
};

export const updateEvent = defineOperation({
  name: 'update_event',
  method: 'PATCH',
  path: '/events/:id',
  summary: 'Reschedule or change an appointment or consultation',
  description:
    'Changes the fields given and leaves the others: move or push back a consultation, meeting or hearing to ' +
    'another day or time (start_date, end_date), change hosts, type, location or reminders, or record a no-show. ' +
    'Lawmatics takes this as a PUT.',
  params: Params(
    { id: RecordId('Event', 'list_events', '702'), ...updateFields },
    { rules: [atLeastOne(...namesOf(updateFields)), together('reminder_type', 'reminder_delay_length')] },
  ),
  response: One(Event, 'The updated event'),
  upstream: withNumericIds({ method: 'PUT', path: '/events/:id' }, ['user_ids']),
  example: { id: '702', start_date: '2024-11-20T14:00:00-08:00', end_date: '2024-11-20T15:00:00-08:00' },
});

export const cancelEvent = defineOperation({
  name: 'cancel_event',
  method: 'DELETE',
  path: '/events/:id',
  summary: 'Cancel an appointment, telling the attendees or not',
  description:
    'Cancels the appointment (event); with notify_attendees "true" Lawmatics tells the attendees, otherwise it ' +
    'cancels silently. To move an appointment use update_event rather than cancelling and booking again.',
  params: Params({
    id: RecordId('Event', 'list_events', '706'),
    notify_attendees: Type.Optional(BooleanString({ description: 'Tell the attendees about the cancellation ("true" or "false").' })),
  }),
  locations: { notify_attendees: 'query' },
  upstream: { method: 'DELETE', path: '/events/:id' },
  example: { id: '706', notify_attendees: 'true' },
});
