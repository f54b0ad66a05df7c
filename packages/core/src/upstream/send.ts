import type { UpstreamRequest, UpstreamResponse } from '../contract/operation.js';
import type { Credentials, UpstreamFailure } from '../contract/plugin.js';
import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import { codeForUpstreamStatus, type ErrorCode, GatewayError, toGatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PreparedRequest, UpstreamClient } from './client.js';
import { EgressPolicy } from './egress.js';
import { readUpstreamFailure, redactSecrets, retryAfterFromHeaders } from './failures.js';
import { carriesIdempotencyKey } from './idempotency.js';
import type { UpstreamSlots } from './limiter-port.js';
import { type ConnectionCall, UpstreamLimiter } from './limits.js';

const MAX_MESSAGE = 500;

/** One upstream call of an operation: every attempt, back-off and `Retry-After` wait of its time budget included. */
export interface UpstreamObservation {
  service: string;
  operation: string;
  /** `ok`, or the error code the call ended with (`upstream_timeout`, `rate_limited`, `upstream_error`…). */
  outcome: 'ok' | ErrorCode;
  /** The status of the last answer; undefined when none came (refused, reset, timed out). */
  status: number | undefined;
  durationMs: number;
}

/** Sends one upstream request of an operation, with the integration's headers and auth, and judges the answer. */
export class UpstreamSender {
  constructor(
    private readonly client: UpstreamClient,
    private readonly logger: Logger,
    private readonly egress: EgressPolicy = new EgressPolicy(),
    private readonly limits: UpstreamSlots = new UpstreamLimiter(),
  ) {}

  /** Told of every upstream call sent through {@link send}, whatever its outcome (the engine's observers: metrics). */
  onCall: ((observation: UpstreamObservation) => void) | undefined;

  async send(
    integration: RegisteredIntegration,
    operation: Pick<RegisteredOperation, 'name'>,
    request: UpstreamRequest,
    baseUrl: string,
    credentials: Credentials,
    settings: Record<string, unknown>,
    /** Whose connection this is: its requests take its slots (limits.ts). Without it, no limit applies. */
    connection?: ConnectionCall,
  ): Promise<UpstreamResponse> {
    const started = performance.now();
    try {
      const upstream = integration.plugin.upstream;
      const absolute = request.url !== undefined;
      // An absolute URL comes from the upstream (an upload address it handed out): if it is unusable, the upstream is at fault.
      if (absolute) assertHttpUrl(request.url as string, `The address ${integration.plugin.displayName} handed out`);
      // The egress policy, before any connection: an allowed base URL; a handed-out address only on an allowed host.
      try {
        this.egress.assertRequest(integration.plugin, request, baseUrl);
      } catch (error) {
        this.logger.warn(
          { service: integration.service, operation: operation.name, reason: (error as Error).message, ...traceField(connection) },
          'egress refused',
        );
        throw error;
      }
      // One headers object, in order of precedence (later wins): the integration's, its auth, the request's own.
      const headers: Record<string, string> = {};
      if (upstream.headers) assignHeaders(headers, upstream.headers(settings));
      if (request.auth ?? !absolute) {
        if (upstream.authHeaders) assignHeaders(headers, upstream.authHeaders(credentials));
        else headers.authorization = `Bearer ${credentials.accessToken}`;
      }
      if (request.headers) assignHeaders(headers, request.headers);
      // Written out rather than spread: one object of one shape per call, which the limiter completes (limits.ts).
      const prepared: PreparedRequest = {
        method: request.method,
        url: request.url ?? joinPath(baseUrl, request.path ?? ''),
        query: request.query,
        body: request.body,
        form: request.form,
        raw: request.raw,
        headers,
        auth: request.auth,
        upstreamName: integration.plugin.displayName,
        service: integration.service,
        operation: operation.name,
        trace: connection?.trace,
        deadline: undefined,
        beforeRetry: undefined,
        idempotent: carriesIdempotencyKey(request),
      };
      const response = this.judge(
        integration,
        operation,
        await this.limits.send(this.client, integration, prepared, connection),
        connection,
      );
      this.observe(integration, operation, started, response.status, undefined);
      return response;
    } catch (error) {
      this.observe(integration, operation, started, undefined, error);
      throw error;
    }
  }

  /** Tells {@link onCall} of a call: its outcome (`ok` or the error's code), the last status and the time it took. */
  private observe(
    integration: RegisteredIntegration,
    operation: Pick<RegisteredOperation, 'name'>,
    started: number,
    status: number | undefined,
    error: unknown,
  ): void {
    if (!this.onCall) return;
    const failure = error === undefined ? undefined : toGatewayError(error);
    this.onCall({
      service: integration.service,
      operation: operation.name,
      outcome: failure ? failure.code : 'ok',
      status: failure ? failure.upstreamStatus : status,
      durationMs: performance.now() - started,
    });
  }

  /** The answer as it is, or the error it says (a 4xx, a 5xx, or the plugin's own reading of it). */
  private judge(
    integration: RegisteredIntegration,
    operation: Pick<RegisteredOperation, 'name'>,
    response: UpstreamResponse,
    connection: ConnectionCall | undefined,
  ): UpstreamResponse {
    const upstream = integration.plugin.upstream;
    const failure = upstream.inspect ? upstream.inspect(response) : readUpstreamFailure(response, { maxLength: MAX_MESSAGE });
    if (failure) {
      const error = upstreamError(integration.plugin.displayName, failure, response);
      this.logger.warn(
        {
          service: integration.service,
          operation: operation.name,
          upstreamStatus: response.status,
          code: error.code,
          ...traceField(connection),
        },
        'upstream answered with an error',
      );
      throw error;
    }
    return response;
  }
}

/** Copies every header of `source` over `target`'s, as a spread would (a later source wins). */
function assignHeaders(target: Record<string, string>, source: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(source)) target[name] = source[name] as string;
}

/** The call's trace id for a log line (the logger's mixin names it only while the trace is the current one). */
const traceField = (connection: ConnectionCall | undefined) => (connection?.trace ? { traceId: connection.trace.traceId } : {});

/**
 * The upstream answered 401 (or its own way of saying so, through the plugin's `inspect`): the access token it was
 * sent is no longer good. The pipeline may refresh it and send the request again (pipeline/pipeline.ts); otherwise it
 * is the `upstream_unauthorized` it is.
 */
export class CredentialsRejected extends GatewayError {}

function upstreamError(displayName: string, failure: UpstreamFailure, response: UpstreamResponse): GatewayError {
  const code = codeForUpstreamStatus(failure.status);
  const detail = failure.message ? `: ${redactSecrets(failure.message.slice(0, MAX_MESSAGE))}` : '';
  const options = { upstreamStatus: response.status, retryAfter: failure.retryAfter ?? retryAfterFromHeaders(response.headers) };
  if (failure.status === 401) return new CredentialsRejected(code, upstreamMessage(code, displayName, failure.status, detail), options);
  const error = new GatewayError(code, upstreamMessage(code, displayName, failure.status, detail), options);
  // MCP clients see only the body: the message says when to retry (in GatewayError's whole seconds), as the REST
  // door's Retry-After header does.
  return error.retryAfter === undefined ? error : new GatewayError(code, `${error.message}; retry after ${error.retryAfter} s`, options);
}

function upstreamMessage(code: ErrorCode, displayName: string, status: number, detail: string): string {
  switch (code) {
    case 'bad_request':
      return `${displayName} rejected the request${detail}`;
    case 'upstream_unauthorized':
      return `${displayName} rejected the stored credentials (${status})${detail}; reconnect the integration`;
    case 'not_found':
      return `${displayName} found no such record${detail}`;
    case 'conflict':
      return `${displayName} reported a conflict${detail}`;
    case 'rate_limited':
      return `${displayName} is rate limiting this connection${detail}`;
    default:
      return `${displayName} failed (${status})${detail}`;
  }
}

/**
 * The operation's path below the base URL, always as a path: a `?` or `#` in the base URL (an operator's, as a
 * workspace's may not have them) is dropped rather than left to swallow the path, and one in the path is
 * percent-encoded. The query goes in `request.query`.
 */
export function joinPath(baseUrl: string, path: string): string {
  const safePath = path.includes('?') || path.includes('#') ? path.replace(/[?#]/g, (c) => encodeURIComponent(c)) : path;
  return `${baseWithoutQuery(baseUrl)}${safePath}`;
}

/** Base URLs are few (one per integration and workspace): each is parsed once, not on every call. */
const bases = new Map<string, string>();

function baseWithoutQuery(baseUrl: string): string {
  let href = bases.get(baseUrl);
  if (href === undefined) {
    const base = new URL(baseUrl); // an http(s) URL: the egress policy said so
    base.search = '';
    base.hash = '';
    href = base.href.replace(/\/+$/, '');
    if (bases.size >= 1_000) bases.clear(); // bounded, should a store hold very many
    bases.set(baseUrl, href);
  }
  return href;
}

/** Throws `upstream_error` unless `value` (an address an upstream handed out) is an http or https URL: the upstream is at fault. */
function assertHttpUrl(value: string, what: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new GatewayError('upstream_error', `${what} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GatewayError('upstream_error', `${what} is not http or https`);
}
