import type { RequestListener } from 'node:http';
import Router from '@koa/router';
import type { Engine, Logger, McpToolMode } from '@portico/core';
import Koa from 'koa';
import { authenticator } from '../http/auth.js';
import { jsonBody } from '../http/body.js';
import type { GatewayState } from '../http/state.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import type { Readiness } from '../observability/readiness.js';
import { mountAdmin } from '../routes/admin/index.js';
import { bearerChallenge, mountAuthorization } from '../routes/authorization.js';
import { mountConnect } from '../routes/connect.js';
import type { DashboardAssets } from '../routes/dashboard/assets.js';
import { dashboardMiddleware } from '../routes/dashboard/index.js';
import { mountHealth } from '../routes/health.js';
import { mountLegacySse } from '../routes/legacy-sse.js';
import { mountMcp } from '../routes/mcp.js';
import { mountRest } from '../routes/rest.js';
import { ClientAddress } from './client-address.js';
import { hostAllowed } from './hosts.js';
import { hostGuard, reportResponseError, requestLog } from './middleware.js';

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
}

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
  app.use(requestLog(logger, options.metrics, new ClientAddress(options.trustProxy ?? [])));
  app.use(hostGuard(options.allowedHosts, options.publicUrl));
  app.use(bearerChallenge(engine));

  // The dashboard: one middleware that passes any path outside /dashboard straight on (routes/dashboard/index.ts).
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

  const authenticate = authenticator(engine);
  const readJson = jsonBody(options.bodyLimitBytes);
  // Order matters where two routes match one request: openapi.json is served before the REST catch-all.
  const router = new Router<GatewayState>();
  mountHealth(router, options, authenticate);
  mountAuthorization(router, engine);
  mountMcp(router, options, authenticate);
  if (options.mcpLegacySse) mountLegacySse(router, options, authenticate);
  mountConnect(router, options, authenticate);
  mountRest(router, options, authenticate, readJson);

  const admin = new Router<GatewayState>({ prefix: '/api/admin' });
  admin.use(authenticate);
  mountAdmin(admin, engine, readJson);
  app.use(router.routes());
  app.use(admin.routes());
  return app;
}
