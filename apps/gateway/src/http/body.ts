import type { IncomingMessage } from 'node:http';
import { assertInput, GatewayError, INPUT_LIMITS, jsonTextProblem } from '@portico/core';
import type { Context } from 'koa';

/**
 * Reads a request body with a hard size limit: a declared Content-Length over the limit is refused before reading,
 * and a chunked body is cut off as soon as it passes the limit. Read from the stream's events, not its async iterator,
 * which cost about 9 µs of CPU more per request (median of 16 paired rounds on a bare node:http server); a
 * request that closes before its end rejects as the iterator would (premature close), one already read is empty.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(tooLarge(limit));
      return;
    }
    // as the async iterator: a body already read is empty, a request already gone a premature close
    if (req.readableEnded) {
      resolve(Buffer.alloc(0));
      return;
    }
    if (req.destroyed) {
      reject(prematureClose());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: Error | undefined, body?: Buffer) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) reject(error);
      else resolve(body as Buffer);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle(tooLarge(limit));
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle(undefined, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(prematureClose());
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError('payload_too_large', `The request body is larger than the limit of ${limit} bytes`);
}

const prematureClose = () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

/** A body's top level is not a call's parameters (an admin body; REST params are counted by invoke): keys, not params. */
const BODY_LIMITS = { ...INPUT_LIMITS, maxParams: INPUT_LIMITS.maxKeys };

/**
 * Passing any of the caps takes more bytes than the cap's number (a bracket per level, a byte or more per value or
 * key): a body no longer than the smallest need not be scanned for them (as for MCP messages, below).
 */
const SHORT_BODY = Math.min(BODY_LIMITS.maxDepth, BODY_LIMITS.maxNodes, BODY_LIMITS.maxKeys, BODY_LIMITS.maxParams);

/**
 * Parses a JSON body; an empty body is `undefined`. The input caps (core's INPUT_LIMITS: keys per object, depth,
 * number of values) are read from the text before it is parsed, and forbidden key names from the parsed value, so that
 * every JSON body the gateway reads (REST calls, admin requests) is refused cheaply when it is too wide or too deep.
 */
export function parseJson(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new GatewayError('bad_request', `Content-Type must be application/json (got ${contentType.split(';')[0]})`);
  }
  const tooBig = raw.length <= SHORT_BODY ? undefined : jsonTextProblem(raw);
  if (tooBig) throw new GatewayError('bad_request', tooBig);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new GatewayError('bad_request', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  assertInput(value, 'body', BODY_LIMITS);
  return value;
}

/**
 * What an MCP POST's text is held to before it is parsed: a backstop, not the call's caps. A message may hold as many
 * values as one call (100,000) and nest at most 1,024 levels; within that, a call's arguments meet the caps of
 * INPUT_LIMITS in invoke, which answers with the error body as the tool's result, as for any other invalid call.
 * Above it the message is refused as a whole (HTTP 400, JSON-RPC -32600), in microseconds: parsing it would cost more.
 */
const MCP_MESSAGE_LIMITS = { ...INPUT_LIMITS, maxKeys: INPUT_LIMITS.maxNodes, maxDepth: 1_024 };

/**
 * Passing any of the backstop's limits takes more bytes than the limit's number (a bracket per level, a byte or more
 * per value or key): a shorter message, as nearly every tool call is, need not be read for them.
 */
const MCP_SHORT_MESSAGE = Math.min(MCP_MESSAGE_LIMITS.maxDepth, MCP_MESSAGE_LIMITS.maxNodes, MCP_MESSAGE_LIMITS.maxKeys);

/** The MCP backstop read from a POST's text (see {@link jsonTextProblem}); undefined when the message is within. */
export function mcpBodyProblem(raw: Buffer): string | undefined {
  if (raw.length <= MCP_SHORT_MESSAGE) return undefined;
  return jsonTextProblem(raw, 'the request', { limits: MCP_MESSAGE_LIMITS });
}

/** Reads a request's JSON body within `limit` bytes (see {@link parseJson}): the REST and admin doors' reader. */
export function jsonBody(limit: number): (ctx: Context) => Promise<unknown> {
  return async (ctx) => parseJson(await readBody(ctx.req, limit), ctx.get('content-type') || undefined);
}
