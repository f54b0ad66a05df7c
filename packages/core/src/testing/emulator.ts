import { Buffer } from 'node:buffer';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxOptions, SandboxServer } from '../plugin.js';

/**
 * The emulator kit: what every plugin's sandbox upstream (an in-process HTTP emulator of the application's wire
 * format) needs besides its routes. It listens on loopback, reads bodies with a size limit, answers JSON, and serves
 * the two control endpoints in one shape for every plugin:
 *
 * - `POST /__sandbox/fail-next` with a {@link FaultSpec} queues a failure for the next matching request(s);
 * - `POST /__sandbox/reset` restores the seeded data and drops queued failures.
 *
 * A plugin supplies its seed, its routes and, where its error format is not `{ "error": "…" }`, how a failure is
 * written on its wire. Only `node:` modules are used: a sandbox loads nothing a production gateway does not have.
 */

/** Bodies above this are refused with 413 unless a plugin sets its own limit. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Paths of the control endpoints (no auth; never hit by injected failures). */
export const CONTROL_PREFIX = '/__sandbox/';
export const FAIL_NEXT_PATH = '/__sandbox/fail-next';
export const RESET_PATH = '/__sandbox/reset';

// ---- answers --------------------------------------------------------------------------------------------------------

/** One answer of an emulator. `contentType` is sent as Content-Type; `headers` may add to or override it. */
export interface EmulatorReply {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): EmulatorReply {
  return { status, body: JSON.stringify(body), contentType: 'application/json; charset=utf-8', ...(headers ? { headers } : {}) };
}

export function textReply(status: number, body: string, headers?: Record<string, string>): EmulatorReply {
  return { status, body, contentType: 'text/plain; charset=utf-8', ...(headers ? { headers } : {}) };
}

export function bytesReply(status: number, body: Buffer, contentType = 'application/octet-stream'): EmulatorReply {
  return { status, body, contentType };
}

/** Writes a reply with Content-Type and Content-Length. */
export function writeReply(res: ServerResponse, reply: EmulatorReply): void {
  res.writeHead(reply.status, {
    'content-type': reply.contentType,
    ...reply.headers,
    'content-length': Buffer.byteLength(reply.body),
  });
  res.end(reply.body);
}

/** Writes a JSON answer (for emulators that drive `node:http` themselves). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  writeReply(res, jsonReply(status, body, headers));
}

// ---- request bodies and queries -------------------------------------------------------------------------------------

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export class InvalidJsonError extends Error {
  constructor() {
    super('request body is not valid JSON');
    this.name = 'InvalidJsonError';
  }
}

/** Reads a whole request body; rejects with {@link BodyTooLargeError} past `limit` bytes (the rest is drained). */
export function readBody(req: IncomingMessage, limit = DEFAULT_MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** JSON of a body; an empty (or blank) body is `undefined`; malformed JSON throws {@link InvalidJsonError}. */
export function parseJson(raw: Buffer | string): unknown {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidJsonError();
  }
}

/** An `application/x-www-form-urlencoded` body as an object; a repeated key keeps its last value. */
export function parseForm(raw: Buffer | string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(typeof raw === 'string' ? raw : raw.toString('utf8')));
}

/** A query (or form) as an object in which a repeated key becomes an array of its values. */
export function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    result[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return result;
}

/** Every value of a list parameter: Rails-style `name[]=a&name[]=b` first, then repeated `name=…`. */
export function queryValues(query: URLSearchParams, name: string): string[] {
  return [...query.getAll(`${name}[]`), ...query.getAll(name)];
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// ---- one request ----------------------------------------------------------------------------------------------------

export interface EmulatorRequest {
  method: string;
  url: URL;
  /** `url.pathname`, as sent (control paths under the base path are normalised to `/__sandbox/…`). */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body (empty when there is none). */
  body: Buffer;
  /** 1 for the first request that is not a control request, then 2, 3… (request ids, counters). */
  seq: number;
  /** `http://host:port` of the emulator, for URLs it hands out. */
  origin: string;
  text(): string;
  /** See {@link parseJson}. */
  json(): unknown;
  /** See {@link parseForm}. */
  form(): Record<string, string>;
  /** The Content-Type header without parameters, lowercased ('' when absent). */
  mediaType(): string;
}

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

// ---- the server -----------------------------------------------------------------------------------------------------

/** Where an emulator listens: `origin` is `http://host:port`, `url` the base URL a plugin is pointed at. */
export interface EmulatorAddress {
  origin: string;
  url: string;
}

export interface EmulatorOptions<S> extends SandboxOptions {
  /** The credential the emulator accepts (returned as the sandbox's `token`). */
  token: string;
  /** Path of the base URL (`/v1`); control endpoints are served under it too (`/v1/__sandbox/reset`). */
  basePath?: string;
  /** Default {@link DEFAULT_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Builds the seeded state: at start and on every `POST /__sandbox/reset`. */
  seed(address: EmulatorAddress): S;
  /** Answers one request (everything but the kit's two control endpoints and injected failures). */
  handle(request: EmulatorRequest, state: S): EmulatorReply | Promise<EmulatorReply>;
  /** Writes an injected failure in the application's format (default {@link defaultFaultWriter}). */
  writeFault?: FaultWriter;
  /** The answer when `handle` throws (default 500 `{ "error": "internal_error" }`). */
  onError?(error: unknown, request: EmulatorRequest): EmulatorReply;
  /** The answer to a body over the limit (default 413 text). */
  tooLarge?: EmulatorReply;
}

export interface EmulatorServer extends SandboxServer {
  origin: string;
}

/**
 * Starts an emulator on loopback (or `host`/`port`) and returns what a plugin's `startSandbox` returns, plus the
 * origin. The state from `seed` lives as long as the server, and `POST /__sandbox/reset` replaces it.
 */
export async function startEmulator<S>(options: EmulatorOptions<S>): Promise<EmulatorServer> {
  const host = options.host ?? '127.0.0.1';
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const faults = new FaultQueue();
  let address: EmulatorAddress = { origin: '', url: '' };
  let state: S | undefined;
  let seq = 0;

  const control = (request: EmulatorRequest): EmulatorReply | undefined => {
    if (request.path !== FAIL_NEXT_PATH && request.path !== RESET_PATH) return undefined;
    if (request.method !== 'POST') return jsonReply(405, { ok: false, error: `use POST ${request.path}` }, { allow: 'POST' });
    if (request.path === RESET_PATH) {
      state = options.seed(address);
      faults.clear();
      return jsonReply(200, { ok: true });
    }
    try {
      faults.add(parseFault(request.json()));
    } catch (error) {
      const message = error instanceof FaultSpecError ? error.message : 'fail-next takes a JSON object';
      return jsonReply(400, { ok: false, error: message });
    }
    return jsonReply(200, { ok: true, pending: faults.size });
  };

  const answer = async (req: IncomingMessage): Promise<EmulatorReply> => {
    let body: Buffer;
    try {
      body = await readBody(req, limit);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return options.tooLarge ?? textReply(413, 'Request Entity Too Large');
      throw error;
    }
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const underBase = basePath !== '' && url.pathname.startsWith(`${basePath}${CONTROL_PREFIX}`);
    const path = underBase ? url.pathname.slice(basePath.length) : url.pathname;
    const isControl = path.startsWith(CONTROL_PREFIX);
    const request: EmulatorRequest = {
      method: (req.method ?? 'GET').toUpperCase(),
      url,
      path,
      query: url.searchParams,
      headers: req.headers,
      body,
      seq: isControl ? seq : ++seq,
      origin: address.origin,
      text: () => body.toString('utf8'),
      json: () => parseJson(body),
      form: () => parseForm(body),
      mediaType: () => (String(req.headers['content-type'] ?? '').split(';')[0] ?? '').trim().toLowerCase(),
    };
    const controlled = isControl ? control(request) : undefined;
    if (controlled) return controlled;
    const fault = isControl ? undefined : faults.take(request);
    try {
      if (fault) return faultReply(fault, request, options.writeFault);
      return await options.handle(request, state as S);
    } catch (error) {
      return options.onError?.(error, request) ?? jsonReply(500, { error: 'internal_error' });
    }
  };

  const server = createServer((req, res) => {
    answer(req)
      .then((reply) => writeReply(res, reply))
      .catch(() => {
        if (!res.headersSent) writeReply(res, jsonReply(500, { error: 'internal_error' }));
        else res.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${publicHost(host)}:${port}`;
  address = { origin, url: `${origin}${basePath}` };
  state = options.seed(address);

  return {
    url: address.url,
    origin,
    token: options.token,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING' ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The host to put in URLs: a wildcard address becomes loopback, IPv6 gets brackets. */
function publicHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
