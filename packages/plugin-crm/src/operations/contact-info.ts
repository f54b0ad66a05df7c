import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { GenericRecord, One, Paged } from '../schemas.js';
import { asMultipart, withNumericIds } from '../upstream.js';
import { getOperation, listOperation } from './kit.js';

// Addresses, email addresses and phone numbers are records of their own in Lawmatics, each belonging to a contact, a
// company, a matter's contact, or the firm.

export const listAddresses = listOperation({
  name: 'list_addresses',
  path: '/addresses',
  upstreamPath: '/addresses',
  summary: 'List postal addresses of contacts and companies',
  description:
    'Lists postal (mailing) addresses with street, city, state, zipcode, label and full_address, for contacts, ' +
    'companies and the firm. Filter by contact_id or company_id for the addresses of one record, or by city, state ' +
    'or zipcode.',
  response: Paged(GenericRecord('An address'), 'A page of addresses'),
  example: { filter_by: 'contact_id', filter_on: '8201' },
});

export const getAddress = getOperation({
  name: 'get_address',
  path: '/addresses/:id',
  upstreamPath: '/addresses/:id',
  summary: 'Get a postal address by its id',
  description: 'Returns one postal (mailing) address with its label and the record it belongs to.',
  id: { what: 'Address', from: 'list_addresses or the addresses relationship of a record', example: '101' },
  response: One(GenericRecord('An address'), 'The address'),
});

export const listEmailAddresses = listOperation({
  name: 'list_email_addresses',
  path: '/email-addresses',
  upstreamPath: '/email_addresses',
  summary: 'List email addresses of contacts and companies',
  description:
    'Lists the email addresses stored on contacts, companies and the firm (info is the address, label its kind). ' +
    'Filter by contact_id or company_id for one record, or by info to see who uses an address.',
  response: Paged(GenericRecord('An email address'), 'A page of email addresses'),
  example: { filter_by: 'info', filter_on: '%@example.com', filter_with: 'ilike' },
});

export const getEmailAddress = getOperation({
  name: 'get_email_address',
  path: '/email-addresses/:id',
  upstreamPath: '/email_addresses/:id',
  summary: 'Get a stored email address and whose it is',
  description: 'Returns one email address record: the address (info), its label and the contact or company it belongs to.',
  id: { what: 'Email address', from: 'list_email_addresses or the emails relationship of a record', example: '401' },
  response: One(GenericRecord('An email address'), 'The email address'),
});

export const listPhoneNumbers = listOperation({
  name: 'list_phone_numbers',
  path: '/phone-numbers',
  upstreamPath: '/phone_numbers',
  summary: 'List the phone numbers of contacts and companies',
  description:
    'Lists the phone numbers stored on contacts, companies and the firm (info is the number, label its kind: ' +
    'Mobile, Work…). Filter by contact_id or company_id for the numbers of one record, or by info to see whose ' +
    'number it is.',
  response: Paged(GenericRecord('A phone number'), 'A page of phone numbers'),
  example: { filter_by: 'contact_id', filter_on: '8201' },
});

export const getPhoneNumber = getOperation({
  name: 'get_phone_number',
  path: '/phone-numbers/:id',
  upstreamPath: '/phone_numbers/:id',
  summary: 'Get a stored phone number and whose it is',
  description:
    'Returns one of the phone numbers stored on a contact, a company or the firm: the number (info), its label ' +
    '(Mobile, Work, Home…) and the record it belongs to.',
  id: { what: 'Phone number', from: 'list_phone_numbers or the phone_numbers relationship of a record', example: '501' },
  response: One(GenericRecord('A phone number'), 'The phone number'),
});

export const listCustomContactTypes = listOperation({
  name: 'list_custom_contact_types',
  path: '/custom-contact-types',
  upstreamPath: '/custom_contact_types',
  summary: 'List contact categories (custom contact types) such as expert witness',
  description:
    "Lists the firm's own contact types (Expert witness, Medical provider, Referral partner…) with their ids, " +
    'which classify contacts and matters as custom_contact_type_id.',
  response: Paged(GenericRecord('A custom contact type'), 'A page of custom contact types'),
  example: { sort_by: 'name', sort_order: 'asc' },
});

export const getCustomContactType = getOperation({
  name: 'get_custom_contact_type',
  path: '/custom-contact-types/:id',
  upstreamPath: '/custom_contact_types/:id',
  summary: 'Get a custom contact type by id',
  description: 'Returns one of the contact types the firm defined (an expert witness, a medical provider…): its name and timestamps.',
  id: { what: 'Custom contact type', from: 'list_custom_contact_types', example: '3' },
  response: One(GenericRecord('A custom contact type'), 'The custom contact type'),
});

// ---- writes (beyond the catalog's table) ---------------------------------------------------------------------------

const OWNER_TYPES = ['Prospect', 'Contact', 'Company', 'Firm'] as const;

function contactDetailParams(what: string, example: string) {
  return Params({
    info: Type.String({ minLength: 1, description: `The ${what}.`, examples: [example] }),
    label: Type.String({
      minLength: 1,
      description: `Kind of ${what}, shown next to it (Primary, Work, Home, Mobile…).`,
      examples: ['Work'],
    }),
    informationable_type: StringEnum(OWNER_TYPES, {
      description: `Kind of record the ${what} belongs to. Given a Prospect, Lawmatics puts it on the matter's contact (or company).`,
    }),
    informationable_id: Type.Optional(
      Type.String({
        minLength: 1,
        pattern: '^[0-9]+$',
        description: 'Id of that record; required except for Firm.',
        examples: ['8201'],
      }),
    ),
  });
}

const needsOwnerId = (params: { informationable_type: string; informationable_id?: string }) =>
  params.informationable_type !== 'Firm' && params.informationable_id === undefined
    ? `informationable_id is required when informationable_type is ${params.informationable_type}`
    : undefined;

export const createEmailAddress = defineOperation({
  name: 'create_email_address',
  method: 'POST',
  path: '/email-addresses',
  summary: 'Add an email address to a contact, company or matter',
  description:
    "Adds a further email address (a work address, a spouse's address) to a contact, a company, or the contact of " +
    'a matter (informationable_type Prospect). The primary address is set with update_contact or update_prospect ' +
    'instead.',
  params: contactDetailParams('email address', 'lucia.moreno@work.example'),
  check: needsOwnerId,
  response: One(GenericRecord('An email address'), 'The new email address'),
  // Lawmatics' API reference types informationable_id as a JSON number.
  upstream: withNumericIds({ method: 'POST', path: '/email_addresses' }, ['informationable_id']),
  example: { info: 'lucia.moreno@work.example', label: 'Work', informationable_type: 'Contact', informationable_id: '8201' },
});

export const createPhoneNumber = defineOperation({
  name: 'create_phone_number',
  method: 'POST',
  path: '/phone-numbers',
  summary: 'Add a phone number to a contact, company or matter',
  description:
    'Adds a further phone number (mobile, work, an alternate number a caller gives) to a contact, a company, or ' +
    'the contact of a matter (informationable_type Prospect). It is also the way to give a contact a number, since ' +
    'update_contact takes none.',
  params: contactDetailParams('phone number', '(650) 555-0143'),
  check: needsOwnerId,
  response: One(GenericRecord('A phone number'), 'The new phone number'),
  upstream: asMultipart({ method: 'POST', path: '/phone_numbers' }),
  example: { info: '(650) 555-0143', label: 'Work', informationable_type: 'Prospect', informationable_id: '5101' },
});
