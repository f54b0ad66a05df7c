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
    summaries: {
      list: 'List court e-filings submitted through Clio File',
      get: 'Get a court e-filing submitted through Clio File',
    },
    verbs: ['list', 'get'],
    about: 'Court e-filing submissions made through Clio File.',
    fields: 'id,status,submitted_at,matter{id,display_number}',
    order: 'id(asc)',
    filters: {
      submitted_after: Day('Only submissions made after this date'),
      submitted_before: Day('Only submissions made before this date'),
    },
    text: {
      list: 'Lists Clio File submissions, the court e-filings the firm sent to courts through Clio File, with their status. Filter by submitted_after and submitted_before.',
      get: 'Returns one Clio File (court e-filing) submission with its status and when it was submitted; the id comes from list_clio_file_submissions.',
    },
  },
]);
