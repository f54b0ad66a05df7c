/**
 * Where spans are exported (observability/tracing.ts), from the standard OpenTelemetry variables
 * (https://opentelemetry.io/docs/specs/otel/protocol/exporter/): tracing is on only when an OTLP endpoint is set.
 */
export interface OtlpConfig {
  /** The traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
  tracesUrl: string;
  /** OTLP over HTTP, JSON or protobuf bodies (gRPC is not offered). */
  protocol: 'http/json' | 'http/protobuf';
  /** Headers sent with each export (a collector's key): never logged. */
  headers: Record<string, string>;
  /** `service.name` of the spans. */
  serviceName: string;
}

const PROTOCOLS = ['http/json', 'http/protobuf'] as const;

/** The export settings, or undefined when no endpoint is set (or OTEL_SDK_DISABLED=true); problems are pushed. */
export function otlpConfig(env: NodeJS.ProcessEnv, problems: string[]): OtlpConfig | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if ((!traces && !base) || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const name = traces ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const tracesUrl = traces || `${(base as string).replace(/\/+$/, '')}/v1/traces`;
  let parsed: URL | undefined;
  try {
    parsed = new URL(tracesUrl);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    // The value may carry credentials (user:password@): not repeated.
    problems.push(`${name} must be an http(s) URL`);
  }
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim();
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got "${protocol.slice(0, 40)}"; grpc is not offered)`);
  }
  const headers = {
    ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS', problems),
    ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', problems),
  };
  return {
    tracesUrl,
    protocol: protocol as OtlpConfig['protocol'],
    headers,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'portico',
  };
}

/** `key1=value1,key2=value2`, values percent-encoded (the W3C baggage format the specification names). */
function parseHeaders(value: string | undefined, name: string, problems: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    const key = at > 0 ? pair.slice(0, at).trim().toLowerCase() : '';
    let decoded: string | undefined;
    try {
      decoded = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      decoded = undefined;
    }
    // Never the value in the message: it is usually a key.
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(key) || decoded === undefined || /[\r\n]/.test(decoded)) {
      problems.push(`${name}: each entry must be name=value (percent-encoded), separated by commas`);
      continue;
    }
    headers[key] = decoded;
  }
  return headers;
}
