import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import {
  Bool,
  ClioId,
  EXTERNAL_FILTERS,
  EXTERNAL_RULES,
  Fields,
  Flag,
  IdFilter,
  Int,
  List,
  Moment,
  notNull,
  nullable,
  Obj,
  PolyRef,
  Ref,
  Text,
} from '../schemas.js';
import { downloadOperation } from './kit/downloads.js';
import { dataOf, family, omit, optional, withFields } from './kit/rows.js';

// Documents: the files stored in Clio (with their versions), the folders that hold them per matter or contact, the
// comments on them, their categories, and the zip archives Clio builds of them. Documents generated from templates
// are in document-automation.ts.

/** Filters shared by list_documents, list_folders and list_folder_contents. */
const itemFilters = (what: string) => ({
  contact_id: IdFilter(`Only ${what} of this contact.`, nullable),
  document_category_id: IdFilter(`Only ${what} in this document category (ids from list_document_categories).`, nullable),
  matter_id: IdFilter(`Only ${what} of this matter.`, nullable),
  include_deleted: Flag(`Include ${what} in the trash.`),
  query: Text('Wildcard search in the name.'),
  scope: StringEnum(['children', 'descendants'], {
    description: 'With parent_id: only the direct children of the folder, or everything below it.',
  }),
  ...EXTERNAL_FILTERS,
});

/** Where a document or folder goes; Clio also takes a contact's files, and a document as parent (a new version of it). */
const documentParent = (what: string, types: readonly [string, ...string[]]) =>
  PolyRef(`Where ${what} belongs, as { "id": <id>, "type": ${types.map((t) => `"${t}"`).join(' | ')} }.`, types);

/** Body fields create_document and update_document share. */
const documentBody = {
  name: Text('Name of the document.'),
  parent: documentParent('the document', ['Folder', 'Matter', 'Contact', 'Document']),
  document_category: Ref('document category', 'ids from list_document_categories'),
  communication_id: Int('Communication the document came with (ids from list_communications).'),
  received_at: Moment('When the document was received'),
  external_properties: List('External properties, as [{ "name": "…", "value": "…" }]; on update add "id", or "_destroy": true.'),
  multiparts: List('Upload parts to request, as [{ "part_number": 1, "content_length": <bytes>, "content_md5": "…" }].'),
};

// ---- special operations -------------------------------------------------------------------------------------------------

const COPY_FIELDS = 'id,name,parent{id,type},latest_document_version{id}';
const copyBody = {
  parent: documentParent('the copy', ['Folder', 'Matter', 'Contact', 'Document']),
  name: Text('Name of the copy (default: the original’s).'),
  filename: Text('File name of the copy.'),
  document_category: Ref('document category', 'ids from list_document_categories'),
  communication_id: Int('Communication the copy belongs to.'),
  received_at: Moment('When the document was received'),
  external_properties: List('External properties of the copy, as [{ "name": "…", "value": "…" }].'),
};

export const copyDocument = defineOperation({
  name: 'copy_document',
  method: 'POST',
  path: '/documents/:id/copy',
  summary: 'Copy a document into another folder or matter',
  description:
    'Copies a document (id from list_documents) with its latest version into another folder or matter: parent ({"id", "type": "Folder" | "Matter"}) is required. Answers with the new document as data (only id and etag unless fields, sent in the query string, names more, for example fields=' +
    `${COPY_FIELDS}).`,
  params: Params({
    id: ClioId('Id of the document to copy (from list_documents).'),
    parent: copyBody.parent,
    ...optional(omit(copyBody, 'parent')),
    fields: Type.Optional(Fields(COPY_FIELDS)),
  }),
  locations: { fields: 'query' },
  upstream: (p) => {
    const values = p as Record<string, unknown>;
    return {
      method: 'POST',
      path: `/documents/${encodeURIComponent(String(values.id))}/copy.json`,
      ...withFields(values.fields),
      body: { data: dataOf(values, Object.keys(copyBody)) },
    };
  },
});

export const downloadDocument = downloadOperation({
  name: 'download_document',
  path: '/documents/:id/download',
  clio: (id) => `/documents/${id}/download.json`,
  summary: 'Download the file of a document (or one of its versions)',
  description:
    'Gets the file itself (PDF, Word document, scan) of a document (id from list_documents or list_folder_contents): its latest version, or the version document_version_id names (ids from list_document_versions).',
  file: 'the document’s file',
  idDescription: 'Id of the document (from list_documents or list_folder_contents).',
  query: {
    document_version_id: ClioId('A version of the document to download instead of the latest (ids from list_document_versions).'),
  },
});

export const downloadDocumentArchive = downloadOperation({
  name: 'download_document_archive',
  path: '/document_archives/:id/download',
  clio: (id) => `/document_archives/${id}/download.json`,
  summary: 'Download the zip file of a document archive',
  description:
    'Gets the zip file of documents and folders a document archive built (id from create_document_archive); get_document_archive’s state must be completed first.',
  file: 'the zip file',
  idDescription: 'Id of the document archive (from create_document_archive).',
});

export const documents = family(
  [
    {
      key: 'documents',
      path: '/documents',
      clio: '/documents',
      record: ['document', 'documents'],
      summaries: {
        list: 'List documents (files) stored on matters and contacts',
        get: 'Get a document’s details (name, folder, size, version)',
        create: 'Upload a new document (file) to a matter or folder',
        update: 'Update a document: rename, move or upload a new version',
        delete: 'Delete a document (move it to the trash)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Documents stored in Clio, in matter and contact folders.',
      fields:
        'id,name,filename,content_type,size,created_at,parent{id,type},matter{id,display_number},latest_document_version{id,fully_uploaded}',
      order: 'id(asc)',
      filters: {
        ...itemFilters('documents'),
        parent_id: IdFilter('Only documents in this folder (ids from list_folders).', nullable),
        locked: Flag('Only locked documents.'),
        show_uncompleted: Flag('Include documents whose upload has not finished.'),
      },
      listRules: EXTERNAL_RULES,
      body: {
        ...documentBody,
        filename: Text('Name of the file.'),
        content_type: Text('MIME type of the file (application/pdf).'),
      },
      // An update finishes an upload (uuid, fully_uploaded), starts a new version or restores the document.
      updateBody: {
        ...documentBody,
        uuid: Text('UUID of the uploaded version (from the create or update answer), given with fully_uploaded.'),
        fully_uploaded: Bool('Mark the upload of the version finished.'),
        copy_version: Bool('Start the new version from a copy of the latest one.'),
        restore: Bool('Restore the document from the trash.'),
      },
      required: ['name', 'parent'],
      text: {
        list: 'Lists documents, the files stored on matters and contacts (letters, pleadings, scans, emails saved as files). Filter by matter_id, contact_id, parent_id (a folder, with scope children or descendants), document_category_id or query (name); show_uncompleted and include_deleted add unfinished uploads and trashed documents, while the folders are list_folders and the templates list_document_templates.',
        get: 'Returns one document’s details (name, folder, category, size, latest version), not its content; the id comes from list_documents or list_folder_contents. To get the file itself, use download_document.',
        create:
          'Uploads a new document (a letter, pleading, contract or scan) with its first version: name and parent ({"id", "type": "Folder" | "Matter"}) are required. Ask for latest_document_version{uuid,put_url,put_headers} in fields, upload the file to put_url, then update_document with uuid and fully_uploaded=true.',
        update:
          'Changes a document (id from list_documents): rename, move (parent), recategorize or restore it. With multiparts it starts a new version (upload to its put_url), finished by uuid and fully_uploaded=true.',
        delete:
          'Moves a document to the trash (id from list_documents), for example a draft uploaded by mistake. Answers 204 with no body.',
      },
    },
    {
      key: 'document_versions',
      path: '/documents/:id/versions',
      clio: '/documents/:id/versions',
      record: ['document_version', 'document_versions'],
      summaries: {
        list: 'List the versions of a document',
      },
      verbs: ['list'],
      about: 'The versions of one document.',
      fields: 'id,version_number,filename,size,content_type,fully_uploaded,created_at',
      order: null,
      filters: { fully_uploaded: Flag('Only versions whose upload finished (true) or not (false).') },
      without: ['created_since', 'updated_since', 'ids[]'],
      tokens: { id: 'Id of the document whose versions to list (from list_documents).' },
      // Clio's document requires the id in the query as well as in the path.
      clioQuery: (query, values) => ({ ...query, id: String(values.id) }),
      text: {
        list: 'Lists the versions of one document (its id from list_documents), earlier drafts and the newest uploads included. fully_uploaded=true leaves out unfinished uploads.',
      },
    },
    {
      key: 'folders',
      path: '/folders',
      clio: '/folders',
      record: ['folder', 'folders'],
      summaries: {
        list: 'List document folders of matters and contacts',
        get: 'Get a document folder',
        create: 'Create a document folder on a matter',
        update: 'Update a document folder: rename, move or restore it',
        delete: 'Delete a document folder (move it to the trash)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Folders that hold documents, per matter or contact.',
      fields: 'id,name,parent{id,name},matter{id,display_number},created_at,root',
      order: 'id(asc)',
      filters: { ...itemFilters('folders'), parent_id: IdFilter('Only folders in this folder.', notNull) },
      listRules: EXTERNAL_RULES,
      body: {
        name: Text('Name of the folder.'),
        parent: documentParent('the folder', ['Folder', 'Matter', 'Contact']),
        document_category: Ref('document category', 'ids from list_document_categories'),
        external_properties: List('External properties, as [{ "name": "…", "value": "…" }].'),
        restore: Bool('Restore the folder from the trash.'),
      },
      required: ['name', 'parent'],
      text: {
        list: 'Lists document folders by matter_id, contact_id, parent_id (with scope children or descendants), document_category_id or query (name). To see folders and documents together, like a file browser, use list_folder_contents.',
        get: 'Returns one document folder with its name, parent and matter; the id comes from list_folders or list_folder_contents.',
        create: 'Creates a folder for documents: name and parent ({"id", "type": "Folder" | "Matter"}) are required.',
        update: 'Renames, moves (parent), recategorizes or restores a folder (id from list_folders).',
        delete: 'Moves a folder and the documents in it to the trash (id from list_folders). Answers 204 with no body.',
      },
    },
    {
      key: 'folder_contents',
      path: '/folders/list',
      clio: '/folders/list',
      record: ['folder_content', 'folder_contents'],
      summaries: {
        list: 'List what is inside a folder: its subfolders and documents',
      },
      verbs: ['list'],
      about: 'The folders and documents inside a folder, together.',
      fields: 'id,name,type,created_at,updated_at,parent{id}',
      order: 'id(asc)',
      filters: {
        ...itemFilters('items'),
        parent_id: IdFilter('The folder whose contents to list (ids from list_folders); without it the root folder.', notNull),
        show_uncompleted: Flag('Include documents whose upload has not finished.'),
      },
      listRules: EXTERNAL_RULES,
      text: {
        list: 'Lists what is in a folder, its subfolders and documents in one list, each with its type, like a file browser. parent_id is the folder (from list_folders); filter further by matter_id, contact_id or query.',
      },
    },
    {
      key: 'comments',
      path: '/comments',
      clio: '/comments',
      record: ['comment', 'comments'],
      summaries: {
        list: 'List comments on documents and folders',
        get: 'Get a comment on a document or folder',
        create: 'Add a comment to a document or folder',
        update: 'Edit a comment on a document or folder',
        delete: 'Delete a comment on a document or folder',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Comments on documents and folders.',
      fields: 'id,message,created_at,updated_at',
      order: null,
      filters: { item_id: IdFilter('Only comments on this document or folder (ids from list_documents or list_folders).', notNull) },
      body: {
        item: Obj('The document or folder commented on, as { "id": <id> } (ids from list_documents or list_folders).'),
        message: Text('Text of the comment.'),
      },
      required: ['item', 'message'],
      without: ['ids[]'],
      text: {
        list: 'Lists the comments people left on documents and folders; item_id narrows them to one document or folder. Notes on matters and contacts are list_notes.',
        get: 'Returns one comment on a document or folder with its text and author; the id comes from list_comments.',
        create: 'Leaves a comment on a document or folder: item ({"id": <document or folder id>}) and message are required.',
        update: 'Changes the text of a comment on a document or folder (id from list_comments).',
        delete: 'Deletes a comment from its document or folder (id from list_comments). Answers 204 with no body.',
      },
    },
    {
      key: 'document_categories',
      path: '/document_categories',
      clio: '/document_categories',
      record: ['document_category', 'document_categories'],
      summaries: {
        list: 'List document categories (labels for documents and folders)',
        get: 'Get a document category',
        create: 'Add a document category',
        update: 'Rename a document category',
        delete: 'Delete a document category',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Categories for documents and folders.',
      fields: 'id,name,created_at',
      order: 'id(asc)',
      filters: { query: Text('Wildcard search in the name.') },
      body: { name: Text('Name of the category.') },
      required: ['name'],
      text: {
        list: 'Lists document categories, the labels (such as Correspondence or Pleadings) put on documents, folders and templates. query searches the names; their ids go into document_category and filter list_documents by document_category_id.',
        get: 'Returns one document category (a label for documents and folders); the id comes from list_document_categories.',
        create: 'Creates a document category, a label for documents and folders; name is required.',
        update: 'Renames a document category (id from list_document_categories).',
        delete:
          'Deletes a document category (id from list_document_categories), one of the labels offered for documents and folders. Answers 204 with no body.',
      },
    },
    {
      key: 'document_archives',
      path: '/document_archives',
      clio: '/document_archives',
      record: ['document_archive', 'document_archives'],
      summaries: {
        create: 'Create a zip archive of a matter’s documents and folders to download',
        get: 'Check whether a document archive is ready to download',
      },
      verbs: ['create', 'get'],
      about: 'Zip archives of documents and folders, built by Clio for download.',
      fields: 'id,state,progress,size,message',
      body: { items: List('What to put in the archive, as [{ "id": <id>, "type": "Document" | "Folder" }].') },
      required: ['items'],
      text: {
        create:
          'Asks Clio to build a zip archive of documents and folders, such as all of a matter’s files (items is required). Ask for state in fields and follow it with get_document_archive, then fetch the file with download_document_archive.',
        get: 'Returns one document archive (zip file) with its build state; the id comes from create_document_archive. When it is completed, download_document_archive fetches it.',
      },
    },
  ],
  copyDocument,
  downloadDocument,
  downloadDocumentArchive,
);
