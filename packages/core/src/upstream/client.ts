import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Got } from 'got';
import type { UpstreamRequest, UpstreamResponse } from '../contract/operation.js';
import { GatewayError } from '../errors.js';
import { EGRESS_REFUSED } from './egress.js';
import { retryAfterMs } from './failures.js';
import { endUpstreamSpan, startUpstreamSpan } from './spans.js';
import { setTraceHeaders, type TraceContext } from './trace-context.js';

export interface UpstreamClientOptions {
  /**
   * The time budget of one upstream call, ms: from the first connect to the last byte of the last attempt, retries,
   * their back-off and any `Retry-After` waits included. Past it the call fails with `upstream_timeout` (504).
   */
  timeoutMs: number;
  /** Retries for idempotent methods (and keyed writes) on network errors, 429, 502, 503, 504, as far as the budget allows. */
  retryLimit: number;
  /** Longest `Retry-After` (ms) the gateway waits out itself; a longer one is passed on to the caller as 429. */
  retryAfterCapMs: number;
  /** Upper bound of the exponential back-off between retries, ms. */
  backoffLimitMs?: number;
  /**
   * Largest upstream answer body, bytes (after decompression). A larger declared `Content-Length` is refused before
   * the body is read; a body that grows past it is cut off at once. Either way: `upstream_error` (502).
   */
  maxResponseBytes?: number;
  userAgent?: string;
  /** Resolves host names for the agents (the egress policy's: refuses names that resolve to link-local or metadata). */
  lookup?: LookupFunction;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export const DEFAULT_UPSTREAM_OPTIONS: UpstreamClientOptions = {
  timeoutMs: 30_000,
  retryLimit: 2,
  retryAfterCapMs: 10_000,
  backoffLimitMs: 5_000,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
};

export interface PreparedRequest extends UpstreamRequest {
  /** Absolute URL after the base URL was applied. */
  url: string;
  /** Who answers, for error messages ("Notion did not answer in time"); default "The upstream". */
  upstreamName?: string;
  /** End of the call's budget (`performance.now()` time) when it began earlier (a wait for a slot); default now + timeoutMs. */
  deadline?: number;
  /** Runs before each retry (a connection's rate window: limits.ts); a throw ends the call with that error. */
  beforeRetry?: () => Promise<void>;
  /** The service and operation the request is for: attributes of its span (spans.ts). */
  service?: string;
  operation?: string;
  /** The trace of the request the call answers (its `traceparent`); default: the current one, if any (trace-context.ts). */
  trace?: TraceContext | undefined;
  /** The request carries an idempotency key the application honours (idempotency.ts): retried like a PUT. */
  idempotent?: boolean;
}

const RETRY_METHODS = new Set(['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']);
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_ERROR_CODES = new Set(['ECONNRESET', 'EADDRINUSE', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * How long an upstream connection may stay idle in the pool, ms: under the 5 s that Node's servers (and others) keep an
 * idle connection without always saying so. Only idle connections: a request in flight is bounded by its budget.
 */
const IDLE_CONNECTION_MS = 4_000;
/** A retry is started only if, after its wait, at least this share of the budget is left for it. */
const RETRY_MIN_BUDGET_SHARE = 0.25;

type Attempt = { response: UpstreamResponse; error?: undefined } | { response?: undefined; error: GatewayError };

/**
 * The one upstream HTTP client: a single got instance with keep-alive agents, created once per engine. got's defaults
 * are unsafe for a gateway (no timeout, waits out any Retry-After, follows redirects, buffers any body), so got makes
 * one attempt, without redirects, and this class owns the rest: the time budget of the whole call, the retries inside
 * it, and the size cap of the answer.
 */
/**
 * got is imported by the first upstream call, not at start-up: unbundled, it is about a hundred files, and a gateway
 * that has not called an upstream yet does not need it (docs/adr/0014-unbundled-packages.md).
 */
let gotModule: Promise<typeof import('got')> | undefined;
/** got's error class, known once got is loaded (the only time a got error can exist). */
let GotRequestError: typeof import('got')['RequestError'] | undefined;

export class UpstreamClient {
  private got: Promise<Got> | undefined;
  /** The got instance once made: later calls take it without waiting on a promise. */
  private ready: Got | undefined;
  private readonly maxResponseBytes: number;
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(readonly options: UpstreamClientOptions = DEFAULT_UPSTREAM_OPTIONS) {
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    // An idle connection is closed after IDLE_CONNECTION_MS, or a second before the keep-alive timeout the upstream
    // announces (`Keep-Alive: timeout=N`), whichever is first: Node's agent reads that hint only when it has a timeout of
    // its own. Without one, a request could be written on a connection the upstream was closing: a reset, which a
    // write is not retried after.
    const agentOptions = {
      keepAlive: true,
      maxSockets: 256,
      timeout: IDLE_CONNECTION_MS,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  }

  /** The got instance of this client, made on the first call. */
  private client(): Promise<Got> {
    const { lookup, userAgent } = this.options;
    gotModule ??= import('got');
    this.got ??= gotModule.then((module) => {
      GotRequestError = module.RequestError;
      const instance = module.default.extend({
        agent: this.agents,
        ...(lookup ? { dnsLookup: lookup } : {}),
        followRedirect: false,
        throwHttpErrors: false,
        retry: { limit: 0 },
        headers: { 'user-agent': userAgent ?? 'portico-gateway' },
        // only to set `cacheOptions` below: nothing else changes the defaults of this instance, which no one else holds
        mutableDefaults: true,
      });
      // No HTTP cache (got's `cache` is not set), so no cache options: got spreads them into the options object of
      // every request it hands to `http.request`, and on Node 20 that object costs about 28 µs when they are its four
      // keys (all undefined), about 2 µs when they are none (docs/performance.md, "got's cache options"). Set here,
      // outside a merge, the empty object replaces got's default rather than being merged into it.
      instance.defaults.options.cacheOptions = {};
      this.ready = instance;
      return this.ready;
    });
    return this.got;
  }

  /**
   * Sends a request within the budget (`timeoutMs`). Idempotent methods, and writes that carry an idempotency key the
   * application honours (the same key each time: the URL is built once), are retried on network errors, 429, 502, 503
   * and 504 after the answer's `Retry-After` (at most `retryAfterCapMs`) or an exponential back-off, but only while
   * at least a quarter of the budget would be left after the wait; otherwise the last answer or failure is final.
   */
  async send(request: PreparedRequest): Promise<UpstreamResponse> {
    const { timeoutMs, retryLimit } = this.options;
    const deadline = request.deadline ?? performance.now() + timeoutMs;
    const name = request.upstreamName ?? 'The upstream';
    const url = withQuery(request.url, request.query);
    const { headers, body } = encodeBody(request);
    const retriable = RETRY_METHODS.has(request.method) || request.idempotent === true;
    const got = this.ready ?? (await this.client());
    // Bounded: one attempt plus at most `retryLimit` retries.
    for (let attempt = 0; ; attempt++) {
      // W3C trace context: the request's trace id, a new span id for each attempt (trace-context.ts) — the attempt's
      // client span's when spans are recorded (spans.ts)
      const span = startUpstreamSpan(request.method, url, request.service, request.operation, attempt);
      // got copies the headers into its own options: the one object is reused, its trace headers set anew each attempt
      setTraceHeaders(headers, span, request.trace);
      const outcome = await this.attempt(got, url, request.method, headers, body, deadline - performance.now(), name);
      endUpstreamSpan(span, outcome.response?.status ?? outcome.error?.upstreamStatus, outcome.error);
      const wait = retriable && attempt < retryLimit ? this.retryWait(outcome, attempt) : undefined;
      if (wait === undefined || deadline - performance.now() - wait < timeoutMs * RETRY_MIN_BUDGET_SHARE) {
        if (outcome.error) throw outcome.error;
        return outcome.response;
      }
      await sleep(wait);
      await request.beforeRetry?.();
    }
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** How long to wait before retrying this outcome, ms; undefined when it is not retried. */
  private retryWait(outcome: Attempt, attempt: number): number | undefined {
    const backoff = Math.min(1000 * 2 ** attempt + Math.random() * 100, this.options.backoffLimitMs ?? 5_000);
    if (outcome.error) {
      const code = (outcome.error.cause as { code?: string } | undefined)?.code;
      return code !== undefined && RETRY_ERROR_CODES.has(code) ? backoff : undefined;
    }
    if (!RETRY_STATUSES.has(outcome.response.status)) return undefined;
    const retryAfter = retryAfterMs(outcome.response.headers);
    if (retryAfter === undefined) return backoff;
    return retryAfter <= this.options.retryAfterCapMs ? retryAfter : undefined;
  }

  /** One attempt within `timeoutMs`, its body read up to the size cap. Failures are returned, not thrown. */
  private attempt(
    got: Got,
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    timeoutMs: number,
    name: string,
  ): Promise<Attempt> {
    const max = this.maxResponseBytes;
    return new Promise<Attempt>((resolve) => {
      // got(…, { isStream: true }) rather than got.stream(…), which copies the options only to add that one key
      const stream = got(url, {
        method: method as 'GET',
        headers,
        body,
        timeout: { request: Math.max(1, Math.floor(timeoutMs)) },
        isStream: true,
      });
      let settled = false;
      let status = 0;
      let responseHeaders: UpstreamResponse['headers'] = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const fail = (error: GatewayError) => {
        if (settled) return;
        settled = true;
        stream.destroy();
        resolve({ error });
      };
      const tooLarge = () =>
        new GatewayError('upstream_error', `${name} answered with more than the ${max} bytes an upstream answer may have`);
      stream.on('response', (response: http.IncomingMessage) => {
        status = response.statusCode ?? 0;
        responseHeaders = response.headers;
        // Refused before reading: a compressed length over the cap means an even larger body.
        if (Number(response.headers['content-length']) > max) fail(tooLarge());
      });
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > max) fail(tooLarge());
        else chunks.push(chunk);
      });
      stream.on('end', () => {
        if (settled) return;
        settled = true;
        try {
          const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
          resolve({ response: toUpstreamResponse(status, responseHeaders, raw, name) });
        } catch (error) {
          resolve({ error: error as GatewayError });
        }
      });
      stream.on('error', (error: Error) => fail(networkFailure(error, name, this.options.timeoutMs)));
      // In stream mode got waits for the caller to end a body it was not given.
      if (body === undefined && method !== 'GET' && method !== 'HEAD') stream.end();
    });
  }
}

/**
 * The request URL with the request's query appended. An upstream-supplied URL (a pre-signed upload address) keeps
 * its own query string exactly as it came: it is never decoded and re-encoded.
 */
function withQuery(url: string, query: UpstreamRequest['query']): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const extra = search.toString();
  if (!extra) return url;
  const hash = url.indexOf('#');
  const [base, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${base}${base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?'}${extra}${fragment}`;
}

function encodeBody(request: UpstreamRequest): { headers: Record<string, string>; body: string | Uint8Array | undefined } {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.headers) Object.assign(headers, request.headers);
  if (request.raw) {
    headers['content-type'] = request.raw.contentType;
    return { headers, body: request.raw.data };
  }
  if (request.form) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(request.form)) if (value !== undefined) form.append(key, String(value));
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return { headers, body: form.toString() };
  }
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    return { headers, body: JSON.stringify(request.body) };
  }
  return { headers, body: undefined };
}

/** The bytes a JSON object or array body was parsed from, by response: a door may send them on as they came. */
const jsonBytes = new WeakMap<UpstreamResponse, Buffer>();

/**
 * The JSON text `response.body` was parsed from, when it is an object or an array parsed from an answer of this client
 * (undefined otherwise): passing these bytes on saves serialising the body again when nothing changed it.
 */
export function upstreamJsonBytes(response: UpstreamResponse): Buffer | undefined {
  return jsonBytes.get(response);
}

/**
 * The answer with its body read: JSON when the upstream said JSON (or the text looks like JSON), else the text. A
 * successful answer that declares JSON but does not parse is the upstream's fault: `upstream_error`, not a text result.
 */
function toUpstreamResponse(status: number, headers: UpstreamResponse['headers'], raw: Buffer, name: string): UpstreamResponse {
  if (raw.length === 0) return { status, headers, body: undefined };
  const text = raw.toString('utf8');
  const type = String(headers['content-type'] ?? '');
  const declaredJson = /\bjson\b|\+json/i.test(type);
  if (declaredJson || /^\s*[[{]/.test(text)) {
    try {
      const response = { status, headers, body: JSON.parse(text) };
      if (typeof response.body === 'object' && response.body !== null) jsonBytes.set(response, raw);
      return response;
    } catch {
      if (declaredJson && status >= 200 && status < 300) {
        throw new GatewayError('upstream_error', `${name} answered with invalid JSON (${status})`, { upstreamStatus: status });
      }
      // not JSON after all: keep the text (an error answer's text is judged by the failure reader)
    }
  }
  return { status, headers, body: text };
}

/** Network failures never carry got's error text to the caller: it includes URLs and may include headers. */
function networkFailure(error: unknown, name: string, budgetMs: number): GatewayError {
  if (GotRequestError && error instanceof GotRequestError) {
    // the egress policy refused the address a name resolves to: its message names the name, never credentials
    if (error.code === EGRESS_REFUSED) {
      return new GatewayError('upstream_error', `${name} was not contacted: ${error.message}`, { cause: error });
    }
    if (error.name === 'TimeoutError' || error.code === 'ETIMEDOUT') {
      return new GatewayError('upstream_timeout', `${name} did not answer within the ${budgetMs} ms budget`, { cause: error });
    }
    return new GatewayError('upstream_error', `Could not reach ${lowerFirst(name)} (${error.code ?? 'network error'})`, { cause: error });
  }
  return new GatewayError('upstream_error', `Could not reach ${lowerFirst(name)}`, { cause: error });
}

/** "The upstream" → "the upstream" inside a sentence; names ("Notion") unchanged. */
const lowerFirst = (name: string) => (name.startsWith('The ') ? `the ${name.slice(4)}` : name);
