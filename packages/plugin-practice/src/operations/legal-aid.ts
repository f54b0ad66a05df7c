import { atLeastOne, IntegerString } from '@portico/core/plugin';
import { Flag, Text } from '../schemas.js';
import { family } from './kit/rows.js';

// Legal aid: the UK Legal Aid Agency's expense categories and rate tables (civil certificated, civil controlled and
// criminal controlled work), and the grants that fund legal aid work with the sources they come from.

export const legalAid = family([
  {
    key: 'lauk_expense_categories',
    path: '/lauk_expense_categories',
    clio: '/lauk_expense_categories',
    record: ['lauk_expense_category', 'lauk_expense_categories'],
    summaries: {
      list: 'List UK legal aid (LAA) expense categories and rates for a region',
    },
    verbs: ['list'],
    about: 'Legal Aid Agency (UK) expense categories and rates.',
    fields: 'id,key,name,rate,civil,criminal',
    order: null,
    filters: {
      region: Text('Region whose expense rates to return (required by Clio).'),
      key: Text('Only the category with this key.'),
      name: Text('Only categories with this name.'),
      practice_area: Text('Only categories of this practice area.'),
    },
    listRules: [atLeastOne('region')],
    without: ['created_since', 'updated_since', 'ids[]'],
    text: {
      list: 'Lists the UK Legal Aid Agency (LAA) expense categories with their rates in one region (region is required). Filter further by name, key or practice_area; the firm’s own expense categories are list_expense_categories.',
    },
  },
  {
    key: 'lauk_civil_certificated_rates',
    path: '/lauk_civil_certificated_rates',
    clio: '/lauk_civil_certificated_rates',
    record: ['civil_certificated_rate', 'civil_certificated_rates'],
    summaries: {
      list: 'List UK legal aid (LAA) rates for civil certificated work',
    },
    verbs: ['list'],
    about: 'UK legal aid rates for civil certificated work.',
    fields: 'id,key,activity,fee,rate_type,category_of_law,court,region',
    order: null,
    filters: {
      activity: Text('Only rates of this activity.'),
      activity_sub_category: Text('Only rates of this activity sub-category.'),
      attended_several_hearings_for_multiple_clients: Flag('Only rates for several hearings attended for multiple clients.'),
      category_of_law: Text('Only rates of this category of law.'),
      change_of_solicitor: Flag('Only rates for a change of solicitor.'),
      court: Text('Only rates of this court.'),
      eligible_for_sqm: Flag('Only rates eligible (or not) for the Specialist Quality Mark.'),
      fee_scheme: Text('Only rates of this fee scheme.'),
      first_conducting_solicitor: Flag('Only rates for the first conducting solicitor.'),
      key: Text('Only the rate with this key.'),
      number_of_clients: Text('Only rates for this number of clients.'),
      party: Text('Only rates for this party.'),
      post_transfer_clients_represented: Text('Only rates for this number of clients represented after transfer.'),
      rate_type: Text('Only rates of this type.'),
      region: Text('Only rates of this region.'),
      session_type: Text('Only rates of this session type.'),
      user_type: Text('Only rates for this kind of fee earner.'),
    },
    without: ['created_since', 'updated_since', 'ids[]'],
    text: {
      list: 'Lists the UK Legal Aid Agency (LAA) fee rates for civil certificated work (legal aid certificates). Filter by activity, court, category_of_law, fee_scheme, region, rate_type and more.',
    },
  },
  {
    key: 'lauk_civil_controlled_rates',
    path: '/lauk_civil_controlled_rates',
    clio: '/lauk_civil_controlled_rates',
    record: ['civil_controlled_rate', 'civil_controlled_rates'],
    summaries: {
      list: 'List UK legal aid (LAA) rates for civil controlled work',
    },
    verbs: ['list'],
    about: 'UK legal aid rates for civil controlled work.',
    fields: 'id,key,activity,fee,rate_type,category_of_law,region',
    order: null,
    filters: {
      activity: Text('Only rates of this activity.'),
      category_of_law: Text('Only rates of this category of law.'),
      key: Text('Only the rate with this key.'),
      matter_type_1: IntegerString({ description: 'Only rates of this first matter type code.' }),
      matter_type_2: IntegerString({ description: 'Only rates of this second matter type code.' }),
      rate_type: Text('Only rates of this type.'),
      region: Text('Only rates of this region.'),
    },
    without: ['created_since', 'updated_since', 'ids[]'],
    text: {
      list: 'Lists the UK Legal Aid Agency (LAA) fee rates for civil controlled work (legal help). Filter by activity, category_of_law, matter_type_1 and matter_type_2 codes, rate_type or region.',
    },
  },
  {
    key: 'lauk_criminal_controlled_rates',
    path: '/lauk_criminal_controlled_rates',
    clio: '/lauk_criminal_controlled_rates',
    record: ['criminal_controlled_rate', 'criminal_controlled_rates'],
    summaries: {
      list: 'List UK legal aid (LAA) rates for criminal controlled work',
    },
    verbs: ['list'],
    about: 'UK legal aid rates for criminal controlled work.',
    fields: 'id,key,activity,fee,rate_type,court,region,solicitor_type',
    order: null,
    filters: {
      activity: Text('Only rates of this activity.'),
      category_of_law: Text('Only rates of this category of law.'),
      counsel: Text('Only rates of this counsel.'),
      court: Text('Only rates of this court.'),
      key: Text('Only the rate with this key.'),
      rate_type: Text('Only rates of this type.'),
      region: Text('Only rates of this region.'),
      solicitor_type: Text('Only rates of this solicitor type.'),
      standard_fee_category: Text('Only rates of this standard fee category.'),
    },
    without: ['created_since', 'updated_since', 'ids[]'],
    text: {
      list: 'Lists the UK Legal Aid Agency (LAA) fee rates for criminal controlled work (police station and magistrates’ court advice). Filter by activity, court, counsel, solicitor_type, standard_fee_category, rate_type or region.',
    },
  },
  {
    key: 'grants',
    path: '/grants',
    clio: '/grants',
    record: ['grant', 'grants'],
    summaries: {
      list: 'List legal aid grants that fund matters and time',
      get: 'Get a legal aid grant',
      create: 'Add a legal aid grant',
      update: 'Rename a legal aid grant',
      delete: 'Delete a legal aid grant',
    },
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Grants that fund legal aid work.',
    fields: 'id,name,balance,start_date,end_date,funding_source{id,name}',
    order: null,
    filters: {
      name: Text('Only grants with this name.'),
    },
    body: {
      name: Text('Name.'),
    },
    text: {
      list: 'Lists grants, the legal aid funding that matters and time entries can be charged to (grant_id of list_activities and list_matters); filter by name. The bodies that award them are list_grant_funding_sources.',
      get: 'Returns one legal aid grant with its name and funding source; the id comes from list_grants.',
      create: 'Creates a grant that matters and activities can be charged to; give it a name.',
      update: 'Changes the name of a legal aid grant (id from list_grants).',
      delete:
        'Deletes a legal aid grant (id from list_grants), the funding that matters and time entries were charged to. Answers 204 with no body.',
    },
  },
  {
    key: 'grant_funding_sources',
    path: '/grant_funding_sources',
    clio: '/grant_funding_sources',
    record: ['grant_funding_source', 'grant_funding_sources'],
    summaries: {
      list: 'List grant funding sources (bodies that award legal aid grants)',
      create: 'Add a grant funding source',
      update: 'Rename a grant funding source',
      delete: 'Delete a grant funding source',
    },
    verbs: ['list', 'create', 'update', 'delete'],
    about: 'Funding sources that grants come from.',
    fields: 'id,name',
    order: null,
    filters: {
      name: Text('Only grant funding sources with this name.'),
    },
    body: {
      name: Text('Name.'),
    },
    text: {
      list: 'Lists grant funding sources, the foundations and agencies the firm’s grants come from; filter by name. The grants themselves are list_grants.',
      create: 'Creates a grant funding source, a body that awards grants; give it a name.',
      update: 'Renames a grant funding source (id from list_grant_funding_sources).',
      delete: 'Deletes a grant funding source (id from list_grant_funding_sources). Answers 204 with no body.',
    },
  },
]);
