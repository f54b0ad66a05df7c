import { type DeclarativeUpstream, messageFromBody, retryAfterSeconds, type UpstreamFailure, type UpstreamResponse } from '@portico/core';

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

const MAX_MESSAGE = 300;

/**
 * Reads Lawmatics' error answers. Its API errors are JSON:API documents, `{ "errors": [{ "title", "detail", "status" }] }`
 * (a bad filter is a 422 "Filter By Parameter Not Available", an unknown record a 404 "Not found"); its OAuth layer
 * answers a bad or revoked token with 401 and `{ "error", "error_description" }` or an empty body. The HTTP status
 * decides the gateway's code (401 → upstream_unauthorized, 404 → not_found, 400/422 → bad_request, 429 → rate_limited,
 * 5xx → upstream_error); this function only finds the words. Lawmatics documents no rate limit headers: a Retry-After
 * that does arrive is passed on.
 */
export function inspect(response: UpstreamResponse): UpstreamFailure | undefined {
  if (response.status >= 200 && response.status < 300) return undefined;
  const message = jsonApiErrors(response.body) ?? messageFromBody(response.body) ?? defaultMessage(response.status);
  const retryAfter = response.status === 429 ? retryAfterSeconds(response.headers) : undefined;
  return { status: response.status, message: redact(message), ...(retryAfter !== undefined ? { retryAfter } : {}) };
}

/** `errors: [{ title, detail }]` → "title: detail; title: detail". */
function jsonApiErrors(body: unknown): string | undefined {
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
  return parts.length > 0 ? parts.join('; ').slice(0, MAX_MESSAGE) : undefined;
}

function defaultMessage(status: number): string {
  if (status === 401) return 'the access token was not accepted';
  if (status === 404) return 'not found';
  if (status === 429) return 'too many requests';
  return `HTTP ${status}`;
}

/** An error text never carries a credential, even if an upstream echoes the header it received. */
function redact(message: string): string {
  return message.replace(/bearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]');
}
