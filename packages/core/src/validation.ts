import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { Value } from 'typebox/value';
import type { TObject, TSchema } from './schema.js';

export interface CompiledParams {
  check(value: unknown): boolean;
  /** Human-readable problems, each naming the parameter (`params.limit: must be <= 200`). */
  problems(value: unknown): string[];
}

/**
 * A validator for an operation's parameters, compiled on its first use and kept: compiling generates code, and a
 * gateway with hundreds of operations would otherwise spend a good part of its start-up compiling validators for
 * operations nobody calls (about 0.3 ms each).
 */
export function compileParams(schema: TObject): CompiledParams {
  let validator: ReturnType<typeof Compile<TObject>> | undefined;
  const compiled = () => {
    validator ??= Compile(schema);
    return validator;
  };
  return {
    check: (value) => compiled().Check(value),
    problems: (value) => describeErrors(compiled().Errors(value)),
  };
}

function describeErrors(errors: readonly TLocalizedValidationError[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (line: string) => {
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
  };
  // anyOf/const children repeat what the parent says; `schema is false` repeats additionalProperties.
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const error of errors) {
    const where = error.instancePath === '' ? 'params' : `params${error.instancePath.replaceAll('/', '.')}`;
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'required':
        for (const name of (params.requiredProperties as string[]) ?? []) push(`${where}.${name}: is required`);
        break;
      case 'additionalProperties':
        for (const name of (params.additionalProperties as string[]) ?? []) push(`${where}.${name}: is not a parameter of this operation`);
        break;
      case 'boolean':
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
      default:
        push(`${where}: ${error.message}`);
    }
  }
  return out;
}

/**
 * Coerces values that arrived as strings (path segments, query strings) to the types the schema declares.
 * Only for those values: JSON bodies and MCP arguments already carry types and are never coerced.
 * A value that cannot be coerced is left as it is, so that validation reports it.
 */
export function coerceStrings(schema: TObject, values: Readonly<Record<string, string | string[]>>): Record<string, unknown> {
  const properties = schema.properties as Record<string, TSchema>;
  const out: Record<string, unknown> = {};
  for (const [rawKey, raw] of Object.entries(values)) {
    // `tags[]=a&tags[]=b` is a common way to send arrays; accept it when the schema names `tags`.
    const key = !(rawKey in properties) && rawKey.endsWith('[]') && rawKey.slice(0, -2) in properties ? rawKey.slice(0, -2) : rawKey;
    const property = properties[key];
    if (!property) {
      out[key] = raw;
      continue;
    }
    const type = (property as { type?: unknown }).type;
    if (type === 'array') {
      out[key] = Value.Convert(property, Array.isArray(raw) ? raw : [raw]);
    } else if (Array.isArray(raw)) {
      // a scalar given twice: keep the last, as most web frameworks do
      out[key] = Value.Convert(property, raw[raw.length - 1]);
    } else if (type === 'object' && typeof raw === 'string') {
      out[key] = parseJsonObject(raw);
    } else if (type === 'boolean' && typeof raw === 'string') {
      out[key] = raw === 'true' ? true : raw === 'false' ? false : raw;
    } else {
      out[key] = Value.Convert(property, raw);
    }
  }
  return out;
}

function parseJsonObject(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
