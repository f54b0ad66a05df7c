import { bodyInvalid, show, validationError } from './errors.js';
import { canonicalId, decodeOnce } from './ids.js';

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- rich text -----------------------------------------------------------------------------------------------------

const DEFAULT_ANNOTATIONS = { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' };

/** Names what a mention points at (a user's name, a page's title) for its plain_text. */
export type MentionLabel = (mention: Json) => string;

export function plainText(richText: unknown): string {
  if (!Array.isArray(richText)) return '';
  return richText.map((item) => (isObject(item) && typeof item.plain_text === 'string' ? item.plain_text : '')).join('');
}

/** A rich text object as Notion stores it, from a single string. */
export function textRun(content: string, link?: string): Json {
  return {
    type: 'text',
    text: { content, link: link ? { url: link } : null },
    annotations: { ...DEFAULT_ANNOTATIONS },
    plain_text: content,
    href: link ?? null,
  };
}

/** Rich text input (`[{ text: { content } }]`) → the full objects Notion stores and returns. */
export function toRichText(input: unknown, path: string, label: MentionLabel): Json[] {
  if (!Array.isArray(input)) throw bodyInvalid(path, `should be an array, instead was \`${show(input)}\``);
  if (input.length > 100) throw bodyInvalid(`${path}.length`, `should be ≤ \`100\`, instead was \`${input.length}\``);
  return input.map((item, i) => richTextItem(item, `${path}[${i}]`, label));
}

function richTextItem(item: unknown, path: string, label: MentionLabel): Json {
  if (!isObject(item)) throw bodyInvalid(path, `should be an object, instead was \`${show(item)}\``);
  const type =
    typeof item.type === 'string'
      ? item.type
      : 'text' in item
        ? 'text'
        : 'mention' in item
          ? 'mention'
          : 'equation' in item
            ? 'equation'
            : '';
  const annotations = { ...DEFAULT_ANNOTATIONS, ...(isObject(item.annotations) ? item.annotations : {}) };
  if (type === 'text') {
    const text = item.text;
    if (!isObject(text) || typeof text.content !== 'string')
      throw bodyInvalid(`${path}.text.content`, 'should be defined, instead was `undefined`');
    if (text.content.length > 2000) {
      throw bodyInvalid(`${path}.text.content.length`, `should be ≤ \`2000\`, instead was \`${text.content.length}\``);
    }
    const link = isObject(text.link) && typeof text.link.url === 'string' ? text.link.url : undefined;
    return { ...textRun(text.content, link), annotations };
  }
  if (type === 'mention' && isObject(item.mention)) {
    return { type: 'mention', mention: item.mention, annotations, plain_text: label(item.mention), href: null };
  }
  if (type === 'equation' && isObject(item.equation) && typeof item.equation.expression === 'string') {
    return {
      type: 'equation',
      equation: { expression: item.equation.expression },
      annotations,
      plain_text: item.equation.expression,
      href: null,
    };
  }
  throw bodyInvalid(path, 'should be a rich text object of type `text`, `mention` or `equation`');
}

// ---- database property schemas -------------------------------------------------------------------------------------

export interface PropertySchema extends Json {
  id: string;
  name: string;
  type: string;
}

export interface SelectOption extends Json {
  id: string;
  name: string;
  color: string;
}

export const PROPERTY_TYPES = new Set([
  'title',
  'rich_text',
  'number',
  'select',
  'multi_select',
  'status',
  'date',
  'people',
  'files',
  'checkbox',
  'url',
  'email',
  'phone_number',
  'formula',
  'relation',
  'rollup',
  'created_time',
  'created_by',
  'last_edited_time',
  'last_edited_by',
]);

const READ_ONLY_TYPES = new Set(['formula', 'rollup', 'created_time', 'created_by', 'last_edited_time', 'last_edited_by']);
const COLORS = new Set(['default', 'gray', 'brown', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'red']);

export interface SchemaContext {
  /** A new property id (title is always "title"). */
  newPropertyId(name: string): string;
  /** A new select/status option id. */
  newOptionId(name: string): string;
}

/** The type a property schema input names: `{ type: "select", select: {...} }` or just `{ select: {...} }`. */
export function schemaType(input: Json): string | undefined {
  if (typeof input.type === 'string') return PROPERTY_TYPES.has(input.type) ? input.type : undefined;
  return Object.keys(input).find((key) => PROPERTY_TYPES.has(key));
}

/** Property schema input → the stored schema. `existing` keeps the id and options of a column being changed. */
export function toPropertySchema(
  name: string,
  input: unknown,
  path: string,
  ctx: SchemaContext,
  existing?: PropertySchema,
): PropertySchema {
  if (!isObject(input)) throw bodyInvalid(path, `should be an object, instead was \`${show(input)}\``);
  const type = schemaType(input) ?? existing?.type;
  if (!type) throw bodyInvalid(path, 'should name a property type, e.g. `{ "rich_text": {} }`');
  const config = input[type] ?? {};
  if (!isObject(config)) throw bodyInvalid(`${path}.${type}`, `should be an object, instead was \`${show(config)}\``);
  const finalName = typeof input.name === 'string' && input.name.trim() ? input.name : name;
  const id = existing?.id ?? (type === 'title' ? 'title' : ctx.newPropertyId(finalName));
  const sameType = existing?.type === type;
  let stored: Json;
  // A rename ({ "name": "…" }) keeps the column's configuration.
  if (sameType && existing && !(type in input)) return { ...existing, name: finalName };
  switch (type) {
    case 'select':
    case 'multi_select':
    case 'status': {
      const previous = sameType && isObject(existing?.[type]) ? ((existing[type] as Json).options as SelectOption[]) : [];
      const options = [...previous];
      const given = config.options === undefined && type === 'status' && options.length === 0 ? DEFAULT_STATUS_OPTIONS : config.options;
      if (given !== undefined && !Array.isArray(given)) throw bodyInvalid(`${path}.${type}.options`, 'should be an array');
      (given ?? []).forEach((option: unknown, i: number) => {
        const where = `${path}.${type}.options[${i}]`;
        if (!isObject(option) || typeof option.name !== 'string' || !option.name)
          throw bodyInvalid(`${where}.name`, 'should be a non-empty string');
        if (option.name.includes(',')) throw bodyInvalid(`${where}.name`, 'should not contain commas');
        const color = option.color ?? 'default';
        if (typeof color !== 'string' || !COLORS.has(color))
          throw bodyInvalid(`${where}.color`, `should be a Notion color, instead was \`${show(color)}\``);
        const known = options.find((o) => o.name === option.name);
        if (known) known.color = color;
        else options.push({ id: ctx.newOptionId(`${finalName}/${option.name}`), name: option.name, color, description: null });
      });
      stored = type === 'status' ? { options, groups: statusGroups(options) } : { options };
      break;
    }
    case 'number':
      stored = { format: typeof config.format === 'string' ? config.format : 'number' };
      break;
    case 'relation': {
      const target = canonicalId(config.database_id);
      if (!target) throw bodyInvalid(`${path}.relation.database_id`, 'should be a valid uuid');
      stored = { database_id: target, type: 'single_property', single_property: {} };
      break;
    }
    default:
      stored = { ...config };
  }
  return { id, name: finalName, type, [type]: stored };
}

const DEFAULT_STATUS_OPTIONS = [
  { name: 'Not started', color: 'default' },
  { name: 'In progress', color: 'blue' },
  { name: 'Done', color: 'green' },
];

/** Notion files status options into three groups; the sandbox sorts them by the usual option names. */
function statusGroups(options: SelectOption[]): Json[] {
  const group = (option: SelectOption) =>
    /done|complete|shipped|closed/i.test(option.name) ? 2 : /progress|review|doing/i.test(option.name) ? 1 : 0;
  const groups: Array<[string, string]> = [
    ['To-do', 'gray'],
    ['In progress', 'blue'],
    ['Complete', 'green'],
  ];
  return groups.map(([name, color], index) => ({
    id: `group-${index}`,
    name,
    color,
    option_ids: options.filter((o) => group(o) === index).map((o) => o.id),
  }));
}

// ---- page property values ------------------------------------------------------------------------------------------

export interface ValueContext extends SchemaContext {
  user(id: string): Json | undefined;
  label: MentionLabel;
}

/** The value a new row holds for a column it was not given. */
export function emptyValue(schema: PropertySchema, page: { created_time: string; created_by: Json }): unknown {
  switch (schema.type) {
    case 'title':
    case 'rich_text':
    case 'multi_select':
    case 'people':
    case 'files':
    case 'relation':
      return [];
    case 'checkbox':
      return false;
    case 'status': {
      // New rows start at the first option of the "To-do" group, as in Notion.
      const config = schema.status as Json;
      const options = (config.options as SelectOption[]) ?? [];
      const todo = ((config.groups as Json[] | undefined)?.[0]?.option_ids as string[] | undefined) ?? [];
      const first = options.find((o) => todo.includes(o.id)) ?? options[0];
      return first ? { id: first.id, name: first.name, color: first.color } : null;
    }
    case 'created_time':
    case 'last_edited_time':
      return page.created_time;
    case 'created_by':
    case 'last_edited_by':
      return page.created_by;
    case 'formula':
      return { type: 'string', string: null };
    case 'rollup':
      return { type: 'number', number: null, function: 'count' };
    default:
      return null;
  }
}

export function propertyValue(schema: PropertySchema, value: unknown): Json {
  const out: Json = { id: schema.id, type: schema.type, [schema.type]: value };
  if (schema.type === 'relation') out.has_more = false;
  return out;
}

const ARRAY_SHORTHAND = new Set(['title', 'rich_text', 'multi_select', 'people', 'relation', 'files']);

/** A property value as given in a create/update body → the value stored under the property's type. */
export function toPropertyValue(schema: PropertySchema, input: unknown, path: string, ctx: ValueContext): unknown {
  const type = schema.type;
  let value: unknown;
  if (Array.isArray(input) && ARRAY_SHORTHAND.has(type)) value = input;
  else if (isObject(input) && type in input) value = input[type];
  else throw validationError(`${schema.name} is expected to be ${type}.`);
  if (READ_ONLY_TYPES.has(type)) throw validationError(`${schema.name} is a ${type} property, which cannot be set.`);
  const where = `${path}.${type}`;
  switch (type) {
    case 'title':
    case 'rich_text':
      return toRichText(value, where, ctx.label);
    case 'number':
      if (value === null || (typeof value === 'number' && Number.isFinite(value))) return value;
      throw bodyInvalid(where, `should be a number or \`null\`, instead was \`${show(value)}\``);
    case 'checkbox':
      if (typeof value === 'boolean') return value;
      throw bodyInvalid(where, `should be a boolean, instead was \`${show(value)}\``);
    case 'url':
    case 'email':
    case 'phone_number':
      if (value === null || typeof value === 'string') return value;
      throw bodyInvalid(where, `should be a string or \`null\`, instead was \`${show(value)}\``);
    case 'select':
    case 'status':
      return value === null ? null : chooseOption(schema, value, where, ctx);
    case 'multi_select':
      if (!Array.isArray(value)) throw bodyInvalid(where, `should be an array, instead was \`${show(value)}\``);
      return value.map((option, i) => chooseOption(schema, option, `${where}[${i}]`, ctx));
    case 'date':
      return value === null ? null : toDate(value, where);
    case 'people':
      if (!Array.isArray(value)) throw bodyInvalid(where, `should be an array, instead was \`${show(value)}\``);
      return value.map((person, i) => {
        const id = isObject(person) ? canonicalId(person.id) : undefined;
        const user = id ? ctx.user(id) : undefined;
        if (!user)
          throw bodyInvalid(
            `${where}[${i}].id`,
            `should be the id of a user, instead was \`${show(isObject(person) ? person.id : person)}\``,
          );
        return user;
      });
    case 'relation':
      if (!Array.isArray(value)) throw bodyInvalid(where, `should be an array, instead was \`${show(value)}\``);
      return value.map((item, i) => {
        const id = isObject(item) ? canonicalId(item.id) : undefined;
        if (!id) throw bodyInvalid(`${where}[${i}].id`, 'should be a valid uuid');
        return { id };
      });
    default:
      return value;
  }
}

function chooseOption(schema: PropertySchema, input: unknown, path: string, ctx: ValueContext): Json {
  const config = schema[schema.type] as Json;
  const options = config.options as SelectOption[];
  if (!isObject(input) || (typeof input.name !== 'string' && typeof input.id !== 'string')) {
    throw bodyInvalid(path, `should be an object with \`name\` or \`id\`, instead was \`${show(input)}\``);
  }
  const found = options.find((o) => (typeof input.id === 'string' ? o.id === input.id : o.name === input.name));
  if (found) return { id: found.id, name: found.name, color: found.color };
  // Select options are created on first use; status options only exist as configured in the database.
  if (schema.type === 'status' || typeof input.name !== 'string') {
    throw validationError(`Invalid ${schema.type} option ${show(input.name ?? input.id)} for property ${schema.name}.`);
  }
  const created: SelectOption = {
    id: ctx.newOptionId(`${schema.name}/${input.name}`),
    name: input.name,
    color: 'default',
    description: null,
  };
  options.push(created);
  return { id: created.id, name: created.name, color: created.color };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function toDate(value: unknown, path: string): Json {
  if (!isObject(value) || typeof value.start !== 'string' || !ISO_DATE.test(value.start)) {
    throw bodyInvalid(`${path}.start`, `should be an ISO 8601 date string, instead was \`${show(isObject(value) ? value.start : value)}\``);
  }
  const end = value.end ?? null;
  if (end !== null && (typeof end !== 'string' || !ISO_DATE.test(end)))
    throw bodyInvalid(`${path}.end`, 'should be an ISO 8601 date string or `null`');
  const timeZone = typeof value.time_zone === 'string' ? value.time_zone : null;
  return { start: value.start, end, time_zone: timeZone };
}

// ---- database query: filters and sorts -----------------------------------------------------------------------------

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
