import type { RequestListener } from 'node:http';
import Router from '@koa/router';
import type { Engine, Logger, McpToolMode } from '@portico/core';
import Koa from 'koa';
import type { MemberSignInOptions } from '../config/member-sign-in.js';
import { authenticator } from '../http/auth.js';
import { jsonBody } from '../http/body.js';
import type { GatewayState } from '../http/state.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import type { Readiness } from '../observability/readiness.js';
import { compilerLoaded } from '../routes/admin/guards.js';
import { mountAdmin } from '../routes/admin/index.js';
import { bearerChallenge, mountAuthorization } from '../routes/authorization.js';
import { mountConnect } from '../routes/connect.js';
import type { DashboardAssets } from '../routes/dashboard/assets.js';
import { dashboardMiddleware } from '../routes/dashboard/index.js';
import { MemberSignIn } from '../routes/dashboard/member-sign-in.js';
import { mountEvents } from '../routes/events.js';
import { mountHealth } from '../routes/health.js';
import { mountLegacySse } from '../routes/legacy-sse.js';
import { mountMcp } from '../routes/mcp.js';
import { mountRest } from '../routes/rest.js';
import { ClientAddress } from './client-address.js';
import { doorCors, listedDoorOrigin } from './cors.js';
import { hostAllowed } from './hosts.js';
import { hostCheck, reportResponseError, requestLog } from './middleware.js';

export interface AppOptions {
  engine: Engine;
  /** Reverse proxies whose X-Forwarded-For names the client (PORTICO_TRUST_PROXY). */
  trustProxy?: readonly string[];
  logger: Logger;
  bodyLimitBytes: number;
  /** Public base URL, for OpenAPI `servers`. */
  publicUrl?: string;
  mcpTools?: McpToolMode;
  /** Largest MCP tool result in bytes before it is shortened (default DEFAULT_MCP_RESULT_BUDGET). */
  mcpResultBudget?: number;
  /** Also serve the 2024-11-05 HTTP+SSE transport (sessions live in this process). */
  mcpLegacySse?: boolean;
  /** Host names accepted in Host/Origin headers of /api requests; '*' accepts any. */
  allowedHosts: readonly string[] | '*';
  /** Origins whose pages may call the MCP and REST doors (CORS, server/cors.ts); none by default. */
  corsOrigins?: readonly string[];
  version: string;
  /** The upstream budget: an MCP POST is answered at the latest 10 s after it (and never before MCP_POST_TIMEOUT_MS). */
  upstreamTimeoutMs?: number;
  /** Counts every answer; with `metricsOnMainPort`, also served at `/metrics` to admin keys. */
  metrics?: GatewayMetrics;
  metricsOnMainPort?: boolean;
  /** What `/readyz` checks; `startGateway` passes the one it turns to draining on shutdown. */
  readiness?: Readiness;
  /** Serve the dashboard at /dashboard with these browser assets (absent: no dashboard). */
  dashboard?: { assets: DashboardAssets };
  /** Members sign in to the dashboard with the firm's identity provider (PORTICO_OIDC_*). */
  memberSignIn?: MemberSignInOptions | undefined;
}

/**
 * Every route has one spelling: paths are matched case-sensitively and a trailing slash is part of the path. The
 * guards in front of the routers (the Host check, the doors' dispatch, the admin key check) compare paths exactly, so
 * a spelling they do not recognise must not reach a handler either: `/HEALTHZ`, `/healthz/` and `/API/ADMIN/keys`
 * answer 404 (docs/decisions.md, "One path, one guard").
 */
const ONE_SPELLING = { sensitive: true, strict: true } as const;

/**
 * What `createApp` returns: a request listener for `node:http`'s `createServer`. The app is built with Koa (a
 * dependency); its public type stays off Koa so that a TypeScript user needs no Koa types.
 */
export interface GatewayApp {
  callback(): RequestListener;
}

/**
 * The Koa app: the middleware every request passes, then the doors onto the engine (routes/). REST and MCP adapters
 * only translate their wire format to `invoke` and back; validation, credentials, retries and error mapping all happen
 * in core.
 */
export function createApp(options: AppOptions): GatewayApp {
  const { engine, logger } = options;
  const app = new Koa<GatewayState>();
  app.proxy = false;
  app.on('error', reportResponseError(logger));
  app.use(requestLog(logger, options.metrics, new ClientAddress(options.trustProxy ?? []), engine.outage));

  // The dashboard: one middleware for the paths under /dashboard (routes/dashboard/index.ts).
  const allowed = options.allowedHosts;
  const dashboard =
    options.dashboard &&
    dashboardMiddleware({
      engine,
      logger,
      assets: options.dashboard.assets,
      hostAllowed: (host) => allowed === '*' || hostAllowed(host, allowed),
      publicUrl: options.publicUrl,
      memberSignIn: options.memberSignIn && new MemberSignIn(options.memberSignIn, engine, logger),
    });

  const authenticate = authenticator(engine);
  const readJson = jsonBody(options.bodyLimitBytes);
  // The doors' routes in routers of their own, reached straight from the front middleware for their paths: a call is
  // matched against its door's few routes, not every route of the gateway. Order matters within the REST door:
  // openapi.json is served before the catch-all.
  const rest = new Router<GatewayState>(ONE_SPELLING);
  mountRest(rest, options, authenticate, readJson);
  const restRoutes = rest.routes();
  const mcp = new Router<GatewayState>(ONE_SPELLING);
  mountMcp(mcp, options, authenticate);
  if (options.mcpLegacySse) mountLegacySse(mcp, options, authenticate);
  const mcpRoutes = mcp.routes();
  const router = new Router<GatewayState>(ONE_SPELLING);
  mountHealth(router, options, authenticate);
  mountAuthorization(router, engine);
  mountConnect(router, options, authenticate);
  mountEvents(router, options);

  const admin = new Router<GatewayState>({ ...ONE_SPELLING, prefix: '/api/admin' });
  admin.use(authenticate);
  admin.use(compilerLoaded);
  mountAdmin(admin, engine, readJson);

  // The front middleware: the Host check and the doors' bearer challenge, called in turn rather than as middleware of
  // their own (each layer of Koa's chain costs a promise per request), then the part of the app the path belongs to.
  const corsOrigins = options.corsOrigins ?? [];
  const checkHost = hostCheck(options.allowedHosts, options.publicUrl, listedDoorOrigin(corsOrigins));
  const setChallenge = bearerChallenge(engine);
  const cors = doorCors(corsOrigins);
  app.use((ctx, next) => {
    const preflight = cors(ctx); // first: a refusal below is readable by the listed origin's page too
    checkHost(ctx);
    if (preflight) {
      ctx.status = 204;
      return;
    }
    setChallenge(ctx);
    const path = ctx.path;
    if (path.startsWith('/api/v1/')) return restRoutes(ctx as Parameters<typeof restRoutes>[0], next);
    if (path === '/api/mcp' || path.startsWith('/api/mcp/')) return mcpRoutes(ctx as Parameters<typeof mcpRoutes>[0], next);
    // the dashboard passes any path outside /dashboard on itself
    return dashboard ? dashboard(ctx, next) : next();
  });
  app.use(router.routes());
  app.use(admin.routes());
  return app;
}
