/**
 * The closed set of error codes Portico answers with, the one table that maps them to HTTP statuses,
 * and the one function that builds the error body. Everything that fails anywhere in the gateway ends
 * up as a GatewayError; the REST adapter turns it into a status + body, the MCP adapter into an
 * `isError` tool result carrying the same body.
 */

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The request did not arrive completely within the server's time limits (answered by the HTTP edge). */
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  /** 424 Failed Dependency: the call is valid but the integration has no usable upstream credentials. */
  not_connected: 424,
  rate_limited: 429,
  /** The request line and headers are over Node's limit (16 KB), refused before the app sees them. */
  headers_too_large: 431,
  internal_error: 500,
  upstream_error: 502,
  upstream_unauthorized: 502,
  /**
   * 503: the database does not answer and the call needs what is not in memory (an unknown key, a setting never read),
   * or it has not answered for longer than degraded mode lasts (PORTICO_DEGRADED_SECONDS). Sent with `Retry-After`.
   */
  unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorBody {
  error: true;
  code: ErrorCode;
  message: string;
}

interface GatewayErrorOptions {
  /** Seconds a client should wait before retrying (sent as `Retry-After`). */
  retryAfter?: number;
  /** Upstream HTTP status behind this error, kept for logs and audit only (never in the body). */
  upstreamStatus?: number;
  /**
   * The OAuth scopes that would let the call through (`<service>:write` …), for a refusal of an OAuth token's call:
   * sent as `scope=` in the `insufficient_scope` challenge, so that the client can step up. Never in the body.
   */
  requiredScope?: string;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly retryAfter: number | undefined;
  readonly upstreamStatus: number | undefined;
  readonly requiredScope: string | undefined;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    // Sent as `Retry-After` and said in the message: whole seconds, at least 1; a negative or non-number is no hint.
    const wait = options.retryAfter;
    this.retryAfter = wait !== undefined && Number.isFinite(wait) && wait >= 0 ? Math.max(1, Math.ceil(wait)) : undefined;
    this.upstreamStatus = options.upstreamStatus;
    this.requiredScope = options.requiredScope;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/**
 * Anything thrown that is not a GatewayError becomes `internal_error` with a fixed message:
 * the original message may carry internals (paths, SQL, secrets) and is only logged.
 */
export function toGatewayError(value: unknown): GatewayError {
  if (value instanceof GatewayError) return value;
  return new GatewayError('internal_error', 'Internal error', { cause: value });
}

/** The one place the error body is built. */
export function errorBody(error: GatewayError): ErrorBody {
  return { error: true, code: error.code, message: error.message };
}

/** HTTP status of an upstream failure → gateway error code (the upstream mapping table). */
export function codeForUpstreamStatus(status: number): ErrorCode {
  if (status === 400 || status === 422) return 'bad_request';
  if (status === 401 || status === 403) return 'upstream_unauthorized';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limited';
  return 'upstream_error';
}

/** The message of anything thrown, for logs and reports. */
export function errorSummary(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
