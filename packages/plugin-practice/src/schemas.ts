import { BooleanString, DateString, DateTimeString, FreeObject, type TSchema, Type } from '@portico/core';

// Parameter types shared by the table (collections.ts) and the factory (factory.ts). The catalog types every query
// value as a string ("query values are strings unless marked"), so ids, flags and dates are strings with a pattern.

const EXPECTS = 'x-portico-expects';

/** A Clio record id in a path (digits). */
export const PathId = (description: string) => Type.String({ pattern: '^[0-9]+$', [EXPECTS]: 'a Clio id (digits)', description });

/**
 * An id filter. Clio's document marks each one: most accept the keyword `null` (records without that association),
 * some say "the keyword null is not valid for this field" (null-invalid). The pattern says which.
 */
export const IdFilter = (description: string, options: { nullable: boolean }) =>
  options.nullable
    ? Type.String({
        pattern: '^([0-9]+|null)$',
        [EXPECTS]: 'a Clio id (digits) or the keyword null',
        description: `${description} The keyword null matches records without one.`,
      })
    : Type.String({
        pattern: '^[0-9]+$',
        [EXPECTS]: 'a Clio id (digits); the keyword null is not valid here',
        description: `${description} The keyword null is not valid for this filter.`,
      });

export const Flag = (description: string) => BooleanString({ description: `${description} "true" or "false".` });
export const Day = (description: string) => DateString({ description: `${description} (YYYY-MM-DD)` });
export const Moment = (description: string) => DateTimeString({ description: `${description} (ISO-8601 timestamp)` });
export const Text = (description: string) => Type.String({ description });

// ---- body fields ------------------------------------------------------------------------------------------------------

/** A reference to another Clio record, `{ "id": <id> }` (plus the few extra keys some references take). */
export const Ref = (what: string, extra = '') =>
  FreeObject({ description: `The ${what}, as { "id": <${what} id> }${extra ? `; ${extra}` : ''}.` });
export const Obj = (description: string) => FreeObject({ description });
export const Str = (description: string) => Type.String({ description });
export const Num = (description: string) => Type.Number({ description });
export const Bool = (description: string) => Type.Boolean({ description });
export const List = (description: string) => Type.Array(Type.Unknown(), { description });
export const BodyDay = (description: string) => DateString({ description: `${description} (YYYY-MM-DD)` });
export const BodyMoment = (description: string) => DateTimeString({ description: `${description} (ISO-8601 timestamp)` });

export type Schemas = Record<string, TSchema>;
