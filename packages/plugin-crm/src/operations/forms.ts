import { DataOnly, GenericRecord, One, Paged, RecordId } from '../schemas.js';
import { getOperation, listOperation } from './kit.js';

export const listCustomFields = listOperation({
  name: 'list_custom_fields',
  path: '/custom-fields',
  upstreamPath: '/custom_fields',
  summary: 'List custom field definitions for matters and contacts',
  description:
    "Lists the firm's custom fields with name, field_type (text, date, picklist…), list_options of picklists and " +
    'the records they belong to (type). Their ids are what custom_fields values on prospects and contacts refer to.',
  response: DataOnly(GenericRecord('A custom field definition'), 'The custom fields'),
  example: { sort_by: 'name', sort_order: 'asc' },
});

export const getCustomField = getOperation({
  name: 'get_custom_field',
  path: '/custom-fields/:id',
  upstreamPath: '/custom_fields/:id',
  summary: 'Get a custom field definition and its picklist options',
  description: 'Returns one custom field definition: its name, field type, picklist options and the record type it applies to.',
  id: { what: 'Custom field', from: 'list_custom_fields', example: '4602' },
  response: One(GenericRecord('A custom field definition'), 'The custom field'),
});

export const listForms = listOperation({
  name: 'list_forms',
  path: '/forms',
  upstreamPath: '/forms',
  summary: 'List web intake forms and questionnaires',
  description:
    "Lists the firm's custom forms (website intake forms, questionnaires) with their names and uuids. The uuid is " +
    'what get_form and list_form_entries take.',
  response: DataOnly(GenericRecord('A custom form'), 'The custom forms'),
  example: { sort_by: 'created_at', sort_order: 'desc' },
});

export const getForm = getOperation({
  name: 'get_form',
  path: '/forms/:id',
  upstreamPath: '/forms/:id',
  summary: "Get an intake form's questions and field ids",
  description:
    'Returns a custom form (intake form, questionnaire) with its rows of fields and their field ids: standard ' +
    "fields such as first_name, and long uuids for custom and general fields. The id is the form's uuid from " +
    "list_forms or the form's API details page, not the number in the form builder address.",
  id: { what: 'Custom form uuid', from: 'list_forms', example: '9c1f4e2a-5b7d-4c3e-8a61-2f0d9b7e4a10' },
  response: One(GenericRecord('A custom form'), 'The custom form'),
});

export const listFormEntries = listOperation({
  name: 'list_form_entries',
  path: '/forms/:custom_form_uuid/entries',
  upstreamPath: '/forms/:custom_form_uuid/entries',
  summary: 'List the submissions of an intake form',
  description:
    'Lists the entries submitted through one custom form (website intake form, questionnaire): who filled it out ' +
    'and when, with the answers in body, the new web inquiries to follow up.',
  pathParams: { custom_form_uuid: RecordId('Custom form uuid', 'list_forms', '9c1f4e2a-5b7d-4c3e-8a61-2f0d9b7e4a10') },
  response: Paged(GenericRecord('A form entry'), 'A page of form entries'),
  example: { custom_form_uuid: '9c1f4e2a-5b7d-4c3e-8a61-2f0d9b7e4a10', sort_by: 'created_at', page: '1' },
});
