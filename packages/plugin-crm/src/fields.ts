import { type TSchema, Type } from '@portico/core';
import { BodyId } from './schemas.js';

/** Body parameter helpers for the write operations. Lawmatics' names are kept as they are. */

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

/** The same properties, each optional (the fields a create requires become optional on update). */
export function optionalAll<T extends Record<string, TSchema>>(properties: T): { [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>> } {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, Type.Optional(schema)])) as never;
}

/** The names of a properties object, for atLeastOne over every body field of an update. */
export const namesOf = (properties: Record<string, TSchema>) => Object.keys(properties);

// ---- the person and matter fields of a prospect (Lawmatics' "Supported Matter Fields") ----------------------------

export const PersonFields = {
  first_name: Text('First name', 'Luis'),
  last_name: Text('Last name', 'Ortega'),
  middle_name: Text('Middle name'),
  name_prefix: Text('Name prefix (Mr., Dr.)'),
  name_suffix: Text('Name suffix (Jr., III)'),
  informal_name: Text('Name the person goes by'),
  email: Text('Email address; sets the primary one', 'luis.ortega@example.com'),
  phone: Text('Phone number; sets the primary one', '(619) 555-0188'),
  birthdate: Text('Date of birth (YYYY-MM-DD or MM/DD/YYYY)'),
  gender: Text('Gender'),
  marital_status: Text('Marital status'),
  citizenship: Text('Citizenship'),
  employer: Text('Employer'),
  occupation: Text('Occupation'),
  title: Text('Job title'),
  timezone: Text('Time zone (tz name such as America/Los_Angeles)'),
  hobbies: Text('Hobbies'),
  bio: Text('Short biography'),
  driver_license: Text("Driver's license number"),
  social_security: Text('Social security number (sensitive: only when the firm collects it)'),
};

export const AddressFields = {
  street: Text('Street; sets the primary address', '1200 Harbor Blvd'),
  street2: Text('Second address line'),
  city: Text('City', 'San Diego'),
  state: Text('State', 'CA'),
  zipcode: Text('ZIP code', '92101'),
  country: Text('Country'),
};

export const MatterFields = {
  case_title: Text('Case title', 'Ortega v. Bayfront Rideshare'),
  case_number: Text("Case number; replaces Lawmatics' automatic numbering"),
  case_blurb: Text('Case description: what happened, what the person wants', 'Rear-end collision, seeking compensation'),
  practice_area_id: OptionalId('Practice area id (list_practice_areas)', '61'),
  stage_id: OptionalId('Pipeline stage id (list_stages)', '302'),
  sub_status_id: OptionalId('Sub status id (list_sub_statuses)'),
  source_id: OptionalId('Marketing source id (list_sources)', '244'),
  campaign_id: OptionalId('Marketing campaign id'),
  referrer_id: OptionalId('Id of the contact who referred the case'),
  estimated_value_cents: Cents('Estimated value of the case, in cents', 2500000),
  actual_value_cents: Cents('Actual value of the case, in cents'),
  lead_cost_cents: Cents('What the lead cost, in cents'),
  owned_by_id: OptionalId('User id of the owner (list_users)'),
  created_by_id: OptionalId('User id recorded as creator'),
  salesperson_id: OptionalId('User id of the salesperson'),
  lead_attorney_id: OptionalId('User id of the lead attorney'),
  originating_attorney_id: OptionalId('User id of the originating attorney'),
  assigned_staff_ids: IdList('User ids of the assigned staff; replaces the current list', ['13', '15']),
  custom_contact_type_id: OptionalId('Custom contact type id (list_custom_contact_types)'),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      description: 'Tag names; a tag that does not exist yet is created',
      examples: [['Needs Follow-up']],
    }),
  ),
  custom_fields: CustomFieldValues,
  notes: NotesToAdd,
};
