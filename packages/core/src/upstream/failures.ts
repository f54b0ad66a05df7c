import { STATUS_CODES } from 'node:http';
import type { UpstreamResponse } from '../contract/operation.js';
import type { UpstreamFailure } from '../contract/plugin.js';

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
  // A server fault's free text (a stack, a path, a config dump) is not for callers: only a structured body is read,
  // and withheld text is replaced by the status' standard reason ("Service Unavailable").
  const withheld = (status >= 500 || response.status >= 500) && !isStructured(response.body) && !isHtmlAnswer(response);
  const found =
    withheld || isHtmlAnswer(response) ? undefined : (options.message?.(response.body, response) ?? upstreamErrorMessage(response.body));
  const fallback =
    (typeof options.defaultMessages === 'function' ? options.defaultMessages(status) : options.defaultMessages?.[status]) ||
    (withheld && typeof response.body === 'string' && response.body.trim() !== '' && !looksLikeHtml(response.body)
      ? STATUS_CODES[status]
      : undefined);
  // Redaction sees more than the cap keeps (a secret straddling the cut is not half shown), but not a whole large body.
  const max = options.maxLength ?? MAX_UPSTREAM_MESSAGE;
  const text = (found?.trim() || fallback || `HTTP ${status}`).slice(0, 2 * max + 200);
  const message = capMessage(redactMessage(text, options.redact), max);
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

/** A JSON object or array: an error body with fields, as opposed to free text. */
const isStructured = (body: unknown) => typeof body === 'object' && body !== null;

/** Names that say a value is a credential: `password`, `client_secret`, `X-Api-Key`, `access_token`, `sessionId`… */
const SECRET_NAME = /password|passwd|pwd|secret|token|api[_-]?key|apikey|credential|session|signature|authorization/i;
// Names are whole runs of name characters (the look-behind starts a match only at a run's start): linear time.
/** `password=…`, `client_secret="…"`, `?token=…&`. */
const ASSIGNMENT = /(?<![\w.-])([\w.-]+)(\s*=\s*)("[^"]*"|'[^']*'|[^\s&,;"']+)/g;
/** `"password": "…"`, `'token': '…'` (JSON, or a language's map dump). */
const FIELD = /(["'])([\w.-]+)\1(\s*:\s*)("[^"]*"|'[^']*')/g;

/**
 * Credentials hidden whatever the plugin, wherever an upstream's text becomes a message: `Bearer <token>`,
 * `Basic <base64>`, `name=value` and `"name": "value"` where the name says password, secret, token, API key,
 * credential, session, signature or authorization.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 [redacted]')
    .replace(ASSIGNMENT, (match, name: string, eq: string) => (SECRET_NAME.test(name) ? `${name}${eq}[redacted]` : match))
    .replace(FIELD, (match, quote: string, name: string, colon: string) =>
      SECRET_NAME.test(name) ? `${quote}${name}${quote}${colon}"[redacted]"` : match,
    );
}

function redactMessage(text: string, redact?: (text: string) => string): string {
  const generic = redactSecrets(text);
  return redact ? redact(generic) : generic;
}

/** Cuts a message to `max` characters, the last being "…". */
export function capMessage(text: string, max = MAX_UPSTREAM_MESSAGE): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…` : text;
}

/** Longest `Retry-After` passed on, seconds (a day); a longer one is read as this. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

const DELTA_SECONDS = /^\d+(\.\d+)?$/;
// RFC 9110 HTTP-date: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT"), asctime.
const HTTP_DATE = [
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * `Retry-After` as milliseconds from `now` (0 for a date in the past), read strictly: delta-seconds (digits, a
 * fraction tolerated) or an HTTP date; anything else (`-5`, `5, junk`, `soon`, two headers) is absent (undefined).
 */
export function retryAfterMs(headers: UpstreamResponse['headers'], now: number = Date.now()): number | undefined {
  const raw = headers['retry-after'];
  if (Array.isArray(raw) && raw.length !== 1) return undefined;
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (DELTA_SECONDS.test(value)) return Math.min(Number(value), MAX_RETRY_AFTER_SECONDS) * 1000;
  if (!HTTP_DATE.some((form) => form.test(value))) return undefined;
  const date = Date.parse(asctimeAsUtc(value));
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_SECONDS * 1000);
}

/** asctime dates carry no zone but are GMT; Date.parse would read them as local time. */
const asctimeAsUtc = (value: string) => (value.endsWith('GMT') ? value : `${value} GMT`);

/**
 * `Retry-After` in whole seconds to pass on to a caller, read by {@link retryAfterMs}: at least 1 (a date in the past
 * or `0` is "1": a caller is never told 0), at most {@link MAX_RETRY_AFTER_SECONDS}; undefined when absent or unreadable.
 */
export function retryAfterFromHeaders(headers: UpstreamResponse['headers'], now: number = Date.now()): number | undefined {
  const ms = retryAfterMs(headers, now);
  return ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000));
}
