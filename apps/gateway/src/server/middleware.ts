import { randomUUID } from 'node:crypto';
import { type Attributes, type Span, SpanStatusCode } from '@opentelemetry/api';
import {
  type DatabaseOutage,
  errorBody,
  formatTraceparent,
  GatewayError,
  isDatabaseDown,
  type Logger,
  runInTrace,
  startServerSpan,
  toGatewayError,
  traceFromHeaders,
  tracingOn,
} from '@portico/core';
import type { Context, Next } from 'koa';
import { accessLogger } from '../observability/logger.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import { ClientAddress } from './client-address.js';
import { edgeAnswered, isClientAbort } from './edge.js';
import { hostAllowed, originHost } from './hosts.js';

/** Logged status of a request whose client went away before it was answered (nothing is sent). */
const CLIENT_CLOSED = 499;

const errorCode = (error: unknown) => (error as { code?: unknown } | null)?.code ?? (error as Error | null)?.message;

/**
 * Errors Koa reports outside the middleware chain (a response stream failing, a socket error after the answer):
 * logged here instead of Koa's default, which prints stacks to stderr. A client going away is not a fault.
 */
export function reportResponseError(logger: Logger): (error: unknown, ctx?: Context) => void {
  return (error, ctx) => {
    const requestId = ctx?.state?.requestId;
    if (isClientAbort(error)) logger.debug({ requestId, code: errorCode(error) }, 'client closed the connection');
    else logger.error({ requestId, err: error }, 'response failed');
  };
}

/**
 * The first middleware: gives each request an id, turns any failure below into the error body (and an unknown path
 * into `not_found`), counts the answer and writes the access-log line.
 */
export function requestLog(
  logger: Logger,
  metrics: GatewayMetrics | undefined,
  clients: ClientAddress = new ClientAddress([]),
  /** Degraded mode: a request failing because the database does not answer is 503 `unavailable`, logged once per interval. */
  outage?: DatabaseOutage,
): (ctx: Context, next: Next) => Promise<void> {
  const access = accessLogger(logger);
  return async (ctx, next) => {
    const started = performance.now();
    ctx.state.clientAddress = clients.of(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for') || undefined);
    // An inbound X-Request-Id (a balancer's or the caller's) is kept when it is 1–128 safe characters; else a new one.
    const inbound = ctx.get('x-request-id');
    ctx.state.requestId = REQUEST_ID.test(inbound) ? inbound : randomUUID();
    ctx.set('x-request-id', ctx.state.requestId);
    // W3C trace context: the caller's trace when its traceparent is valid, else a new one; the answer names our span
    // (the OpenTelemetry server span when spans are recorded: observability/tracing.ts).
    const traceparent = ctx.get('traceparent') || undefined;
    const tracestate = ctx.get('tracestate') || undefined;
    // The probes are not traced: a balancer asks every second, and a trace per ask would bury the calls.
    const traced =
      tracingOn() && !UNTRACED.has(ctx.path) ? startServerSpan(ctx.method, traceparent, tracestate, requestAttributes(ctx)) : undefined;
    const trace = traced?.trace ?? traceFromHeaders(traceparent, tracestate);
    ctx.state.trace = trace;
    ctx.state.traceId = trace.traceId;
    ctx.set('traceparent', formatTraceparent(trace));
    let clientClosed = false;
    try {
      // The doors hand the trace to the engine themselves (its upstream requests carry it, its log lines name it). It
      // is made the current trace (AsyncLocalStorage) only while spans are recorded, whose context must follow every
      // store read and upstream call: on Node 20 the first use of AsyncLocalStorage turns on promise hooks for every
      // promise of the process, about a tenth of a request's CPU.
      if (traced) await runInTrace(trace, next);
      else await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false) {
        throw new GatewayError('not_found', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (error) {
      clientClosed = sendError(ctx, error, logger, outage);
    } finally {
      // 499 (as nginx logs it): the client closed the connection before an answer; or what the edge answered (408).
      const status = clientClosed
        ? (edgeAnswered(ctx.req.socket) ?? CLIENT_CLOSED)
        : ctx.respond === false
          ? ctx.res.statusCode
          : ctx.status;
      metrics?.response(ctx.path, status);
      if (traced) endServerSpan(traced.span, ctx, status);
      access.info(
        {
          requestId: ctx.state.requestId,
          traceId: ctx.state.traceId,
          method: ctx.method,
          path: ctx.path,
          status,
          client: ctx.state.clientAddress,
          ms: Math.round((performance.now() - started) * 10) / 10,
          keyId: ctx.state.principal?.keyId,
          service: ctx.state.service,
          operation: ctx.state.operation,
        },
        'request',
      );
    }
  };
}

const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/** The server span's attributes known before the request is routed (no query string: it may carry a code or a token). */
function requestAttributes(ctx: Context): Attributes {
  return {
    'http.request.method': ctx.method,
    'url.path': ctx.path,
    'url.scheme': ctx.protocol,
    ...(ctx.state.clientAddress ? { 'client.address': ctx.state.clientAddress as string } : {}),
    'portico.request_id': ctx.state.requestId as string,
  };
}

/** Names the server span after its route (`POST /api/mcp`) and ends it with the answer's status. */
function endServerSpan(span: Span, ctx: Context, status: number): void {
  const route = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof route === 'string') {
    span.setAttribute('http.route', route);
    span.updateName(`${ctx.method} ${route}`);
  }
  span.setAttribute('http.response.status_code', status);
  if (ctx.state.principal?.keyId) span.setAttribute('portico.key_id', ctx.state.principal.keyId as string);
  if (ctx.state.service) span.setAttribute('portico.service', ctx.state.service as string);
  if (ctx.state.operation) span.setAttribute('portico.operation', ctx.state.operation as string);
  if (status >= 500) {
    span.setAttribute('error.type', String(status));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

const GUARDED_PROBES = new Set(['/healthz', '/metrics']);

/** What an inbound request id may be: letters, digits and `-_.:/+=@`, 1 to 128 of them (no spaces, no control). */
const REQUEST_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

/**
 * DNS rebinding: a web page must not reach a gateway on loopback through a host name it controls. Synchronous (called
 * by the app's front middleware, not a middleware of its own): throws `forbidden` for a Host or Origin not allowed.
 */
export function hostCheck(
  allowed: readonly string[] | '*',
  publicUrl?: string,
  /** Requests whose Origin the operator listed for cross-origin calls (server/cors.ts): their Origin is not checked. */
  fromListedOrigin: (ctx: Context) => boolean = () => false,
): (ctx: Context) => void {
  const publicHost = publicUrl ? new URL(publicUrl).host.toLowerCase() : undefined;
  // Clients send the same few Host values: each is judged once (bounded: the header is the client's to choose).
  const hosts = new Map<string, boolean>();
  const hostOk = (host: string, list: readonly string[]) => {
    let ok = hosts.get(host);
    if (ok === undefined) {
      ok = hostAllowed(host, list);
      if (hosts.size >= 256) hosts.clear();
      hosts.set(host, ok);
    }
    return ok;
  };
  return (ctx) => {
    // the probes too: /healthz names the version and the integrations
    if (allowed !== '*' && (ctx.path.startsWith('/api/') || GUARDED_PROBES.has(ctx.path))) {
      const origin = fromListedOrigin(ctx) ? '' : ctx.get('origin');
      // an Origin names a port too: a page on another port of an allowed name is another site
      const from = origin ? originHost(origin).toLowerCase() : undefined;
      const ownOrigin = from === undefined || from === ctx.get('host').toLowerCase() || from === publicHost;
      if (!hostOk(ctx.get('host'), allowed) || (origin && (!hostAllowed(originHost(origin), allowed) || !ownOrigin))) {
        throw new GatewayError('forbidden', 'Host or Origin not allowed (see PORTICO_ALLOWED_HOSTS)');
      }
    }
  };
}

/** Turns any failure into the error body; returns true when the client had gone away (nothing to answer, not a fault). */
function sendError(ctx: Context, error: unknown, logger: Logger, outage?: DatabaseOutage): boolean {
  const socket = ctx.req.socket as Context['req']['socket'] | null;
  if (isClientAbort(error) && (ctx.req.destroyed || !socket || socket.destroyed)) {
    logger.info({ requestId: ctx.state.requestId, traceId: ctx.state.traceId, code: errorCode(error) }, 'client closed the connection');
    return true;
  }
  const databaseDown = outage !== undefined && !(error instanceof GatewayError) && isDatabaseDown(error);
  if (databaseDown) outage.down('request', error);
  const failure = databaseDown ? outage.unavailable('this request') : toGatewayError(error);
  if (failure.code === 'internal_error') {
    logger.error({ requestId: ctx.state.requestId, traceId: ctx.state.traceId, err: error }, 'unhandled error');
  }
  if (ctx.respond === false && ctx.res.headersSent) return false;
  ctx.respond = true;
  ctx.status = failure.status;
  ctx.body = errorBody(failure);
  const challenge = (ctx.state.challenge as ((code: string, scope?: string) => string | undefined) | undefined)?.(
    failure.code,
    failure.requiredScope,
  );
  if (challenge) ctx.set('www-authenticate', challenge);
  else if (failure.code === 'unauthorized') ctx.set('www-authenticate', 'Bearer realm="portico"');
  if (failure.retryAfter !== undefined) ctx.set('retry-after', String(failure.retryAfter));
  return false;
}
