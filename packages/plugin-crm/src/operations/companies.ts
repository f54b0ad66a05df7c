import { atLeastOne, defineOperation, Params, Type } from '@portico/core/plugin';
import { AddressFields, GenericRecord, One, RecordId, Text, Unstructured } from '../schemas.js';
import { findOperation, getOperation, listOperation, namesOf } from './kit.js';

const Company = GenericRecord('A company (an organisation as a client or contact)');

export const listCompanies = listOperation({
  name: 'list_companies',
  path: '/companies',
  upstreamPath: '/companies',
  summary: 'List companies: business clients, insurers and employers',
  description:
    'Lists companies, the organisations the firm works for or with (business clients, insurers, employers), as ' +
    'Lawmatics sends them. Filter by name (filter_with ilike and %).',
  response: Unstructured('A page of companies, as Lawmatics sends it'),
  example: { filter_by: 'name', filter_on: '%freight%', filter_with: 'ilike' },
});

export const getCompany = getOperation({
  name: 'get_company',
  path: '/companies/:id',
  upstreamPath: '/companies/:id',
  summary: "Get a company's full record (organization details, contacts, matters)",
  description:
    'Returns one company (organisation) with every attribute (name, primary email, phone and address) and ' +
    'relationships: its point of contact, matters, addresses, email addresses and phone numbers.',
  id: { what: 'Company', from: 'list_companies or a find_company_by_* operation', example: '31' },
  response: One(Company, 'The company'),
});

const found = One(Company, 'The first matching company');

export const findCompanyByPhone = findOperation({
  name: 'find_company_by_phone',
  path: '/companies/find-by-phone/:phone_number',
  upstreamPath: '/companies/find_by_phone/:phone_number',
  key: 'phone_number',
  example: '800-555-0100',
  summary: 'Find a company by phone number',
  description:
    "Returns the first company (organisation) whose phone number matches, fuzzily, looking at the company's own " +
    'numbers first and then at those of its contacts. Not found is a 404.',
  response: found,
});

export const findCompanyByEmail = findOperation({
  name: 'find_company_by_email',
  path: '/companies/find-by-email/:email_address',
  upstreamPath: '/companies/find_by_email/:email_address',
  key: 'email_address',
  example: 'claims@pacificmutual.example',
  summary: 'Find a company (organization) by an email address',
  description:
    "Returns the first company (organisation) whose email address matches, fuzzily, looking at the company's own " +
    'addresses first and then at those of its contacts. Not found is a 404.',
  response: found,
});

export const findCompanyByName = findOperation({
  name: 'find_company_by_name',
  path: '/companies/find-by-name/:name',
  upstreamPath: '/companies/find_by_name/:name',
  key: 'name',
  example: 'Sunset Grocers',
  summary: 'Find a company (organization, business) by its name',
  description:
    'Returns the first company (organisation, business client) whose name matches, fuzzily and case-insensitively. ' +
    'Not found is a 404; for every match use list_companies with filter_by name.',
  response: found,
});

// ---- writes (beyond the catalog's table) ---------------------------------------------------------------------------

const labelled = (what: string, example: Record<string, string>) =>
  Type.Optional(
    Type.Array(Type.Object({ info: Type.String({ minLength: 1, description: what }), label: Text('Label (Work, Home…)') }), {
      description: `More ${what.toLowerCase()}s, each { info, label }; on update give id to change an existing one.`,
      examples: [[example]],
    }),
  );

const companyFields = {
  name: Text('Company name', 'Pacific Freight LLC'),
  email: Text('Primary email address', 'claims@pacificfreight.example'),
  phone: Text('Primary phone number', '555-800-4100'),
  ...AddressFields,
  emails_attributes: labelled('Email address', { info: 'legal@pacificfreight.example', label: 'Work' }),
  phone_numbers_attributes: labelled('Phone number', { info: '555-800-4101', label: 'Work' }),
  addresses_attributes: Type.Optional(
    Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'More addresses, each { street, street2, city, state, zipcode, country, label }; on update give id to change one.',
    }),
  ),
};

export const createCompany = defineOperation({
  name: 'create_company',
  method: 'POST',
  path: '/companies',
  summary: 'Create a company: a business client, insurer or opposing firm',
  description:
    'Adds an organisation (a business client, an insurer, an opposing company) with its name and primary email, ' +
    'phone and address; more of each in emails_attributes, phone_numbers_attributes and addresses_attributes. A ' +
    'matter for the company is then opened with create_prospect and company_id.',
  params: Params({ ...companyFields, name: Type.String({ minLength: 1, description: 'Company name', examples: ['Pacific Freight LLC'] }) }),
  response: One(Company, 'The new company'),
  upstream: { method: 'POST', path: '/companies' },
  example: { name: 'Pacific Freight LLC', email: 'claims@pacificfreight.example', phone: '555-800-4100', city: 'Oakland', state: 'CA' },
});

const updateFields = {
  ...companyFields,
  custom_field_values: Type.Optional(
    Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'Custom field values to set, each { id, value } (null clears one).',
    }),
  ),
};

export const updateCompany = defineOperation({
  name: 'update_company',
  method: 'PATCH',
  path: '/companies/:id',
  summary: "Update a company's name, contact details or custom fields",
  description:
    'Changes the fields given on an organisation and leaves the others: name, primary contact details, further ' +
    'email addresses, phone numbers and addresses (with id to change an existing one), and custom field values. ' +
    'Lawmatics takes this as a PUT.',
  params: Params(
    { id: RecordId('Company', 'list_companies or a find', '33'), ...updateFields },
    { rules: [atLeastOne(...namesOf(updateFields))] },
  ),
  response: One(Company, 'The updated company'),
  upstream: { method: 'PUT', path: '/companies/:id' },
  example: { id: '33', phone: '(925) 555-0115' },
});
