import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
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
  summary: 'Preview the court rule deadlines a docket would calculate',
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
      summaries: {
        list: 'List court rule jurisdictions (courts whose rules set deadlines)',
        get: 'Get a court rule jurisdiction',
      },
      verbs: ['list', 'get'],
      about: 'Court-rule jurisdictions (courts whose rules compute deadlines).',
      fields: 'id,description,system_id,default',
      order: 'id(asc)',
      filters: {
        for_current_account: Flag('Only jurisdictions set up for this account.'),
        query: Text('Wildcard search in the description.'),
      },
      text: {
        list: 'Lists court-rule jurisdictions, the courts (state, federal) whose procedural rules Clio computes deadlines from; for_current_account=true keeps those the firm has set up and query searches them. Their triggers are list_jurisdictions_to_triggers.',
        get: 'Returns one court-rule jurisdiction (a court and its rule set); the id comes from list_jurisdictions.',
      },
    },
    {
      key: 'jurisdictions_to_triggers',
      path: '/court_rules/jurisdictions/:jurisdiction_id/triggers',
      clio: '/court_rules/jurisdictions/:jurisdiction_id/triggers',
      record: ['jurisdictions_to_trigger', 'jurisdictions_to_triggers'],
      summaries: {
        list: 'List the court rule triggers (events that start deadlines) of a court',
        get: 'Get a court rule trigger of a jurisdiction',
      },
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
        list: 'Lists the triggers of a jurisdiction (jurisdiction_id from list_jurisdictions), the events such as service of a complaint or a trial date that start court-rule deadlines. A trigger id and a jurisdiction id make a matter docket (create_matter_docket).',
        get: 'Returns one court-rule trigger of a jurisdiction; jurisdiction_id comes from list_jurisdictions, id from list_jurisdictions_to_triggers.',
      },
    },
    {
      key: 'matter_dockets',
      path: '/court_rules/matter_dockets',
      clio: '/court_rules/matter_dockets',
      record: ['matter_docket', 'matter_dockets'],
      summaries: {
        list: 'List matter dockets (court rule deadlines calculated for cases)',
        get: 'Get a matter docket with its court rule deadlines',
        create: 'Calculate court rule deadlines for a matter (matter docket)',
        delete: 'Delete a matter docket and its court rule deadlines',
      },
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
        list: 'Lists matter dockets, the sets of court-rule deadlines calculated for matters from a jurisdiction’s trigger. Filter by matter_id, matter_status, service_type_id, status or query.',
        get: 'Returns one matter docket, the court-rule deadlines of a matter with its jurisdiction and trigger; the id comes from list_matter_dockets or create_matter_docket.',
        create:
          'Creates a matter docket: Clio computes the deadlines of the trigger in the jurisdiction from start_date and adds them to the calendar. jurisdiction, name, start_date and trigger are required; try preview_matter_docket first.',
        delete: 'Deletes a matter docket (id from list_matter_dockets), the court-rule deadline set of a matter. Answers 204 with no body.',
      },
    },
    {
      key: 'service_types',
      path: '/court_rules/service_types',
      clio: '/court_rules/service_types',
      record: ['service_type', 'service_types'],
      summaries: {
        list: 'List court rule service types (methods of service that shift deadlines)',
        get: 'Get a court rule service type',
      },
      verbs: ['list', 'get'],
      about: 'Court-rule service types (how a document was served), which shift deadlines.',
      fields: 'id,description,default',
      order: 'id(asc)',
      text: {
        list: 'Lists court-rule service types, the methods of service (mail, personal, electronic) that shift deadlines. Their ids go into preview_matter_docket’s service_type[id].',
        get: 'Returns one court-rule service type (a method of service); the id comes from list_service_types.',
      },
    },
  ],
  previewMatterDocket,
);
