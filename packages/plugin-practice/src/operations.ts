import { defineOperation, type OperationDefinition, Params, Type } from '@portico/core';
import { COLLECTIONS } from './collections.js';
import { withExamples } from './examples.js';
import { collectionOperations } from './factory.js';
import { aToFOperations } from './operations-a-f.js';
import { operationsGZ } from './operations-g-z.js';
import { Day, IdFilter, Moment, Text } from './schemas.js';

const notNull = { nullable: false } as const;

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
    'list_service_types) and the start date (and start_time for triggers that need one). The answer is Clio’s JSON as it ' +
    'comes. Then create_matter_docket with the same values creates the docket.',
  params: Params({
    event_prefix: Type.Optional(Text('Prefix added to the title of every event.')),
    'jurisdiction[id]': Type.Optional(IdFilter('Jurisdiction (ids from list_jurisdictions).', notNull)),
    'service_type[id]': Type.Optional(IdFilter('Service type (ids from list_service_types).', notNull)),
    'trigger[id]': Type.Optional(IdFilter('Trigger (ids from list_jurisdictions_to_triggers).', notNull)),
    start_date: Type.Optional(Day('Date of the triggering event')),
    start_time: Type.Optional(Moment('Time of the triggering event')),
  }),
  upstream: (params) => {
    const query = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)) as Record<string, string>;
    return { method: 'GET', path: '/court_rules/matter_dockets/preview.json', ...(Object.keys(query).length > 0 ? { query } : {}) };
  },
});

/** The operations of the collection table, in its order, with the special ones where their collection is. */
export function practiceOperations(): OperationDefinition[] {
  const out: OperationDefinition[] = [];
  for (const row of COLLECTIONS) {
    if (row.key === 'matter_dockets') out.push(previewMatterDocket);
    out.push(...collectionOperations(row));
  }
  out.push(...operationsGZ());
  out.push(...aToFOperations());
  return withExamples(out);
}
