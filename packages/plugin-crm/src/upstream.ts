import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { buildDeclarative, type DeclarativeUpstream, GatewayError, type UpstreamRequest, upstreamInspector } from '@portico/core/plugin';

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

// ---- writes whose body is not plain JSON strings ------------------------------------------------------------------

type Build = (params: Readonly<Record<string, unknown>>) => UpstreamRequest;
/** A write built from a declarative mapping, which it keeps as `declared` (the upstream-facts test reads it). */
export type EncodedWrite = Build & { declared: DeclarativeUpstream };
const encoded = (declared: DeclarativeUpstream, build: Build): EncodedWrite => Object.assign(build, { declared });

/**
 * A write whose body carries ids that Lawmatics' API reference (v1.21.0) types as JSON numbers. The gateway takes
 * every id as a digit string, as Lawmatics answers them; the ids named here are sent as numbers (lists item by item).
 */
export function withNumericIds(upstream: DeclarativeUpstream, fields: readonly string[]): EncodedWrite {
  return encoded(upstream, (params) => {
    const request = buildDeclarative(upstream, params);
    const body = request.body as Record<string, unknown>;
    for (const field of fields) {
      const value = body[field];
      if (value !== undefined) body[field] = Array.isArray(value) ? value.map((id) => idNumber(field, id)) : idNumber(field, value);
    }
    return request;
  });
}

function idNumber(field: string, value: unknown): number {
  const id = Number(value);
  // The parameter schema allows digits only; a run of digits beyond what a JSON number holds exactly is refused.
  if (!Number.isSafeInteger(id)) throw new GatewayError('bad_request', `params.${field}: ${String(value)} is not an id Lawmatics can hold`);
  return id;
}

/**
 * A write Lawmatics' API reference documents with a `multipart/form-data` body only (time entries, phone numbers):
 * each body field a text part, booleans and numbers as their text ("true", "0.5"), as its reference shows them.
 */
export function asMultipart(upstream: DeclarativeUpstream): EncodedWrite {
  return encoded(upstream, (params) => {
    const { body, ...request } = buildDeclarative(upstream, params);
    const boundary = `portico-${randomUUID()}`;
    const parts = Object.entries(body as Record<string, unknown>).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`,
    );
    const data = Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8');
    return { ...request, raw: { data, contentType: `multipart/form-data; boundary=${boundary}` } };
  });
}
