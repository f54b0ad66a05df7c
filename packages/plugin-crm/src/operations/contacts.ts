import { atLeastOne, defineOperation, Params } from '@portico/core/plugin';
import { Contact, CustomFieldValues, NotesToAdd, One, Paged, PersonSummary, RecordId, Text } from '../schemas.js';
import { findOperation, getOperation, listOperation, namesOf } from './kit.js';

// A contact is a person. Every matter (prospect), client and company point of contact is built on one, so a change
// to a contact shows on all of them.

export const listContacts = listOperation({
  name: 'list_contacts',
  path: '/contacts',
  upstreamPath: '/contacts',
  summary: 'List contacts: every person, lead or not, behind clients and companies',
  description:
    'Lists contacts, the people (clients, potential clients, witnesses, referral partners) behind matters and ' +
    'companies, with names, email and timestamps. Filter by last_name (filter_with ilike and %) or email; ' +
    'get_contact has the whole record.',
  response: Paged(PersonSummary(false, 'A contact, as lists show it'), 'A page of contacts', true),
  example: { filter_by: 'last_name', filter_on: 'Whit%', filter_with: 'ilike' },
});

export const getContact = getOperation({
  name: 'get_contact',
  path: '/contacts/:id',
  upstreamPath: '/contacts/:id',
  summary: 'Get all details of a contact, custom fields and matters included',
  description:
    'Returns one contact (a person) with every attribute (names, email and phone, birthdate, employer, contact ' +
    "type, custom fields) and relationships: the person's matters (prospects), the client and company records, and " +
    'who created it.',
  id: { what: 'Contact', from: 'list_contacts or a find_contact_by_* operation', example: '8216' },
  response: One(Contact, 'The contact'),
});

const found = One(PersonSummary(true, 'The matching contact'), 'The first matching contact');

export const findContactByPhone = findOperation({
  name: 'find_contact_by_phone',
  path: '/contacts/find-by-phone/:phone_number',
  upstreamPath: '/contacts/find_by_phone/:phone_number',
  key: 'phone_number',
  example: '800-555-0110',
  summary: "Find the contact who owns a phone number, such as a caller's",
  description:
    'Returns the first contact whose phone number matches, fuzzily, with names, email, phone and timestamps: ' +
    'whether a caller is already known before creating anyone. Not found is a 404.',
  response: found,
});

export const findContactByEmail = findOperation({
  name: 'find_contact_by_email',
  path: '/contacts/find-by-email/:email_address',
  upstreamPath: '/contacts/find_by_email/:email_address',
  key: 'email_address',
  example: 'rstein@steinlegal.example',
  summary: 'Find a contact (person) by email address',
  description:
    'Returns the first contact whose email address matches, fuzzily, with names, email, phone and timestamps. Not ' +
    'found is a 404; get_contact with the id has the whole record.',
  response: found,
});

export const findContactByName = findOperation({
  name: 'find_contact_by_name',
  path: '/contacts/find-by-name/:name',
  upstreamPath: '/contacts/find_by_name/:name',
  key: 'name',
  example: 'Helen Marsh',
  summary: 'Find a contact (person) by name',
  description:
    'Returns the first contact matching "first last" or the first name alone, case-insensitively. Not found is a ' +
    '404; for every match use list_contacts with filter_by last_name and filter_with ilike.',
  response: found,
});

// ---- writes (beyond the catalog's table) ---------------------------------------------------------------------------

const contactFields = {
  first_name: Text('First name', 'Teresa'),
  last_name: Text('Last name', 'Alvarado'),
  email: Text('Email address; sets the primary one', 'teresa.alvarado@example.com'),
  custom_fields: CustomFieldValues,
  notes: NotesToAdd,
};

export const createContact = defineOperation({
  name: 'create_contact',
  method: 'POST',
  path: '/contacts',
  summary: 'Create a contact: a person without a matter yet',
  description:
    'Adds a person who is not (yet) a case: a witness, a spouse, a referral partner, an opposing party for ' +
    'conflict checks. For a new inquiry use create_prospect instead, which creates the contact and the matter ' +
    'together; look the person up first (find_contact_by_email, find_contact_by_phone) to avoid duplicates.',
  params: Params(
    { ...contactFields, phone: Text('Phone number; sets the primary one', '(510) 555-0155') },
    { rules: [atLeastOne('first_name', 'last_name')] },
  ),
  response: One(Contact, 'The new contact'),
  upstream: { method: 'POST', path: '/contacts' },
  example: { first_name: 'Teresa', last_name: 'Alvarado', email: 'teresa.alvarado@example.com', phone: '(510) 555-0155' },
});

export const updateContact = defineOperation({
  name: 'update_contact',
  method: 'PATCH',
  path: '/contacts/:id',
  summary: "Update a contact's name, email or custom fields",
  description:
    'Changes the fields given on a person and leaves the others: names, primary email, custom fields (null clears ' +
    "one), and notes adds notes; the change shows on every matter of the person. Lawmatics' update takes no phone, " +
    'so add a number with create_phone_number; Lawmatics takes this as a PUT.',
  params: Params(
    { id: RecordId('Contact', 'list_contacts or a find', '8225'), ...contactFields },
    { rules: [atLeastOne(...namesOf(contactFields))] },
  ),
  response: One(Contact, 'The updated contact'),
  upstream: { method: 'PUT', path: '/contacts/:id' },
  example: { id: '8225', email: 'omar.farouk@newmail.example' },
});

export const deleteContact = defineOperation({
  name: 'delete_contact',
  method: 'DELETE',
  path: '/contacts/:id',
  summary: 'Delete a contact for good, such as a duplicate',
  description:
    'Deletes the person irreversibly, meant for duplicates created by mistake. Check first (get_contact, ' +
    'relationships) that no matter, client or company still relies on the contact.',
  params: Params({ id: RecordId('Contact', 'list_contacts or a find', '8228') }),
  upstream: { method: 'DELETE', path: '/contacts/:id' },
  example: { id: '8228' },
});
