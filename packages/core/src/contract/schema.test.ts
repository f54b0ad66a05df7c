import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  atLeastOne,
  atMostOne,
  BooleanString,
  CommaList,
  DateString,
  IntegerString,
  integerRangePattern,
  Params,
  requires,
  ruleSentences,
  Type,
  together,
} from './schema.js';
import { compileParams, compilerReady } from './validation.js';

// Core loads typebox's compiler with the first validation; these tests call validators directly.
await compilerReady();

describe('integerRangePattern', () => {
  it('matches exactly the numbers of the range, written without sign or leading zeros', () => {
    const ranges: Array<[number, number | undefined]> = [
      [0, 0],
      [0, 9],
      [1, 1],
      [1, 20],
      [1, 200],
      [1, 250],
      [1, 999],
      [1, 1000],
      [7, 93],
      [15, 1234],
      [100, 100],
      [99, 101],
      [0, undefined],
      [1, undefined],
      [25, undefined],
    ];
    for (const [min, max] of ranges) {
      const pattern = new RegExp(`^(?:${integerRangePattern(min, max)})$`);
      for (let n = 0; n <= 1500; n++) {
        expect(pattern.test(String(n)), `${n} in ${min}..${max ?? '∞'} (${pattern})`).toBe(n >= min && (max === undefined || n <= max));
      }
      for (const text of ['', '-1', '01', '007', '1.0', ' 1', '1e2', 'x']) {
        expect(pattern.test(text), `${JSON.stringify(text)} against ${pattern}`).toBe(false);
      }
    }
  });

  it('refuses a reversed or negative range', () => {
    expect(() => integerRangePattern(5, 4)).toThrow(/bad range/);
    expect(() => integerRangePattern(-1, 4)).toThrow(/bad range/);
  });
});

describe('schema helpers for what the catalog types as strings', () => {
  const validator = compileParams(
    Params({
      page: Type.Optional(IntegerString({ minimum: 1, default: '1' })),
      per_page: Type.Optional(IntegerString({ minimum: 1, maximum: 250 })),
      fetchAll: Type.Optional(BooleanString()),
      start_date: Type.Optional(DateString()),
      types: Type.Optional(CommaList(['public_channel', 'private_channel'] as const)),
    }),
  );

  it.each([
    [{ page: '1', per_page: '250' }, true],
    [{ per_page: '251' }, false],
    [{ per_page: '0' }, false],
    [{ page: '01' }, false],
    [{ fetchAll: 'true' }, true],
    [{ fetchAll: 'yes' }, false],
    [{ start_date: '2024-02-29' }, true],
    [{ start_date: '2023-02-29' }, false],
    [{ start_date: '2024-2-1' }, false],
    [{ types: 'public_channel,private_channel' }, true],
    [{ types: 'public_channel,' }, false],
    [{ types: 'im' }, false],
  ])('%j valid: %s', (params, valid) => {
    expect(validator.check(params)).toBe(valid);
  });

  it('says in words what a patterned string must be, when a value is refused', () => {
    expect(validator.problems({ per_page: '251', start_date: '2023-02-29', types: 'public_channel,im' })).toEqual([
      'params.per_page: must be a whole number from 1 to 250',
      'params.start_date: must be a date written YYYY-MM-DD',
      'params.types: must be a comma-separated list of: public_channel, private_channel',
    ]);
    expect(validator.problems({ page: '0' })).toEqual(['params.page: must be a whole number, 1 or more']);
  });

  it('says what an integer string holds, in its description', () => {
    expect((IntegerString({ minimum: 1, maximum: 250, description: 'Records per page.' }) as { description?: string }).description).toBe(
      'Records per page. A whole number, 1 to 250, as a string.',
    );
    expect((CommaList(['daily', 'weekly'] as const) as { description?: string }).description).toBe(
      'Comma-separated, one or more of: daily, weekly.',
    );
  });
});

describe('cross-field rules', () => {
  const schema = Params(
    {
      parent: Type.Optional(Type.Object({})),
      discussion_id: Type.Optional(Type.String()),
      content: Type.Optional(Type.String()),
      content_base64: Type.Optional(Type.String()),
      start_date: Type.Optional(Type.String()),
      end_date: Type.Optional(Type.String()),
      filter_by: Type.Optional(Type.String()),
      filter_on: Type.Optional(Type.String()),
      name: Type.String(),
    },
    {
      rules: [
        atLeastOne('parent', 'discussion_id'),
        atMostOne('content', 'content_base64'),
        together('start_date', 'end_date'),
        requires('filter_on', 'filter_by'),
      ],
    },
  );
  const validator = compileParams(schema);

  it('are standard JSON Schema keywords, so any validator (and any reader of the schema) applies them', () => {
    const plain = Compile(JSON.parse(JSON.stringify(schema)));
    expect(plain.Check({ name: 'x', parent: {} })).toBe(true);
    expect(plain.Check({ name: 'x' })).toBe(false);
    expect(plain.Check({ name: 'x', discussion_id: 'd', content: 'a', content_base64: 'b' })).toBe(false);
    expect(plain.Check({ name: 'x', discussion_id: 'd', start_date: '2024-01-01' })).toBe(false);
  });

  it('are reported as the rules they are, alongside ordinary problems', () => {
    expect(validator.problems({})).toEqual(['params: give at least one of parent, discussion_id', 'params.name: is required']);
    expect(validator.problems({ name: 'x', parent: {}, content: 'a', content_base64: 'b', start_date: '2024-01-01' })).toEqual([
      'params: content and content_base64 cannot be given together',
      'params: start_date requires end_date',
    ]);
    expect(validator.check({ name: 'x', parent: {}, filter_by: 'email' })).toBe(true);
    expect(validator.problems({ name: 'x', parent: {}, filter_on: 'a@b.c' })).toEqual(['params: filter_on requires filter_by']);
  });

  it('read as sentences for documents', () => {
    expect(ruleSentences(JSON.parse(JSON.stringify(schema)))).toEqual([
      'Give at least one of parent, discussion_id.',
      'content and content_base64 cannot be given together.',
      'start_date requires end_date.',
      'end_date requires start_date.',
      'filter_on requires filter_by.',
    ]);
  });
});
