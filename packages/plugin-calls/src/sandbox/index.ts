import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxOptions, SandboxServer } from '@portico/core';
import { seed } from './data.js';
import { HttpError } from './request.js';
import { ROUTES } from './routes.js';
import type { Origin } from './views.js';

/** The API key the sandbox accepts, sent as `Authorization: Token token="sandbox-callrail-key"`. */
export const SANDBOX_TOKEN = 'sandbox-callrail-key';
const EXPECTED_AUTHORIZATION = `Token token="${SANDBOX_TOKEN}"`;

interface PendingFailure {
  status: number;
  message: string;
  retryAfter: number | undefined;
}

const DEFAULT_FAILURE_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'HTTP Token: Access denied.',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too many requests: the account exceeded its hourly API limit',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * A CallRail v3 look-alike on node:http: the same paths (`/v3/a/{account_id}/….json`), the `Token token="…"` header
 * check, the paged wrapper and `{ "error": "..." }` failures, over seeded data that write operations change.
 * `POST /__sandbox/fail-next` with `{ "status": 429, "retry_after": 1, "error": "…" }` makes the next request fail.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const data = seed();
  let pending: PendingFailure | undefined;
  let origin: Origin = { origin: '', base: '' };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 500;
        const message = error instanceof HttpError ? error.message : 'Internal Server Error';
        send(res, status, { error: message }, error instanceof HttpError ? error.headers : {});
      }
    });
  });

  function handle(req: IncomingMessage, res: ServerResponse, text: string): void {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname.replace(/^\/v3(?=\/__sandbox\/)/, '');

    if (path === '/__sandbox/fail-next') {
      if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
      pending = parseFailure(text);
      send(res, 200, { ok: true, next_failure: pending.status });
      return;
    }
    if (pending) {
      const failure = pending;
      pending = undefined;
      throw new HttpError(
        failure.status,
        failure.message,
        failure.retryAfter !== undefined ? { 'retry-after': String(failure.retryAfter) } : {},
      );
    }
    if (path.startsWith('/__sandbox/recordings/') && req.method === 'GET') {
      // Recording links are pre-signed (access_key), so, as on CallRail, they need no API key.
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': '4' }).end(Buffer.from([0xff, 0xfb, 0x90, 0x00]));
      return;
    }
    if (!path.startsWith('/v3/')) throw new HttpError(404, 'Not Found');
    if (req.headers.authorization !== EXPECTED_AUTHORIZATION) {
      throw new HttpError(401, 'HTTP Token: Access denied.', { 'www-authenticate': 'Token realm="Application"' });
    }

    const resource = path.slice(3);
    for (const route of ROUTES) {
      const match = route.pattern.exec(resource);
      if (!match || route.method !== req.method) continue;
      const params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
      const body = req.method === 'PUT' ? parseJson(text) : undefined;
      send(res, 200, route.handle({ data, params, query: url.searchParams, body, origin }));
      return;
    }
    throw new HttpError(404, 'Not Found');
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  origin = { origin: `http://${hostPart}:${port}`, base: `http://${hostPart}:${port}/v3` };

  return {
    url: origin.base,
    token: SANDBOX_TOKEN,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
}

function parseFailure(text: string): PendingFailure {
  const body = parseJson(text) as Record<string, unknown>;
  const status = body.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) {
    throw new HttpError(400, 'fail-next needs { "status": 400..599, "retry_after"?: seconds, "error"?: message }');
  }
  const retry = body.retry_after;
  const message = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : undefined;
  return {
    status,
    message: message ?? DEFAULT_FAILURE_MESSAGES[status] ?? 'Error',
    retryAfter: typeof retry === 'number' && retry >= 0 ? retry : undefined,
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers })
    .end(text);
}
