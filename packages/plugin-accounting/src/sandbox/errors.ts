import { type EmulatorReply, jsonReply, sandboxToday, toZoned, zonedTimestamp } from '@portico/core/testing/emulator';

// QuickBooks Online's error answers: a `Fault` with one or more errors and a type, plus the server's `time`.

export type FaultType = 'ValidationFault' | 'AuthenticationFault' | 'AuthorizationFault' | 'SystemFault' | 'ThrottlingFault';

export interface FaultError {
  Message: string;
  Detail?: string;
  code: string;
  element?: string;
}

/** An answer in QuickBooks' Fault format; thrown by routes, written by the sandbox's handler. */
export class QboFault extends Error {
  constructor(
    readonly status: number,
    readonly type: FaultType,
    readonly error: FaultError,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.Detail ?? error.Message);
    this.name = 'QboFault';
  }

  reply(): EmulatorReply {
    return faultBody(this.status, this.type, [this.error], this.headers);
  }
}

export function faultBody(status: number, type: FaultType, errors: FaultError[], headers?: Record<string, string>): EmulatorReply {
  return jsonReply(status, { Fault: { Error: errors, type }, time: qboTime() }, headers);
}

/**
 * The sandbox's clock: the afternoon of the sandbox's today (the shared sandbox clock), so that the same request
 * always gets the same answer on a day (and the server time agrees with the date macros and aging, which use that day).
 */
export function sandboxNow(): Date {
  return new Date(zonedTimestamp(sandboxToday(), '16:00'));
}

/** The server time QuickBooks puts in every answer: local time of the company (Pacific) with milliseconds. */
export function qboTime(now: Date = sandboxNow()): string {
  return toZoned(now, { millis: true });
}

// ---- the faults the sandbox answers ---------------------------------------------------------------------------------

export const queryParseFault = (detail: string) =>
  new QboFault(400, 'ValidationFault', { Message: 'Error parsing query', Detail: detail, code: '4000' });

export const queryValidationFault = (detail: string) =>
  new QboFault(400, 'ValidationFault', { Message: 'Invalid query', Detail: `QueryValidationError: ${detail}`, code: '4001' });

export const objectNotFound = (entity: string, id: string) =>
  new QboFault(400, 'ValidationFault', {
    Message: 'Object Not Found',
    Detail: `Object Not Found : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees. (${entity} ${id})`,
    code: '610',
    element: '',
  });

/** A report parameter QuickBooks refuses (a malformed date, an unknown date macro or column grouping). */
export const invalidParameter = (name: string, detail: string) =>
  new QboFault(400, 'ValidationFault', { Message: 'Invalid Parameter', Detail: `${name}: ${detail}`, code: '2010', element: name });

export const unsupportedOperation = (detail: string) =>
  new QboFault(400, 'ValidationFault', { Message: 'Unsupported Operation', Detail: `Operation ${detail} is not supported.`, code: '500' });

export const authenticationFailed = (detail: string) =>
  new QboFault(
    401,
    'AuthenticationFault',
    { Message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401', Detail: detail, code: '3200' },
    { 'www-authenticate': 'Bearer realm="Intuit", error="invalid_token"' },
  );

export const throttled = (detail: string, retryAfter = 60) =>
  new QboFault(
    429,
    'ThrottlingFault',
    { Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429', Detail: detail, code: '3001' },
    { 'retry-after': String(retryAfter) },
  );

/** What QuickBooks answers for a path it has no resource for. */
export const resourceNotFound = (path: string) =>
  new QboFault(404, 'ValidationFault', { Message: 'Resource Not Found', Detail: `No resource at ${path}`, code: '404' });

export const systemFault = () =>
  new QboFault(500, 'SystemFault', {
    Message: 'An application error has occurred while processing your request',
    Detail: 'System Failure Error',
    code: '10000',
  });
