import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxOptions, SandboxServer } from '@portico/core';
import { defaultCode, defaultMessage, NotionError, show, validationError } from './errors.js';
import { deterministicId } from './ids.js';
import { seedWorkspace } from './seed.js';
import { isObject, type Json } from './values.js';
import { type Paging, Workspace } from './workspace.js';

/** The only credential the sandbox accepts. */
export const SANDBOX_TOKEN = 'sandbox-notion-token';

const KNOWN_VERSIONS = new Set(['2021-05-11', '2021-05-13', '2021-08-16', '2022-02-22', '2022-06-28', '2025-09-03']);
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 100;

interface RouteContext {
  ws: Workspace;
  params: string[];
  query: URLSearchParams;
  body: Json;
}

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: RegExp;
  handle(context: RouteContext): Json;
}

const ID = '([^/]+)';
const param = (context: RouteContext, index: number) => context.params[index] ?? '';

/** Every endpoint the plugin's operations use, as Notion serves them under /v1. */
const ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/v1\/search$/, handle: (c) => c.ws.search(c.body, bodyPaging(c.body)) },
  { method: 'GET', pattern: /^\/v1\/users$/, handle: (c) => c.ws.listUsers(queryPaging(c.query)) },
  { method: 'GET', pattern: /^\/v1\/users\/me$/, handle: (c) => c.ws.me() },
  { method: 'GET', pattern: new RegExp(`^/v1/users/${ID}$`), handle: (c) => c.ws.getUser(param(c, 0)) },
  { method: 'POST', pattern: /^\/v1\/pages$/, handle: (c) => c.ws.createPage(c.body) },
  { method: 'GET', pattern: new RegExp(`^/v1/pages/${ID}$`), handle: (c) => c.ws.getPage(param(c, 0)) },
  { method: 'PATCH', pattern: new RegExp(`^/v1/pages/${ID}$`), handle: (c) => c.ws.updatePage(param(c, 0), c.body) },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/pages/${ID}/properties/${ID}$`),
    handle: (c) => c.ws.getPageProperty(param(c, 0), param(c, 1), queryPaging(c.query)),
  },
  { method: 'POST', pattern: /^\/v1\/databases$/, handle: (c) => c.ws.createDatabase(c.body) },
  { method: 'GET', pattern: new RegExp(`^/v1/databases/${ID}$`), handle: (c) => c.ws.getDatabase(param(c, 0)) },
  { method: 'PATCH', pattern: new RegExp(`^/v1/databases/${ID}$`), handle: (c) => c.ws.updateDatabase(param(c, 0), c.body) },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/databases/${ID}/query$`),
    handle: (c) => c.ws.queryDatabase(param(c, 0), c.body, bodyPaging(c.body)),
  },
  { method: 'GET', pattern: new RegExp(`^/v1/blocks/${ID}$`), handle: (c) => c.ws.getBlock(param(c, 0)) },
  { method: 'PATCH', pattern: new RegExp(`^/v1/blocks/${ID}$`), handle: (c) => c.ws.updateBlock(param(c, 0), c.body) },
  { method: 'DELETE', pattern: new RegExp(`^/v1/blocks/${ID}$`), handle: (c) => c.ws.deleteBlock(param(c, 0)) },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/blocks/${ID}/children$`),
    handle: (c) => c.ws.listChildren(param(c, 0), queryPaging(c.query)),
  },
  { method: 'PATCH', pattern: new RegExp(`^/v1/blocks/${ID}/children$`), handle: (c) => c.ws.appendChildren(param(c, 0), c.body) },
  {
    method: 'GET',
    pattern: /^\/v1\/comments$/,
    handle: (c) => c.ws.listComments(c.query.get('block_id') ?? undefined, queryPaging(c.query)),
  },
  { method: 'POST', pattern: /^\/v1\/comments$/, handle: (c) => c.ws.createComment(c.body) },
];

function queryPaging(query: URLSearchParams): Paging {
  const raw = query.get('page_size');
  let pageSize = DEFAULT_PAGE_SIZE;
  if (raw !== null) {
    if (!/^\d+$/.test(raw))
      throw validationError(`query failed validation: query.page_size should be a number, instead was \`${show(raw)}\`.`);
    pageSize = checkPageSize(Number(raw), 'query');
  }
  const startCursor = query.get('start_cursor');
  return startCursor === null ? { pageSize } : { pageSize, startCursor };
}

function bodyPaging(body: Json): Paging {
  let pageSize = DEFAULT_PAGE_SIZE;
  if (body.page_size !== undefined) {
    if (typeof body.page_size !== 'number' || !Number.isInteger(body.page_size)) {
      throw validationError(`body failed validation: body.page_size should be an integer, instead was \`${show(body.page_size)}\`.`);
    }
    pageSize = checkPageSize(body.page_size, 'body');
  }
  if (body.start_cursor === undefined) return { pageSize };
  if (typeof body.start_cursor !== 'string') {
    throw validationError(`body failed validation: body.start_cursor should be a string, instead was \`${show(body.start_cursor)}\`.`);
  }
  return { pageSize, startCursor: body.start_cursor };
}

function checkPageSize(size: number, where: 'query' | 'body'): number {
  if (size < 1) throw validationError(`${where} failed validation: ${where}.page_size should be ≥ \`1\`, instead was \`${size}\`.`);
  if (size > MAX_PAGE_SIZE)
    throw validationError(`${where} failed validation: ${where}.page_size should be ≤ \`100\`, instead was \`${size}\`.`);
  return size;
}

interface PendingFailure {
  status: number;
  code: string;
  message: string;
  retryAfter?: number;
  remaining: number;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
}

/**
 * Starts an emulation of Notion's API (Notion-Version 2022-06-28) on node:http, seeded with a small deterministic
 * workspace held in memory. Control endpoints: `POST /__sandbox/fail-next` `{ status, retry_after?, code?, message?, times? }`
 * makes the next request(s) fail in Notion's error shape; `POST /__sandbox/reset` restores the seed.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  let ws: Workspace;
  let url = '';
  let requests = 0;
  let pending: PendingFailure | undefined;

  const fail = (res: ServerResponse, error: NotionError) => {
    const body = {
      object: 'error',
      status: error.status,
      code: error.code,
      message: error.message,
      request_id: deterministicId(`request:${requests}`),
    };
    sendJson(res, error.status, body, error.headers);
  };

  const control = (path: string, raw: string, res: ServerResponse) => {
    if (path === '/__sandbox/reset') {
      ws = seeded(url);
      pending = undefined;
      return sendJson(res, 200, { ok: true });
    }
    if (path !== '/__sandbox/fail-next') return sendJson(res, 404, { ok: false, error: 'unknown control endpoint' });
    let spec: unknown;
    try {
      spec = raw ? JSON.parse(raw) : {};
    } catch {
      return sendJson(res, 400, { ok: false, error: 'body must be JSON' });
    }
    const status = isObject(spec) ? spec.status : undefined;
    if (!isObject(spec) || typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) {
      return sendJson(res, 400, { ok: false, error: 'status must be an integer from 400 to 599' });
    }
    const code = typeof spec.code === 'string' ? spec.code : defaultCode(status);
    pending = {
      status,
      code,
      message: typeof spec.message === 'string' ? spec.message : defaultMessage(code),
      remaining: typeof spec.times === 'number' && spec.times > 0 ? Math.floor(spec.times) : 1,
    };
    if (typeof spec.retry_after === 'number' && spec.retry_after >= 0) pending.retryAfter = spec.retry_after;
    return sendJson(res, 200, { ok: true });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const target = new URL(req.url ?? '/', 'http://sandbox');
    const method = req.method ?? 'GET';
    if (target.pathname.startsWith('/__sandbox/')) {
      if (method !== 'POST') return sendJson(res, 405, { ok: false, error: 'use POST' });
      return control(target.pathname, raw, res);
    }
    requests++;
    if (pending) {
      const failure = pending;
      failure.remaining--;
      if (failure.remaining <= 0) pending = undefined;
      const headers: Record<string, string> = failure.retryAfter === undefined ? {} : { 'retry-after': String(failure.retryAfter) };
      return fail(res, new NotionError(failure.status, failure.code, failure.message, headers));
    }
    if (req.headers.authorization !== `Bearer ${SANDBOX_TOKEN}`)
      return fail(res, new NotionError(401, 'unauthorized', 'API token is invalid.'));
    const version = req.headers['notion-version'];
    if (typeof version !== 'string' || version === '') {
      return fail(
        res,
        new NotionError(
          400,
          'missing_version',
          'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.',
        ),
      );
    }
    if (!KNOWN_VERSIONS.has(version)) {
      return fail(res, validationError(`Notion-Version header failed validation: ${show(version)} is not a supported API version.`));
    }
    const candidates = ROUTES.filter((r) => r.pattern.test(target.pathname));
    const route = candidates.find((r) => r.method === method);
    if (!route) return fail(res, new NotionError(400, 'invalid_request_url', 'Invalid request URL.'));
    let body: Json = {};
    if (method === 'POST' || method === 'PATCH') {
      let parsed: unknown = {};
      try {
        parsed = raw.trim() ? JSON.parse(raw) : {};
      } catch {
        return fail(res, new NotionError(400, 'invalid_json', 'Error parsing JSON body.'));
      }
      if (!isObject(parsed))
        return fail(res, validationError(`body failed validation: body should be an object, instead was \`${show(parsed)}\`.`));
      body = parsed;
    }
    const match = route.pattern.exec(target.pathname);
    const params = (match?.slice(1) ?? []).map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
    try {
      return sendJson(res, 200, route.handle({ ws, params, query: target.searchParams, body }));
    } catch (error) {
      if (error instanceof NotionError) return fail(res, error);
      return fail(res, new NotionError(500, 'internal_server_error', 'Unexpected error occurred.'));
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent)
        sendJson(res, 500, { object: 'error', status: 500, code: 'internal_server_error', message: 'Unexpected error occurred.' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  url = `http://${urlHost}:${port}/v1`;
  ws = seeded(url);

  return {
    url,
    token: SANDBOX_TOKEN,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function seeded(url: string): Workspace {
  const ws = new Workspace(url);
  seedWorkspace(ws);
  return ws;
}
