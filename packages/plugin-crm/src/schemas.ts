import { EXPECTS, FreeObject, IntegerString, Params, requires, StringEnum, type TSchema, Type } from '@portico/core/plugin';

// ---- value sets (Core Specification, "Enumerated values") ------------------------------------------------------

export const FILTER_OPERATORS = ['=', '!=', '<=', '<', '>=', '>', 'like', 'ilike', 'null', 'not_null'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;
export const ACTIVITY_FILTERS = ['matter_id', 'contact_id', 'type', 'event'] as const;

// ---- request parameters ------------------------------------------------------------------------------------------

/** A Lawmatics record id in a path (`/prospects/:id`). */
export const RecordId = (what: string, from: string, example = '1042') =>
  Type.String({ minLength: 1, description: `${what} id (from ${from}).`, examples: [example] });

/** A Lawmatics record id in a body. Lawmatics ids are numbers written as strings; a JSON number is accepted too. */
export const BodyId = (description: string, example = '1042') =>
  Type.String({ minLength: 1, pattern: '^[0-9]+$', description, examples: [example] });

const sortOrder = StringEnum(SORT_ORDERS, {
  default: 'desc',
  description: 'Sort direction. Lawmatics sorts by id, newest first, unless told otherwise.',
});
const sortBy = Type.String({
  minLength: 1,
  description: 'Field to sort by: id, created_at, updated_at, or most attributes get_x returns (e.g. last_name).',
  examples: ['created_at'],
});
const filterOn = Type.String({
  description:
    'The value to compare with. For like/ilike put % where any text may appear (%smith%); the gateway encodes it. ' +
    'Not needed with the null and not_null operators.',
  examples: ['%smith%'],
});
const filterWith = StringEnum(FILTER_OPERATORS, {
  description:
    'How to compare filter_by with filter_on. Lawmatics uses = by default, and ilike (case-insensitive match) for text ' +
    'fields; null and not_null test for presence and need no filter_on.',
});
const page = IntegerString({
  minimum: 1,
  default: '1',
  description: 'Page to return, from 1; meta.total_pages in the answer says how many there are.',
  examples: ['2'],
});

const filterBy = Type.String({
  minLength: 1,
  description:
    'Field to filter on: most attributes get_x returns; related records by their id field (practice_area_id, stage_id). ' +
    'One filter per request.',
  examples: ['last_name'],
});

/**
 * The shared list parameters of every list operation (catalog: "List operations share these query parameters").
 * `filterByValues` narrows filter_by to a fixed set (list_activities); `pathParams` come first (list_form_entries).
 */
/** Lawmatics' `fields` (its Param Guide): which attributes each record of a list carries. */
const fields = Type.String({
  pattern: '^(all|[a-z][a-z0-9_]*(,[a-z][a-z0-9_]*){0,49})$',
  [EXPECTS]: 'attribute names separated by commas (e.g. first_name,last_name,email), or all',
  description:
    'Only these attributes of each record, comma-separated (e.g. first_name,last_name,email), or all for every attribute; without it Lawmatics sends its light default set. Attribute names are those of the records (get_x shows them all).',
  examples: ['first_name,last_name,email,created_at'],
});

export function ListParams(filterByValues?: readonly string[], pathParams: Record<string, TSchema> = {}) {
  return Params(
    {
      ...pathParams,
      sort_order: Type.Optional(sortOrder),
      sort_by: Type.Optional(sortBy),
      filter_by: Type.Optional(
        filterByValues
          ? StringEnum(filterByValues, { description: `Field to filter on: one of ${filterByValues.join(', ')}. One filter per request.` })
          : filterBy,
      ),
      filter_on: Type.Optional(filterOn),
      filter_with: Type.Optional(filterWith),
      page: Type.Optional(page),
      fields: Type.Optional(fields),
    },
    { rules: [requires('filter_on', 'filter_by'), requires('filter_with', 'filter_by')] },
  );
}

/**
 * Lawmatics answers filter_by without filter_on with an error, except for the presence operators (null, not_null):
 * refused here, before the call, with the reason.
 */
export function filterNeedsValue(params: { filter_by?: string; filter_on?: string; filter_with?: string }): string | undefined {
  if (params.filter_by === undefined || params.filter_on !== undefined) return undefined;
  if (params.filter_with === 'null' || params.filter_with === 'not_null') return undefined;
  return 'filter_by requires filter_on (a value to compare with), unless filter_with is null or not_null';
}

// ---- body parameters of the writes (Lawmatics' names kept as they are) ---------------------------------------------

export const Text = (description: string, example?: string) =>
  Type.Optional(Type.String({ description, ...(example !== undefined ? { examples: [example] } : {}) }));

export const OptionalId = (description: string, example?: string) => Type.Optional(BodyId(description, example));

export const Cents = (description: string, example?: number) =>
  Type.Optional(Type.Integer({ minimum: 0, description, ...(example !== undefined ? { examples: [example] } : {}) }));

export const IdList = (description: string, example: string[]) =>
  Type.Optional(Type.Array(BodyId('Id'), { description, examples: [example] }));

export const CustomFieldValues = Type.Optional(
  Type.Array(
    Type.Object(
      {
        id: BodyId('Custom field id (from list_custom_fields)', '4603'),
        value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
          description: 'The value; null clears it',
        }),
      },
      { additionalProperties: false },
    ),
    {
      description: 'Custom field values to set: [{ id, value }]. A value replaces the current one; null clears it.',
      examples: [[{ id: '4603', value: 'Bayfront Rideshare Inc.' }]],
    },
  ),
);

export const NotesToAdd = Type.Optional(
  Type.Array(
    Type.Object(
      { name: Type.Optional(Type.String({ description: 'Title' })), body: Type.String({ minLength: 1, description: 'Text' }) },
      { additionalProperties: false },
    ),
    {
      description: 'Notes to add to the record, each { name, body }.',
      examples: [
        [{ name: 'Intake call', body: 'Rideshare ran a red light on Market St; treated at the ER, follow-up with an orthopedist.' }],
      ],
    },
  ),
);

/** A date or date-time as Lawmatics reads it: ISO 8601, or MM/DD/YYYY as its own examples write dates. */
export const When = (description: string, example: string) =>
  Type.String({
    minLength: 1,
    description: `${description} ISO 8601 (2025-06-28T15:00:00-07:00) or MM/DD/YYYY.`,
    examples: [example],
  });

/** A primary address, as companies and prospects take it. */
export const AddressFields = {
  street: Text('Street; sets the primary address', '1200 Harbor Blvd'),
  street2: Text('Second address line'),
  city: Text('City', 'San Francisco'),
  state: Text('State', 'CA'),
  zipcode: Text('ZIP code', '92101'),
  country: Text('Country'),
};

// ---- responses (Core Specification, "Legal CRM record envelope") --------------------------------------------------

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Str = (description?: string) => Type.Optional(Nullable(Type.String(description ? { description } : {})));
const Num = (description?: string) => Type.Optional(Nullable(Type.Number(description ? { description } : {})));

const Ref = Type.Object({ id: Nullable(Type.String()), type: Nullable(Type.String()) }, { description: 'A related record: id and type' });

/** To-one relationship: `{ data: { id, type } | null }`. */
export const ToOne = Type.Object({ data: Nullable(Ref) }, { description: 'To-one relationship' });
/** To-many relationship: `{ data: [...] | null }` (items usually `{ id, type }`). */
export const ToMany = Type.Object({ data: Nullable(Type.Array(Type.Unknown())) }, { description: 'To-many relationship' });
/** The relationships owned_by, client and company carry their id as a plain string. */
export const StringRelationship = Type.Object({ data: Nullable(Type.String()) }, { description: 'Relationship given as an id string' });

/** Any relationship: to-one, to-many or an id string. */
export const AnyRelationship = Type.Object(
  { data: Type.Union([Ref, Type.Array(Type.Unknown()), Type.String(), Type.Null()]) },
  { description: 'A relationship: data is { id, type }, an array, an id string, or null' },
);

/** The CRM record envelope: id, type, attributes, relationships, all nullable. */
export function RecordOf(
  attributes: Record<string, TSchema> | undefined,
  relationships: Record<string, TSchema> | undefined,
  description: string,
) {
  const attrs = attributes
    ? Type.Object(attributes, { description: 'Attributes of the record' })
    : FreeObject({ description: 'Attributes of the record' });
  const rels = relationships
    ? Type.Object(relationships, { description: 'Related records' })
    : Type.Record(Type.String(), AnyRelationship, { description: 'Related records, by relationship name' });
  return Type.Object(
    {
      id: Type.Optional(Nullable(Type.String({ description: 'Record id' }))),
      type: Type.Optional(Nullable(Type.String({ description: 'Record type (prospect, contact, company…)' }))),
      attributes: Type.Optional(Nullable(attrs)),
      relationships: Type.Optional(Nullable(rels)),
    },
    { description },
  );
}

/** A record answer: `{ data: record }`. */
export const One = (record: TSchema, description: string) => Type.Object({ data: Type.Optional(Nullable(record)) }, { description });

const Meta = Type.Object(
  {
    total_pages: Type.Optional(Type.Number({ description: 'Number of pages; ask for page+1 while page < total_pages' })),
    limit_per_page: Type.Optional(Type.Number({ description: 'Page size Lawmatics used' })),
    total_entries: Type.Optional(Type.Number({ description: 'Records matching the filter, over all pages' })),
  },
  { description: 'Paging facts' },
);

const Links = Type.Object({ self: Type.Optional(Type.String({ description: 'This page' })) }, { description: 'Links' });
const LinksWithSiblings = Type.Object(
  {
    self: Type.Optional(Type.String({ description: 'This page' })),
    next: Type.Optional(Type.String({ description: 'Next page' })),
    prev: Type.Optional(Type.String({ description: 'Previous page' })),
  },
  { description: 'Links to this, the next and the previous page' },
);

/** A list answer: data, meta, links (`siblings`: links also has next and prev, as for contacts). */
export const Paged = (item: TSchema, description: string, siblings = false) =>
  Type.Object(
    {
      data: Type.Optional(Nullable(Type.Array(item, { description: 'Records on this page' }))),
      meta: Type.Optional(Meta),
      links: Type.Optional(siblings ? LinksWithSiblings : Links),
    },
    { description },
  );

/** A list answered with data only (custom fields, forms). */
export const DataOnly = (item: TSchema, description: string) =>
  Type.Object({ data: Type.Optional(Nullable(Type.Array(item, { description: 'The records' }))) }, { description });

/** Lawmatics' JSON, passed through as it comes (the catalog shows no structured schema for it). */
export const Unstructured = (description: string) => FreeObject({ description });

/** A record of a kind whose attributes the specification does not list. */
export const GenericRecord = (what: string) => RecordOf(undefined, undefined, what);

// ---- prospects and contacts --------------------------------------------------------------------------------------

const PERSON_STRINGS = [
  'birthdate',
  'name_prefix',
  'middle_name',
  'name_suffix',
  'informal_name',
  'employer',
  'occupation',
  'citizenship',
  'bio',
  'title',
  'hobbies',
  'social_security',
  'age',
  'driver_license',
  'gender',
  'marital_status',
  'timezone',
] as const;

const strings = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, Str()]));

export const ProspectAttributes = {
  ...strings([
    'first_name',
    'last_name',
    'case_title',
    'case_blurb',
    'status',
    'email',
    'phone',
    'phone_number',
    'email_address',
    'address',
  ]),
  ...strings(PERSON_STRINGS),
  ...strings(['sub_status', 'referring_url', 'date_of_last_contact', 'photo_url', 'created_at', 'updated_at']),
  estimated_value_cents: Num('Estimated value, in cents'),
  actual_value_cents: Num('Actual value, in cents'),
  lead_cost_cents: Num('Cost of the lead, in cents'),
  days_since_last_contact: Num(),
  custom_fields: Type.Optional(Nullable(Type.Array(Type.Unknown(), { description: 'Custom field values' }))),
};

const toOne = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, Type.Optional(ToOne)]));
const toMany = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, Type.Optional(ToMany)]));
const byString = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, Type.Optional(StringRelationship)]));

export const ProspectRelationships = {
  ...toOne(['source', 'stage', 'campaign', 'practice_area', 'created_by']),
  ...byString(['owned_by']),
  ...toMany(['events', 'documents', 'notes', 'tasks', 'invoices', 'emails', 'phone_numbers', 'addresses', 'relationships']),
};

export const Prospect = RecordOf(ProspectAttributes, ProspectRelationships, 'A prospect (a matter: one legal case of one person)');

export const ContactAttributes = {
  ...strings(['first_name', 'last_name', 'email', 'email_address', 'phone', 'phone_number']),
  ...strings(PERSON_STRINGS),
  ...strings(['tracking_source_id', 'date_of_last_contact', 'photo_url', 'contact_type', 'created_at', 'updated_at']),
  days_since_last_contact: Num(),
  custom_fields: Type.Optional(Nullable(Type.Array(Type.Unknown(), { description: 'Custom field values' }))),
};

export const ContactRelationships = {
  ...toMany(['prospects']),
  ...toOne(['created_by']),
  ...byString(['client', 'company']),
};

export const Contact = RecordOf(ContactAttributes, ContactRelationships, 'A contact (a person)');

const FreeRelationships = FreeObject({ description: 'Related records' });

/** list_prospects items: the fields Lawmatics' list shows, first_name and the practice area. */
export const ProspectListItem = Type.Object(
  {
    id: Type.Optional(Nullable(Type.String())),
    type: Type.Optional(Nullable(Type.String())),
    attributes: Type.Optional(Nullable(Type.Object({ first_name: Str() }, { description: 'Attributes of the prospect' }))),
    relationships: Type.Optional(
      Nullable(Type.Object({ practice_area: Type.Optional(ToOne) }, { description: 'Related records of the prospect' })),
    ),
  },
  { description: 'A prospect, as lists show it' },
);

/** The lighter person shape of list_contacts items and the finds: names, email (phone for finds), timestamps. */
export const PersonSummary = (withPhone: boolean, description: string) =>
  Type.Object(
    {
      id: Type.Optional(Nullable(Type.String())),
      type: Type.Optional(Nullable(Type.String())),
      attributes: Type.Optional(
        Nullable(
          Type.Object(
            {
              first_name: Str(),
              last_name: Str(),
              email: Str(),
              ...(withPhone ? { phone: Str() } : {}),
              created_at: Str(),
              updated_at: Str(),
            },
            { description: 'Attributes' },
          ),
        ),
      ),
      relationships: Type.Optional(Nullable(FreeRelationships)),
    },
    { description },
  );
