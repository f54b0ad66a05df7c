import { defineOperation, Params } from '@portico/core/plugin';
import { BodyId, GenericRecord, One, Paged } from '../schemas.js';
import { listOperation } from './kit.js';

// The firm's own vocabulary for matters — practice areas, pipeline stages, sub statuses — and the people around a
// matter (relationships: spouse, opposing party, guardian…). Beyond the catalog's table: the ids these lists give are
// what create_prospect and update_prospect take.

export const listPracticeAreas = listOperation({
  name: 'list_practice_areas',
  path: '/practice-areas',
  upstreamPath: '/practice_areas',
  summary: 'List practice areas: the case types the firm takes',
  description:
    "Lists the firm's practice areas (Personal injury, Family law, Estate planning…) with their ids: the " +
    'practice_area_id of create_prospect and the usual filter of list_prospects.',
  response: Paged(GenericRecord('A practice area'), 'A page of practice areas'),
  example: { sort_by: 'name', sort_order: 'asc' },
});

export const listStages = listOperation({
  name: 'list_stages',
  path: '/stages',
  upstreamPath: '/stages',
  summary: 'List the pipeline stages leads move through',
  description:
    "Lists the stages of the firm's intake pipelines (New lead, Consult scheduled, Retainer sent…) with their ids, " +
    'the stage_id that moves a matter along with update_prospect. Filter by pipeline_id for the stages of one ' +
    'pipeline.',
  response: Paged(GenericRecord('A pipeline stage'), 'A page of stages'),
  example: { filter_by: 'pipeline_id', filter_on: '21' },
});

export const listSubStatuses = listOperation({
  name: 'list_sub_statuses',
  path: '/sub-statuses',
  upstreamPath: '/sub_statuses',
  summary: 'List matter sub statuses such as lost reasons',
  description:
    "Lists the firm's sub statuses, finer categories of the three matter statuses pnc, hired and lost (lost – " +
    'hired other firm…). Their ids are the sub_status_id of update_prospect.',
  response: Paged(GenericRecord('A sub status'), 'A page of sub statuses'),
  example: { filter_by: 'status', filter_on: 'lost' },
});

export const listRelationshipTypes = listOperation({
  name: 'list_relationship_types',
  path: '/relationship-types',
  upstreamPath: '/relationship_types',
  summary: 'List the roles people can have on a matter',
  description:
    'Lists the kinds of people a matter can involve besides the client (Spouse, Opposing party, Guardian…), with ' +
    'whether one matter may have several (is_repeatable). Their ids are the relationship_type_id of ' +
    'create_relationship.',
  response: Paged(GenericRecord('A relationship type'), 'A page of relationship types'),
  example: { sort_by: 'name', sort_order: 'asc' },
});

export const createRelationship = defineOperation({
  name: 'create_relationship',
  method: 'POST',
  path: '/relationships',
  summary: 'Add a person to a matter: spouse, opposing party, witness…',
  description:
    'Connects a contact to a matter in a role from list_relationship_types (the spouse, a witness, the opposing ' +
    'party or its insurer), so that everyone involved in the case is on record. Create the contact first if needed ' +
    '(create_contact).',
  params: Params({
    prospect_id: BodyId('Prospect (matter)', '5108'),
    contact_id: BodyId('Contact (person) to link', '8230'),
    relationship_type_id: BodyId('Relationship type (list_relationship_types)', '1'),
  }),
  response: One(GenericRecord('A relationship'), 'The new relationship'),
  upstream: { method: 'POST', path: '/relationships' },
  example: { prospect_id: '5108', contact_id: '8230', relationship_type_id: '1' },
});
