import {
  BooleanString,
  DateString,
  DateTimeString,
  EXPECTS,
  FreeObject,
  requires,
  StringEnum,
  type TSchema,
  Type,
} from '@portico/core/plugin';

// Shapes and constants shared by several families of operations. The catalog types every query value as a string
// ("query values are strings unless marked"), so ids, flags and dates in a query are strings with a pattern; body
// fields inside `data` keep their JSON types.

export type Schemas = Record<string, TSchema>;

// ---- ids ----------------------------------------------------------------------------------------------------------------

/** A Clio record id (digits), in a path or a query. */
export const ClioId = (description: string) => Type.String({ pattern: '^[0-9]+$', [EXPECTS]: 'a Clio id (digits)', description });

/** Whether an id filter accepts the keyword `null`: Clio's document says so for each one. */
export const nullable = { nullable: true } as const;
export const notNull = { nullable: false } as const;

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

/** Several Clio ids in the query (`ids[]`, `exclude_ids[]`): the parameter repeated in a query string. */
export const Ids = (description: string) => Type.Array(Type.String({ pattern: '^[0-9]+$' }), { description });

/** {@link Ids} whose description ends by saying how a query string carries them. */
export const IdList = (description: string) => Ids(`${description} (repeat the parameter in a query string).`);

// ---- values -------------------------------------------------------------------------------------------------------------

export const Text = (description: string) => Type.String({ description });
export const Flag = (description: string) => BooleanString({ description: `${description} "true" or "false".` });
export const Day = (description: string) => DateString({ description: `${description} (YYYY-MM-DD)` });
export const Moment = (description: string) => DateTimeString({ description: `${description} (ISO-8601 timestamp)` });
export const Num = (description: string) => Type.Number({ description });
export const Int = (description: string) => Type.Integer({ description });
export const Bool = (description: string) => Type.Boolean({ description });
export const List = (description: string) => Type.Array(Type.Unknown(), { description });
export const Obj = (description: string) => FreeObject({ description });

/** A reference to another Clio record, `{ "id": <id> }` (plus the few extra keys some references take). */
export const Ref = (what: string, extra = '') =>
  FreeObject({ description: `The ${what}, as { "id": <${what} id> }${extra ? `; ${extra}` : ''}.` });

/**
 * A reference Clio resolves by kind as well as id, `{ "id": <id>, "type": <kind> }` (a task's assignee, a document's
 * parent): Clio's document requires both keys, so the gateway does too. `types` are Clio's values, the likeliest first.
 */
export const PolyRef = (description: string, types: readonly [string, ...string[]]) =>
  Type.Object(
    {
      id: Type.Integer({ minimum: 1, description: 'Id of the record.' }),
      type: StringEnum(types, { description: `Which kind of record the id names: ${types.join(', ')}.` }),
    },
    { description, additionalProperties: false },
  );

/** An IANA time zone name as Clio takes them (`America/New_York`, `UTC`); Clio's document lists 598. */
export const TimeZone = (description: string) =>
  Type.String({
    pattern: '^(UTC|[A-Z][A-Za-z]+(/[A-Z][A-Za-z0-9_+-]+){1,2})$',
    [EXPECTS]: 'an IANA time zone name such as America/New_York',
    examples: ['America/New_York'],
    description,
  });

/** `fields`: Clio answers only id and etag unless it names what to return. */
export const Fields = (example: string) =>
  Type.String({
    description: `Fields to return, comma-separated, nested records in braces (e.g. ${example}). Without it Clio returns only id and etag.`,
  });

// ---- external properties ------------------------------------------------------------------------------------------------

/** The external property filters of communications, documents and folders (values an app stored on the record). */
export const EXTERNAL_FILTERS = {
  external_property_name: Text('Only records with this external property set.'),
  external_property_value: Text('Only records whose external property has this value (requires external_property_name).'),
};
export const EXTERNAL_RULES = [requires('external_property_value', 'external_property_name')];
