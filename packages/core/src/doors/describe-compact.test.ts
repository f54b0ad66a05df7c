import { describe, expect, it } from 'vitest';
import { defineOperation } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { Params, StringEnum, Type } from '../contract/schema.js';
import { examplePlugin } from '../testing/example-plugin.js';
import { COMPACT_DESCRIPTION_BUDGET, describeCompact } from './describe-compact.js';

const long = 'What this field holds, said at length so that a hundred of them cannot fit. '.repeat(3);
const wide = definePlugin({
  ...examplePlugin,
  service: 'wide',
  operations: [
    defineOperation({
      name: 'create_record',
      method: 'POST',
      path: '/records',
      summary: 'Create a record',
      description: 'Creates a record with many fields.',
      params: Params(
        Object.fromEntries([
          ['title', Type.String({ description: 'Title of the record.', examples: ['Smith v. Jones'] })],
          ['kind', Type.Optional(StringEnum(['open', 'closed'], { description: 'Kind of record.' }))],
          ...Array.from({ length: 100 }, (_, i) => [`field_${i}`, Type.Optional(Type.String({ description: long }))]),
        ]),
      ),
      upstream: { method: 'POST', path: '/records' },
    }),
  ],
});

function described(plugin: typeof wide, method: string) {
  const registry = new Registry();
  registry.register(plugin);
  const integration = registry.get(plugin.service);
  const operation = integration?.operations.get(method);
  if (!integration || !operation) throw new Error(`no ${method}`);
  return describeCompact(integration, operation);
}

describe('compact operation descriptions', () => {
  it('keeps an operation with a hundred long parameters within the budget, the required ones described first', () => {
    const answer = described(wide, 'create_record');
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(COMPACT_DESCRIPTION_BUDGET);
    expect(Object.keys(answer.params)).toHaveLength(102);
    expect(answer.params.title).toBe('string, required: Title of the record; e.g. "Smith v. Jones"');
    expect(answer.params.kind).toMatch(/^string, one of: open, closed/);
    expect(answer).toMatchObject({ access: 'write', writes: true, http: { method: 'POST', path: '/api/v1/wide/records' } });
  });

  it('says each parameter whole when there is room', () => {
    const answer = described(examplePlugin, 'list_items');
    expect(answer.params.limit).toBe('integer: Page size');
    expect(answer.params.status).toBe('string, one of: open, closed');
    expect(answer.writes).toBe(false);
  });
});
