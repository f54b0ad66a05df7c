import { StringEnum, Type } from '@portico/core/plugin';
import { Obj, Ref, Text } from '../schemas.js';
import { downloadOperation } from './kit/downloads.js';
import { family } from './kit/rows.js';

// Document automation: documents generated from templates with a matter's data, and the templates they are filled
// from.

const templateBody = {
  file: Text('The template file (a Word document), BASE64-encoded.'),
  filename: Text('Name of the file (needed with file).'),
  document_category: Ref('document category', 'ids from list_document_categories'),
};

export const downloadDocumentTemplate = downloadOperation({
  name: 'download_document_template',
  path: '/document_templates/:id/download',
  clio: (id) => `/document_templates/${id}/download.json`,
  summary: 'Download the file of a document template',
  description:
    'Gets the file of a document template (id from list_document_templates), such as a letter or form with merge fields, to check it before generating documents.',
  file: 'the template’s file',
  idDescription: 'Id of the document template (from list_document_templates).',
});

export const documentAutomation = family(
  [
    {
      key: 'document_templates',
      path: '/document_templates',
      clio: '/document_templates',
      record: ['document_template', 'document_templates'],
      summaries: {
        list: 'List document templates (letters and forms to fill from a matter)',
        get: 'Get a document template’s details',
        create: 'Upload a document template for document automation',
        update: 'Replace a document template’s file or category',
        delete: 'Delete a document template',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Templates that document automations fill with a matter’s data.',
      fields: 'id,filename,size,content_type,created_at,updated_at',
      order: 'id(asc)',
      body: templateBody,
      required: ['file'],
      text: {
        list: 'Lists document templates, the letter, pleading and form templates that document automation fills with a matter’s data (create_document_automation). To get a template’s file, use download_document_template.',
        get: 'Returns one document template’s details (filename, category, size), not its file; the id comes from list_document_templates.',
        create:
          'Uploads a document template, a file with merge fields for document automation: file (BASE64-encoded) is required, with its filename.',
        update: 'Replaces a template’s file or changes its category (id from list_document_templates).',
        delete:
          'Deletes a document template (id from list_document_templates), one of the files document automation fills. Answers 204 with no body.',
      },
    },
    {
      key: 'document_automations',
      path: '/document_automations',
      clio: '/document_automations',
      record: ['document_automation', 'document_automations'],
      summaries: {
        list: 'List documents generated from templates (document automations)',
        get: 'Get a document automation and whether it is done',
        create: 'Generate a document from a template with a matter’s data',
      },
      verbs: ['list', 'get', 'create'],
      about: 'Documents generated from templates with a matter’s data.',
      fields: 'id,state,filename,export_formats,created_at',
      order: 'id(asc)',
      body: {
        document_template: Ref('document template', 'ids from list_document_templates'),
        matter: Obj('The matter whose data fills the template, as { "id": <matter id> }.'),
        filename: Text('Name of the generated document.'),
        formats: Type.Array(StringEnum(['pdf', 'original']), {
          description: 'Formats to generate: pdf and/or original (the template’s own type).',
        }),
      },
      required: ['document_template', 'matter', 'filename', 'formats'],
      text: {
        list: 'Lists document automations, the documents Clio generated (or is generating) from templates with a matter’s data, with their state.',
        get: 'Returns one document automation and its state (pending, completed, failed); the id comes from list_document_automations or create_document_automation.',
        create:
          'Generates a document, such as a letter or engagement agreement, from a template with a matter’s data: document_template, matter, filename and formats are required. The document appears in the matter’s documents when the state is completed.',
      },
    },
  ],
  downloadDocumentTemplate,
);
