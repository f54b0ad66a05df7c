import {
  type Attributes,
  type Context,
  createTraceState,
  type Link,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { currentTrace, parseTraceparent, type TraceContext, validTracestate } from './trace-context.js';

/**
 * OpenTelemetry spans (https://opentelemetry.io/docs/specs/otel/trace/api/) for the request, its upstream calls and
 * its store calls — recorded only when an SDK is registered (the gateway registers one when an OTLP endpoint is set).
 * Without one, nothing here allocates a span: `tracer` stays undefined and every helper returns at its first line, so
 * the hot path costs one comparison. The span of the request is carried in the request's own trace context
 * (trace-context.ts: one AsyncLocalStorage), so no OpenTelemetry context manager is needed either.
 */
let tracer: Tracer | undefined;

/** What the API hands out while no SDK is registered (a fresh proxy delegates to the API's no-op provider). */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Looks once whether an OpenTelemetry SDK is registered as the global tracer provider, and records spans from now on
 * if so (or stops, if it is gone). The engine looks when it is built; whoever registers or removes a provider later
 * calls it again.
 */
export function detectTracing(): boolean {
  const provider = trace.getTracerProvider();
  const delegate = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  tracer = delegate === NOOP_PROVIDER ? undefined : delegate.getTracer('@portico/core');
  return tracer !== undefined;
}

/** Whether spans are recorded (an SDK was registered when `detectTracing` last looked). */
export const tracingOn = (): boolean => tracer !== undefined;

/** The lowercase hex of trace flags, as `traceparent` writes them. */
const flagsHex = (flags: number) => (flags & 0xff).toString(16).padStart(2, '0');

/**
 * The request's server span, a child of the caller's `traceparent` when it is valid (else a new trace), and the trace
 * context that carries it: the answer's and the upstream calls' `traceparent` name this span. Undefined when spans are
 * not recorded (the caller keeps trace-context.ts's own ids).
 */
export function startServerSpan(
  name: string,
  traceparent: string | undefined,
  tracestate: string | undefined,
  attributes: Attributes,
): { trace: TraceContext; span: Span } | undefined {
  if (!tracer) return undefined;
  const inbound = parseTraceparent(traceparent);
  const state = inbound ? validTracestate(tracestate) : undefined;
  const parent = inbound
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId: inbound.traceId,
        spanId: inbound.parentId,
        traceFlags: Number.parseInt(inbound.flags, 16),
        isRemote: true,
        ...(state ? { traceState: createTraceState(state) } : {}),
      })
    : ROOT_CONTEXT;
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  const context = span.spanContext();
  return {
    span,
    trace: {
      traceId: context.traceId,
      spanId: context.spanId,
      flags: flagsHex(context.traceFlags),
      ...(state ? { tracestate: state } : {}),
      span,
    },
  };
}

/** The OpenTelemetry context of the request being answered (its server span), or the root outside any. */
function parentContext(): Context {
  const span = currentTrace()?.span;
  return span ? trace.setSpan(ROOT_CONTEXT, span) : ROOT_CONTEXT;
}

/**
 * A client span for one attempt of an upstream call, a child of the request's span; undefined when spans are not
 * recorded. Its id is the parent id of the `traceparent` sent upstream (trace-context.ts, `setTraceHeaders`).
 */
export function startUpstreamSpan(
  method: string,
  url: string,
  service: string | undefined,
  operation: string | undefined,
  attempt: number,
): Span | undefined {
  if (!tracer) return undefined;
  const target = new URL(url);
  const attributes: Attributes = {
    'http.request.method': method,
    'server.address': target.hostname,
    'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
    // Without the query: an upstream may take a key or a token there.
    'url.full': `${target.origin}${target.pathname}`,
    ...(service ? { 'portico.service': service } : {}),
    ...(operation ? { 'portico.operation': operation } : {}),
    ...(attempt > 0 ? { 'http.request.resend_count': attempt } : {}),
  };
  return tracer.startSpan(method, { kind: SpanKind.CLIENT, attributes }, parentContext());
}

/** Ends an upstream attempt's span with the status the upstream answered, or the failure (its code, never its text). */
export function endUpstreamSpan(span: Span | undefined, status: number | undefined, failure?: { code: string }): void {
  if (!span) return;
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  if (failure || (status !== undefined && status >= 500)) {
    span.setAttribute('error.type', failure?.code ?? String(status));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Runs one store call in a client span named after it (`key lookup`, `connection lookup`…), a child of the request's
 * span; without tracing, just runs it.
 */
export async function storeSpan<T>(name: string, call: () => Promise<T>, links?: readonly SpanContext[]): Promise<T> {
  if (!tracer) return call();
  const span = tracer.startSpan(
    name,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'db.operation.name': name },
      ...(links && links.length > 0 ? { links: links.map((context): Link => ({ context })) } : {}),
    },
    links ? ROOT_CONTEXT : parentContext(),
  );
  try {
    return await call();
  } catch (error) {
    span.setAttribute(
      'error.type',
      (error as { code?: unknown })?.code === undefined ? 'error' : String((error as { code: unknown }).code),
    );
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/** Adds what the pipeline knows (service, operation, door) to the request's server span, when spans are recorded. */
export function annotateRequestSpan(service: string, operation: string, protocol: string): void {
  if (!tracer) return;
  currentTrace()?.span?.setAttributes({ 'portico.service': service, 'portico.operation': operation, 'portico.protocol': protocol });
}

/** The span context of the request being answered, when spans are recorded (an audit batch links to it). */
export function currentSpanContext(): SpanContext | undefined {
  return tracer ? currentTrace()?.span?.spanContext() : undefined;
}
