import { trace } from '@opentelemetry/api';
import { detectTracing, type Logger } from '@portico/core';
import type { OtlpConfig } from '../config/otlp.js';
import { VERSION } from '../version.js';

export interface Tracing {
  /** Exports the spans still buffered, stops the exporter and unregisters the provider (spans are no longer recorded). */
  close(): Promise<void>;
}

/**
 * Registers the OpenTelemetry SDK as the global tracer provider, exporting spans over OTLP/HTTP in batches — only when
 * an endpoint is configured: without one this function is never called and none of the SDK's modules is loaded (they
 * are imported here, on demand), so start-up time and memory stay as they are. Core records the spans
 * (@portico/core's upstream/spans.ts) once it sees a registered provider.
 */
export async function startTracing(config: OtlpConfig, logger: Logger): Promise<Tracing> {
  const [{ BasicTracerProvider, BatchSpanProcessor }, { defaultResource, resourceFromAttributes }, { OTLPTraceExporter }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/resources'),
      config.protocol === 'http/json'
        ? import('@opentelemetry/exporter-trace-otlp-http')
        : import('@opentelemetry/exporter-trace-otlp-proto'),
    ]);
  const exporter = new OTLPTraceExporter({ url: config.tracesUrl, headers: config.headers });
  const provider = new BasicTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': VERSION })),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  if (!trace.setGlobalTracerProvider(provider)) {
    // Another provider was registered first (an embedding application's): that one receives the spans.
    logger.warn({}, 'an OpenTelemetry tracer provider was already registered: spans go to it, not to the configured OTLP endpoint');
    await provider.shutdown();
    detectTracing();
    return { close: async () => {} };
  }
  detectTracing();
  // The URL's origin and path only: no user:password, no query, and never the headers (a collector's key).
  const target = new URL(config.tracesUrl);
  logger.info(
    { endpoint: `${target.origin}${target.pathname}`, protocol: config.protocol, serviceName: config.serviceName },
    'exporting spans over OTLP',
  );
  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= (async () => {
        try {
          await provider.shutdown(); // flushes the batch first
        } catch (error) {
          logger.warn({ err: (error as Error).message }, 'could not export the last spans');
        }
        trace.disable();
        detectTracing();
      })();
      return closing;
    },
  };
}
