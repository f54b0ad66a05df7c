import { atLeastOne, StringEnum } from '@portico/core/plugin';
import { Day, Flag, IdFilter, List, notNull, Ref, Text } from '../schemas.js';
import { family, omit } from './kit/rows.js';

// Notes: what a firm writes down on a matter or a contact.

const noteBody = {
  contact: Ref('contact'),
  date: Day('Date of the note'),
  detail: Text('Text of the note.'),
  detail_text_type: Text('plain_text or rich_text.'),
  matter: Ref('matter'),
  notification_event_subscribers: List('Notification event subscribers, as [{ "user_id": <string> }].'),
  subject: Text('Subject line of the note.'),
  type: StringEnum(['Matter', 'Contact'], { description: 'Matter or Contact: what the note is written on.' }),
};

export const notes = family([
  {
    key: 'notes',
    path: '/notes',
    clio: '/notes',
    record: ['note', 'notes'],
    summaries: {
      list: 'List notes written on matters or contacts',
      get: 'Read a note written on a matter or contact',
      create: 'Write a note on a matter or contact',
      update: 'Edit a matter or contact note',
      delete: 'Delete a matter or contact note',
    },
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Notes written on matters and contacts.',
    fields: 'id,subject,detail,date,type,matter{id,display_number},contact{id,name}',
    order: 'id(asc)',
    filters: {
      contact_id: IdFilter('Only notes of this contact.', notNull),
      has_time_entries: Flag('Only notes with (true) or without (false) time entries.'),
      matter_id: IdFilter('Only notes of this matter.', notNull),
      query: Text('Wildcard search in the notes.'),
      type: StringEnum(['Matter', 'Contact'], { description: 'Matter notes or contact notes; Clio requires it.' }),
    },
    listRules: [atLeastOne('type')],
    body: noteBody,
    // A note stays on the matter or contact it was written on.
    updateBody: {
      ...omit(noteBody, 'contact', 'matter', 'type'),
      notification_event_subscribers: List(
        'Notification event subscribers, as [{ "user_id": <string>, "id": <id>, "_destroy": <boolean> }].',
      ),
    },
    required: ['contact', 'matter', 'type'],
    text: {
      list: 'Lists the notes written on matters or on contacts (file notes, memos of a call or meeting): type (Matter or Contact) is required by Clio, with matter_id or contact_id for one record’s notes. query searches the notes; logged emails and phone calls are list_communications.',
      get: 'Returns one note with its subject, text, date and the matter or contact it is on; the id comes from list_notes or create_note.',
      create:
        'Writes a note on a matter or a contact: type (Matter or Contact) is required, with matter ({"id": <matter id>}) or contact ({"id": <contact id>}) to match. subject and detail carry the text.',
      update: 'Edits a note’s subject, text (detail) or date (id from list_notes).',
      delete: 'Deletes a note from its matter or contact (id from list_notes). Answers 204 with no body.',
    },
  },
]);
