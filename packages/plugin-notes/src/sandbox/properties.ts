// Database property schemas: the columns of a database, as created and changed through the API.
import { bodyInvalid, show } from './errors.js';
import { canonicalId } from './ids.js';
import { isObject, type Json } from './json.js';

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

export const READ_ONLY_TYPES = new Set(['formula', 'rollup', 'created_time', 'created_by', 'last_edited_time', 'last_edited_by']);
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
