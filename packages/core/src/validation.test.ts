import { describe, expect, it } from 'vitest';
import { CommaList, FreeObject, IntegerString, Params, StringEnum, Type } from './schema.js';
import { coerceParams, queryParams } from './validation.js';

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
