import { GatewayError } from '../errors.js';
import type { Engine, Principal } from '../pipeline/engine.js';
import { eventView } from '../pipeline/outbound-delivery.js';

export const EVENTS_LIMIT_DEFAULT = 50;
export const EVENTS_LIMIT_MAX = 200;

/** One event as `list_events` and `GET /api/v1/events` show it (and a subscriber receives it as `data`). */
export type EventView = ReturnType<typeof eventView>;

/** The filters both doors take, as text (REST query) or JSON (MCP arguments). */
export interface EventsFilter {
  since?: unknown;
  service?: unknown;
  type?: unknown;
  limit?: unknown;
}

const word = (value: unknown, name: string, pattern: RegExp): string | undefined => {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !pattern.test(value)) throw new GatewayError('bad_request', `events: ${name} is not valid`);
  return value;
};

function count(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new GatewayError('bad_request', `events: ${name} must be an integer from ${min} to ${max}`);
  }
  return n;
}

/**
 * The workspace's events the caller may read, oldest first, after the cursor `since` (the `cursor` of the last event
 * read; none: from the oldest kept): only of the services its key may use (its services scope and tool set), filtered by
 * `service` and `type`. `next_cursor` is the `since` of the next page.
 *
 * `newest` reads the other way, as the dashboard shows events: newest first, before the cursor `newest.before` (the
 * `cursor` of the oldest event read; none: from the newest); `next_cursor` is then the `before` of the next, older page.
 */
export async function eventsFeed(
  engine: Engine,
  principal: Principal,
  filter: EventsFilter,
  newest?: { before?: unknown },
): Promise<{ events: EventView[]; next_cursor: string }> {
  const since = count(filter.since, 'since (a cursor)', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const before = newest ? count(newest.before, 'before (a cursor)', 1, Number.MAX_SAFE_INTEGER) : undefined;
  const limit = count(filter.limit, 'limit', 1, EVENTS_LIMIT_MAX) ?? EVENTS_LIMIT_DEFAULT;
  const service = word(filter.service, 'service', /^[a-z][a-z0-9_-]{0,63}$/);
  const type = word(filter.type, 'type', /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/);
  const allowed = await engine.allowedOperations(principal);
  const { services } = principal.scopes;
  const usable =
    services === '*' && !allowed
      ? ('*' as const)
      : engine.registry
          .list()
          .map((i) => i.service)
          .filter((s) => (services === '*' || services.includes(s)) && (!allowed || allowed.hasService(s)));
  const records = await engine.events.list({
    workspaceId: principal.workspaceId,
    after: since,
    services: usable,
    limit,
    ...(service ? { service } : {}),
    ...(type ? { type } : {}),
    ...(newest ? { newestFirst: true } : {}),
    ...(before !== undefined ? { before } : {}),
  });
  return { events: records.map(eventView), next_cursor: String(records.at(-1)?.seq ?? (newest ? (before ?? '') : since)) };
}
