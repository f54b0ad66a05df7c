import { StringEnum } from '@portico/core/plugin';
import { Bool, Flag, Int, List, Text } from '../schemas.js';
import { family, omit } from './kit/rows.js';

// Custom fields: the fields a firm adds to matters and contacts, and the sets that show them together.

const FIELD_TYPES = [
  'checkbox',
  'contact',
  'currency',
  'date',
  'time',
  'email',
  'matter',
  'numeric',
  'picklist',
  'text_area',
  'text_line',
  'url',
] as const;

/** What a record's custom field answer carries beside the list's: its position among the others. */
const CUSTOM_FIELD_FIELDS = 'id,name,field_type,parent_type,required,displayed,display_order,picklist_options{id,option}';

const customFieldBody = {
  name: Text('Name of the custom field.'),
  displayed: Bool('Show the field by default.'),
  required: Bool('Require a value.'),
  display_order: Int('Position among the custom fields.'),
  picklist_options: List('Options of a picklist, as [{ "option": "…" }]; on update add "id", or "_deleted": true to retire one.'),
  field_type: StringEnum(FIELD_TYPES, { description: 'Kind of value (cannot change after creation).' }),
  parent_type: StringEnum(['Contact', 'Matter'], {
    description: 'Whether the field is on contacts or matters (cannot change after creation).',
  }),
};

export const customFields = family([
  {
    key: 'custom_fields',
    path: '/custom_fields',
    clio: '/custom_fields',
    record: ['custom_field', 'custom_fields'],
    summaries: {
      list: 'List the custom fields defined for matters and contacts',
      get: 'Get a custom field definition and its picklist choices',
      create: 'Add a custom field to matters or contacts',
      update: 'Change a custom field definition',
      delete: 'Delete a custom field and its values',
    },
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Custom fields the firm defined for matters and contacts.',
    fields: 'id,name,field_type,parent_type,required,displayed,picklist_options{id,option}',
    fieldsBy: { get: CUSTOM_FIELD_FIELDS, create: CUSTOM_FIELD_FIELDS, update: CUSTOM_FIELD_FIELDS },
    order: 'id(asc)',
    filters: {
      deleted: Flag('Only custom fields deleted for future use (true) or the current ones (false).'),
      field_type: StringEnum(FIELD_TYPES, { description: 'Only custom fields of this type.' }),
      parent_type: StringEnum(['matter', 'contact'], { description: 'Only custom fields of matters or of contacts.' }),
      query: Text('Wildcard search in the name.'),
      visible_and_required: Flag('Only custom fields that are visible and required.'),
    },
    body: customFieldBody,
    // Its type and parent type stay as created.
    updateBody: omit(customFieldBody, 'field_type', 'parent_type'),
    required: ['name', 'field_type', 'parent_type'],
    text: {
      list: 'Lists the custom fields the firm defined for matters and contacts (such as date of accident or case number), with their types and picklist options when asked for. Filter by parent_type (Matter or Contact), field_type, visible_and_required or query.',
      get: 'Returns one custom field definition with its type and where it shows; the id comes from list_custom_fields. Ask for picklist_options{id,option} to get a picklist’s choices.',
      create:
        'Adds a custom field to every matter or contact, such as a date of accident: name, field_type and parent_type (Matter or Contact) are required, and a picklist takes picklist_options. A record’s values are then set through update_matter or update_contact.',
      update:
        'Changes a custom field (id from list_custom_fields): name, display, required, order or picklist options; its type and parent type stay.',
      delete:
        'Deletes a custom field and the values every matter or contact had in it (id from list_custom_fields). Answers 204 with no body.',
    },
  },
  {
    key: 'custom_field_sets',
    path: '/custom_field_sets',
    clio: '/custom_field_sets',
    record: ['custom_field_set', 'custom_field_sets'],
    summaries: {
      list: 'List custom field sets (groups of custom fields)',
      get: 'Get a custom field set (group of custom fields)',
      create: 'Create a custom field set (group of custom fields)',
      update: 'Update a custom field set: rename, show or hide it',
      delete: 'Delete a custom field set, keeping its fields',
    },
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Named groups of custom fields shown together on matters or contacts.',
    fields: 'id,name,parent_type,displayed,custom_fields{id,name}',
    order: 'id(asc)',
    filters: {
      displayed: Flag('Only sets shown by default.'),
      parent_type: StringEnum(['Matter', 'Contact'], { description: 'Only sets of matters or of contacts.' }),
      query: Text('Wildcard search in the name.'),
    },
    body: {
      name: Text('Name of the set.'),
      parent_type: StringEnum(['Contact', 'Matter'], { description: 'Whether the set is for contacts or matters.' }),
      displayed: Bool('Show the set by default.'),
    },
    required: ['name'],
    text: {
      list: 'Lists custom field sets, the named groups of custom fields shown together on matters or contacts. Filter by parent_type, displayed or query; ask for custom_fields{id,name} to see their members.',
      get: 'Returns one custom field set, a named group of custom fields; the id comes from list_custom_field_sets.',
      create:
        'Creates a custom field set, a group of custom fields shown together; name is required, parent_type says whether it is for matters or contacts.',
      update: 'Renames a custom field set or changes whether it is shown (id from list_custom_field_sets).',
      delete: 'Deletes a custom field set (id from list_custom_field_sets); its custom fields stay. Answers 204 with no body.',
    },
  },
]);
