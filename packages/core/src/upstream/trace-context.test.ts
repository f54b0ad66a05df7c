import { describe, expect, it } from 'vitest';
import { parseTraceparent, runInTrace, setTraceHeaders, traceFromHeaders, validTracestate } from './trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  it('accepts version 00 with a trace id, a parent id and flags', () => {
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-01`)).toEqual({ traceId: TRACE, parentId: PARENT, flags: '01' });
  });

  it.each([
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT}-01`],
    ['an all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${PARENT}-01`],
    ['version ff', `ff-${TRACE}-${PARENT}-01`],
    ['a fifth field on version 00', `00-${TRACE}-${PARENT}-01-extra`],
    ['no flags', `00-${TRACE}-${PARENT}`],
    ['garbage', 'not a traceparent'],
  ])('refuses %s', (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('reads a later version by its first four fields', () => {
    expect(parseTraceparent(`01-${TRACE}-${PARENT}-01-more`)?.traceId).toBe(TRACE);
  });

  it('a request joins the valid inbound trace under a span of its own, or starts a new trace', () => {
    const joined = traceFromHeaders(`00-${TRACE}-${PARENT}-00`, 'vendor=abc');
    expect(joined).toEqual({ traceId: TRACE, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), flags: '00', tracestate: 'vendor=abc' });
    expect(joined.spanId).not.toBe(PARENT);
    const fresh = traceFromHeaders(`00-${'0'.repeat(32)}-${PARENT}-01`, 'vendor=abc');
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.traceId).not.toBe('0'.repeat(32));
    expect(fresh.tracestate).toBeUndefined(); // a tracestate belongs to the trace it came with
  });
});

describe('W3C tracestate', () => {
  it('passes a valid list on and refuses a malformed one', () => {
    expect(validTracestate('congo=t61rcWkgMzE, rojo=00f067aa0ba902b7')).toBe('congo=t61rcWkgMzE,rojo=00f067aa0ba902b7');
    expect(validTracestate('tenant@system=x')).toBe('tenant@system=x');
    expect(validTracestate('Upper=x')).toBeUndefined();
    expect(validTracestate('a=1,a=2')).toBeUndefined();
    expect(validTracestate('novalue')).toBeUndefined();
    expect(validTracestate(Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(','))).toBeUndefined();
  });
});

describe('the headers of an upstream call', () => {
  it('carry the current trace id with a new span id per attempt, and its tracestate, in the one headers object', () => {
    const trace = traceFromHeaders(`00-${TRACE}-${PARENT}-01`, 'rojo=1');
    const headers: Record<string, string> = { accept: 'application/json' };
    const sentEach = runInTrace(trace, () =>
      [0, 1].map(() => {
        setTraceHeaders(headers);
        return { ...headers };
      }),
    );
    for (const sent of sentEach) {
      const parsed = parseTraceparent(sent.traceparent);
      expect(parsed?.traceId).toBe(TRACE);
      expect([PARENT, trace.spanId]).not.toContain(parsed?.parentId);
      expect(sent.tracestate).toBe('rojo=1');
      expect(sent.accept).toBe('application/json');
    }
    expect(sentEach[0]?.traceparent).not.toBe(sentEach[1]?.traceparent);
  });

  it('outside any request: a trace of its own', () => {
    const headers: Record<string, string> = {};
    setTraceHeaders(headers);
    expect(parseTraceparent(headers.traceparent)).toBeDefined();
  });
});

describe('new ids', () => {
  it('stay well formed and distinct across many requests (the random pool refills)', () => {
    const traces = new Set<string>();
    const spans = new Set<string>();
    // 600 requests take 24 × 600 = 14,400 random bytes: the 4 KB pool is refilled three times
    for (let i = 0; i < 600; i++) {
      const trace = traceFromHeaders(undefined, undefined);
      expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(trace.spanId).toMatch(/^[0-9a-f]{16}$/);
      traces.add(trace.traceId);
      spans.add(trace.spanId);
    }
    expect(traces.size).toBe(600);
    expect(spans.size).toBe(600);
  });
});
