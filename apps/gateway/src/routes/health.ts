import type Router from '@koa/router';
import type { Engine } from '@portico/core';
import type { Context, Next } from 'koa';
import type { GatewayState } from '../http/state.js';
import { type GatewayMetrics, metricsRoute } from '../observability/metrics.js';
import { Readiness } from '../observability/readiness.js';

/** What the operator's probes need of the gateway's options. */
export interface HealthRouteOptions {
  engine: Engine;
  version: string;
  metrics?: GatewayMetrics;
  /** `/metrics` on the main port, for operator keys (no PORTICO_METRICS_PORT). */
  metricsOnMainPort?: boolean;
  /** What `/readyz` checks (absent: it checks the database only). */
  readiness?: Readiness;
}

/**
 * The operator's probes: `/healthz` (liveness: the process answers, whatever its dependencies do), `/readyz`
 * (readiness: 503 naming what fails), and `/metrics` when it has no port of its own.
 */
export function mountHealth(
  router: Router<GatewayState>,
  options: HealthRouteOptions,
  authenticate: (ctx: Context, next: Next) => Promise<void>,
): void {
  const { engine } = options;
  if (options.metrics && options.metricsOnMainPort) router.get('/metrics', authenticate, metricsRoute(options.metrics));

  const readiness = options.readiness ?? new Readiness(engine.store);
  router.get('/healthz', async (ctx) => {
    ctx.body = { status: 'ok', version: options.version, integrations: engine.registry.list().map((i) => i.service) };
  });

  router.get('/readyz', async (ctx) => {
    const { failing, message } = await readiness.report();
    ctx.set('cache-control', 'no-store');
    if (failing.length === 0) {
      ctx.body = { status: 'ready' };
      return;
    }
    ctx.status = 503;
    ctx.body = { error: true, code: 'not_ready', message, failing };
  });
}
