import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, GatewayError, type Logger } from '@portico/core';

/**
 * The HTTP edge: requests Node refuses before the app sees them (parser errors, oversized heads, timeouts) and
 * clients that go away mid-request. Both are the client's doing, so they are answered with the documented error body
 * where a response can still be written, and logged as one line without a stack, never as a 500.
 */

/** How long a refused connection is drained before it is destroyed (closing with unread input would reset it). */
const LINGER_MS = 2_000;

/** Status already written on a socket by {@link answerClientError} (the request log reports it instead of 499). */
const ANSWERED = Symbol('portico.edgeAnswered');

type EdgeSocket = Duplex & { [ANSWERED]?: number; _httpMessage?: { headersSent?: boolean } | null };

/** Node's error code of a refused request → the gateway error it is answered with (undefined: nothing to answer). */
function refusal(code: string | undefined): GatewayError | undefined {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new GatewayError('headers_too_large', 'The request line and headers are larger than the limit of 16 KB');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new GatewayError('request_timeout', 'The request did not arrive completely in time');
  }
  // The connection ended mid-request: the client went away (or only half-closed), no one to answer.
  if (code === 'HPE_INVALID_EOF_STATE') return undefined;
  if (code?.startsWith('HPE_')) return new GatewayError('bad_request', 'Malformed HTTP request');
  return undefined;
}

/**
 * The server's `clientError` handler: writes a complete HTTP/1.1 response with the error body (when no response has
 * started on the socket), ends the connection, and logs one debug line with Node's code only (no stack, no bytes).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger): void {
  const edge = socket as EdgeSocket;
  if (edge[ANSWERED] !== undefined) return; // the parser may report the same connection again
  const failure = refusal(error.code);
  const started = Boolean(edge._httpMessage?.headersSent);
  if (!failure || !socket.writable || started) {
    edge[ANSWERED] = 0;
    logger.debug({ code: error.code ?? 'unknown' }, 'client connection failed');
    socket.destroy();
    return;
  }
  edge[ANSWERED] = failure.status;
  logger.debug(
    { code: error.code, status: failure.status },
    failure.code === 'request_timeout' ? 'request timed out' : 'refused a malformed request',
  );
  const body = JSON.stringify(errorBody(failure));
  socket.end(
    `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  // Drain what the client still sends so closing does not reset the connection before it reads the answer; bounded.
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** What the edge already answered on this socket (408, 431, 400), if anything. */
export function edgeAnswered(socket: Duplex | null | undefined): number | undefined {
  const status = (socket as EdgeSocket | null | undefined)?.[ANSWERED];
  return status ? status : undefined;
}

const ABORT_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Whether an error is the client going away (reset, abort, premature close), not a fault of the gateway. */
export function isClientAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && ABORT_CODES.has(code)) || error.message === 'aborted';
}
