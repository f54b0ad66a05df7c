import { describe, expect, it } from 'vitest';
import { assertInput, INPUT_LIMITS, inputProblem, jsonTextProblem, pathSegmentProblem } from './input-limits.js';
import { CommaList, FreeObject, IntegerString, Params, StringEnum, Type } from './schema.js';
import { coerceParams, compileParams, compilerReady, MAX_LISTED_PROBLEMS, problemList, queryParams } from './validation.js';

// Core loads typebox's compiler with the first validation; these tests call validators directly.
await compilerReady();

const schema = Params({
  limit: Type.Optional(IntegerString({ minimum: 1, maximum: 999 })),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  ratio: Type.Optional(Type.Number()),
  full: Type.Optional(Type.Boolean()),
  order: Type.Optional(StringEnum(['asc', 'desc'])),
  tags: Type.Optional(Type.Array(Type.Integer())),
  names: Type.Optional(Type.Array(Type.String())),
  types: Type.Optional(CommaList(['a', 'b'] as const)),
  filter: Type.Optional(FreeObject()),
  blocks: Type.Optional(Type.Array(FreeObject())),
});

describe('the one coercion rule', () => {
  it('turns a number or boolean given for a string into its string form', () => {
    expect(coerceParams(schema, { limit: 2, order: 'asc' })).toEqual({ limit: '2', order: 'asc' });
    expect(coerceParams(schema, { limit: '2' })).toEqual({ limit: '2' });
  });

  it('turns a string holding exactly a number into a number, and true/false into booleans', () => {
    expect(coerceParams(schema, { page: '3', ratio: '-0.5', full: 'true' })).toEqual({ page: 3, ratio: -0.5, full: true });
    expect(coerceParams(schema, { page: '3x', ratio: '1e3', full: 'yes' })).toEqual({ page: '3x', ratio: '1e3', full: 'yes' });
    expect(coerceParams(schema, { page: '' })).toEqual({ page: '' });
  });

  it('wraps a single scalar for an array and coerces the items', () => {
    expect(coerceParams(schema, { tags: '5', names: 'x' })).toEqual({ tags: [5], names: ['x'] });
    expect(coerceParams(schema, { tags: ['5', 6] })).toEqual({ tags: [5, 6] });
    expect(coerceParams(schema, { blocks: { type: 'paragraph' } })).toEqual({ blocks: { type: 'paragraph' } });
  });

  it('joins an array given for a comma-separated list, and parses a JSON object given as text', () => {
    expect(coerceParams(schema, { types: ['a', 'b'] })).toEqual({ types: 'a,b' });
    expect(coerceParams(schema, { filter: '{"x":1}' })).toEqual({ filter: { x: 1 } });
    expect(coerceParams(schema, { filter: '[1]' })).toEqual({ filter: '[1]' });
  });

  it('leaves unknown parameters and nested values alone, for validation to judge', () => {
    expect(coerceParams(schema, { nope: '1', filter: { page: '2' } })).toEqual({ nope: '1', filter: { page: '2' } });
  });
});

describe('query values', () => {
  it('accept key[] for arrays and keep the last of a repeated scalar', () => {
    expect(queryParams(schema, { 'tags[]': ['1', '2'], page: ['1', '4'], types: ['a', 'b'] })).toEqual({
      tags: ['1', '2'],
      page: '4',
      types: ['a', 'b'],
    });
  });
});

describe('validation messages', () => {
  const search = Params({ query: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()) });
  const unknown = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`extra_${i}`, 1]));

  it('name every unknown parameter, however many there are (the validator alone stops after 8)', () => {
    const problems = compileParams(search).problems(unknown(9));
    expect(problems).toHaveLength(9);
    expect(problems[8]).toBe('params.extra_8: is not a parameter of this operation');
  });

  it('list at most ten problems and count the rest', () => {
    const message = problemList(compileParams(search).problems(unknown(700)));
    expect(message.split('; ')).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(message).toMatch(/^params\.extra_0: is not a parameter of this operation; .*; … and 690 more$/);
    expect(problemList(['a', 'b'])).toBe('a; b');
  });

  it('shorten long key names', () => {
    const [problem] = compileParams(search).problems({ ['k'.repeat(10_000)]: 1 });
    expect(problem).toBe(`params.${'k'.repeat(39)}…: is not a parameter of this operation`);
  });
});

describe('input limits', () => {
  const wide = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
  const deep = (levels: number) => {
    let value: unknown = 1;
    for (let i = 1; i < levels; i++) value = { a: value };
    return { p: value } as Record<string, unknown>; // `levels` levels of objects, the params included
  };

  it('pass what calls send', () => {
    expect(inputProblem({ name: 'x', tags: ['a', 'b'], filter: { and: [{ property: 'Done', checkbox: { equals: true } }] } })).toBe(
      undefined,
    );
    expect(inputProblem(wide(INPUT_LIMITS.maxParams))).toBe(undefined);
    expect(inputProblem({ filter: wide(INPUT_LIMITS.maxKeys) })).toBe(undefined);
    expect(inputProblem(deep(INPUT_LIMITS.maxDepth))).toBe(undefined);
    expect(inputProblem({ items: Array.from({ length: INPUT_LIMITS.maxNodes - 2 }, () => 0) })).toBe(undefined);
  });

  it('name the limit a call passes, and its value', () => {
    expect(inputProblem(wide(201))).toBe('Too many parameters: 201 in the params, more than 200 (the limit)');
    expect(inputProblem({ filter: { and: wide(1001) } })).toBe(
      'Too many keys: params.filter.and has more than 1000 (the limit per object)',
    );
    expect(inputProblem(deep(65))).toBe('Too deeply nested: more than 64 levels of objects and arrays in the params (the limit)');
    expect(inputProblem({ items: Array.from({ length: INPUT_LIMITS.maxNodes }, () => 0) })).toBe(
      'Too many values: more than 100000 in the params (the limit)',
    );
    expect(inputProblem(deep(10_000), 'settings')).toMatch(/^Too deeply nested: .* in the settings/);
  });

  it.each([['__proto__'], ['constructor'], ['prototype']])('refuse %s as a key at any depth', (key) => {
    expect(inputProblem(JSON.parse(`{"${key}":{"limit":5}}`))).toMatch(new RegExp(`^Key not allowed: params\\.${key} `));
    expect(inputProblem(JSON.parse(`{"filter":{"and":[{"${key}":1}]}}`))).toMatch(
      new RegExp(`^Key not allowed: params\\.filter\\.and\\.0\\.${key} `),
    );
    expect(() => assertInput(JSON.parse(`{"${key}":1}`))).toThrow(expect.objectContaining({ code: 'bad_request' }));
  });

  it('read the same limits from JSON text before it is parsed', () => {
    const text = (value: unknown) => Buffer.from(JSON.stringify(value));
    expect(jsonTextProblem(text({ filter: wide(1001) }))).toBe(
      'Too many keys: an object in the request body has more than 1000 (the limit per object)',
    );
    expect(jsonTextProblem(text(deep(65)))).toBe(
      'Too deeply nested: more than 64 levels of objects and arrays in the request body (the limit)',
    );
    expect(jsonTextProblem(text(deep(65)), 'the request', { limits: { ...INPUT_LIMITS, maxDepth: 65 } })).toBe(undefined);
    expect(jsonTextProblem(text({ items: Array.from({ length: INPUT_LIMITS.maxNodes }, () => 0) }))).toMatch(/^Too many values/);
    for (const value of [
      { filter: wide(1000) },
      deep(64),
      { items: Array.from({ length: INPUT_LIMITS.maxNodes - 2 }, () => 0) },
      { s: `{"a":1,"b":[1,2,3],"c":"\\"}{,,,${',{['.repeat(5000)}` },
      { 'k"ey': 'va\\"l,ue', n: [true, false, null, -1.5e3, {}, []] },
      [],
      'text',
    ]) {
      expect(jsonTextProblem(text(value)), JSON.stringify(value).slice(0, 60)).toBe(inputProblem(value));
    }
  });

  it('refuse 700,000 keys from the text, in a small share of the time parsing it would take', () => {
    const body = Buffer.from(JSON.stringify(wide(700_000)));
    // Against the same machine's JSON.parse of the same text (no wall-clock threshold that a busy CI machine breaks).
    const parsing = performance.now();
    JSON.parse(body.toString('utf8'));
    const parseMs = performance.now() - parsing;
    const started = performance.now();
    expect(jsonTextProblem(body)).toMatch(/^Too many keys/);
    expect(performance.now() - started).toBeLessThan(parseMs / 4);
  });
});

describe('path parameters', () => {
  it.each([[''], ['.'], ['..'], ['a/b'], ['a\\b'], ['?x'], ['#x'], ['a\u0000'], ['a\nb'], ['\u007f']])('refuse %j', (value) => {
    expect(pathSegmentProblem(value)).toEqual(expect.any(String));
  });

  it.each([['abc'], ['...'], ['a.b'], ['USR 1&2'], ['é%20']])('accept %j', (value) => {
    expect(pathSegmentProblem(value)).toBe(undefined);
  });
});
