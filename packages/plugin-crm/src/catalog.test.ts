import { type CatalogDifferences, type CatalogOperation, type CatalogParam, compareWithCatalog } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { lawmaticsPlugin } from './index.js';

// The Integration Operation Catalog's legal-CRM table, as it states it: every operation shown is GET; list operations
// share sort_order (asc or desc, default desc), sort_by, filter_by, filter_on, filter_with (ten operators) and page
// (string, default 1), and list_activities' filter_by names one of matter_id, contact_id, type, event; get operations
// take path id (string, req); find operations take one path string (req); get_me takes nothing.

const OPERATORS = ['=', '!=', '<=', '<', '>=', '>', 'like', 'ilike', 'null', 'not_null'];

const LIST: Record<string, CatalogParam> = {
  sort_order: { type: 'string', default: 'desc', enum: ['asc', 'desc'] },
  sort_by: { type: 'string' },
  filter_by: { type: 'string' },
  filter_on: { type: 'string' },
  filter_with: { type: 'string', enum: OPERATORS },
  page: { type: 'string', default: '1' },
};
const ID: Record<string, CatalogParam> = { id: { type: 'string', required: true } };
const path = (name: string): Record<string, CatalogParam> => ({ [name]: { type: 'string', required: true } });

const list = (name: string, p: string, extra: Record<string, CatalogParam> = {}): CatalogOperation => ({
  name,
  method: 'GET',
  path: p,
  params: { ...extra, ...LIST },
});
const get = (name: string, p: string): CatalogOperation => ({ name, method: 'GET', path: p, params: ID });
const find = (name: string, p: string, param: string): CatalogOperation => ({ name, method: 'GET', path: p, params: path(param) });

const CATALOG: CatalogOperation[] = [
  list('list_prospects', '/prospects'),
  get('get_prospect', '/prospects/:id'),
  find('find_prospect_by_phone', '/prospects/find-by-phone/:phone_number', 'phone_number'),
  find('find_prospect_by_email', '/prospects/find-by-email/:email_address', 'email_address'),
  find('find_prospect_by_name', '/prospects/find-by-name/:name', 'name'),
  list('list_contacts', '/contacts'),
  get('get_contact', '/contacts/:id'),
  find('find_contact_by_phone', '/contacts/find-by-phone/:phone_number', 'phone_number'),
  find('find_contact_by_email', '/contacts/find-by-email/:email_address', 'email_address'),
  find('find_contact_by_name', '/contacts/find-by-name/:name', 'name'),
  list('list_companies', '/companies'),
  get('get_company', '/companies/:id'),
  find('find_company_by_phone', '/companies/find-by-phone/:phone_number', 'phone_number'),
  find('find_company_by_email', '/companies/find-by-email/:email_address', 'email_address'),
  find('find_company_by_name', '/companies/find-by-name/:name', 'name'),
  list('list_addresses', '/addresses'),
  get('get_address', '/addresses/:id'),
  list('list_email_addresses', '/email-addresses'),
  get('get_email_address', '/email-addresses/:id'),
  list('list_phone_numbers', '/phone-numbers'),
  get('get_phone_number', '/phone-numbers/:id'),
  list('list_custom_contact_types', '/custom-contact-types'),
  get('get_custom_contact_type', '/custom-contact-types/:id'),
  list('list_custom_fields', '/custom-fields'),
  get('get_custom_field', '/custom-fields/:id'),
  list('list_custom_emails', '/custom-emails'),
  get('get_custom_email', '/custom-emails/:id'),
  list('list_forms', '/forms'),
  get('get_form', '/forms/:id'),
  list('list_form_entries', '/forms/:custom_form_uuid/entries', path('custom_form_uuid')),
  list('list_email_campaigns', '/email-campaigns'),
  get('get_email_campaign', '/email-campaigns/:id'),
  get('get_email_campaign_stats', '/email-campaigns/:id/stats'),
  list('list_events', '/events'),
  get('get_event', '/events/:id'),
  list('list_locations', '/locations'),
  list('list_event_types', '/event-types'),
  get('get_event_type', '/event-types/:id'),
  // The catalog gives get_tag's parameter (id) but not its path: /tags/:id is this plugin's decision (README).
  get('get_tag', '/tags/:id'),
  list('list_invoices', '/invoices'),
  get('get_invoice', '/invoices/:id'),
  list('list_expenses', '/expenses'),
  get('get_expense', '/expenses/:id'),
  list('list_time_entries', '/time-entries'),
  get('get_time_entry', '/time-entries/:id'),
  list('list_transactions', '/transactions'),
  get('get_transaction', '/transactions/:id'),
  {
    name: 'list_activities',
    method: 'GET',
    path: '/activities',
    params: { ...LIST, filter_by: { type: 'string', enum: ['matter_id', 'contact_id', 'type', 'event'] } },
  },
  get('get_activity', '/activities/:id'),
  list('list_users', '/users'),
  get('get_user', '/users/:id'),
  { name: 'get_me', method: 'GET', path: '/users/me' },
];

/**
 * Intended differences from the catalog (key → reason): every list also takes fields (Lawmatics' field selection), so
 * that an assistant can ask for the attributes it needs.
 */
const DIFFERENCES: CatalogDifferences = Object.fromEntries(
  CATALOG.filter((row) => row.params && 'sort_by' in row.params).map((row) => [
    `${row.name}.fields:extra`,
    'field selection: the attributes an assistant needs, not whole records',
  ]),
);

describe('the catalog’s legal-CRM table', () => {
  it('lists 52 operations', () => {
    expect(CATALOG).toHaveLength(52);
    expect(new Set(CATALOG.map((row) => row.name)).size).toBe(52);
  });

  it('is what the plugin declares, apart from the listed intended differences', () => {
    const mismatches = compareWithCatalog(lawmaticsPlugin, CATALOG);
    expect(Object.keys(mismatches).sort()).toEqual(Object.keys(DIFFERENCES).sort());
  });

  it('notices a row that disagrees (the comparison is live)', () => {
    const wrong = CATALOG.map((row) =>
      row.name === 'list_prospects' ? { ...row, params: { ...row.params, page: { type: 'string' as const, default: '2' } } } : row,
    );
    const intended = new Set(Object.keys(DIFFERENCES));
    expect(Object.keys(compareWithCatalog(lawmaticsPlugin, wrong)).filter((key) => !intended.has(key))).toEqual([
      'list_prospects.page:default',
    ]);
  });

  it('has a reason for every intended difference', () => {
    for (const [key, reason] of Object.entries(DIFFERENCES)) expect(reason.length, key).toBeGreaterThan(20);
  });
});
