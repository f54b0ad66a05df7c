import type { TLocalizedValidationError } from 'typebox/error';
import { brokenRules, COMMA_LIST, EXPECTS, type TObject, type TSchema } from './schema.js';

export interface CompiledParams {
  check(value: unknown): boolean;
  /** Human-readable problems, each naming the parameter (`params.limit: must be <= 200`). */
  problems(value: unknown): string[];
}

type Compiler = typeof import('typebox/compile');
let compiler: Compiler | undefined;
let compilerLoading: Promise<void> | undefined;

/**
 * typebox's compiler, imported by the first validation rather than with core: it is about 300 modules, a tenth of the
 * gateway's start-up. Every path that validates awaits this before its first validator runs; it returns `undefined`
 * once the compiler is loaded, so that those paths stay synchronous after the first call. `@portico/core/testing` loads
 * it when imported, for tests that call validators directly.
 */
export function compilerReady(): Promise<void> | undefined {
  if (compiler) return undefined;
  compilerLoading ??= import('typebox/compile').then((loaded) => {
    compiler = loaded;
  });
  return compilerLoading;
}

function loadedCompiler(): Compiler {
  if (!compiler) throw new Error("typebox's compiler is not loaded yet: await compilerReady() before the first validation");
  return compiler;
}

/**
 * A validator for an operation's parameters, compiled on its first use and kept: compiling generates code, and a
 * gateway with hundreds of operations would otherwise spend a good part of its start-up compiling validators for
 * operations nobody calls (about 0.3 ms each). Call it after `compilerReady()` has resolved.
 */
export function compileParams(schema: TObject): CompiledParams {
  let validator: ReturnType<Compiler['Compile']> | undefined;
  const compiled = () => {
    validator ??= loadedCompiler().Compile(schema);
    return validator;
  };
  return {
    check: (value) => compiled().Check(value),
    problems: (value) => describeErrors(schema, value, compiled().Errors(value)),
  };
}

/** A key as it appears in a problem's path: long keys shortened, so that a message stays short. */
export const shownKey = (key: string) => (key.length > 40 ? `${key.slice(0, 39)}…` : key);

function describeErrors(schema: TObject, value: unknown, errors: readonly TLocalizedValidationError[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (line: string) => {
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
  };
  // The validator stops after a few errors (8), so unknown parameters are listed from the value itself, all of them:
  // otherwise 8 unknown names fill the error list with `schema is false` lines and the message names none.
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (
    (schema as { additionalProperties?: unknown }).additionalProperties === false &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value)
  ) {
    for (const name of Object.keys(value)) {
      if (!Object.hasOwn(properties, name)) push(`params.${shownKey(name)}: is not a parameter of this operation`);
    }
  }
  // anyOf/const children repeat what the parent says.
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  // Cross-field rules at the top level are reported as the rules they are (see `Params`), not as anyOf/not wording;
  // the `required` errors of their branches are not about parameters the schema requires.
  const topRequired = new Set((schema.required as string[] | undefined) ?? []);
  const rules = typeof value === 'object' && value !== null ? brokenRules(schema as never, value as Record<string, unknown>) : [];
  for (const rule of rules) push(`params: ${rule}`);
  const ruleKeywords = new Set(['anyOf', 'not', 'allOf', 'dependentRequired']);
  for (const error of errors) {
    const where = ['params', ...error.instancePath.split('/').slice(1).map(shownKey)].join('.');
    const params = error.params as Record<string, unknown>;
    if (rules.length > 0 && error.instancePath === '' && (ruleKeywords.has(error.keyword) || error.keyword === 'required')) {
      if (error.keyword !== 'required') continue;
      for (const name of (params.requiredProperties as string[]) ?? []) if (topRequired.has(name)) push(`${where}.${name}: is required`);
      continue;
    }
    switch (error.keyword) {
      case 'required':
        for (const name of (params.requiredProperties as string[]) ?? []) push(`${where}.${name}: is required`);
        break;
      case 'additionalProperties':
        if (error.instancePath === '') break; // listed above, all of them
        for (const name of (params.additionalProperties as string[]) ?? []) {
          push(`${where}.${shownKey(name)}: is not a parameter of this operation`);
        }
        break;
      case 'boolean':
        // `schema is false` under a nested additionalProperties: the value at instancePath is an unknown key there.
        if (error.schemaPath !== '#/additionalProperties' && error.schemaPath.endsWith('/additionalProperties')) {
          push(`${where}: is not a parameter of this operation`);
        }
        break;
      case 'enum':
        push(`${where}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      case 'const':
        if (!anyOfPaths.has(error.instancePath)) push(`${where}: ${error.message}`);
        break;
      case 'anyOf':
        push(`${where}: does not match any allowed form`);
        break;
      case 'pattern':
      case 'format': {
        const expects = schemaAt(schema, error.instancePath)?.[EXPECTS];
        push(typeof expects === 'string' ? `${where}: must be ${expects}` : `${where}: ${error.message}`);
        break;
      }
      default:
        push(`${where}: ${error.message}`);
    }
  }
  return out;
}

/** Most problems a validation message lists; the rest are counted (`… and 12 more`). */
export const MAX_LISTED_PROBLEMS = 10;

/**
 * The problems of a validation failure as one message part: at most {@link MAX_LISTED_PROBLEMS}, then how many more
 * there are. Every validation message (operation params, settings, admin bodies) is built with it, so that a wide
 * input never makes a message as long as the input (key names in the problems are shortened, see `shownKey`).
 */
export function problemList(problems: readonly string[], max: number = MAX_LISTED_PROBLEMS): string {
  const shown = problems.slice(0, max);
  if (shown.length === 0) return 'they do not match what the operation takes';
  const more = problems.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; … and ${more} more` : shown.join('; ');
}

/** The schema of the value at a JSON pointer (`/limit`, `/tags/0`): through properties and array items. */
function schemaAt(schema: TSchema, pointer: string): Record<string, unknown> | undefined {
  let node = schema as Record<string, unknown> | undefined;
  for (const segment of pointer.split('/').slice(1)) {
    if (!node) return undefined;
    if (node.type === 'array') node = node.items as Record<string, unknown> | undefined;
    else
      node = (node.properties as Record<string, Record<string, unknown>> | undefined)?.[
        segment.replaceAll('~1', '/').replaceAll('~0', '~')
      ];
  }
  return node;
}

/**
 * Shapes query-string values (strings, or arrays of strings for repeated keys) before the one coercion rule:
 * `tags[]=a&tags[]=b` counts as `tags` when the schema names `tags`, and a scalar parameter given twice keeps its last
 * value, as most web frameworks do. Nothing else is query-specific: `coerceParams` does the rest for every door.
 */
export function queryParams(schema: TObject, values: Readonly<Record<string, string | string[]>>): Record<string, unknown> {
  const properties = schema.properties as Record<string, TSchema>;
  const out: Record<string, unknown> = {};
  for (const [rawKey, raw] of Object.entries(values)) {
    const key = !(rawKey in properties) && rawKey.endsWith('[]') && rawKey.slice(0, -2) in properties ? rawKey.slice(0, -2) : rawKey;
    const property = properties[key] as Record<string, unknown> | undefined;
    const many = property?.type === 'array' || Array.isArray(property?.[COMMA_LIST]);
    out[key] = Array.isArray(raw) && property && !many ? raw[raw.length - 1] : raw;
  }
  return out;
}

/**
 * The one coercion rule, applied to the parameters of every call whichever door brought them (MCP arguments, REST
 * JSON body, REST query string and path), before validation against the operation's schema:
 * - where the schema declares a string, a JSON number or boolean becomes its string form (`2` → `"2"`); for a
 *   comma-separated list an array of strings is joined with commas;
 * - where it declares an integer or number, a string holding exactly a decimal number becomes that number;
 * - where it declares a boolean, `"true"` and `"false"` become booleans;
 * - where it declares an array, a single string, number or boolean becomes a one-element array, and the items
 *   follow these rules;
 * - where it declares an object, a string holding a JSON object is parsed.
 * Anything else is left as it is, so that validation reports it against the declared type. Only top-level
 * parameters (and array items) are coerced: nested objects are upstream payloads and pass as given.
 */
export function coerceParams(schema: TObject, params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    const property = properties[key];
    out[key] = property ? coerceValue(property, value) : value;
  }
  return out;
}

const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

function coerceValue(schema: Record<string, unknown>, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  switch (schema.type) {
    case 'string':
      if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
      if (Array.isArray(value) && Array.isArray(schema[COMMA_LIST]) && value.every((item) => typeof item === 'string')) {
        return value.join(',');
      }
      return value;
    case 'integer':
    case 'number':
      return typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value.trim()) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'array': {
      const items = (schema.items ?? {}) as Record<string, unknown>;
      if (Array.isArray(value)) return value.map((item) => coerceValue(items, item));
      return typeof value === 'object' ? value : [coerceValue(items, value)];
    }
    case 'object':
      return typeof value === 'string' ? parseJsonObject(value) : value;
    default:
      return value;
  }
}

function parseJsonObject(raw: string): unknown {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : raw;
  } catch {
    return raw;
  }
}
