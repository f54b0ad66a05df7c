import { StringEnum } from '@portico/core/plugin';
import { Day, Flag, IdFilter, IdList, List, notNull, Obj, Text } from '../schemas.js';
import { family } from './kit/rows.js';

// Contacts: the people and companies a firm deals with — clients, opposing parties, co-counsel, vendors — and their
// email addresses and phone numbers.

const INITIALS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('') as readonly string[];

const contactBody = {
  name: Text('Full name (a company’s name, or a person’s whole name).'),
  type: StringEnum(['Person', 'Company'], { description: 'Person or Company.' }),
  first_name: Text('First name (people).'),
  middle_name: Text('Middle name (people).'),
  last_name: Text('Last name (people).'),
  prefix: Text('Personal title (Mr., Dr.).'),
  title: Text('Professional title (people).'),
  company: Obj('The company the person works for, as { "id": <Company contact id> }.'),
  date_of_birth: Day('Date of birth'),
  clio_connect_email: Text('Address that receives notifications when something is shared with the contact.'),
  ledes_client_id: Text('LEDES client id.'),
  sales_tax_number: Text('Sales tax number printed on bills.'),
  currency: Obj('Currency of the contact, as { "id": <currency id> } (ids from list_currencies).'),
  co_counsel_rate: Obj('Co-counsel rate, as { "rate": <number> }.'),
  avatar: Obj('Picture, as { "image": "<data URI>" } (or { "_destroy": true } to remove it).'),
  addresses: List(
    'Addresses, as [{ "name": "Work" | "Home" | …, "street", "city", "province", "postal_code", "country" }]; on update add "id" to change one, "_destroy": true to remove it.',
  ),
  email_addresses: List(
    'Email addresses, as [{ "name": "Work" | "Home" | …, "address", "default_email": true }]; on update add "id" or "_destroy".',
  ),
  phone_numbers: List(
    'Phone numbers, as [{ "name": "Work" | "Mobile" | …, "number", "default_number": true }]; on update add "id" or "_destroy".',
  ),
  web_sites: List('Web sites, as [{ "name", "address", "default_web_site" }]; on update add "id" or "_destroy".'),
  instant_messengers: List('Instant messenger handles, as [{ "name", "address" }]; on update add "id" or "_destroy".'),
  custom_field_values: List(
    'Custom field values, as [{ "custom_field": { "id": <custom field id> }, "value": … }]; on update add "id" or "_destroy".',
  ),
  custom_field_set_associations: List(
    'Custom field sets shown on the contact, as [{ "custom_field_set": { "id": <id> }, "display_order": <n> }].',
  ),
};

export const contacts = family([
  {
    key: 'contacts',
    path: '/contacts',
    clio: '/contacts',
    record: ['contact', 'contacts'],
    summaries: {
      list: 'List contacts: clients, people and companies, such as opposing parties',
      get: 'Get a contact (client, person or company) with email and address',
      create: 'Add a contact: a new client, person or company',
      update: 'Change a contact’s details, such as address, email or phone',
      delete: 'Delete a contact (client, person or company)',
    },
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'People and companies: clients, opposing parties, co-counsel, vendors.',
    fields: 'id,name,type,primary_email_address,primary_phone_number,is_client,company{id,name}',
    order: 'id(asc)',
    filters: {
      client_only: Flag('Only contacts who are clients.'),
      clio_connect_only: Flag('Only contacts who are Clio Connect users.'),
      email_only: Flag('Only contacts with an email address.'),
      'custom_field_ids[]': IdList('Custom fields whose values to include in custom_field_values (ids from list_custom_fields)'),
      'exclude_ids[]': IdList('Contacts to leave out'),
      initial: StringEnum(INITIALS, { description: 'Only contacts whose last name or company name starts with this letter.' }),
      query: Text('Wildcard search in name, title, email address, address, phone number, web site, messenger handle and custom fields.'),
      shared_resource_id: IdFilter('Only contacts that currently have access to this shared resource.', notNull),
      type: StringEnum(['Company', 'Person'], { description: 'Only companies or only people.' }),
    },
    getParams: { 'custom_field_ids[]': IdList('Custom fields whose values to include in custom_field_values') },
    body: contactBody,
    required: ['name', 'type'],
    text: {
      list: 'Lists contacts, the people and companies the firm deals with: clients, opposing parties, witnesses, co-counsel, vendors. Filter by query (name, email or phone), initial of the last name, type (Person or Company) or client_only; how a contact is involved in a matter is list_relationships.',
      get: 'Returns one contact (a client, person or company); the id comes from list_contacts. Ask for email_addresses{address},phone_numbers{number},addresses{street,city} in fields for the email address, phone and postal address.',
      create:
        'Adds a person or company to the contacts, such as a new client or an opposing party: name and type (Person or Company) are required. Give email_addresses, phone_numbers and addresses as arrays, a person’s employer as company: {"id": <company contact id>}.',
      update:
        'Changes a contact (id from list_contacts): name, addresses, emails, phone numbers, custom fields. Entries of email_addresses, phone_numbers and addresses with an id change that entry, "_destroy": true removes it.',
      delete:
        'Deletes a contact (id from list_contacts), for example a duplicate client record; contacts that are clients of matters or have bills cannot be deleted. Answers 204 with no body.',
    },
  },
  {
    key: 'email_addresses',
    path: '/contacts/:contact_id/email_addresses',
    clio: '/contacts/:contact_id/email_addresses',
    record: ['contact_email_address', 'contact_email_addresses'],
    summaries: {
      list: 'List the email addresses of a contact',
    },
    verbs: ['list'],
    about: 'Email addresses of one contact.',
    fields: 'id,name,address,primary',
    order: null,
    text: {
      list: 'Lists the email addresses of one contact (contact_id from list_contacts), with their kind (Work, Home…) and which is primary. For a contact’s full details in one call, use get_contact.',
    },
  },
  {
    key: 'contact_phone_numbers',
    path: '/contacts/:contact_id/phone_numbers',
    clio: '/contacts/:contact_id/phone_numbers',
    record: ['contact_phone_number', 'contact_phone_numbers'],
    summaries: {
      list: 'List the phone numbers of a contact',
    },
    verbs: ['list'],
    about: 'Phone numbers of a contact.',
    fields: 'id,name,number,default_number',
    order: null,
    text: {
      list: 'Lists the phone numbers of one contact (contact_id from list_contacts), with their kind (Work, Mobile, Home…) and which is primary. For a contact’s full details in one call, use get_contact.',
    },
  },
]);
