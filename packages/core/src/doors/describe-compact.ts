import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import { COMMA_LIST, EXPECTS } from '../contract/schema.js';
import { exampleParams, jsonSchema } from './describe.js';

/** The size a compact description is kept within, in bytes of its JSON: an assistant reads one before most first calls. */
export const COMPACT_DESCRIPTION_BUDGET = 4096;

export interface CompactDescription {
  service: string;
  method: string;
  summary: string;
  description: string;
  /** read, write or delete. */
  access: string;
  /** Whether calling it changes anything upstream (access is not read). */
  writes: boolean;
  http: { method: string; path: string };
  /** One line per parameter, by name: "type, required, one of …: what it is; e.g. …". */
  params: Record<string, string>;
  /** Rules between parameters, one sentence each ("at least one of: a, b"). */
  rules?: string[];
  example: { tool: string; arguments: { method: string; params: Record<string, unknown> } };
  /** How to get the JSON Schemas of the params and of the response. */
  full: string;
}

type Schema = Record<string, unknown>;

/** How long a parameter's line may be, tried in turn until the description fits the budget. */
const LINE_LIMITS = [220, 160, 120, 90, 70, 55, 40, 30, 0];
const EXAMPLE_LIMIT = 60;
const ENUM_LIMIT = 24;

/**
 * What `describe_method` answers by default: per parameter its type, whether it is required, its allowed values, an
 * example and one line of description; the JSON Schemas stay behind `detail: "full"`. Lines of the optional parameters
 * are shortened, then those of the required ones, until the whole answer fits COMPACT_DESCRIPTION_BUDGET.
 */
export function describeCompact(integration: RegisteredIntegration, operation: RegisteredOperation): CompactDescription {
  const definition = operation.definition;
  const schema = jsonSchema(definition.params);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rules = ruleSentences(schema);
  const base = {
    service: integration.service,
    method: operation.name,
    summary: definition.summary,
    description: definition.description,
    access: operation.access,
    writes: operation.access !== 'read',
    http: { method: definition.method, path: `/api/v1/${integration.service}${definition.path}` },
  };
  const example = { tool: `call_${integration.service}`, arguments: { method: operation.name, params: exampleParams(operation) } };
  const full = 'describe_method with detail "full" gives the JSON Schemas of params and response';
  // Each parameter's line starts at the longest; the longest line among the optional parameters (then among all) is
  // cut a step shorter until the answer fits.
  const names = Object.keys(properties);
  const steps = new Map(names.map((name) => [name, 0]));
  const lineOf = (name: string) => paramLine(name, properties[name] as Schema, required.has(name), LINE_LIMITS[steps.get(name) ?? 0] ?? 0);
  const params: Record<string, string> = Object.fromEntries(names.map((name) => [name, lineOf(name)]));
  const answer: CompactDescription = { ...base, params, ...(rules.length > 0 ? { rules } : {}), example, full };
  let size = Buffer.byteLength(JSON.stringify(answer));
  while (size > COMPACT_DESCRIPTION_BUDGET) {
    const shortenable = (name: string) => (steps.get(name) ?? 0) < LINE_LIMITS.length - 1;
    const candidates = names.filter((name) => shortenable(name) && !required.has(name));
    const pool = candidates.length > 0 ? candidates : names.filter(shortenable);
    if (pool.length === 0) break;
    const longest = pool.reduce((a, b) => ((params[b] ?? '').length > (params[a] ?? '').length ? b : a));
    const before = Buffer.byteLength(JSON.stringify(params[longest]));
    steps.set(longest, (steps.get(longest) ?? 0) + 1);
    params[longest] = lineOf(longest);
    size += Buffer.byteLength(JSON.stringify(params[longest])) - before;
  }
  return answer;
}

/** "string, required, one of: a, b: Matter status; e.g. \"open\"", the description cut to `limit` characters. */
export function paramLine(name: string, schema: Schema, required: boolean, limit: number): string {
  const head = [typeOf(schema)];
  if (required) head.push('required');
  const values = allowedValues(schema);
  if (values.length > 0) {
    const shown = values.slice(0, ENUM_LIMIT).map(String).join(', ');
    head.push(`one of: ${shown}${values.length > ENUM_LIMIT ? `, … (${values.length} values)` : ''}`);
  }
  if (schema.default !== undefined) head.push(`default ${JSON.stringify(schema.default)}`);
  // What a patterned string holds ("a whole number from 1 to 200") is cut with the description when space is short.
  const expects = values.length === 0 && typeof schema[EXPECTS] === 'string' ? `${schema[EXPECTS] as string}. ` : '';
  const description = typeof schema.description === 'string' && !saysOnlyName(name, schema.description) ? schema.description : '';
  const text = oneLine(`${expects}${description}`, limit).replace(/[.;,:]+$/, '');
  const sample = (schema.examples as unknown[] | undefined)?.[0];
  const shownSample = sample === undefined ? '' : JSON.stringify(sample);
  const eg = limit > 0 && shownSample && shownSample.length <= EXAMPLE_LIMIT ? `; e.g. ${shownSample}` : '';
  return `${head.join(', ')}${text ? `: ${text}` : ''}${eg}`;
}

/** A description that only repeats the parameter's name ("First name" of first_name) says nothing more. */
const saysOnlyName = (name: string, description: string) =>
  description.toLowerCase().replace(/[^a-z0-9]/g, '') === name.toLowerCase().replace(/[^a-z0-9]/g, '');

function typeOf(schema: Schema): string {
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options) {
    const kinds = [...new Set(options.map((option) => (option.const !== undefined ? typeof option.const : typeOf(option))))];
    return kinds.join(' or ');
  }
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  if (schema.type === 'array') return `array of ${typeOf((schema.items ?? {}) as Schema)}`;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (typeof schema.type === 'string') return `${schema.type}${format}`;
  if (schema.const !== undefined) return typeof schema.const;
  return 'any';
}

function allowedValues(schema: Schema): unknown[] {
  if (Array.isArray(schema[COMMA_LIST])) return [];
  if (Array.isArray(schema.enum)) return schema.enum;
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options?.every((option) => option.const !== undefined)) return options.map((option) => option.const);
  if (schema.type === 'array') return allowedValues((schema.items ?? {}) as Schema);
  return [];
}

/** The description's first sentences that fit `limit` characters, else its first `limit` characters up to a word. */
function oneLine(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (limit <= 0) return '';
  if (flat.length <= limit) return flat;
  let kept = '';
  for (const sentence of flat.split(/(?<=[.;])\s/)) {
    if ((kept ? kept.length + 1 : 0) + sentence.length > limit) break;
    kept = kept ? `${kept} ${sentence}` : sentence;
  }
  if (kept) return kept;
  const cut = flat.slice(0, limit);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), limit / 2))}…`;
}

/** The cross-field rules of a params schema (as `Params` writes them), one sentence each. */
function ruleSentences(schema: Schema): string[] {
  const out: string[] = [];
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
    const anyOf = part.anyOf as Array<{ required?: string[] }> | undefined;
    const not = part.not as { required?: string[] } | undefined;
    if (anyOf) out.push(`at least one of: ${anyOf.flatMap((option) => option.required ?? []).join(', ')}`);
    else if (not?.required) out.push(`not both ${not.required.join(' and ')}`);
  }
  const dependent = (schema.dependentRequired ?? {}) as Record<string, string[]>;
  for (const [name, needs] of Object.entries(dependent)) out.push(`${name} needs ${needs.join(', ')}`);
  return out;
}
