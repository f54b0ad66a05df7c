import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import Router from '@koa/router';
import {
  answerMcpPost,
  buildOpenApiDocument,
  createMcpServer,
  type Engine,
  errorBody,
  GatewayError,
  type HttpMethod,
  type LegacySseTransport,
  type Logger,
  MCP_POST_TIMEOUT_MS,
  type McpToolMode,
  mcpToolCaller,
  openLegacySseTransport,
  queryValues,
  type RestInvocation,
  restInvocation,
  toGatewayError,
} from '@portico/core';
import Koa, { type Context, type Next } from 'koa';
import { mountAdmin } from './admin.js';
import type { DashboardAssets } from './dashboard/assets.js';
import { dashboardMiddleware } from './dashboard/routes.js';
import { edgeAnswered, isClientAbort } from './edge.js';
import { bearerToken, mcpBodyProblem, parseJson, readBody } from './http.js';
import { type GatewayMetrics, metricsRoute } from './metrics.js';
import type { GatewayState } from './state.js';

export interface AppOptions {
  engine: Engine;
  logger: Logger;
  bodyLimitBytes: number;
  /** Public base URL, for OpenAPI `servers`. */
  publicUrl?: string;
  mcpTools?: McpToolMode;
  /** Also serve the 2024-11-05 HTTP+SSE transport (sessions live in this process). */
  mcpLegacySse?: boolean;
  /** Host names accepted in Host/Origin headers of /api requests; '*' accepts any. */
  allowedHosts: readonly string[] | '*';
  version: string;
  /** The upstream budget: an MCP POST is answered at the latest 10 s after it (and never before MCP_POST_TIMEOUT_MS). */
  upstreamTimeoutMs?: number;
  /** Counts every answer; with `metricsOnMainPort`, also served at `/metrics` to admin keys. */
  metrics?: GatewayMetrics;
  metricsOnMainPort?: boolean;
  /** Serve the dashboard at /dashboard with these browser assets (absent: no dashboard). */
  dashboard?: { assets: DashboardAssets };
}

/**
 * What `createApp` returns: a request listener for `node:http`'s `createServer`. The app is built with Koa (a
 * dependency); its public type stays off Koa so that a TypeScript user needs no Koa types.
 */
export interface GatewayApp {
  callback(): RequestListener;
}

/**
 * The Koa app: thin doors onto the engine. REST and MCP adapters only translate their wire format to `invoke` and
 * back; validation, credentials, retries and error mapping all happen in core.
 */
export function createApp(options: AppOptions): GatewayApp {
  const { engine, logger } = options;
  const app = new Koa<GatewayState>();
  app.proxy = false;
  const router = new Router<GatewayState>();
  const readJson = async (ctx: Context) => parseJson(await readBody(ctx.req, options.bodyLimitBytes), ctx.get('content-type') || undefined);

  // Errors Koa reports outside the middleware chain (a response stream failing, a socket error after the answer):
  // logged here instead of Koa's default, which prints stacks to stderr. A client going away is not a fault.
  app.on('error', (error: unknown, ctx?: Context) => {
    const requestId = ctx?.state?.requestId;
    if (isClientAbort(error)) logger.debug({ requestId, code: errorCode(error) }, 'client closed the connection');
    else logger.error({ requestId, err: error }, 'response failed');
  });

  app.use(async (ctx: Context, next: Next) => {
    const started = performance.now();
    ctx.state.requestId = randomUUID();
    ctx.set('x-request-id', ctx.state.requestId);
    let clientClosed = false;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false) {
        throw new GatewayError('not_found', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (error) {
      clientClosed = sendError(ctx, error, logger);
    } finally {
      // 499 (as nginx logs it): the client closed the connection before an answer; or what the edge answered (408).
      const status = clientClosed
        ? (edgeAnswered(ctx.req.socket) ?? CLIENT_CLOSED)
        : ctx.respond === false
          ? ctx.res.statusCode
          : ctx.status;
      options.metrics?.response(ctx.path, status);
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          keyId: ctx.state.principal?.keyId,
          service: ctx.state.service,
          operation: ctx.state.operation,
        },
        'request',
      );
    }
  });

  // DNS rebinding: a web page must not reach a gateway on loopback through a host name it controls.
  app.use(async (ctx: Context, next: Next) => {
    if (options.allowedHosts !== '*' && ctx.path.startsWith('/api/')) {
      const origin = ctx.get('origin');
      if (!hostAllowed(ctx.get('host'), options.allowedHosts) || (origin && !hostAllowed(originHost(origin), options.allowedHosts))) {
        throw new GatewayError('forbidden', 'Host or Origin not allowed (see PORTICO_ALLOWED_HOSTS)');
      }
    }
    await next();
  });

  // The dashboard: one middleware that passes any path outside /dashboard straight on (dashboard/routes.ts).
  if (options.dashboard) {
    const allowed = options.allowedHosts;
    app.use(
      dashboardMiddleware({
        engine,
        logger,
        assets: options.dashboard.assets,
        hostAllowed: (host) => allowed === '*' || hostAllowed(host, allowed),
        publicUrl: options.publicUrl,
      }),
    );
  }

  const authenticate = async (ctx: Context, next: Next) => {
    ctx.state.principal = await engine.authenticate(bearerToken(ctx.get('authorization') || undefined));
    await next();
  };

  if (options.metrics && options.metricsOnMainPort) router.get('/metrics', authenticate, metricsRoute(options.metrics));

  router.get('/healthz', async (ctx) => {
    await engine.store.ping();
    ctx.body = { status: 'ok', version: options.version, integrations: engine.registry.list().map((i) => i.service) };
  });

  // MCP, Streamable HTTP, stateless: every POST carries one JSON-RPC message (or batch) and gets a JSON answer.
  router.post('/api/mcp', authenticate, async (ctx) => {
    const raw = await readBody(ctx.req, options.bodyLimitBytes);
    // The input caps, read from the text before it is parsed: 400,000 argument keys are refused in microseconds.
    const tooBig = mcpBodyProblem(raw);
    if (tooBig) {
      ctx.status = 400;
      ctx.body = { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: ${tooBig}` } };
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(raw.toString('utf8'));
    } catch {
      ctx.status = 400;
      ctx.body = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON' } };
      return;
    }
    const principal = ctx.state.principal;
    const serverOptions = { name: 'portico', version: options.version, mode: options.mcpTools ?? 'compact' } as const;
    const answer = await answerMcpPost(
      () => createMcpServer(engine, principal, serverOptions),
      {
        accept: ctx.get('accept') || undefined,
        contentType: ctx.get('content-type') || undefined,
        protocolVersion: ctx.get('mcp-protocol-version') || undefined,
        body: message,
      },
      mcpToolCaller(engine, principal, serverOptions),
      { timeoutMs: Math.max(MCP_POST_TIMEOUT_MS, (options.upstreamTimeoutMs ?? 0) + 10_000) },
    );
    if (answer.body === undefined) {
      ctx.body = null; // an explicit empty body: Koa would otherwise send the status text
      ctx.status = answer.status;
    } else {
      ctx.status = answer.status;
      ctx.body = answer.body;
    }
  });
  if (options.mcpLegacySse) mountLegacySse(router, options, authenticate);

  const mcpMethodNotAllowed = async (ctx: Context) => {
    ctx.set('allow', 'POST');
    throw new GatewayError('method_not_allowed', 'This MCP endpoint is stateless: send JSON-RPC messages with POST');
  };
  router.get('/api/mcp', mcpMethodNotAllowed);
  router.delete('/api/mcp', mcpMethodNotAllowed);

  // OAuth connect flow. Starting needs an admin key; the callback is reached by the browser coming back from the
  // provider and is authenticated by its single-use state instead.
  router.get('/api/connect/:service', authenticate, async (ctx) => {
    if (!ctx.state.principal.scopes.admin) throw new GatewayError('forbidden', 'Only an admin key may connect integrations');
    const service = ctx.params.service as string;
    ctx.state.service = service;
    const started = await engine.beginOAuth(ctx.state.principal.workspaceId, service, ctx.state.principal.keyId);
    ctx.status = 302;
    ctx.set('location', started.authorizeUrl);
    ctx.set('cache-control', 'no-store');
    ctx.body = { authorize_url: started.authorizeUrl, expires_at: started.expiresAt };
  });

  router.get('/api/connect/:service/callback', async (ctx) => {
    const service = ctx.params.service as string;
    ctx.state.service = service;
    ctx.set('cache-control', 'no-store');
    ctx.type = 'html';
    const query: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(ctx.querystring)) query[key] = value;
    try {
      const done = await engine.completeOAuth(service, query);
      const name = engine.registry.get(done.service)?.plugin.displayName ?? done.service;
      const back = options.dashboard ? `/dashboard/integrations/${done.service}` : undefined;
      ctx.body = resultPage(`${name} is connected`, `Portico can now call ${name} for this workspace. You can close this window.`, back);
    } catch (error) {
      const failure = toGatewayError(error);
      if (failure.code === 'internal_error') logger.error({ err: error, service }, 'OAuth callback failed');
      ctx.status = failure.status;
      ctx.body = resultPage('Not connected', failure.message, options.dashboard ? `/dashboard/integrations/${service}` : undefined);
    }
  });

  router.get('/api/v1/:service/openapi.json', authenticate, async (ctx) => {
    const service = ctx.params.service as string;
    ctx.state.service = service;
    const integration = await engine.authorize(ctx.state.principal, service, 'rest');
    // Only the operations of the key's tool set, when it has one.
    const allowed = await engine.allowedOperations(ctx.state.principal);
    // The address the gateway serves (the server sets it once listening), unless the operator named a public URL.
    ctx.body = buildOpenApiDocument(integration, {
      baseUrl: options.publicUrl ?? engine.publicUrl ?? ctx.origin,
      ...(allowed ? { include: (operation) => allowed.has(service, operation.name) } : {}),
    });
  });

  router.all('/api/v1/:service/{*rest}', authenticate, async (ctx) => {
    const service = ctx.params.service as string;
    ctx.state.service = service;
    const integration = await engine.authorize(ctx.state.principal, service, 'rest');
    const path = ctx.path.slice(`/api/v1/${service}`.length) || '/';
    let body: Record<string, unknown> | undefined;
    if (ctx.method !== 'GET') {
      const parsed = await readJson(ctx);
      if (parsed !== undefined && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
        throw new GatewayError('bad_request', 'The request body must be a JSON object of parameters');
      }
      body = parsed as Record<string, unknown> | undefined;
    }
    let invocation: RestInvocation;
    try {
      invocation = restInvocation(integration, {
        method: ctx.method as HttpMethod,
        path,
        query: queryValues(ctx.querystring),
        ...(body ? { body } : {}),
      });
    } catch (error) {
      const allowed = integration.match(ctx.method, path);
      if (!allowed.found && allowed.allowed.length > 0) ctx.set('allow', allowed.allowed.join(', '));
      throw error;
    }
    ctx.state.operation = invocation.operation.name;
    const socket = ctx.req.socket;
    const result = await engine.invoke({
      principal: ctx.state.principal,
      protocol: 'rest',
      service,
      operation: invocation.operation.name,
      params: invocation.params,
      stringParams: invocation.stringParams,
      // a call still waiting for an upstream slot when its client has gone is dropped (upstream/limits.ts)
      callerGone: () => socket.destroyed,
    });
    if (result.body === undefined) ctx.status = 204;
    else ctx.body = result.body;
  });

  const admin = new Router<GatewayState>({ prefix: '/api/admin' });
  admin.use(authenticate);
  mountAdmin(admin, engine, readJson);
  app.use(router.routes());
  app.use(admin.routes());
  return app;
}

/** Logged status of a request whose client went away before it was answered (nothing is sent). */
const CLIENT_CLOSED = 499;

const errorCode = (error: unknown) => (error as { code?: unknown } | null)?.code ?? (error as Error | null)?.message;

/** Turns any failure into the error body; returns true when the client had gone away (nothing to answer, not a fault). */
function sendError(ctx: Context, error: unknown, logger: Logger): boolean {
  const socket = ctx.req.socket as Context['req']['socket'] | null;
  if (isClientAbort(error) && (ctx.req.destroyed || !socket || socket.destroyed)) {
    logger.info({ requestId: ctx.state.requestId, code: errorCode(error) }, 'client closed the connection');
    return true;
  }
  const failure = toGatewayError(error);
  if (failure.code === 'internal_error') {
    logger.error({ requestId: ctx.state.requestId, err: error }, 'unhandled error');
  }
  if (ctx.respond === false && ctx.res.headersSent) return false;
  ctx.respond = true;
  ctx.status = failure.status;
  ctx.body = errorBody(failure);
  if (failure.code === 'unauthorized') ctx.set('www-authenticate', 'Bearer realm="portico"');
  if (failure.retryAfter !== undefined) ctx.set('retry-after', String(failure.retryAfter));
  return false;
}

/** `name`, `name:port` or `[v6]:port` → lowercase name without port. */
function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.split(':')[0] ?? '';
}

function originHost(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.includes(hostName(host));
}

export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The HTTP+SSE transport of protocol revision 2024-11-05, for clients that still need it: GET /api/mcp/sse opens an
 * event stream and names a message endpoint; POST /api/mcp/messages?sessionId=… carries the client's messages.
 * Sessions live in this process, so behind a load balancer the stream and its messages must reach the same instance
 * (sticky sessions); the Streamable HTTP endpoint has no such limit. A session is bound to the key that opened it.
 */
function mountLegacySse(
  router: Router<GatewayState>,
  options: AppOptions,
  authenticate: (ctx: Context, next: Next) => Promise<void>,
): void {
  const sessions = new Map<string, { transport: LegacySseTransport; keyId: string | null }>();
  router.get('/api/mcp/sse', authenticate, async (ctx) => {
    const transport = await openLegacySseTransport('/api/mcp/messages', ctx.res);
    const server = createMcpServer(options.engine, ctx.state.principal, {
      name: 'portico',
      version: options.version,
      mode: options.mcpTools ?? 'compact',
    });
    sessions.set(transport.sessionId, { transport, keyId: ctx.state.principal.keyId });
    transport.onclose = () => {
      sessions.delete(transport.sessionId);
    };
    ctx.res.on('close', () => {
      sessions.delete(transport.sessionId);
      void server.close();
    });
    ctx.respond = false;
    await server.connect(transport);
  });
  router.post('/api/mcp/messages', authenticate, async (ctx) => {
    const session = sessions.get(String(ctx.query.sessionId ?? ''));
    if (!session) throw new GatewayError('not_found', 'No such MCP session (it may have ended, or lives on another instance)');
    if (session.keyId !== ctx.state.principal.keyId) throw new GatewayError('forbidden', 'This MCP session belongs to another API key');
    const message = parseJson(await readBody(ctx.req, options.bodyLimitBytes), ctx.get('content-type') || undefined);
    ctx.respond = false;
    await session.transport.handlePostMessage(ctx.req, ctx.res, message);
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The page a person sees at the end of a connect flow: what happened, in one sentence, never a stack trace. */
function resultPage(title: string, message: string, back?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Portico</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}h1{font-size:1.4rem}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${
    back ? `<p><a href="${escapeHtml(back)}">Back to the dashboard</a></p>` : ''
  }</body></html>`;
}
