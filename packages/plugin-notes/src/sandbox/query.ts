// Database queries: filters and sorts compiled against a database's schema.
import { bodyInvalid, show, validationError } from './errors.js';
import { canonicalId, decodeOnce } from './ids.js';
import { isObject, type Json } from './json.js';
import type { PropertySchema, SelectOption } from './properties.js';
import { plainText } from './rich-text.js';
import { ISO_DATE } from './values.js';

export interface Row {
  properties: Record<string, Json>;
  created_time: string;
  last_edited_time: string;
}

type Schema = Record<string, PropertySchema>;

export function findProperty(schema: Schema, nameOrId: unknown): PropertySchema | undefined {
  if (typeof nameOrId !== 'string') return undefined;
  return schema[nameOrId] ?? Object.values(schema).find((p) => p.id === nameOrId || decodeOnce(p.id) === decodeOnce(nameOrId));
}

function cellOf(row: Row, property: PropertySchema): unknown {
  return row.properties[property.name]?.[property.type];
}

const TEXT_TYPES = new Set(['title', 'rich_text', 'url', 'email', 'phone_number']);
const FILTER_DEPTH = 2;

/** Compiles a Notion filter into a predicate, refusing what Notion refuses (unknown properties, mismatched types). */
export function compileFilter(filter: unknown, schema: Schema, path = 'body.filter', depth = 0): (row: Row) => boolean {
  if (!isObject(filter)) throw bodyInvalid(path, `should be an object, instead was \`${show(filter)}\``);
  for (const compound of ['and', 'or'] as const) {
    if (compound in filter) {
      if (depth >= FILTER_DEPTH) throw bodyInvalid(path, 'should not nest compound filters more than two levels deep');
      const parts = filter[compound];
      if (!Array.isArray(parts)) throw bodyInvalid(`${path}.${compound}`, 'should be an array');
      const predicates = parts.map((part, i) => compileFilter(part, schema, `${path}.${compound}[${i}]`, depth + 1));
      return compound === 'and' ? (row) => predicates.every((p) => p(row)) : (row) => predicates.some((p) => p(row));
    }
  }
  if (filter.timestamp === 'created_time' || filter.timestamp === 'last_edited_time') {
    const key = filter.timestamp;
    const test = compileCondition('date', filter[key], `${path}.${key}`);
    return (row) => test({ start: row[key] });
  }
  const property = findProperty(schema, filter.property);
  if (!property) throw validationError(`Could not find property with name or id: ${String(filter.property)}`);
  const key = Object.keys(filter).find((k) => k !== 'property');
  if (!key) throw bodyInvalid(path, `should define a condition for property ${property.name}`);
  const compatible =
    key === property.type || (TEXT_TYPES.has(key) && TEXT_TYPES.has(property.type) && (key === 'rich_text' || key === 'title'));
  if (!compatible) throw validationError(`database property ${property.type} does not match filter ${key}`);
  const test = compileCondition(property.type, filter[key], `${path}.${key}`);
  return (row) => test(cellOf(row, property));
}

function compileCondition(type: string, condition: unknown, path: string): (value: unknown) => boolean {
  if (!isObject(condition)) throw bodyInvalid(path, `should be an object, instead was \`${show(condition)}\``);
  const operators = Object.keys(condition);
  const operator = operators[0];
  if (operators.length !== 1 || operator === undefined) throw bodyInvalid(path, 'should define exactly one condition');
  const operand = condition[operator];
  const unsupported = () => bodyInvalid(`${path}.${operator}`, `is not a supported condition for a ${type} property`);
  if (operator === 'is_empty' || operator === 'is_not_empty') {
    if (operand !== true) throw bodyInvalid(`${path}.${operator}`, 'should be `true`');
    const wantEmpty = operator === 'is_empty';
    return (value) => isEmpty(type, value) === wantEmpty;
  }
  if (TEXT_TYPES.has(type)) {
    if (typeof operand !== 'string') throw bodyInvalid(`${path}.${operator}`, 'should be a string');
    const needle = operand.toLowerCase();
    const text = (value: unknown) => (Array.isArray(value) ? plainText(value) : typeof value === 'string' ? value : '').toLowerCase();
    const tests: Record<string, (v: string) => boolean> = {
      equals: (v) => v === needle,
      does_not_equal: (v) => v !== needle,
      contains: (v) => v.includes(needle),
      does_not_contain: (v) => !v.includes(needle),
      starts_with: (v) => v.startsWith(needle),
      ends_with: (v) => v.endsWith(needle),
    };
    const test = tests[operator];
    if (!test) throw unsupported();
    return (value) => test(text(value));
  }
  switch (type) {
    case 'checkbox': {
      if (typeof operand !== 'boolean') throw bodyInvalid(`${path}.${operator}`, 'should be a boolean');
      if (operator === 'equals') return (value) => value === operand;
      if (operator === 'does_not_equal') return (value) => value !== operand;
      throw unsupported();
    }
    case 'number': {
      if (typeof operand !== 'number') throw bodyInvalid(`${path}.${operator}`, 'should be a number');
      const tests: Record<string, (v: number) => boolean> = {
        equals: (v) => v === operand,
        does_not_equal: (v) => v !== operand,
        greater_than: (v) => v > operand,
        less_than: (v) => v < operand,
        greater_than_or_equal_to: (v) => v >= operand,
        less_than_or_equal_to: (v) => v <= operand,
      };
      const test = tests[operator];
      if (!test) throw unsupported();
      return (value) => (typeof value === 'number' ? test(value) : operator === 'does_not_equal');
    }
    case 'select':
    case 'status': {
      if (typeof operand !== 'string') throw bodyInvalid(`${path}.${operator}`, 'should be a string');
      const name = (value: unknown) => (isObject(value) ? value.name : undefined);
      if (operator === 'equals') return (value) => name(value) === operand;
      if (operator === 'does_not_equal') return (value) => name(value) !== operand;
      throw unsupported();
    }
    case 'multi_select':
    case 'people':
    case 'relation': {
      if (typeof operand !== 'string') throw bodyInvalid(`${path}.${operator}`, 'should be a string');
      const has = (value: unknown) =>
        Array.isArray(value) &&
        value.some((item) => isObject(item) && (type === 'multi_select' ? item.name === operand : item.id === canonicalId(operand)));
      if (operator === 'contains') return has;
      if (operator === 'does_not_contain') return (value) => !has(value);
      throw unsupported();
    }
    case 'date': {
      if (typeof operand !== 'string' || !ISO_DATE.test(operand))
        throw bodyInvalid(`${path}.${operator}`, 'should be an ISO 8601 date string');
      const dateOnly = operand.length === 10;
      const key = (start: string) => (dateOnly ? start.slice(0, 10) : new Date(start).toISOString());
      const target = dateOnly ? operand : new Date(operand).toISOString();
      const tests: Record<string, (v: string) => boolean> = {
        equals: (v) => v === target,
        before: (v) => v < target,
        after: (v) => v > target,
        on_or_before: (v) => v <= target,
        on_or_after: (v) => v >= target,
      };
      const test = tests[operator];
      if (!test) throw unsupported();
      return (value) => isObject(value) && typeof value.start === 'string' && test(key(value.start));
    }
    default:
      throw unsupported();
  }
}

function isEmpty(type: string, value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return type === 'title' || type === 'rich_text' ? plainText(value) === '' : value.length === 0;
  return false;
}

/** Compiles Notion sorts into a comparator; empty values sort last in either direction, as in Notion. */
export function compileSorts(sorts: unknown, schema: Schema): (a: Row, b: Row) => number {
  if (!Array.isArray(sorts)) throw bodyInvalid('body.sorts', `should be an array, instead was \`${show(sorts)}\``);
  const keys = sorts.map((sort, i) => {
    const path = `body.sorts[${i}]`;
    if (!isObject(sort)) throw bodyInvalid(path, 'should be an object');
    if (sort.direction !== 'ascending' && sort.direction !== 'descending') {
      throw bodyInvalid(`${path}.direction`, `should be \`"ascending"\` or \`"descending"\`, instead was \`${show(sort.direction)}\``);
    }
    const sign = sort.direction === 'ascending' ? 1 : -1;
    if (sort.timestamp !== undefined) {
      if (sort.timestamp !== 'created_time' && sort.timestamp !== 'last_edited_time') {
        throw bodyInvalid(
          `${path}.timestamp`,
          `should be \`"created_time"\` or \`"last_edited_time"\`, instead was \`${show(sort.timestamp)}\``,
        );
      }
      const timestamp = sort.timestamp;
      return { sign, key: (row: Row): string | number | undefined => row[timestamp] };
    }
    const property = findProperty(schema, sort.property);
    if (!property) throw validationError(`Could not find sort property with name or id: ${String(sort.property)}`);
    return { sign, key: (row: Row) => sortKey(property, cellOf(row, property)) };
  });
  return (a, b) => {
    for (const { sign, key } of keys) {
      const x = key(a);
      const y = key(b);
      if (x === y) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    return 0;
  };
}

function sortKey(property: PropertySchema, value: unknown): string | number | undefined {
  if (value === null || value === undefined) return undefined;
  switch (property.type) {
    case 'title':
    case 'rich_text': {
      const text = plainText(value).toLowerCase();
      return text === '' ? undefined : text;
    }
    case 'number':
      return typeof value === 'number' ? value : undefined;
    case 'checkbox':
      return value === true ? 1 : 0;
    case 'select':
    case 'status': {
      // Notion orders select and status values by the order of the options, not alphabetically.
      const options = ((property[property.type] as Json).options as SelectOption[]) ?? [];
      const index = isObject(value) ? options.findIndex((o) => o.id === value.id) : -1;
      return index === -1 ? undefined : index;
    }
    case 'date':
      return isObject(value) && typeof value.start === 'string' ? value.start : undefined;
    default:
      return typeof value === 'string' && value !== '' ? value.toLowerCase() : undefined;
  }
}
