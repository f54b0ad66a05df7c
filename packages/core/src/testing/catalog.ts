import type { HttpMethod } from '../contract/operation.js';
import type { Plugin } from '../contract/plugin.js';
import { COMMA_LIST } from '../contract/schema.js';
import { jsonSchema } from '../doors/describe.js';

/** A parameter as the Integration Operation Catalog types it. */
export interface CatalogParam {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  /** Marked (req) in the catalog (path parameters always are). */
  required?: boolean;
  default?: unknown;
  /** Allowed values (for a comma-separated list: the values it may list). */
  enum?: readonly string[];
}

/** One row of the catalog: an operation it shows. */
export interface CatalogOperation {
  name: string;
  method: HttpMethod;
  path: string;
  /** Every parameter the catalog lists for it; absent means the catalog lists none. */
  params?: Readonly<Record<string, CatalogParam>>;
}

/**
 * Intended differences from the catalog, each with its reason, keyed as `compareWithCatalog` names a mismatch:
 * `<operation>:<aspect>` or `<operation>.<param>:<aspect>`, aspect one of missing, method, path, param (the catalog's
 * parameter is not declared), extra (a declared parameter the catalog does not list), type, required, default, enum.
 */
export type CatalogDifferences = Readonly<Record<string, string>>;

/**
 * Compares a plugin's declared operations with the catalog's table and returns every mismatch, keyed as in
 * `CatalogDifferences`, with what was found. A plugin's catalog test asserts that the mismatches are exactly its
 * listed intended differences: a new disagreement fails, and so does a listed difference that no longer exists.
 * Operations the catalog does not show are not compared.
 */
export function compareWithCatalog(plugin: Plugin, catalog: readonly CatalogOperation[]): Record<string, string> {
  const out: Record<string, string> = {};
  const declared = new Map(plugin.operations.map((operation) => [operation.name, operation]));
  for (const row of catalog) {
    const operation = declared.get(row.name);
    if (!operation) {
      out[`${row.name}:missing`] = 'not declared';
      continue;
    }
    if (operation.method !== row.method) out[`${row.name}:method`] = `${operation.method}, catalog ${row.method}`;
    if (operation.path !== row.path) out[`${row.name}:path`] = `${operation.path}, catalog ${row.path}`;
    const schema = jsonSchema(operation.params);
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const listed = row.params ?? {};
    for (const [name, want] of Object.entries(listed)) {
      const key = `${row.name}.${name}`;
      const property = properties[name];
      if (!property) {
        out[`${key}:param`] = 'not declared';
        continue;
      }
      const type = property.type ?? (property.anyOf ? 'anyOf' : 'untyped');
      const typeMatches = type === want.type || (want.type === 'number' && type === 'integer');
      if (!typeMatches) out[`${key}:type`] = `${String(type)}, catalog ${want.type}`;
      if (required.has(name) !== Boolean(want.required)) {
        out[`${key}:required`] = `${required.has(name) ? 'required' : 'optional'}, catalog ${want.required ? 'required' : 'optional'}`;
      }
      if (want.default !== undefined && JSON.stringify(property.default) !== JSON.stringify(want.default)) {
        out[`${key}:default`] = `${JSON.stringify(property.default)}, catalog ${JSON.stringify(want.default)}`;
      }
      if (want.enum) {
        const values = (property.enum ?? property[COMMA_LIST] ?? (property.items as Record<string, unknown> | undefined)?.enum) as
          | unknown[]
          | undefined;
        const have = [...(values ?? [])].map(String).sort();
        const expected = [...want.enum].sort();
        if (JSON.stringify(have) !== JSON.stringify(expected))
          out[`${key}:enum`] = `[${have.join(', ')}], catalog [${expected.join(', ')}]`;
      }
    }
    for (const name of Object.keys(properties)) {
      if (!(name in listed)) out[`${row.name}.${name}:extra`] = 'declared, not in the catalog';
    }
  }
  return out;
}
