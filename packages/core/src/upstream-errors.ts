import type { UpstreamResponse } from './operation.js';
import type { UpstreamFailure } from './plugin.js';

/**
 * One reader for "the upstream said no": status, a message that is safe and short enough to show a caller, and the
 * Retry-After to pass on. A plugin's `upstream.inspect` gives it only what is particular to its application (how
 * its error body reads, which credentials to hide, what to say when the body says nothing).
 */

/** Longest message kept by default; longer ones are cut and end with "…". */
export const MAX_UPSTREAM_MESSAGE = 300;

export interface UpstreamErrorOptions {
  /** The application's own reading of an error body, tried before the generic one (Notion: `<code>: <message>`). */
  message?: (body: unknown, response: UpstreamResponse) => string | undefined;
  /**
   * Hides credentials an upstream may echo back (CallRail: `token="…"`). Runs on the whole message, after the built-in
   * redaction of `Bearer …` / `Basic …` values and before the length cap.
   */
  redact?: (text: string) => string;
  /** What to say when the body says nothing readable, per status or as a function; then `HTTP <status>`. */
  defaultMessages?: Readonly<Record<number, string>> | ((status: number) => string | undefined);
  /** Default {@link MAX_UPSTREAM_MESSAGE}. */
  maxLength?: number;
  /** Statuses (of the failure, after `status`) whose Retry-After header is passed on. Default 429 and 503. */
  retryAfterOn?: readonly number[];
  /** Whether an answer is a failure. Default: any status outside 2xx (Slack also fails with 200 and `ok: false`). */
  failed?: (response: UpstreamResponse) => boolean;
  /** The HTTP status the failure is equivalent to. Default: the answer's own status. */
  status?: (response: UpstreamResponse) => number;
}

const DEFAULT_RETRY_AFTER_ON: readonly number[] = [429, 503];

const isSuccess = (response: UpstreamResponse) => response.status >= 200 && response.status < 300;

/** Reads an upstream answer: undefined for success, else the failure with its status, message and Retry-After. */
export function readUpstreamFailure(response: UpstreamResponse, options: UpstreamErrorOptions = {}): UpstreamFailure | undefined {
  if (options.failed ? !options.failed(response) : isSuccess(response)) return undefined;
  const status = options.status?.(response) ?? response.status;
  const found = options.message?.(response.body, response) ?? (isHtmlAnswer(response) ? undefined : upstreamErrorMessage(response.body));
  const fallback = typeof options.defaultMessages === 'function' ? options.defaultMessages(status) : options.defaultMessages?.[status];
  const message = capMessage(redactMessage(found?.trim() || fallback || `HTTP ${status}`, options.redact), options.maxLength);
  const failure: UpstreamFailure = { status, message };
  if ((options.retryAfterOn ?? DEFAULT_RETRY_AFTER_ON).includes(status)) {
    const retryAfter = retryAfterFromHeaders(response.headers);
    if (retryAfter !== undefined) failure.retryAfter = retryAfter;
  }
  return failure;
}

/** {@link readUpstreamFailure} with fixed options, ready to be a plugin's `upstream.inspect`. */
export function upstreamInspector(options: UpstreamErrorOptions = {}): (response: UpstreamResponse) => UpstreamFailure | undefined {
  return (response) => readUpstreamFailure(response, options);
}

/**
 * The generic reading of an error body: plain text (not HTML); `{ message }`, `{ error_description }` (after the
 * `error` code), `{ error }`, `{ detail }` / `{ title }` (RFC 9457), nested `{ error: { message } }`; `{ errors: [...] }`
 * of strings or `{ field, message }` objects, all of them joined; Rails' `{ errors: { field: [...] } }`. Not capped.
 */
export function upstreamErrorMessage(body: unknown, depth = 0): string | undefined {
  if (typeof body === 'string') return looksLikeHtml(body) ? undefined : oneLine(body) || undefined;
  if (Array.isArray(body)) return listMessage(body, depth);
  if (typeof body !== 'object' || body === null || depth > 3) return undefined;
  const b = body as Record<string, unknown>;
  const text = (key: string) => (typeof b[key] === 'string' ? oneLine(b[key] as string) : '');
  if (text('message')) return text('message');
  if (text('error_description')) return text('error') ? `${text('error')}: ${text('error_description')}` : text('error_description');
  if (text('error')) return text('error');
  if (text('detail')) return text('detail');
  for (const key of ['message', 'error']) {
    const nested = typeof b[key] === 'object' ? upstreamErrorMessage(b[key], depth + 1) : undefined;
    if (nested) return nested;
  }
  const errors = b.errors;
  if (typeof errors === 'string' && oneLine(errors)) return oneLine(errors);
  if (Array.isArray(errors)) return listMessage(errors, depth);
  if (typeof errors === 'object' && errors !== null) {
    // Rails validation errors: { "errors": { "note": ["is too short"] } }
    const parts = Object.entries(errors as Record<string, unknown>).map(([field, problems]) =>
      `${field} ${Array.isArray(problems) ? problems.map(String).join(', ') : String(problems)}`.trim(),
    );
    if (parts.length > 0) return parts.join('; ');
  }
  return text('title') || undefined;
}

function listMessage(items: readonly unknown[], depth: number): string | undefined {
  const parts = items.map((item) => itemMessage(item, depth)).filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** One entry of an `errors` list: a string, or an object naming a field (`field: message`). */
function itemMessage(item: unknown, depth: number): string | undefined {
  if (typeof item === 'string') return oneLine(item) || undefined;
  if (typeof item !== 'object' || item === null) return undefined;
  const e = item as Record<string, unknown>;
  const text = upstreamErrorMessage(e, depth + 1);
  if (!text) return undefined;
  const field = [e.field, e.param, e.parameter].find((value): value is string => typeof value === 'string' && value !== '');
  return field ? `${field}: ${text}` : text;
}

/** Whether a text is (the start of) an HTML or XML document: a proxy's error page, not a message. */
export function looksLikeHtml(text: string): boolean {
  const start = text.trimStart();
  return start.startsWith('<') || /<\/?(html|head|body|div|p|h1|title|pre)[\s>]/i.test(text);
}

function isHtmlAnswer(response: UpstreamResponse): boolean {
  const type = response.headers['content-type'];
  return /html/i.test(String(Array.isArray(type) ? type[0] : (type ?? '')));
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Credentials in the usual header forms, hidden whatever the plugin: `Bearer <token>`, `Basic <base64>`. */
function redactMessage(text: string, redact?: (text: string) => string): string {
  const generic = text.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 [redacted]');
  return redact ? redact(generic) : generic;
}

/** Cuts a message to `max` characters, the last being "…". */
export function capMessage(text: string, max = MAX_UPSTREAM_MESSAGE): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…` : text;
}

/**
 * `Retry-After` in whole seconds, from a number of seconds or an HTTP date (a date in the past is 0); undefined when
 * the header is absent or unreadable.
 */
export function retryAfterFromHeaders(headers: UpstreamResponse['headers'], now: number = Date.now()): number | undefined {
  const raw = headers['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  if (!/[a-z]/i.test(value)) return undefined; // neither seconds nor an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT")
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
