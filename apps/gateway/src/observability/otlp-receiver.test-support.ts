import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, attributes flattened to a record. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
  status: { code?: number };
  /** The resource's attributes (service.name…). */
  resource: Record<string, string | number | boolean>;
}

/** A loopback OTLP/HTTP receiver: takes POST /v1/traces, keeps each export's raw body and decodes the JSON ones. */
export interface OtlpReceiver {
  /** Base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  exports: Array<{ path: string; headers: IncomingHttpHeaders; body: Buffer }>;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

const flatten = (attributes: KeyValue[] | undefined) =>
  Object.fromEntries(
    (attributes ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? '')),
    ]),
  );

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: OtlpReceiver['exports'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      exports.push({ path: request.url ?? '', headers: request.headers, body });
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      if (String(request.headers['content-type']).startsWith('application/json')) {
        const decoded = JSON.parse(body.toString()) as {
          resourceSpans?: Array<{
            resource?: { attributes?: KeyValue[] };
            scopeSpans?: Array<{ spans?: Array<Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] }> }>;
          }>;
        };
        for (const resourceSpans of decoded.resourceSpans ?? []) {
          const resource = flatten(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                ...span,
                parentSpanId: span.parentSpanId ?? '',
                links: span.links ?? [],
                status: span.status ?? {},
                attributes: flatten(span.attributes),
                resource,
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    exports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
