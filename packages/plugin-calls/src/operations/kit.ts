/**
 * Cross-field rules that the params schema cannot state: comparisons of two values. Rules it can state (start_date and
 * end_date together, date_range not with them, at least one change in update_call, order only with sort, append_tags
 * only with tags) are written into the schema with `Params(..., { rules })` so that validation, describe_method and
 * OpenAPI all show them; what is left here is what a schema cannot say.
 * Each check returns a message (the engine prefixes it with "Invalid params for <operation>:") or undefined.
 */
export type Check = (params: Record<string, unknown>) => string | undefined;

/** Runs checks in order and reports every problem, so that a caller can fix them all at once. */
export function checks(...rules: Check[]) {
  return (params: Record<string, unknown>): string | undefined => {
    const problems = rules.map((rule) => rule(params)).filter((m): m is string => m !== undefined);
    return problems.length > 0 ? problems.join('; ') : undefined;
  };
}

/** start_date not after end_date: JSON Schema cannot compare the values of two parameters. */
export const datesInOrder: Check = (params) => {
  const start = params.start_date;
  const end = params.end_date;
  if (typeof start !== 'string' || typeof end !== 'string') return undefined;
  const from = Date.parse(start);
  const to = Date.parse(end);
  return !Number.isNaN(from) && !Number.isNaN(to) && from > to ? 'params.start_date: must not be after end_date' : undefined;
};

/** min_duration not greater than max_duration: JSON Schema cannot compare the values of two parameters. */
export const durationRange: Check = (params) => {
  const min = params.min_duration as number | undefined;
  const max = params.max_duration as number | undefined;
  return min !== undefined && max !== undefined && min > max ? 'params.min_duration: must not be greater than max_duration' : undefined;
};
