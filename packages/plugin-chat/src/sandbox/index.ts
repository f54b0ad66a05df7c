import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxOptions, SandboxServer } from '@portico/core';
import { type SandboxState, seedState } from './data.js';
import { type Args, METHODS, type MethodContext, SlackError } from './methods.js';

/** The bot token the sandbox accepts. */
export const SANDBOX_TOKEN = 'xoxb-sandbox-token';

/** Request bodies above this are refused, like Slack's own size limits would. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

interface FailNext {
  /** Only a request whose path starts with this fails (default: the very next request). */
  pathPrefix?: string;
  status?: number;
  retryAfter?: number;
  slackError?: string;
}

/**
 * A local stand-in for the Slack Web API (https://api.slack.com/web): `<url>/<method>` with Slack's auth check,
 * argument merging, cursor paging and `{ ok: false, error }` answers, plus the external upload round trip.
 *
 * Control endpoints (not Slack): `POST /__sandbox/fail-next` `{ status?, retry_after?, slack_error?, path_prefix? }` makes
 * the next request (the next one under path_prefix, e.g. `/upload/`) fail; `POST /__sandbox/reset` restores the seed; `GET /__sandbox/files/<file_id>` returns uploaded bytes.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  let state: SandboxState = seedState();
  let failNext: FailNext | undefined;
  let origin = '';

  const server = createServer((req, res) => {
    readBody(req)
      .then((raw) => send(res, route(req, raw)))
      .catch((error: unknown) =>
        send(
          res,
          error instanceof BodyTooLarge ? text(413, 'Request Entity Too Large') : json(500, { ok: false, error: 'internal_error' }),
        ),
      );
  });

  function route(req: IncomingMessage, raw: Buffer): Reply {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (path.startsWith('/__sandbox/')) return control(method, path, raw);
    if (failNext && path.startsWith(failNext.pathPrefix ?? '/')) {
      const failure = failNext;
      failNext = undefined;
      return fail(failure);
    }
    if (path.startsWith('/upload/')) return upload(method, path.slice('/upload/'.length), raw);
    if (path.startsWith('/api/')) return api(req, url, raw);
    return text(404, 'Not Found');
  }

  function control(method: string, path: string, raw: Buffer): Reply {
    if (method === 'POST' && path === '/__sandbox/fail-next') {
      const body = parseJson(raw);
      failNext = {
        ...(typeof body.status === 'number' ? { status: body.status } : {}),
        ...(typeof body.retry_after === 'number' ? { retryAfter: body.retry_after } : {}),
        ...(typeof body.slack_error === 'string' ? { slackError: body.slack_error } : {}),
        ...(typeof body.path_prefix === 'string' ? { pathPrefix: body.path_prefix } : {}),
      };
      return json(200, { ok: true });
    }
    if (method === 'POST' && path === '/__sandbox/reset') {
      state = seedState();
      failNext = undefined;
      return json(200, { ok: true });
    }
    const file = /^\/__sandbox\/files\/([^/]+)$/.exec(path);
    if (method === 'GET' && file) {
      const stored = state.files.get(decodeURIComponent(file[1] ?? ''));
      return stored?.bytes ? { status: 200, body: stored.bytes, contentType: 'application/octet-stream' } : text(404, 'Not Found');
    }
    return text(404, 'Not Found');
  }

  /** The upload URL handed out by files.getUploadURLExternal: unauthenticated, takes the raw bytes. */
  function upload(method: string, id: string, raw: Buffer): Reply {
    const file = state.files.get(decodeURIComponent(id));
    if (method !== 'POST' || !file) return text(404, 'Not Found');
    file.bytes = Buffer.from(raw);
    return text(200, `OK - ${raw.length}`);
  }

  function api(req: IncomingMessage, url: URL, raw: Buffer): Reply {
    const name = decodeURIComponent(url.pathname.slice('/api/'.length));
    const spec = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
    if (!spec) return json(404, { ok: false, error: 'unknown_method', req_method: name });
    const args = collectArgs(req, url, raw, spec.json);

    const bearer = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1]?.trim();
    const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    if (!token) return json(200, { ok: false, error: 'not_authed' });
    if (token !== SANDBOX_TOKEN) return json(200, { ok: false, error: 'invalid_auth' });

    const ctx: MethodContext = { state, origin };
    try {
      return json(200, spec.handle(args, ctx));
    } catch (error) {
      if (error instanceof SlackError) return json(200, { ok: false, error: error.code, ...error.extra });
      throw error;
    }
  }

  function fail(failure: FailNext): Reply {
    const status = failure.status ?? (failure.slackError === 'ratelimited' ? 429 : 200);
    if (status === 429)
      return { ...json(429, { ok: false, error: 'ratelimited' }), headers: { 'retry-after': String(failure.retryAfter ?? 1) } };
    return json(status, { ok: false, error: failure.slackError ?? (status >= 500 ? 'internal_error' : 'invalid_arguments') });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  origin = `http://${publicHost}:${address.port}`;

  return {
    url: `${origin}/api`,
    token: SANDBOX_TOKEN,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Slack takes arguments from the query string and from a form body, and from a JSON body where the method allows it. */
function collectArgs(req: IncomingMessage, url: URL, raw: Buffer, acceptsJson: boolean): Args {
  const args: Args = Object.fromEntries(url.searchParams);
  const type = String(req.headers['content-type'] ?? '');
  if (raw.length === 0) return args;
  if (type.includes('application/x-www-form-urlencoded')) {
    Object.assign(args, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))));
  } else if (type.includes('application/json') && acceptsJson) {
    Object.assign(args, parseJson(raw));
  }
  return args;
}

function parseJson(raw: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8') || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

interface Reply {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

function json(status: number, body: unknown): Reply {
  return { status, body: JSON.stringify(body), contentType: 'application/json; charset=utf-8' };
}

function text(status: number, body: string): Reply {
  return { status, body, contentType: 'text/plain; charset=utf-8' };
}

function send(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { ...reply.headers, 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
  res.end(reply.body);
}
