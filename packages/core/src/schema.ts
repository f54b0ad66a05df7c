import Type, { type Static, type TObject, type TSchema } from 'typebox';

export type { Static, TObject, TSchema };
export { Type };

/**
 * A string restricted to a fixed set of values. Emitted as `{ type: 'string', enum: [...] }` rather than a
 * union of literals, so that validation errors, OpenAPI and MCP clients all see one plain list of allowed values.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An object whose keys are not known in advance (raw upstream JSON, filters, block content). */
export function FreeObject(options: Record<string, unknown> = {}) {
  return Type.Record(Type.String(), Type.Unknown(), options);
}

/** Strictly-typed object: unknown properties are rejected so that a misspelt parameter is a 400, not a silent no-op. */
export function Params<T extends Parameters<typeof Type.Object>[0]>(properties: T, options: Record<string, unknown> = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}
