import { expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';

it('turns tracing on only with an OTLP endpoint, and derives the traces URL from the base one', () => {
  expect(loadConfig({}).otlp).toBeUndefined();
  expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).otlp).toEqual({
    tracesUrl: 'http://collector:4318/v1/traces',
    protocol: 'http/protobuf',
    headers: {},
    serviceName: 'portico',
  });
  const traces = loadConfig({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example.com/custom/traces',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D,x-tenant=firm',
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-tenant=law',
    OTEL_SERVICE_NAME: 'portico-eu',
  }).otlp;
  expect(traces).toEqual({
    tracesUrl: 'https://otlp.example.com/custom/traces',
    protocol: 'http/json',
    headers: { 'x-api-key': 'abc==', 'x-tenant': 'law' },
    serviceName: 'portico-eu',
  });
  expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).otlp).toBeUndefined();
});

it('refuses gRPC, a non-http endpoint and malformed headers, without repeating a header value', () => {
  let error: unknown;
  try {
    loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization Bearer s3cr3t-value',
    });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as Error).message;
  expect(message).toContain('OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL');
  expect(message).toContain('grpc is not offered');
  expect(message).toContain('OTEL_EXPORTER_OTLP_HEADERS: each entry must be name=value');
  expect(message).not.toContain('s3cr3t-value');
});
