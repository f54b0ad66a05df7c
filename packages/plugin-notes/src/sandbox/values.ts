// Page property values: the cells of a page, checked against its database's schema.
import { bodyInvalid, show, validationError } from './errors.js';
import { canonicalId } from './ids.js';
import { isObject, type Json } from './json.js';
import { type PropertySchema, READ_ONLY_TYPES, type SchemaContext, type SelectOption } from './properties.js';
import { type MentionLabel, toRichText } from './rich-text.js';

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

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

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
