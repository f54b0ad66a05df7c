/**
 * Cross-field rules that a JSON schema cannot state. Each returns a message (the engine prefixes it with
 * "Invalid params for <operation>:") or undefined when the params are fine.
 */
export type Check = (params: Record<string, unknown>) => string | undefined;

/** Runs checks in order and reports every problem, so that a caller can fix them all at once. */
export function checks(...rules: Check[]) {
  return (params: Record<string, unknown>): string | undefined => {
    const problems = rules.map((rule) => rule(params)).filter((m): m is string => m !== undefined);
    return problems.length > 0 ? problems.join('; ') : undefined;
  };
}

/** start_date and end_date come as a pair, in order, and never together with date_range. */
export const dateFilters: Check = (params) => {
  const start = params.start_date as string | undefined;
  const end = params.end_date as string | undefined;
  if ((start === undefined) !== (end === undefined)) {
    return start === undefined ? 'params.end_date: requires start_date as well' : 'params.start_date: requires end_date as well';
  }
  if (start !== undefined && end !== undefined) {
    if (params.date_range !== undefined) return 'params.date_range: use either date_range or start_date + end_date, not both';
    const from = Date.parse(start);
    const to = Date.parse(end);
    if (!Number.isNaN(from) && !Number.isNaN(to) && from > to) return 'params.start_date: must not be after end_date';
  }
  return undefined;
};

/** CallRail: "If order is provided, sort is required." */
export const orderNeedsSort: Check = (params) =>
  params.order !== undefined && params.sort === undefined ? 'params.order: requires sort as well' : undefined;

/** Every item of a comma-separated parameter must come from `allowed`. */
export function commaItems(name: string, allowed: readonly string[]): Check {
  return (params) => {
    const raw = params[name];
    if (typeof raw !== 'string') return undefined;
    const items = raw.split(',').map((item) => item.trim());
    const bad = items.filter((item) => !allowed.includes(item));
    if (bad.length === 0) return undefined;
    return `params.${name}: ${bad.map((b) => JSON.stringify(b)).join(', ')} not allowed; use a comma-separated list of ${allowed
      .map((v) => JSON.stringify(v))
      .join(', ')}`;
  };
}

/** min_duration must not exceed max_duration. */
export const durationRange: Check = (params) => {
  const min = params.min_duration as number | undefined;
  const max = params.max_duration as number | undefined;
  return min !== undefined && max !== undefined && min > max ? 'params.min_duration: must not be greater than max_duration' : undefined;
};
