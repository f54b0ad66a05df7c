import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';
import type { Span } from '@opentelemetry/api';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the trace a request belongs to, carried from the inbound
 * `traceparent` to every upstream call made while answering it. No tracing library: ids are random hex, as the
 * recommendation asks.
 */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero: the whole trace's id (the caller's, or a new one). */
  traceId: string;
  /** 16 lowercase hex digits: the gateway's own span for this request (never the caller's parent id). */
  spanId: string;
  /** Two hex digits; bit 0 is "sampled". */
  flags: string;
  /** The caller's `tracestate`, when it was valid: passed on unchanged. */
  tracestate?: string;
  /** The request's OpenTelemetry server span, when spans are recorded (spans.ts): its id is `spanId`. */
  span?: Span;
}

/** Version 00: `00-<trace id>-<parent id>-<flags>`; later versions may append fields after a dash (parsed as 00). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The trace and parent ids of a `traceparent` value, or undefined when it is not a valid one. */
export function parseTraceparent(value: string | undefined): { traceId: string; parentId: string; flags: string } | undefined {
  const match = value === undefined ? null : TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff') return undefined; // forbidden version
  if (version === '00' && rest !== undefined) return undefined; // version 00 has exactly four fields
  if (traceId === ZERO_TRACE || parentId === ZERO_SPAN) return undefined;
  return { traceId, parentId, flags: version === '00' ? flags : Number.parseInt(flags, 16) & 1 ? '01' : '00' };
}

/** A list member of `tracestate`: `key=value`, the key simple or `tenant@system`, the value printable without `,` or `=`. */
const TRACESTATE_MEMBER =
  /^(?:[a-z][a-z0-9_*/-]{0,255}|[a-z0-9][a-z0-9_*/-]{0,240}@[a-z][a-z0-9_*/-]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/** `tracestate` when it is valid (at most 32 members, each well formed, no key twice, 512 characters at most), else undefined. */
export function validTracestate(value: string | undefined): string | undefined {
  if (!value || value.length > 512) return undefined;
  const members = value
    .split(',')
    .map((member) => member.trim())
    .filter(Boolean);
  if (members.length === 0 || members.length > 32 || !members.every((member) => TRACESTATE_MEMBER.test(member))) return undefined;
  const keys = members.map((member) => member.slice(0, member.indexOf('=')));
  return new Set(keys).size === keys.length ? members.join(',') : undefined;
}

/**
 * Random hex from a pool refilled 4 KB at a time: every request takes three ids (its trace, its span, its upstream
 * call's span), and one `randomBytes` call per id cost more CPU than the rest of the trace handling together.
 * The bytes come from the same CSPRNG; each byte is handed out once.
 */
const POOL_BYTES = 4_096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolOffset = POOL_BYTES;

function hex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const id = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return id;
}

/** A new span id (16 hex digits, never all zero). */
export function newSpanId(): string {
  let id = hex(8);
  while (id === ZERO_SPAN) id = hex(8);
  return id;
}

/** The trace a request joins: the caller's when its `traceparent` is valid, else a new one (sampled). */
export function traceFromHeaders(traceparent: string | undefined, tracestate: string | undefined): TraceContext {
  const inbound = parseTraceparent(traceparent);
  if (!inbound) return { traceId: newTraceId(), spanId: newSpanId(), flags: '01' };
  const state = validTracestate(tracestate);
  return { traceId: inbound.traceId, spanId: newSpanId(), flags: inbound.flags, ...(state ? { tracestate: state } : {}) };
}

function newTraceId(): string {
  let id = hex(16);
  while (id === ZERO_TRACE) id = hex(16);
  return id;
}

/** The `traceparent` naming `span` of `trace`. */
export const formatTraceparent = (trace: TraceContext, spanId = trace.spanId) => `00-${trace.traceId}-${spanId}-${trace.flags}`;

const current = new AsyncLocalStorage<TraceContext>();

/** Runs `fn` with `trace` as the current trace: upstream calls made inside it carry it. */
export function runInTrace<T>(trace: TraceContext, fn: () => T): T {
  return current.run(trace, fn);
}

/** The trace of the request being answered, if any (for log lines). */
export function currentTrace(): TraceContext | undefined {
  return current.getStore();
}

/**
 * Writes the headers of one upstream attempt into `headers`: the trace's id (the one given, else the current one) with a
 * new span id for the attempt (a call outside any request starts its own trace), and the caller's `tracestate`. With
 * the attempt's OpenTelemetry span (spans.ts), its trace and span ids instead, so that the upstream's own spans hang
 * below it. The client reuses one headers object for every attempt of a call: each call here replaces `traceparent`.
 */
export function setTraceHeaders(headers: Record<string, string>, span?: Span, given?: TraceContext): void {
  const trace = given ?? current.getStore() ?? { traceId: newTraceId(), spanId: newSpanId(), flags: '01' };
  if (span) {
    const context = span.spanContext();
    headers.traceparent = `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  } else headers.traceparent = formatTraceparent(trace, newSpanId());
  if (trace.tracestate) headers.tracestate = trace.tracestate;
}
