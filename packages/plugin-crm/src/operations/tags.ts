import { atLeastOne, atMostOne, defineOperation, Params, Type } from '@portico/core/plugin';
import { BodyId, GenericRecord, One, Paged, Unstructured } from '../schemas.js';
import { withNumericIds } from '../upstream.js';
import { getOperation, listOperation } from './kit.js';

const Tag = GenericRecord('A tag');

// The catalog names get_tag and its id parameter but not its path; /tags/:id is the path of the collection's other
// records (and Lawmatics' own).
export const getTag = getOperation({
  name: 'get_tag',
  path: '/tags/:id',
  upstreamPath: '/tags/:id',
  summary: "Get a tag's name, color and description",
  description: 'Returns one tag: its name, color, description and timestamps.',
  id: { what: 'Tag', from: 'list_tags', example: '3' },
  response: One(Tag, 'The tag'),
});

// ---- beyond the catalog's table --------------------------------------------------------------------------------------

export const listTags = listOperation({
  name: 'list_tags',
  path: '/tags',
  upstreamPath: '/tags',
  summary: "List the firm's tags and the records they flag",
  description:
    "Lists the firm's tags (name, color, description). Filter by matter_id, contact_id, company_id or task_id for " +
    'the tags of one record, or by name to find a tag before attaching it.',
  response: Paged(Tag, 'A page of tags'),
  example: { filter_by: 'matter_id', filter_on: '5101' },
});

const TARGETS = ['matter_id', 'contact_id', 'company_id', 'task_id'] as const;

function tagParams(verb: string) {
  return Params(
    {
      matter_id: Type.Optional(BodyId(`Prospect (matter) to ${verb}`, '5106')),
      contact_id: Type.Optional(BodyId(`Contact to ${verb}`)),
      company_id: Type.Optional(BodyId(`Company to ${verb}`)),
      task_id: Type.Optional(BodyId(`Task to ${verb}`)),
      tags: Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        description: 'Tag names',
        examples: [['Needs Follow-up', 'Spanish Speaking']],
      }),
    },
    { rules: [atLeastOne(...TARGETS), atMostOne(...TARGETS)] },
  );
}

export const attachTags = defineOperation({
  name: 'attach_tags',
  method: 'POST',
  path: '/tags/attach',
  summary: 'Tag (flag) a prospect, contact, company or task',
  description:
    'Attaches tags by name to one record: a matter (matter_id), a contact, a company or a task; a tag that does ' +
    'not exist yet is created. Tags drive filters and automations, e.g. a "Spanish Speaking" tag routing ' +
    'follow-ups.',
  params: tagParams('tag'),
  response: Unstructured('What Lawmatics answers'),
  // Lawmatics' API reference types matter_id as a JSON number.
  upstream: withNumericIds({ method: 'POST', path: '/tags/attach' }, ['matter_id']),
  example: { matter_id: '5106', tags: ['Needs Follow-up', 'Spanish Speaking'] },
});

export const detachTags = defineOperation({
  name: 'detach_tags',
  method: 'POST',
  path: '/tags/detach',
  summary: 'Remove tags from a prospect, contact, company or task',
  description:
    'Detaches tags by name from one record: a matter (matter_id), a contact, a company or a task. A name the ' +
    'record does not carry is ignored.',
  params: tagParams('untag'),
  response: Unstructured('What Lawmatics answers'),
  upstream: withNumericIds({ method: 'POST', path: '/tags/detach' }, ['matter_id']),
  example: { matter_id: '5103', tags: ['Needs Follow-up'] },
});
