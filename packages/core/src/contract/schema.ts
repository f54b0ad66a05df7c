import Type, { type Static, type TObject, type TSchema } from 'typebox';

export type { Static, TObject, TSchema };
export { Type };

type Options = Record<string, unknown>;

/**
 * A string restricted to a fixed set of values. Emitted as `{ type: 'string', enum: [...] }` rather than a
 * union of literals, so that validation errors, OpenAPI and MCP clients all see one plain list of allowed values.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: Options = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An object whose keys are not known in advance (raw upstream JSON, filters, block content). */
export function FreeObject(options: Options = {}) {
  return Type.Record(Type.String(), Type.Unknown(), options);
}

/**
 * Strictly-typed object: unknown properties are rejected so that a misspelt parameter is a 400, not a silent no-op.
 * Cross-field rules (`atLeastOne`, `atMostOne`, `together`) are passed in `options.rules`; they become standard JSON
 * Schema keywords, so that validation, `describe_method` and OpenAPI all show them.
 */
export function Params<T extends Parameters<typeof Type.Object>[0]>(
  properties: T,
  options: Options & { rules?: readonly ParamRule[] } = {},
) {
  const { rules, ...rest } = options;
  return Type.Object(properties, { additionalProperties: false, ...rest, ...(rules ? ruleKeywords(rules) : {}) });
}

// ---- strings that hold something else -----------------------------------------------------------------------
// The catalog types many query parameters as strings ("page (string, default 1)"). They are declared as the strings
// they are, with a pattern that says what they hold; the one coercion rule (validation.ts) turns a JSON number or
// boolean given for them into its string form, so `"2"` and `2` are both accepted through both doors.

/**
 * Keyword holding what a patterned string must be, in words ("a whole number from 1 to 250"): validation errors say
 * it instead of quoting the regular expression, and a reader of the schema sees it next to the pattern.
 */
export const EXPECTS = 'x-portico-expects';

/** Keyword of a string parameter that holds a comma-separated list: its allowed values (an array given for it is joined). */
export const COMMA_LIST = 'x-portico-comma-list';

/**
 * A whole number written as a string (`"25"`), optionally bounded: the bounds become the pattern, so the schema
 * alone says what is valid. No sign, no leading zeros.
 */
export function IntegerString(options: Options & { minimum?: number; maximum?: number } = {}) {
  const { minimum = 0, maximum, ...rest } = options;
  const bounds = maximum === undefined ? `${minimum} or more` : `${minimum} to ${maximum}`;
  return Type.String({
    pattern: `^(?:${integerRangePattern(minimum, maximum)})$`,
    [EXPECTS]: maximum === undefined ? `a whole number, ${minimum} or more` : `a whole number from ${minimum} to ${maximum}`,
    ...rest,
    description: appendSentence(rest.description, `A whole number, ${bounds}, as a string.`),
  });
}

/** `"true"` or `"false"`, as the catalog types flags such as the accounting `fetchAll`. */
export function BooleanString(options: Options = {}) {
  return StringEnum(['true', 'false'] as const, options);
}

/** A calendar date `YYYY-MM-DD` (validated as a real date: no February 30th). */
export function DateString(options: Options = {}) {
  return Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', [EXPECTS]: 'a date written YYYY-MM-DD', ...options });
}

/** An ISO-8601 timestamp with time zone (`2024-05-01T09:30:00Z`). */
export function DateTimeString(options: Options = {}) {
  return Type.String({ format: 'date-time', [EXPECTS]: 'an ISO-8601 timestamp with a time zone', ...options });
}

/**
 * A comma-separated list of values from a fixed set (`public_channel,private_channel`): the values are listed in
 * the pattern and the description. An array of those values is accepted too and joined with commas.
 */
export function CommaList<const T extends readonly string[]>(values: T, options: Options = {}) {
  const alternatives = values.map(escapeRegExp).join('|');
  return Type.String({
    pattern: `^(?:${alternatives})(?:,(?:${alternatives}))*$`,
    [COMMA_LIST]: [...values],
    [EXPECTS]: `a comma-separated list of: ${values.join(', ')}`,
    ...options,
    description: appendSentence(options.description, `Comma-separated, one or more of: ${values.join(', ')}.`),
  });
}

// ---- cross-field rules --------------------------------------------------------------------------------------------

export type ParamRule =
  | { kind: 'atLeastOne'; names: readonly string[] }
  | { kind: 'atMostOne'; names: readonly string[] }
  | { kind: 'together'; names: readonly string[] }
  | { kind: 'requires'; name: string; needs: readonly string[] };

/** At least one of these parameters must be given (`parent` or `discussion_id`). */
export const atLeastOne = (...names: string[]): ParamRule => ({ kind: 'atLeastOne', names });
/** At most one of these parameters may be given (`content` or `content_base64`, not both). */
export const atMostOne = (...names: string[]): ParamRule => ({ kind: 'atMostOne', names });
/** These parameters are given together or not at all (`start_date` and `end_date`). */
export const together = (...names: string[]): ParamRule => ({ kind: 'together', names });
/** Giving `name` requires giving `needs` too (a filter value needs the field it filters on), not the other way round. */
export const requires = (name: string, ...needs: string[]): ParamRule => ({ kind: 'requires', name, needs });

function ruleKeywords(rules: readonly ParamRule[]): Options {
  const allOf: Options[] = [];
  const dependentRequired: Record<string, string[]> = {};
  for (const rule of rules) {
    if (rule.kind === 'atLeastOne') allOf.push({ anyOf: rule.names.map((name) => ({ required: [name] })) });
    else if (rule.kind === 'atMostOne') {
      for (const [i, a] of rule.names.entries()) for (const b of rule.names.slice(i + 1)) allOf.push({ not: { required: [a, b] } });
    } else if (rule.kind === 'requires') {
      dependentRequired[rule.name] = [...new Set([...(dependentRequired[rule.name] ?? []), ...rule.needs])];
    } else {
      for (const name of rule.names) {
        const others = rule.names.filter((other) => other !== name);
        dependentRequired[name] = [...new Set([...(dependentRequired[name] ?? []), ...others])];
      }
    }
  }
  return {
    ...(allOf.length > 0 ? { allOf } : {}),
    ...(Object.keys(dependentRequired).length > 0 ? { dependentRequired } : {}),
  };
}

/**
 * Reads the cross-field rules back from a params schema (as `Params` wrote them) and says which ones `value`
 * breaks, one sentence each: validation errors name the rule rather than JSON Schema's `anyOf`/`not` wording.
 */
export function brokenRules(schema: Options, value: Readonly<Record<string, unknown>>): string[] {
  const given = (name: string) => value[name] !== undefined;
  const out: string[] = [];
  for (const part of (schema.allOf as Options[] | undefined) ?? []) {
    const anyOf = part.anyOf as Array<{ required: string[] }> | undefined;
    const not = part.not as { required: string[] } | undefined;
    if (anyOf && !anyOf.some((branch) => branch.required.every(given))) {
      out.push(`give at least one of ${anyOf.map((branch) => branch.required.join(' and ')).join(', ')}`);
    }
    if (not?.required.every(given)) out.push(`${not.required.join(' and ')} cannot be given together`);
  }
  for (const [name, needs] of Object.entries((schema.dependentRequired as Record<string, string[]> | undefined) ?? {})) {
    const missing = needs.filter((other) => !given(other));
    if (given(name) && missing.length > 0) out.push(`${name} requires ${missing.join(' and ')}`);
  }
  return out;
}

/** The cross-field rules of a params schema, one sentence each (for documents; `brokenRules` for errors). */
export function ruleSentences(schema: Options): string[] {
  const out: string[] = [];
  for (const part of (schema.allOf as Options[] | undefined) ?? []) {
    const anyOf = part.anyOf as Array<{ required: string[] }> | undefined;
    const not = part.not as { required: string[] } | undefined;
    if (anyOf) out.push(`Give at least one of ${anyOf.map((branch) => branch.required.join(' and ')).join(', ')}.`);
    if (not) out.push(`${not.required.join(' and ')} cannot be given together.`);
  }
  for (const [name, needs] of Object.entries((schema.dependentRequired as Record<string, string[]> | undefined) ?? {})) {
    out.push(`${name} requires ${needs.join(' and ')}.`);
  }
  return out;
}

/** The parts of a params schema's rules that only involve `names` (the body parameters, for a request body schema). */
export function rulesWithin(schema: Options, names: ReadonlySet<string>): Options {
  const inside = (list: readonly string[]) => list.every((name) => names.has(name));
  const allOf = ((schema.allOf as Options[] | undefined) ?? []).filter((part) => {
    const anyOf = part.anyOf as Array<{ required: string[] }> | undefined;
    const not = part.not as { required: string[] } | undefined;
    return anyOf ? anyOf.every((branch) => inside(branch.required)) : not ? inside(not.required) : false;
  });
  const dependentRequired = Object.fromEntries(
    Object.entries((schema.dependentRequired as Record<string, string[]> | undefined) ?? {}).filter(
      ([name, needs]) => names.has(name) && inside(needs),
    ),
  );
  return {
    ...(allOf.length > 0 ? { allOf } : {}),
    ...(Object.keys(dependentRequired).length > 0 ? { dependentRequired } : {}),
  };
}

// ---- helpers ------------------------------------------------------------------------------------------------------

function appendSentence(text: unknown, sentence: string): string {
  return typeof text === 'string' && text.trim() ? `${text.trim()} ${sentence}` : sentence;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A regular expression (without anchors) matching exactly the decimal integers from `min` to `max` written without
 * sign or leading zeros; `max` undefined means unbounded. Built digit by digit, so `1..250` gives
 * `[1-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|250`.
 */
export function integerRangePattern(min: number, max?: number): string {
  if (!Number.isSafeInteger(min) || min < 0 || (max !== undefined && (!Number.isSafeInteger(max) || max < min))) {
    throw new Error(`integerRangePattern: bad range ${min}..${max}`);
  }
  const parts: string[] = [];
  const low = String(min);
  const high = max === undefined ? undefined : String(max);
  const lastLength = high?.length ?? low.length;
  for (let length = low.length; length <= lastLength; length++) {
    const from = length === low.length ? low : `1${'0'.repeat(length - 1)}`;
    const to = high !== undefined && length === high.length ? high : '9'.repeat(length);
    if (length === 1 || from[0] !== '0') parts.push(...sameLength(from, to));
  }
  if (high === undefined) parts.push(`[1-9][0-9]{${low.length},}`);
  return parts.join('|');
}

/** Patterns for the numbers from `from` to `to`, both of the same length. */
function sameLength(from: string, to: string): string[] {
  if (from.length === 0) return [''];
  if (from === to) return [from];
  const rest = from.length - 1;
  const [a, b] = [Number(from[0]), Number(to[0])];
  const any = rest === 0 ? '' : rest === 1 ? '[0-9]' : `[0-9]{${rest}}`;
  const digits = (x: number, y: number) => (x === y ? String(x) : `[${x}-${y}]`);
  const tailFrom = from.slice(1);
  const tailTo = to.slice(1);
  if (a === b) return sameLength(tailFrom, tailTo).map((p) => `${a}${p}`);
  if (/^0*$/.test(tailFrom) && /^9*$/.test(tailTo)) return [`${digits(a, b)}${any}`];
  const out: string[] = [];
  let first = a;
  if (!/^0*$/.test(tailFrom)) {
    out.push(...sameLength(tailFrom, '9'.repeat(rest)).map((p) => `${a}${p}`));
    first = a + 1;
  }
  let last = b;
  const partialEnd = !/^9*$/.test(tailTo);
  if (partialEnd) last = b - 1;
  if (first <= last) out.push(`${digits(first, last)}${any}`);
  if (partialEnd) out.push(...sameLength('0'.repeat(rest), tailTo).map((p) => `${b}${p}`));
  return out;
}
