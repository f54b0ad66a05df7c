import type { EmulatorReply, EmulatorRequest } from './emulator-http.js';
import { isJsonObject, jsonReply, textReply } from './emulator-http.js';

// ---- injected failures ----------------------------------------------------------------------------------------------

/**
 * The body of `POST /__sandbox/fail-next`, the same for every plugin. Every field is optional:
 *
 * ```json
 * { "status": 429, "code": "rate_limited", "message": "Slow down", "retry_after": 2,
 *   "headers": { "x-extra": "1" }, "body": { "verbatim": true }, "count": 1, "match": "POST /v1/pages" }
 * ```
 *
 * - `status`: HTTP status, 200–599 (200 is how Slack fails: `{ ok: false, error }`); default per plugin.
 * - `code`: the application's error code (Notion's `code`, Slack's `error`); `message`: its human text (Notion's
 *   `message`, CallRail's `error`). The plugin writes them in its wire format, with its defaults for the status.
 * - `retry_after`: seconds, sent as `Retry-After`; `headers`: more headers (they win over the plugin's).
 * - `body`: sent as it is (JSON, or text for a string) instead of the plugin's error body.
 * - `count`: how many matching requests fail (default 1).
 * - `match`: only requests whose path starts with this fail, optionally after a method: `"/upload/"`,
 *   `"POST /v1/pages"`, `"/api/chat.postMessage"`. Default: any request.
 *
 * Failures queue up: each request takes the first queued failure that matches it. Paths under `/__sandbox/` never fail.
 */
export interface FaultSpec {
  status?: number;
  code?: string;
  message?: string;
  retry_after?: number;
  headers?: Record<string, string>;
  body?: unknown;
  count?: number;
  match?: string;
}

/** A parsed {@link FaultSpec}, as a plugin's fault writer sees it. */
export interface Fault {
  status?: number;
  code?: string;
  message?: string;
  /** Headers to send: `Retry-After` from `retry_after`, then the spec's `headers`. */
  headers: Record<string, string>;
  body?: unknown;
  count: number;
  match?: { method?: string; pathPrefix: string };
}

const FAULT_FIELDS = ['status', 'code', 'message', 'retry_after', 'headers', 'body', 'count', 'match'] as const;

export class FaultSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultSpecError';
  }
}

/** Checks and reads a fail-next body; throws {@link FaultSpecError} naming what is wrong. */
export function parseFault(value: unknown): Fault {
  const spec = value === undefined ? {} : value;
  if (!isJsonObject(spec)) throw new FaultSpecError('fail-next takes a JSON object');
  const unknown = Object.keys(spec).filter((key) => !(FAULT_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new FaultSpecError(`fail-next does not take ${unknown.map((k) => `"${k}"`).join(', ')}; it takes ${FAULT_FIELDS.join(', ')}`);
  }
  const fault: Fault = { headers: {}, count: 1 };
  if (spec.status !== undefined) {
    if (!isInteger(spec.status, 200, 599)) throw new FaultSpecError('status must be an integer from 200 to 599');
    fault.status = spec.status;
  }
  for (const key of ['code', 'message'] as const) {
    const text = spec[key];
    if (text === undefined) continue;
    if (typeof text !== 'string') throw new FaultSpecError(`${key} must be a string`);
    fault[key] = text;
  }
  if (spec.retry_after !== undefined) {
    if (typeof spec.retry_after !== 'number' || !Number.isFinite(spec.retry_after) || spec.retry_after < 0) {
      throw new FaultSpecError('retry_after must be a number of seconds, 0 or more');
    }
    fault.headers['retry-after'] = String(spec.retry_after);
  }
  if (spec.headers !== undefined) {
    if (!isJsonObject(spec.headers) || !Object.values(spec.headers).every((v) => typeof v === 'string')) {
      throw new FaultSpecError('headers must be an object of strings');
    }
    for (const [name, text] of Object.entries(spec.headers as Record<string, string>)) fault.headers[name.toLowerCase()] = text;
  }
  if (spec.body !== undefined) fault.body = spec.body;
  if (spec.count !== undefined) {
    if (!isInteger(spec.count, 1, 1_000_000)) throw new FaultSpecError('count must be a whole number, 1 or more');
    fault.count = spec.count;
  }
  if (spec.match !== undefined) {
    const match = typeof spec.match === 'string' ? /^(?:([A-Za-z]+)\s+)?(\/\S*)$/.exec(spec.match.trim()) : null;
    if (!match) throw new FaultSpecError('match must be a path prefix, optionally after a method: "/upload/", "POST /v1/pages"');
    fault.match = { pathPrefix: match[2] as string, ...(match[1] ? { method: match[1].toUpperCase() } : {}) };
  }
  return fault;
}

function isInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function faultMatches(fault: Fault, request: Pick<EmulatorRequest, 'method' | 'path'>): boolean {
  if (!fault.match) return true;
  if (fault.match.method && fault.match.method !== request.method) return false;
  return request.path.startsWith(fault.match.pathPrefix);
}

/** How a plugin writes a failure on its wire (status, body, headers); the kit adds the fault's headers. */
export type FaultWriter = (fault: Fault, request: EmulatorRequest) => EmulatorReply;

/** The kit's writer when a plugin has none: `{ "error": message ?? code }`, status 500 unless given. */
export const defaultFaultWriter: FaultWriter = (fault) => {
  const status = fault.status ?? 500;
  return jsonReply(status, { error: fault.message ?? fault.code ?? `injected failure (${status})` });
};

/** The reply for a fault: the verbatim `body` when given, else the plugin's writer; the fault's headers on top. */
export function faultReply(fault: Fault, request: EmulatorRequest, writer: FaultWriter = defaultFaultWriter): EmulatorReply {
  const reply =
    fault.body === undefined
      ? writer(fault, request)
      : typeof fault.body === 'string'
        ? textReply(fault.status ?? 500, fault.body)
        : jsonReply(fault.status ?? 500, fault.body);
  return { ...reply, headers: { ...reply.headers, ...fault.headers } };
}

/** The queue of injected failures behind `/__sandbox/fail-next`. */
export class FaultQueue {
  private faults: Fault[] = [];

  get size(): number {
    return this.faults.length;
  }

  add(fault: Fault): void {
    this.faults.push(fault);
  }

  clear(): void {
    this.faults = [];
  }

  /** The first queued fault that matches the request, used up by one; undefined when none does. */
  take(request: Pick<EmulatorRequest, 'method' | 'path'>): Fault | undefined {
    const index = this.faults.findIndex((fault) => faultMatches(fault, request));
    const fault = this.faults[index];
    if (!fault) return undefined;
    fault.count -= 1;
    if (fault.count <= 0) this.faults.splice(index, 1);
    return fault;
  }
}
