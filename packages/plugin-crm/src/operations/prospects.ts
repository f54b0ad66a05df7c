import { atLeastOne, atMostOne, defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import {
  AddressFields,
  Cents,
  CustomFieldValues,
  IdList,
  NotesToAdd,
  One,
  OptionalId,
  Paged,
  PersonSummary,
  Prospect,
  ProspectListItem,
  RecordId,
  Text,
  Unstructured,
} from '../schemas.js';
import { findOperation, getOperation, listOperation, namesOf } from './kit.js';

// In Lawmatics a prospect is a matter: one legal case of one person (its contact). Lawmatics' paths still say
// "prospects"; new matters start in status PNC (potential new client), then become hired or lost.

export const listProspects = listOperation({
  name: 'list_prospects',
  path: '/prospects',
  upstreamPath: '/prospects',
  summary: 'List prospects: leads, potential new clients and their matters',
  description:
    "Lists prospects, Lawmatics' leads and potential new clients (PNCs), each one matter from first inquiry " +
    '(status pnc) to hired or lost. New leads created today: filter_by created_at, filter_with >=, filter_on ' +
    "today's date; by practice area, stage or status: practice_area_id, stage_id or status. Items are light (id, " +
    'name, practice area); get_prospect has the whole record.',
  response: Paged(ProspectListItem, 'A page of prospects'),
  example: { filter_by: 'practice_area_id', filter_on: '61', sort_by: 'created_at', sort_order: 'desc' },
});

export const getProspect = getOperation({
  name: 'get_prospect',
  path: '/prospects/:id',
  upstreamPath: '/prospects/:id',
  summary: "Get a lead's full record: person, case, status and custom fields",
  description:
    'Returns everything on one prospect (lead or matter): every attribute (person details, case title and ' +
    'description, status and sub status, values in cents, custom fields) and its relationships: source, stage, ' +
    'campaign, practice area, owner, events, notes, tasks, invoices, documents, phone numbers, email addresses and ' +
    'addresses.',
  id: { what: 'Prospect (matter)', from: 'list_prospects or a find_prospect_by_* operation', example: '5101' },
  response: One(Prospect, 'The prospect'),
});

export const findProspectByPhone = findOperation({
  name: 'find_prospect_by_phone',
  path: '/prospects/find-by-phone/:phone_number',
  upstreamPath: '/prospects/find_by_phone/:phone_number',
  key: 'phone_number',
  example: '415-555-0131',
  summary: 'Find a lead or prospect by the phone number they called from',
  description:
    'Returns the first prospect (lead, matter) whose phone number matches, fuzzily, with names, email, phone and ' +
    'timestamps: the quickest way to recognise a caller. Not found is a 404; get_prospect with the id has the ' +
    'whole record.',
  response: One(PersonSummary(true, 'The matching prospect'), 'The first matching prospect'),
});

export const findProspectByEmail = findOperation({
  name: 'find_prospect_by_email',
  path: '/prospects/find-by-email/:email_address',
  upstreamPath: '/prospects/find_by_email/:email_address',
  key: 'email_address',
  example: 'jordan.ellis@example.net',
  summary: 'Find a lead or prospect by email address',
  description:
    'Returns the first prospect (lead, matter) whose email address matches, fuzzily, as Lawmatics sends it: ' +
    'whether someone who writes in is already a potential client or client. Not found is a 404; get_prospect with ' +
    'the id has the whole record.',
  response: Unstructured('The first matching prospect, as Lawmatics sends it'),
});

export const findProspectByName = findOperation({
  name: 'find_prospect_by_name',
  path: '/prospects/find-by-name/:name',
  upstreamPath: '/prospects/find_by_name/:name',
  key: 'name',
  example: 'Jordan Ellis',
  summary: "Find a lead or prospect by the person's name",
  description:
    'Returns the first prospect (lead, matter) whose person matches "first last" or the first name alone, ' +
    'case-insensitively. Not found is a 404; for every match use list_prospects with filter_by last_name and ' +
    'filter_with ilike.',
  response: Unstructured('The first matching prospect, as Lawmatics sends it'),
});

// ---- writes (beyond the catalog's table) ---------------------------------------------------------------------------

// The person and matter fields of a prospect (Lawmatics' "Supported Matter Fields").

const PersonFields = {
  first_name: Text('First name', 'Luis'),
  last_name: Text('Last name', 'Ortega'),
  middle_name: Text('Middle name'),
  name_prefix: Text('Name prefix (Mr., Dr.)'),
  name_suffix: Text('Name suffix (Jr., III)'),
  informal_name: Text('Name the person goes by'),
  email: Text('Email address; sets the primary one', 'luis.ortega@example.com'),
  phone: Text('Phone number; sets the primary one', '(415) 555-0188'),
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

const MatterFields = {
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

const createFields = {
  ...PersonFields,
  ...AddressFields,
  ...MatterFields,
  contact_id: OptionalId(
    "Existing contact to open the matter for (a returning client). Without it Lawmatics creates a new contact from the person's details.",
    '8204',
  ),
  match_contact_by: Type.Optional(
    StringEnum(['email', 'phone', 'name'] as const, {
      description:
        'Reuse an existing contact whose email, phone or name equals the one given here instead of creating a duplicate. ' +
        'Needs that field (email, phone, or first_name) in the same call.',
    }),
  ),
  company_id: OptionalId('Company to open the matter for (a company matter); the person becomes its point of contact.'),
  company_name: Type.Optional(
    Type.String({ minLength: 1, description: 'Company to open the matter for, by name; created if it does not exist.' }),
  ),
};

export const createProspect = defineOperation({
  name: 'create_prospect',
  method: 'POST',
  path: '/prospects',
  summary: 'Create a prospect: record a new lead or inquiry as a matter',
  description:
    'Records a new lead or inquiry (someone asking the firm for help after an accident, with a family matter, an ' +
    'estate…) as a matter in status pnc, potential new client. Give the person (first_name, last_name, email, ' +
    'phone…) and Lawmatics creates the contact too; or give contact_id for an existing contact, or ' +
    'match_contact_by to reuse the contact with the same email, phone or name. Add the case (case_title, ' +
    'case_blurb, practice_area_id, source_id), tags, custom_fields and notes in the same call; the answer is the ' +
    'new record with its id.',
  params: Params(createFields, {
    rules: [
      atLeastOne('contact_id', 'first_name', 'last_name', 'email', 'phone'),
      atMostOne('contact_id', 'match_contact_by'),
      atMostOne('company_id', 'company_name'),
    ],
  }),
  check: (params) => {
    const needs = { email: 'email', phone: 'phone', name: 'first_name' } as const;
    const by = params.match_contact_by;
    if (by !== undefined && params[needs[by]] === undefined) return `match_contact_by ${by} requires ${needs[by]}`;
    return undefined;
  },
  response: One(Prospect, 'The new prospect'),
  upstream: { method: 'POST', path: '/prospects' },
  example: {
    first_name: 'Luis',
    last_name: 'Ortega',
    email: 'luis.ortega@example.com',
    phone: '(415) 555-0188',
    case_title: 'Ortega v. Bayfront Rideshare',
    case_blurb: 'Passenger in a rideshare that ran a red light on Market St; broken collarbone, missed three weeks of work.',
    practice_area_id: '61',
    source_id: '244',
    match_contact_by: 'email',
  },
});

const updateFields = { ...PersonFields, ...AddressFields, ...MatterFields };

export const updateProspect = defineOperation({
  name: 'update_prospect',
  method: 'PATCH',
  path: '/prospects/:id',
  summary: "Update a prospect: move the matter's stage, status or details",
  description:
    'Changes the fields given and leaves the others: move the matter to another stage or sub status, set the ' +
    'practice area, values, assigned staff, tags or custom fields (null clears one), or correct the person ' +
    'details, which live on the contact and so change on every matter of that person. notes adds notes; Lawmatics ' +
    'takes this as a PUT.',
  params: Params(
    { id: RecordId('Prospect (matter)', 'list_prospects or a find', '5102'), ...updateFields },
    { rules: [atLeastOne(...namesOf(updateFields))] },
  ),
  response: One(Prospect, 'The updated prospect'),
  upstream: { method: 'PUT', path: '/prospects/:id' },
  example: { id: '5102', stage_id: '304', tags: ['Needs Follow-up'] },
});

export const deleteProspect = defineOperation({
  name: 'delete_prospect',
  method: 'DELETE',
  path: '/prospects/:id',
  summary: 'Delete a prospect (matter) for good, such as a duplicate',
  description:
    "Deletes the matter irreversibly, meant for duplicates and spam; the person's contact record stays. An inquiry " +
    'that simply did not become a case is better kept and marked lost (a lost sub status through update_prospect), ' +
    'so that reports still count it.',
  params: Params({ id: RecordId('Prospect (matter)', 'list_prospects or a find', '5112') }),
  upstream: { method: 'DELETE', path: '/prospects/:id' },
  example: { id: '5112' },
});
