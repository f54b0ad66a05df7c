import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

// The emulator kit's HTTP pieces: answers, request bodies and queries, and the request a plugin's routes receive.
// `emulator.ts` is the kit's entry (and re-exports these); see there for how they fit together.

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
