import { atLeastOne, defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { BodyId, GenericRecord, One, Paged, RecordId, Text } from '../schemas.js';
import { withNumericIds } from '../upstream.js';
import { getOperation, listOperation } from './kit.js';

// Notes: free text on a matter, contact or company — the intake summary, what a caller said.

const Note = GenericRecord('A note');
const NOTABLE_TYPES = ['Prospect', 'Contact', 'Company'] as const;

export const listNotes = listOperation({
  name: 'list_notes',
  path: '/notes',
  upstreamPath: '/notes',
  summary: 'List notes on matters, contacts and companies',
  description:
    'Lists notes (name, body, timestamps) written on leads, matters, contacts and companies. Filter by matter_id, ' +
    'contact_id or company_id to read the notes of one record before a call.',
  response: Paged(Note, 'A page of notes'),
  example: { filter_by: 'matter_id', filter_on: '5101' },
});

export const getNote = getOperation({
  name: 'get_note',
  path: '/notes/:id',
  upstreamPath: '/notes/:id',
  summary: "Get a note's full text",
  description: 'Returns one note with its title, full text, timestamps and the record it is on.',
  id: { what: 'Note', from: 'list_notes', example: '901' },
  response: One(Note, 'The note'),
});

export const createNote = defineOperation({
  name: 'create_note',
  method: 'POST',
  path: '/notes',
  summary: 'Add a note to a prospect, contact or company',
  description:
    'Writes a note on a matter (notable_type Prospect), a contact or a company: the intake summary, what was ' +
    'agreed on a call, a conflict-check result. It shows on the record and its timeline.',
  params: Params({
    notable_type: StringEnum(NOTABLE_TYPES, { description: 'Kind of record the note goes on' }),
    notable_id: BodyId('Id of that record', '5106'),
    name: Text('Title of the note', 'Intake summary'),
    body: Type.String({
      minLength: 1,
      description: 'Text of the note',
      examples: [
        'Fired two weeks after reporting blocked fire exits at the warehouse; has the termination letter and texts from his supervisor.',
      ],
    }),
  }),
  response: One(Note, 'The new note'),
  // Lawmatics' API reference types notable_id as a JSON number.
  upstream: withNumericIds({ method: 'POST', path: '/notes' }, ['notable_id']),
  example: {
    notable_type: 'Prospect',
    notable_id: '5106',
    name: 'Intake summary',
    body: 'Fired two weeks after reporting blocked fire exits at the warehouse; has the termination letter and texts from his supervisor.',
  },
});

export const updateNote = defineOperation({
  name: 'update_note',
  method: 'PATCH',
  path: '/notes/:id',
  summary: "Edit a note's title or text",
  description: "Replaces a note's title or text (or both); the other stays as it was. Lawmatics takes this as a PUT.",
  params: Params(
    {
      id: RecordId('Note', 'list_notes', '902'),
      name: Text('Title of the note'),
      body: Type.Optional(Type.String({ minLength: 1, description: 'Text of the note' })),
    },
    { rules: [atLeastOne('name', 'body')] },
  ),
  response: One(Note, 'The updated note'),
  upstream: { method: 'PUT', path: '/notes/:id' },
  example: { id: '902', body: 'Twice-weekly physical therapy at Harbor Medical; MRI done, now also seeing an orthopedist.' },
});
