import { defineOperation, Params, StringEnum, Type } from '@portico/core';
import { Day, Flag, IdFilter, Moment, notNull, nullable, Ref, Text } from '../schemas.js';
import { family } from './kit/rows.js';

// Court rules: the jurisdictions whose rules Clio computes deadlines from, their triggers (the events that start
// deadlines), the service types that shift them, and the matter dockets — a matter's deadlines computed from a trigger.

/**
 * preview_matter_docket: the dates a docket would put on the calendar, without creating it. Its parameters keep
 * Clio's bracketed names (`jurisdiction[id]`), and its answer is Clio's JSON as it comes.
 */
export const previewMatterDocket = defineOperation({
  name: 'preview_matter_docket',
  method: 'GET',
  path: '/court_rules/matter_dockets/preview',
  summary: 'Preview the deadlines of a matter docket',
  description:
    'Computes the court deadlines a matter docket would put on the calendar from a triggering event (a trial date, a ' +
    'service), without creating them: give the jurisdiction (jurisdiction[id] from list_jurisdictions), the trigger ' +
    '(trigger[id] from list_jurisdictions_to_triggers), the service type when the trigger is served (service_type[id] from ' +
    'list_service_types), the start date and the start time — Clio requires all five. The answer is Clio’s JSON as it ' +
    'comes. Then create_matter_docket with the same values creates the docket.',
  params: Params({
    event_prefix: Type.Optional(Text('Prefix added to the title of every event.')),
    // Clio's document requires all five.
    'jurisdiction[id]': IdFilter('Jurisdiction (ids from list_jurisdictions).', notNull),
    'service_type[id]': IdFilter('Service type (ids from list_service_types).', notNull),
    'trigger[id]': IdFilter('Trigger (ids from list_jurisdictions_to_triggers).', notNull),
    start_date: Day('Date of the triggering event'),
    start_time: Moment('Time of the triggering event'),
  }),
  upstream: (params) => {
    const query = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)) as Record<string, string>;
    return { method: 'GET', path: '/court_rules/matter_dockets/preview.json', ...(Object.keys(query).length > 0 ? { query } : {}) };
  },
});

export const courtRules = family(
  [
    {
      key: 'jurisdictions',
      path: '/court_rules/jurisdictions',
      clio: '/court_rules/jurisdictions',
      record: ['jurisdiction', 'jurisdictions'],
      words: ['jurisdiction (court rule set)', 'jurisdictions (court rule sets)'],
      verbs: ['list', 'get'],
      about: 'Court-rule jurisdictions (courts whose rules compute deadlines).',
      fields: 'id,description,system_id,default',
      order: 'id(asc)',
      filters: {
        for_current_account: Flag('Only jurisdictions set up for this account.'),
        query: Text('Wildcard search in the description.'),
      },
      text: {
        list: 'Lists court-rule jurisdictions — the courts whose rules Clio computes deadlines from; for_current_account=true keeps those the firm has set up.',
        get: 'Returns one jurisdiction; the id comes from list_jurisdictions.',
      },
    },
    {
      key: 'jurisdictions_to_triggers',
      path: '/court_rules/jurisdictions/:jurisdiction_id/triggers',
      clio: '/court_rules/jurisdictions/:jurisdiction_id/triggers',
      record: ['jurisdictions_to_trigger', 'jurisdictions_to_triggers'],
      words: ['jurisdiction trigger', 'jurisdiction triggers'],
      verbs: ['list', 'get'],
      about: 'Court-rule triggers (events that start deadlines) of a jurisdiction.',
      fields: 'id,description,is_served,is_requirements_required',
      order: 'id(asc)',
      limit: { maximum: 1000, default: '1000' },
      filters: {
        is_requirements_required: Flag('Only triggers that need additional requirements.'),
        is_served: Flag('Only triggers that need a service type.'),
        query: Text('Wildcard search in the description.'),
      },
      text: {
        list: 'Lists the court-rule triggers of a jurisdiction (jurisdiction_id from list_jurisdictions); a trigger id and a jurisdiction id make a matter docket.',
        get: 'Returns one trigger of a jurisdiction; jurisdiction_id from list_jurisdictions, id from list_jurisdictions_to_triggers.',
      },
    },
    {
      key: 'matter_dockets',
      path: '/court_rules/matter_dockets',
      clio: '/court_rules/matter_dockets',
      record: ['matter_docket', 'matter_dockets'],
      words: ['matter docket (court-rule deadlines of a matter)', 'matter dockets (court-rule deadlines of matters)'],
      verbs: ['list', 'get', 'create', 'delete'],
      about: 'Court-rule dockets: deadlines computed for a matter from a jurisdiction’s trigger.',
      fields: 'id,name,status,start_date,matter{id,display_number},jurisdiction{id,description},trigger{id,description}',
      order: 'id(asc)',
      filters: {
        matter_id: IdFilter('Only dockets of this matter.', notNull),
        matter_status: StringEnum(['open', 'closed', 'pending'], { description: 'Only dockets of matters with this status.' }),
        query: Text('Wildcard search in the name.'),
        service_type_id: IdFilter('Only dockets with this service type (ids from list_service_types).', nullable),
        status: StringEnum(['not_started', 'in_progress', 'failed', 'completed'], { description: 'Only dockets in this state.' }),
      },
      body: {
        jurisdiction: Ref('jurisdiction', 'ids from list_jurisdictions'),
        name: Text('Name of the docket.'),
        start_date: Day('Date of the triggering event'),
        start_time: Moment('Time of the triggering event (some triggers need it)'),
        trigger: Ref('trigger', 'ids from list_jurisdictions_to_triggers'),
      },
      required: ['jurisdiction', 'name', 'start_date', 'trigger'],
      text: {
        list: 'Lists matter dockets (court-rule deadline sets) by matter, matter status, service type or status.',
        get: 'Returns one matter docket; the id comes from list_matter_dockets or create_matter_docket.',
        create:
          'Creates a matter docket: Clio computes the deadlines of the trigger in the jurisdiction from start_date and adds them to the calendar. jurisdiction, name, start_date and trigger are required; try preview_matter_docket first.',
        delete: 'Deletes a matter docket (id from list_matter_dockets). Answers 204 with no body.',
      },
    },
    {
      key: 'service_types',
      path: '/court_rules/service_types',
      clio: '/court_rules/service_types',
      record: ['service_type', 'service_types'],
      verbs: ['list', 'get'],
      about: 'Court-rule service types (how a document was served), which shift deadlines.',
      fields: 'id,description,default',
      order: 'id(asc)',
      text: {
        list: 'Lists court-rule service types (ways of service that shift deadlines), for preview_matter_docket’s service_type[id].',
        get: 'Returns one service type; the id comes from list_service_types.',
      },
    },
  ],
  previewMatterDocket,
);
