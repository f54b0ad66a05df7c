import { type DeclarativeUpstream, upstreamInspector } from '@portico/core';

/** Lawmatics API v1. An operator may point the integration elsewhere (`PORTICO_LAWMATICS_BASE_URL`, the sandbox). */
export const LAWMATICS_BASE_URL = 'https://api.lawmatics.com/v1';

/** Lawmatics' OAuth 2.0 endpoints (authorization code grant). */
export const LAWMATICS_AUTHORIZE_URL = 'https://app.lawmatics.com/oauth/authorize';
export const LAWMATICS_TOKEN_URL = 'https://api.lawmatics.com/oauth/token';

/**
 * Field selection for single records. Without `fields` Lawmatics answers with a small default set (names, email,
 * timestamps); `fields=all` returns every attribute and relationship the Core Specification lists for the record.
 */
export const ALL_FIELDS: Readonly<Record<string, string>> = { fields: 'all' };

/** A GET of one record by id, with every field. `:id` is the gateway's path token, substituted into Lawmatics' path. */
export const getRecord = (path: string): DeclarativeUpstream => ({ method: 'GET', path, fixedQuery: ALL_FIELDS });

/**
 * A GET of a list. The shared list parameters keep their names upstream: the Param Guide of Lawmatics' document
 * accepts `filter_by`/`filter_on`/`filter_with` (and the aliases `filter_field`/`filter_value`/`filter_operator`),
 * and the operations that declare filter parameters declare the first three. `page`, `sort_by` and `sort_order` are
 * Lawmatics' own names. No `fields` is sent: lists answer with Lawmatics' light default item (get_x for the full record).
 */
export const getList = (path: string): DeclarativeUpstream => ({ method: 'GET', path });

/** A plain GET whose parameters are only path tokens (finds, and the records Lawmatics answers in its own format). */
export const getPlain = (path: string): DeclarativeUpstream => ({ method: 'GET', path });

/**
 * Reads Lawmatics' error answers with core's reader. Its API errors are JSON:API documents,
 * `{ "errors": [{ "title", "detail", "status" }] }` (a bad filter is a 422 "Filter By Parameter Not Available", an
 * unknown record a 404 "Not found"), read here as "title: detail"; its OAuth layer answers a bad or revoked token with
 * 401 and `{ "error", "error_description" }` or an empty body, which core's generic reading handles. The HTTP status
 * decides the gateway's code (401 → upstream_unauthorized, 404 → not_found, 400/422 → bad_request, 429 → rate_limited,
 * 5xx → upstream_error). Lawmatics documents no rate limits: a Retry-After that does arrive (429, 503) is passed on.
 */
export const inspect = upstreamInspector({
  message: jsonApiErrors,
  defaultMessages: { 401: 'the access token was not accepted', 404: 'not found', 429: 'too many requests' },
});

/** `errors: [{ title, detail }]` → "title: detail; title: detail" (undefined for any other body). */
export function jsonApiErrors(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const parts = errors
    .map((item) => {
      if (typeof item === 'string') return item.trim();
      if (typeof item !== 'object' || item === null) return '';
      const { title, detail } = item as { title?: unknown; detail?: unknown };
      const t = typeof title === 'string' ? title.trim() : '';
      const d = typeof detail === 'string' ? detail.trim() : '';
      return t && d && t !== d ? `${t}: ${d}` : t || d;
    })
    .filter((text) => text.length > 0);
  return parts.length > 0 ? parts.join('; ') : undefined;
}
