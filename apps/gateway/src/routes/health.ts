import type Router from '@koa/router';
import type { Engine } from '@portico/core';
import type { Context, Next } from 'koa';
import type { GatewayState } from '../http/state.js';
import { type GatewayMetrics, metricsRoute } from '../observability/metrics.js';

/** What the operator's probes need of the gateway's options. */
export interface HealthRouteOptions {
  engine: Engine;
  version: string;
  metrics?: GatewayMetrics;
  /** `/metrics` on the main port, for operator keys (no PORTICO_METRICS_PORT). */
  metricsOnMainPort?: boolean;
}

/** The operator's probes: `/healthz` (the database answers), and `/metrics` when it has no port of its own. */
export function mountHealth(
  router: Router<GatewayState>,
  options: HealthRouteOptions,
  authenticate: (ctx: Context, next: Next) => Promise<void>,
): void {
  const { engine } = options;
  if (options.metrics && options.metricsOnMainPort) router.get('/metrics', authenticate, metricsRoute(options.metrics));

  router.get('/healthz', async (ctx) => {
    await engine.store.ping();
    ctx.body = { status: 'ok', version: options.version, integrations: engine.registry.list().map((i) => i.service) };
  });
}
