import type { Logger, Registry, UpstreamLimitOptions, UpstreamLimits } from '@portico/core';
import type { GatewayConfig } from '../config/load.js';

/**
 * The upstream limits per connection in force, per service: in sandbox mode the sandbox's own (an emulator is not
 * the application whose limits the plugin declares), else the plugin's; an operator's `PORTICO_<SERVICE>_UPSTREAM_LIMITS`
 * replaces the fields it names.
 */
export function upstreamLimitOptions(
  registry: Registry,
  config: GatewayConfig,
  logger: Logger,
  sandboxLimits: Readonly<Record<string, UpstreamLimits | undefined>> = {},
): Partial<UpstreamLimitOptions> {
  const services: Record<string, UpstreamLimits> = {};
  for (const integration of registry.list()) {
    const { service } = integration;
    const inSandbox = Object.hasOwn(sandboxLimits, service);
    const override = config.upstreamLimits[service];
    if (!inSandbox && !override) continue;
    const base = inSandbox ? (sandboxLimits[service] ?? {}) : (integration.plugin.upstream.limits ?? {});
    services[service] = { ...base, ...override };
  }
  const unknown = Object.keys(config.upstreamLimits).filter((service) => !registry.get(service));
  if (unknown.length > 0) logger.warn({ services: unknown }, 'upstream limits set for services that are not installed');
  return {
    maxConcurrency: config.upstreamMaxConcurrency,
    queueLength: config.upstreamQueueLength,
    queueWaitMs: config.upstreamQueueWaitMs,
    services,
  };
}
