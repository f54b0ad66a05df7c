import type { IncomingMessage } from 'node:http';
import { GatewayError } from '@portico/core';

/**
 * Reads a request body with a hard size limit: a declared Content-Length over the limit is refused before reading,
 * and a chunked body is cut off as soon as it passes the limit.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError('payload_too_large', `The request body is larger than the limit of ${limit} bytes`);
}

/** Parses a JSON body; an empty body is `undefined`. */
export function parseJson(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new GatewayError('bad_request', `Content-Type must be application/json (got ${contentType.split(';')[0]})`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new GatewayError('bad_request', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** `Authorization: Bearer <token>` → token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
