import { Day } from '../schemas.js';
import { family } from './kit/rows.js';

// Clio File: court e-filing, and the submissions made through it.

export const clioFile = family([
  {
    // The catalog shows list_clio_file_submissions on /clio_file/submissions_reports; Clio's newer document adds a
    // second operation to the tag, taken here as the record of that list (README, "Where the catalog is silent").
    key: 'clio_file_submissions',
    path: '/clio_file/submissions_reports',
    clio: '/clio_file/submissions_reports',
    record: ['clio_file_submission', 'clio_file_submissions'],
    words: ['Clio File submission (court e-filing)', 'Clio File submissions (court e-filings)'],
    verbs: ['list', 'get'],
    about: 'Court e-filing submissions made through Clio File.',
    fields: 'id,status,submitted_at,matter{id,display_number}',
    order: 'id(asc)',
    filters: {
      submitted_after: Day('Only submissions made after this date'),
      submitted_before: Day('Only submissions made before this date'),
    },
    text: {
      list: 'Lists Clio File (court e-filing) submissions, by submission date.',
      get: 'Returns one Clio File (court e-filing) submission, e.g. its status and when it was submitted; the id comes from list_clio_file_submissions.',
    },
  },
]);
