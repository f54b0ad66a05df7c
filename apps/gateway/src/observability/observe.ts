import type { Logger } from '@portico/core';
import type { GatewayConfig } from '../config/load.js';
import type { Runtime } from '../runtime/runtime.js';
import { VERSION } from '../version.js';
import { type AuditRetention, startAuditRetention } from './audit-retention.js';
import { GatewayMetrics, type MetricsServer, startMetricsServer } from './metrics.js';

/** What `serve` runs besides the app: the metrics (and their port, when configured) and audit retention. */
export interface Observability {
  metrics: GatewayMetrics;
  /** `/metrics` is served on the main port (for admin keys): no PORTICO_METRICS_PORT. */
  onMainPort: boolean;
  /** Listens on the metrics port (if any) and starts retention; call once the gateway listens. */
  start(): Promise<void>;
  /** The metrics port's base URL, once started. */
  readonly metricsUrl: string | undefined;
  /** Stops retention (waiting for a run in progress), closes the metrics port and unsubscribes the metrics. */
  close(): Promise<void>;
}

export function observe(config: GatewayConfig, runtime: Runtime, logger: Logger): Observability {
  const metrics = new GatewayMetrics(runtime.registry, VERSION);
  const unsubscribe = runtime.engine.observe(metrics.observer);
  const unwatch = runtime.watchListen(metrics.watchListen(() => runtime.store.listening?.()));
  let server: MetricsServer | undefined;
  let retention: AuditRetention | undefined;
  return {
    metrics,
    onMainPort: config.metricsPort === undefined,
    get metricsUrl() {
      return server?.url;
    },
    async start() {
      if (config.metricsPort !== undefined) {
        server = await startMetricsServer(metrics, config.metricsHost, config.metricsPort);
        logger.info({ url: `${server.url}/metrics` }, 'metrics listening');
      }
      retention = startAuditRetention(runtime.store, logger, {
        days: config.auditRetentionDays,
        onPruned: (count) => metrics.auditPruned(count),
      });
    },
    async close() {
      await retention?.stop();
      await server?.close();
      unsubscribe();
      unwatch();
    },
  };
}
