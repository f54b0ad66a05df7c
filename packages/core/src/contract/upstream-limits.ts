// An upstream's limits as a plugin declares them (`upstream.limits`) and an operator overrides them: the fields, their
// bounds, the check run at registration, and the parser of the override. upstream/limits.ts enforces them.

/**
 * What an upstream allows one connection (a workspace's credentials for a service: one QuickBooks company, one Clio
 * token), declared by its plugin as `upstream.limits`. Every field is optional; 0 means "no such limit".
 */
export interface UpstreamLimits {
  /** Requests in flight at once. Default: the gateway's cap for plugins that declare none (32). */
  concurrency?: number;
  /** Requests started in any 1 s. */
  perSecond?: number;
  /** Requests started in any 60 s (Clio: 50 at peak). */
  perMinute?: number;
  /** Requests started in any hour (CallRail: 1,000 per account). */
  perHour?: number;
}

/** No limit at all, not even the default cap (`PORTICO_<SERVICE>_UPSTREAM_LIMITS=none`). */
export const NO_UPSTREAM_LIMITS: UpstreamLimits = Object.freeze({ concurrency: 0, perSecond: 0, perMinute: 0, perHour: 0 });

/** The largest number a rate window may hold: it remembers that many start times (8 bytes each) per connection. */
export const MAX_WINDOW_LIMIT = 10_000;
const MAX_CONCURRENCY = 100_000;

export const WINDOWS = [
  ['perSecond', 1_000, 'a second'],
  ['perMinute', 60_000, 'a minute'],
  ['perHour', 3_600_000, 'an hour'],
] as const;

/** Why a declaration cannot be used, or undefined. Checked when a plugin is registered and for operator overrides. */
export function upstreamLimitsProblem(limits: unknown): string | undefined {
  if (limits === undefined) return undefined;
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) return 'upstream.limits must be an object';
  for (const [name, value] of Object.entries(limits)) {
    const max = name === 'concurrency' ? MAX_CONCURRENCY : WINDOWS.some(([key]) => key === name) ? MAX_WINDOW_LIMIT : undefined;
    if (max === undefined) return `upstream.limits has no field "${name}" (concurrency, perSecond, perMinute, perHour)`;
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max)) {
      return `upstream.limits.${name} must be a whole number from 0 to ${max}`;
    }
  }
  return undefined;
}

const SETTING_NAMES: Readonly<Record<string, keyof UpstreamLimits>> = {
  concurrency: 'concurrency',
  per_second: 'perSecond',
  per_minute: 'perMinute',
  per_hour: 'perHour',
};

/**
 * Reads an operator's override (`PORTICO_<SERVICE>_UPSTREAM_LIMITS`): `none` (no limit at all), or
 * `concurrency=5,per_minute=40`: the fields given, each to replace the plugin's (0 removes one). Throws on bad input.
 */
export function parseUpstreamLimits(text: string): UpstreamLimits {
  const trimmed = text.trim();
  if (trimmed === 'none') return { ...NO_UPSTREAM_LIMITS };
  const out: UpstreamLimits = {};
  for (const part of trimmed.split(',')) {
    const [name, value, extra] = part.split('=').map((s) => s.trim());
    const field = name !== undefined && Object.hasOwn(SETTING_NAMES, name) ? SETTING_NAMES[name] : undefined;
    if (!field || value === undefined || extra !== undefined || !/^\d{1,9}$/.test(value)) {
      throw new Error(
        `"${part.trim()}" must be name=number with name concurrency, per_second, per_minute or per_hour (or the whole value none)`,
      );
    }
    out[field] = Number(value);
  }
  const problem = upstreamLimitsProblem(out);
  if (problem) throw new Error(problem);
  return out;
}
